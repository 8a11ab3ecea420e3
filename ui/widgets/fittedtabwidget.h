#pragma once

#include <QHash>
#include <QList>
#include <QPointer>
#include <QStringList>
#include <QTabWidget>

class QToolButton;

namespace fusiondiff::ui {

// A tab widget whose titles are read whole, in one row, with neither scroll arrows nor titles cut
// to "…". Each tab has forms of its title from the longest to the shortest ("Fusion opportunities
// (3)", "Opportunities (3)", "Opportunities"); the tabs take the longest forms with which all of
// them fit the row. Where even the shortest do not (a larger font at 1024 pixels, twice the scale
// on a 1440-pixel screen), the tabs that go first (setOverflowOrder) move into a menu at the end of
// the row, "3 more" (as a browser's developer tools do), never the current one: choosing a tab
// there shows it in the row. A shortened tab's tooltip gives its whole title.
class FittedTabWidget : public QTabWidget
{
    Q_OBJECT
public:
    explicit FittedTabWidget(QWidget* parent = nullptr);

    // The forms of tab `index`'s title, longest first (a tab never given any keeps the title it was
    // added with), and what its tooltip says besides the title.
    void setTabTitles(int index, const QStringList& forms, const QString& description = {});
    // The pages whose tabs move into the menu first, in that order; the others follow, from the
    // last tab to the first.
    void setOverflowOrder(const QList<QWidget*>& pages);
    // The tabs in the menu, by index, in tab order.
    QList<int> overflowTabs() const;
    QToolButton* overflowButton() const { return m_overflow; }
    // The whole title of tab `index` (its longest form).
    QString wholeTabTitle(int index) const;

public slots:
    // Fits the titles to the row (done on every resize, show and change of tab).
    void fitTabs();

protected:
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void tabInserted(int index) override;

private:
    struct Titles
    {
        QStringList forms;
        QString description;
    };
    const Titles& titlesOf(int index) const;
    QString formOf(int index, int level) const;
    // Shows the titles at `level` and moves the tabs in `hidden` (indices) into the menu.
    void apply(int level, const QList<int>& hidden);
    int overflowButtonWidth(int tabs) const;

    QHash<const QWidget*, Titles> m_titles;
    QList<QPointer<QWidget>> m_overflowOrder;
    QToolButton* m_overflow;
    bool m_fitting = false;
};

} // namespace fusiondiff::ui
