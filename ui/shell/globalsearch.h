#pragma once

#include <QLineEdit>

#include <memory>

class QCompleter;
class QStandardItemModel;

namespace fusiondiff {
struct FusionReport;
}

namespace fusiondiff::ui {

// The window's one search box (Ctrl+F): finds a kernel, a kernel type or an operation in the
// report as you type (any part of the name, ignoring case; kernels by their shown and their whole
// name) and reports the chosen one as a tab and a row of that tab's table.
class GlobalSearch : public QLineEdit
{
    Q_OBJECT
public:
    enum Kind
    {
        OperationFinding,
        Operation,
        KernelType,
        Kernel,
    };
    struct Hit
    {
        Kind kind = Kernel;
        int row = -1; // in the report's vector (opFindings, opSummary, globalCounts, kernels)
        QString text; // as listed
    };

    explicit GlobalSearch(QWidget* parent = nullptr);

    void setReport(const std::shared_ptr<const FusionReport>& report);
    // What `text` finds, in list order (findings, operations, types, kernels), at most `limit`.
    QList<Hit> find(const QString& text, int limit = 50) const;
    // Reports the first hit of the current text (Enter without choosing from the list).
    void activateFirst();

signals:
    void hitActivated(const fusiondiff::ui::GlobalSearch::Hit& hit);

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    QStandardItemModel* m_items;
    QCompleter* m_completer;
};

} // namespace fusiondiff::ui
