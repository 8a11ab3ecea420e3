#include "widgets/minimumsizescrollarea.h"

#include <QEvent>

namespace fusiondiff::ui {

bool MinimumSizeScrollArea::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::Resize)
        fitWidget();
    return QScrollArea::viewportEvent(event);
}

bool MinimumSizeScrollArea::eventFilter(QObject* watched, QEvent* event)
{
    // QScrollArea filters its widget's events itself. A layout request is what the widget gets
    // when a minimum inside it changed (a trace zone's text wrapped onto another line).
    const bool handled = QScrollArea::eventFilter(watched, event);
    if (watched == widget() && event->type() == QEvent::LayoutRequest)
        fitWidget();
    return handled;
}

void MinimumSizeScrollArea::fitWidget()
{
    if (QWidget* content = widget())
        content->resize(viewport()->size().expandedTo(content->minimumSizeHint()));
}

} // namespace fusiondiff::ui
