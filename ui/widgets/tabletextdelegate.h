#pragma once

#include <QFont>
#include <QList>
#include <QStringList>
#include <QStyledItemDelegate>

#include <array>
#include <vector>

namespace fusiondiff::ui {

// The tables' item delegate: paints a cell as QStyledItemDelegate does, except its text, which it
// fits to the cell itself and draws in one pass. The style lays out a cell's text three or four
// times per paint (its size, the elision, the drawing); that made a table of kernel names (up to
// 240 characters each) take 10-20 ms to paint, and a table of numbers 20-40 us a cell. Here the
// text is measured with the cached advances of its characters (exactly only when it nearly fills
// its cell) and shaped once, to be drawn. Sizes (sizeHint) are the style's.
class TableTextDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    // `text` as shown in `width` pixels of `font`: whole if it fits, else its start and "..." (one
    // character, U+2026), as the style elides it.
    QString fitted(const QString& text, const QFont& font, int width) const;
    // `text`, `index`'s, as a cell `width` pixels wide in `widget` (a view) shows it: fitted, or in
    // a name column, elided where it is like the names on screen beside it.
    QString shownText(
        const QString& text, const QModelIndex& index, const QFont& font, int width, const QWidget* widget) const;

    // Columns of names whose text is elided where it is the same as the names on screen beside it
    // (elideDistinguishing): kernel names that differ in the middle of a long common start and end
    // stay different.
    void setMiddleElidedColumns(const QList<int>& columns) { m_middleElided = columns; }

private:
    struct Advances
    {
        QFont font;
        std::array<qreal, 128> ascii {}; // the advance of each ASCII character
        qreal widest = 0; // of those
        qreal ellipsis = 0;
    };
    const Advances& advancesFor(const QFont& font) const;
    // The texts of `index`'s column in the rows on screen.
    const QStringList& shownNeighbours(const QModelIndex& index, const QWidget* widget) const;

    struct NeighbourCache
    {
        const QAbstractItemModel* model = nullptr;
        int column = -1;
        int first = -1;
        int last = -1;
        QStringList names;
    };
    mutable NeighbourCache m_neighbours;

    mutable std::vector<Advances> m_advances; // per font seen, a few at most
    QList<int> m_middleElided;
};

} // namespace fusiondiff::ui
