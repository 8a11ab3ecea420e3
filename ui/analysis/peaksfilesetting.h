#pragma once

#include <QString>
#include <QWidget>

class QLabel;
class QPushButton;

namespace fusiondiff::ui {

// The GPU peaks the efficiency table is measured against: the built-in datasheet figures, or a
// file of the same format that replaces them (fusiondiff-cli --peaks FILE). A file is read when
// chosen; a file that is not one keeps the previous peaks and says which file and why.
class PeaksFileSetting : public QWidget
{
    Q_OBJECT
public:
    explicit PeaksFileSetting(QWidget* parent = nullptr);

    // The file in use; empty: the built-in peaks.
    QString peaksFile() const { return m_file; }
    // Reads `path` (empty: the built-in peaks). On failure shows the error, keeps the file in use
    // and returns false. Emits peaksFileChanged only when `notify` and the file in use changed.
    bool setPeaksFile(const QString& path, bool notify = true);
    // The error shown ("GPU peaks file /x/peaks.json: ..."), empty if none is.
    QString error() const;

public slots:
    void choosePeaksFile();
    void useBuiltInPeaks() { setPeaksFile({}); }

signals:
    void peaksFileChanged(const QString& path);

private:
    void updateInfo();

    QString m_file;
    QLabel* m_info;
    QLabel* m_error;
    QPushButton* m_builtIn;
};

} // namespace fusiondiff::ui
