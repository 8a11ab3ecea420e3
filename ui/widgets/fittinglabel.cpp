#include "widgets/fittinglabel.h"

#include <QEvent>

namespace fusiondiff::ui {

FittingLabel::FittingLabel(QWidget* parent)
    : QLabel(parent)
{
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    setTextFormat(Qt::PlainText);
}

void FittingLabel::setTextFor(TextFor textFor, const QString& whole)
{
    m_textFor = std::move(textFor);
    setToolTip(whole);
    fit();
}

QSize FittingLabel::minimumSizeHint() const
{
    return { 0, QLabel::minimumSizeHint().height() };
}

QSize FittingLabel::sizeHint() const
{
    return { 0, QLabel::sizeHint().height() };
}

void FittingLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    fit();
}

void FittingLabel::changeEvent(QEvent* event)
{
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        fit();
}

void FittingLabel::fit()
{
    if (!m_textFor)
        return;
    const int width = contentsRect().width() - 2 * margin();
    setText(m_textFor(fontMetrics(), width));
}

} // namespace fusiondiff::ui
