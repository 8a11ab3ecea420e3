#include "widgets/wraplabel.h"

#include <QEvent>
#include <QResizeEvent>

#include <algorithm>

namespace fusiondiff::ui {

WrapLabel::WrapLabel(QWidget* parent)
    : QLabel(parent)
{
    setWordWrap(true);
}

WrapLabel::Measured WrapLabel::current() const
{
    return { -1, text(), textFormat(), alignment(), margin(), indent() };
}

int WrapLabel::heightForWidth(int width) const
{
    Measured now = current();
    now.width = width;
    if (!(now == m_measured)) {
        m_height = QLabel::heightForWidth(width);
        m_measured = now;
    }
    return m_height;
}

void WrapLabel::setMinimumHeightFollowsText(bool follows)
{
    m_followsText = follows;
    updateGeometry();
}

QSize WrapLabel::minimumSizeHint() const
{
    QSize hint = QLabel::minimumSizeHint();
    // A hidden label's width is stale (the page it is on was laid out at another size, or never).
    if (m_followsText && isVisible() && !text().isEmpty())
        hint.setHeight(std::max(hint.height(), heightForWidth(width())));
    return hint;
}

void WrapLabel::changeEvent(QEvent* event)
{
    m_measured = {};
    QLabel::changeEvent(event);
}

void WrapLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    // A new width is a new minimum height: the layouts above ask again.
    if (m_followsText && event->size().width() != event->oldSize().width())
        updateGeometry();
}

void WrapLabel::showEvent(QShowEvent* event)
{
    QLabel::showEvent(event);
    if (m_followsText)
        updateGeometry();
}

void WrapLabel::hideEvent(QHideEvent* event)
{
    QLabel::hideEvent(event);
    if (m_followsText)
        updateGeometry();
}

} // namespace fusiondiff::ui
