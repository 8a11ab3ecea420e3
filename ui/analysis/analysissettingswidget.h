#pragma once

#include "model/analysisoptions.h"

#include <QTimer>
#include <QWidget>

#include <memory>
#include <vector>

class QAbstractSpinBox;
class QComboBox;
class QLabel;

namespace fusiondiff {
class Classifier;
}

namespace fusiondiff::ui {

class PeaksFileSetting;

// The classifier (built-in "default" or "seed", or a rule file), the level at which kernels are
// attributed to operations, and every analysis parameter by its name. A rule file is checked when
// chosen and its error shown here; parameter edits are reported once editing pauses.
class AnalysisSettingsWidget : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kDebounceMs = 400;

    explicit AnalysisSettingsWidget(QWidget* parent = nullptr);
    ~AnalysisSettingsWidget() override;

    // "default", "seed" or the path of a rule file.
    QString classifierSpec() const { return m_spec; }
    // Loads the classifier; on failure shows the error, keeps the previous one and returns false.
    bool setClassifierSpec(const QString& spec);
    std::shared_ptr<const Classifier> classifier() const { return m_classifierRules; }
    QString classifierError() const;

    AnalysisOptions options() const;
    void setOptions(const AnalysisOptions& options);
    // Sets one parameter's box as a user would (for tests and restoring settings).
    void setParameter(const QString& name, double value);
    // Chooses the operation level as a user would: the analysis runs again at once.
    void setOpLevel(OpLevel level);
    // The GPU peaks file (options().peaksFile): a new one runs the analysis again.
    PeaksFileSetting* peaksSetting() const { return m_peaks; }

public slots:
    void resetToDefaults();
    void chooseRuleFile();

signals:
    void classifierChanged(std::shared_ptr<const fusiondiff::Classifier> classifier);
    void optionsChanged(const fusiondiff::AnalysisOptions& options);

private:
    void selectSpecInCombo();
    void onComboActivated(int index);

    QComboBox* m_classifierCombo;
    QComboBox* m_opLevelCombo;
    QLabel* m_classifierInfo;
    QLabel* m_classifierError;
    PeaksFileSetting* m_peaks;
    std::vector<QAbstractSpinBox*> m_boxes; // in analysisParameters() order
    QTimer m_debounce;
    QString m_spec;
    std::shared_ptr<const Classifier> m_classifierRules;
};

} // namespace fusiondiff::ui
