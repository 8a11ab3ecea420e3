#include "widgets/adaptivesplitter.h"

#include <QResizeEvent>

#include <algorithm>

namespace fusiondiff::ui {

AdaptiveSplitter::AdaptiveSplitter(int sideBySideWidth, QWidget* parent)
    : QSplitter(Qt::Horizontal, parent)
    , m_sideBySideWidth(sideBySideWidth)
{ }

QSize AdaptiveSplitter::minimumSizeHint() const
{
    // As narrow as the widest panel (stacked); as tall as the panels need in the current orientation.
    int width = 0;
    int height = 0;
    for (int i = 0; i < count(); ++i) {
        const QWidget* panel = widget(i);
        if (panel->isHidden())
            continue;
        const QSize minimum = panel->minimumSizeHint().expandedTo(panel->minimumSize());
        width = std::max(width, minimum.width());
        height = orientation() == Qt::Vertical ? height + minimum.height() + handleWidth()
                                               : std::max(height, minimum.height());
    }
    return { width, height };
}

void AdaptiveSplitter::resizeEvent(QResizeEvent* event)
{
    // Side by side only where every panel gets at least its minimum width.
    int sideBySide = 0;
    for (int i = 0; i < count(); ++i) {
        const QWidget* panel = widget(i);
        if (!panel->isHidden())
            sideBySide += panel->minimumSizeHint().expandedTo(panel->minimumSize()).width() + handleWidth();
    }
    const Qt::Orientation wanted
        = event->size().width() >= std::max(m_sideBySideWidth, sideBySide) ? Qt::Horizontal : Qt::Vertical;
    if (orientation() != wanted) {
        setOrientation(wanted);
        updateGeometry();
        QSplitter::resizeEvent(event);
        emit orientationChanged(wanted);
        return;
    }
    QSplitter::resizeEvent(event);
}

} // namespace fusiondiff::ui
