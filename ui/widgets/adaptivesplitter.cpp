#include "widgets/adaptivesplitter.h"

#include <QResizeEvent>

#include <algorithm>

namespace fusiondiff::ui {

namespace {

int minimumWidthOf(const QWidget* panel)
{
    return panel->minimumSizeHint().expandedTo(panel->minimumSize()).width();
}

} // namespace

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

Qt::Orientation AdaptiveSplitter::orientationFor(int width) const
{
    // Side by side only where every panel gets at least its minimum width, or the width it wants.
    int sideBySide = 0;
    for (int i = 0; i < count(); ++i) {
        const QWidget* panel = widget(i);
        if (!panel->isHidden())
            sideBySide += std::max(minimumWidthOf(panel), wantedWidth(i)) + handleWidth();
    }
    return width >= std::max(m_sideBySideWidth, sideBySide) ? Qt::Horizontal : Qt::Vertical;
}

void AdaptiveSplitter::setWantedWidth(int index, int width)
{
    while (m_wanted.size() <= index)
        m_wanted.append(0);
    if (m_wanted[index] == width)
        return;
    m_wanted[index] = width;
    if (!isVisible())
        return; // decided at the first resize
    const Qt::Orientation wanted = orientationFor(this->width());
    if (orientation() != wanted) {
        setOrientation(wanted);
        updateGeometry();
        emit orientationChanged(wanted);
    }
    if (wanted == Qt::Horizontal)
        giveWantedWidths();
}

void AdaptiveSplitter::giveWantedWidths()
{
    QList<int> widths = sizes();
    bool changed = false;
    for (int i = 0; i < widths.size(); ++i) {
        int missing = wantedWidth(i) - widths[i];
        // Taken from the other panels, each down to its minimum (or what it wants itself).
        for (int other = 0; other < widths.size() && missing > 0; ++other) {
            if (other == i || widget(other)->isHidden())
                continue;
            const int floor = std::max(minimumWidthOf(widget(other)), wantedWidth(other));
            const int given = std::clamp(widths[other] - floor, 0, missing);
            widths[other] -= given;
            widths[i] += given;
            missing -= given;
            changed = changed || given > 0;
        }
    }
    if (changed)
        setSizes(widths);
}

void AdaptiveSplitter::resizeEvent(QResizeEvent* event)
{
    const Qt::Orientation wanted = orientationFor(event->size().width());
    const bool turned = orientation() != wanted;
    if (turned) {
        setOrientation(wanted);
        updateGeometry();
    }
    QSplitter::resizeEvent(event);
    if (wanted == Qt::Horizontal)
        giveWantedWidths();
    if (turned)
        emit orientationChanged(wanted);
}

} // namespace fusiondiff::ui
