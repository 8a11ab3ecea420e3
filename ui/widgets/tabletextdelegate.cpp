#include "widgets/tabletextdelegate.h"

#include "display/nameelision.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QStyle>

#include <algorithm>
#include <optional>

namespace fusiondiff::ui {

namespace {

// Fonts whose advances are kept; a table uses one or two (bold rows).
constexpr size_t kMaxFonts = 8;
// Outside a view, a middle-elided name is told apart from the names of this many rows each side.
constexpr int kNeighbourRows = 20;

} // namespace

void TableTextDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QWidget* widget = opt.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    if (opt.text.isEmpty() || opt.textElideMode != Qt::ElideRight || (opt.features & QStyleOptionViewItem::WrapText)
        || opt.direction != Qt::LeftToRight) {
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
        return;
    }

    // The cell without its text (background, selection, focus), then the text where the style
    // would put it, in the colour it would use.
    const QString text = opt.text;
    opt.text.clear();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
    const QRect textRect
        = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget).adjusted(margin, 0, -margin, 0);
    if (textRect.width() <= 0)
        return;
    QPalette::ColorGroup group = (opt.state & QStyle::State_Enabled) ? QPalette::Normal : QPalette::Disabled;
    if (group == QPalette::Normal && !(opt.state & QStyle::State_Active))
        group = QPalette::Inactive;
    painter->save();
    painter->setFont(opt.font);
    painter->setPen(
        opt.palette.color(group, (opt.state & QStyle::State_Selected) ? QPalette::HighlightedText : QPalette::Text));
    const QString shown = shownText(text, index, opt.font, textRect.width(), widget);
    painter->drawText(textRect, static_cast<int>(opt.displayAlignment) | Qt::TextSingleLine, shown);
    painter->restore();
}

QString TableTextDelegate::shownText(
    const QString& text, const QModelIndex& index, const QFont& font, int width, const QWidget* widget) const
{
    QString shown = fitted(text, font, width);
    if (shown.size() == text.size() || !m_middleElided.contains(index.column()))
        return shown;
    return elideDistinguishing(text, shownNeighbours(index, widget), QFontMetricsF(font), width);
}

QString TableTextDelegate::fitted(const QString& text, const QFont& font, int width) const
{
    // The width estimated as the sum of the characters' advances: the text unkerned, a few pixels
    // wider than drawn on a long name. Far past the cell (a kernel name), the text is cut there
    // (a character early at worst); near its width (a column sized to its widest text), it is
    // measured and elided as the style does.
    const Advances& advances = advancesFor(font);
    const qreal limit = width * 1.1 + 2 * advances.widest + 4;
    qreal sum = 0;
    qsizetype cut = -1; // the longest start that fits with the ellipsis after it
    std::optional<QFontMetricsF> metrics; // for the few characters beyond ASCII
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text[i].unicode();
        const qsizetype start = i;
        qreal advance = 0;
        if (c < advances.ascii.size()) {
            advance = advances.ascii[c];
        } else {
            if (!metrics)
                metrics.emplace(font);
            const bool pair = text[i].isHighSurrogate() && i + 1 < text.size();
            advance = metrics->horizontalAdvance(text.mid(i, pair ? 2 : 1));
            i += pair ? 1 : 0;
        }
        if (cut < 0 && sum + advance + advances.ellipsis > width)
            cut = start;
        sum += advance;
        if (sum > limit)
            return text.left(cut) + QChar(kEllipsis);
    }
    if (sum <= width - 1)
        return text;
    const QFontMetricsF exact(font);
    return exact.horizontalAdvance(text) <= width ? text : exact.elidedText(text, Qt::ElideRight, width);
}

const QStringList& TableTextDelegate::shownNeighbours(const QModelIndex& index, const QWidget* widget) const
{
    // The rows on screen (or, outside a view, those around the row), read once for all the cells
    // of a column painted together.
    int first = std::max(0, index.row() - kNeighbourRows);
    int last = std::min(index.model()->rowCount(index.parent()) - 1, index.row() + kNeighbourRows);
    if (const auto* view = qobject_cast<const QAbstractItemView*>(widget)) {
        const QModelIndex top = view->indexAt(QPoint(0, 0));
        const QModelIndex bottom = view->indexAt(QPoint(0, view->viewport()->height() - 1));
        first = top.isValid() ? top.row() : first;
        last = bottom.isValid() ? bottom.row() : last;
        first = std::min(first, index.row());
        last = std::max(last, index.row());
    }
    NeighbourCache& cache = m_neighbours;
    const bool same = cache.model == index.model() && cache.column == index.column() && cache.first == first
        && cache.last == last && cache.names.value(index.row() - first) == index.data().toString();
    if (!same) {
        cache.model = index.model();
        cache.column = index.column();
        cache.first = first;
        cache.last = last;
        cache.names.clear();
        for (int row = first; row <= last; ++row)
            cache.names.append(index.siblingAtRow(row).data().toString());
    }
    return cache.names;
}

const TableTextDelegate::Advances& TableTextDelegate::advancesFor(const QFont& font) const
{
    for (const Advances& advances : m_advances) {
        if (advances.font == font)
            return advances;
    }
    if (m_advances.size() >= kMaxFonts)
        m_advances.erase(m_advances.begin());
    Advances advances;
    advances.font = font;
    const QFontMetricsF metrics(font);
    for (size_t c = 0; c < advances.ascii.size(); ++c)
        advances.ascii[c] = metrics.horizontalAdvance(QChar(static_cast<char16_t>(c)));
    for (const qreal advance : advances.ascii)
        advances.widest = std::max(advances.widest, advance);
    advances.ellipsis = metrics.horizontalAdvance(QChar(kEllipsis));
    m_advances.push_back(advances);
    return m_advances.back();
}

} // namespace fusiondiff::ui
