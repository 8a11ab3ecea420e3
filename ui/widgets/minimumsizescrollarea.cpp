#include "widgets/minimumsizescrollarea.h"

#include <QEvent>

namespace fusiondiff::ui {

bool MinimumSizeScrollArea::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::Resize && widget())
        widget()->resize(viewport()->size().expandedTo(widget()->minimumSizeHint()));
    return QScrollArea::viewportEvent(event);
}

} // namespace fusiondiff::ui
