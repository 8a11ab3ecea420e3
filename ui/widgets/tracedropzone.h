#pragma once

#include <QFrame>
#include <QStringList>

class QBoxLayout;
class QLabel;
class QMimeData;
class QPushButton;

namespace fusiondiff::ui {

class WrapLabel;

// One of the two trace slots, A or B: takes a dropped .json/.json.gz file (two dropped files
// fill both slots), shows the loaded trace (file, platform, GPU, kernels, GPU time) or its
// error inline (file, reason, byte offset), and the optional capture trace that goes with it.
class TraceDropZone : public QFrame
{
    Q_OBJECT
public:
    explicit TraceDropZone(int side, QWidget* parent = nullptr);

    int side() const { return m_side; }
    void showEmpty();
    void showLoading(const QString& path);
    void showLoaded(const QString& path, const QString& details);
    void showError(const QString& path, const QString& message);
    void showCancelled(const QString& path);
    // The optional graph-capture trace that goes with this trace: none (empty path), its file and
    // `details`, or its file and an error.
    void showCapture(const QString& path, const QString& details, const QString& error);

    QString fileText() const; // the whole file name (the label may elide it)
    QString shownFileText() const; // the file name as the label shows it, elided to its width
    // The zone of the other side: where this zone's file name must be elided, the part that tells
    // it from the other's ("mi300x" against "h100") stays visible.
    void setOtherZone(TraceDropZone* other);
    QString detailsText() const;
    QString errorText() const;
    QString captureText() const;

    // The local files among dropped URLs.
    static QStringList localFiles(const QMimeData* mime);

signals:
    void fileDropped(int side, const QString& path);
    void filesDropped(const QStringList& paths);
    // Three files or more: the rank traces of one multi-rank run, for this side.
    void runDropped(int side, const QStringList& paths);
    void openRequested(int side);
    void captureRequested(int side);
    void captureRemoved(int side);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragLeaveEvent(QDragLeaveEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void setHighlighted(bool highlighted);
    void showFileName(const QString& path);
    void elideFileName();
    void placeCaptureRow();
    // The capture label's text, with the file name as given (elided or whole).
    QString captureHtml(const QString& fileShown) const;

    int m_side;
    QString m_fileName; // the trace's file name, whole; empty while no trace is chosen
    QString m_shownFileName; // m_fileName as the label shows it
    TraceDropZone* m_otherZone = nullptr;
    WrapLabel* m_file;
    WrapLabel* m_details;
    WrapLabel* m_error;
    QPushButton* m_open;
    WrapLabel* m_capture;
    QPushButton* m_chooseCapture;
    QPushButton* m_removeCapture;
    QBoxLayout* m_captureRow;
    QString m_capturePath; // empty while none is chosen
    QString m_captureDetails;
    QString m_captureError;
};

} // namespace fusiondiff::ui
