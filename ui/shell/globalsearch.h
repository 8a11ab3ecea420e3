#pragma once

#include <QLineEdit>

#include <memory>

class QCompleter;
class QLabel;
class QStandardItemModel;

namespace fusiondiff {
struct FusionReport;
}

namespace fusiondiff::ui {

// The window's one search box (Ctrl+F): finds a kernel, a kernel type or an operation in the
// report as you type (any part of the name, ignoring case; kernels by their shown and their whole
// name) and reports the chosen one as a tab and a row of that tab's table. Each match says what it
// is first ("Kernel, A only:  name"), the list is as wide as a name needs inside the window, and a
// text that matches nothing says so.
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
        QString text; // as listed: what it is, then its name
    };

    explicit GlobalSearch(QWidget* parent = nullptr);

    void setReport(const std::shared_ptr<const FusionReport>& report);
    // What `text` finds, in list order (findings, operations, types, kernels), at most `limit`.
    QList<Hit> find(const QString& text, int limit = 50) const;
    // Reports the first hit of the current text (Enter without choosing from the list).
    void activateFirst();
    // Where the list of matches opens, in this box's coordinates: as wide as a kernel name needs,
    // inside the window.
    QRect popupRect() const;
    QCompleter* completer() const { return m_completer; }
    // "Nothing matches ..." while it is shown under the box; empty otherwise.
    QString noMatchText() const;

signals:
    void hitActivated(const fusiondiff::ui::GlobalSearch::Hit& hit);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QStandardItemModel* m_items;
    QCompleter* m_completer;
    QLabel* m_noMatch; // a tooltip-like window under the box
};

} // namespace fusiondiff::ui
