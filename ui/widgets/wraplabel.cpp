#include "widgets/wraplabel.h"

#include <QEvent>

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

void WrapLabel::changeEvent(QEvent* event)
{
    m_measured = {};
    QLabel::changeEvent(event);
}

} // namespace fusiondiff::ui
