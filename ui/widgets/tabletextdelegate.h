#pragma once

#include <QFont>
#include <QList>
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

    // Columns whose text is elided in the middle (kernel names: their start and their end, the
    // kernel's own name, both matter).
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

    mutable std::vector<Advances> m_advances; // per font seen, a few at most
    QList<int> m_middleElided;
};

} // namespace fusiondiff::ui
