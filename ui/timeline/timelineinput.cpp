#include "timeline/timelineview.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QHelpEvent>
#include <QLineEdit>
#include <QMouseEvent>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>

#include <cmath>

// The pointer and the keys: tooltips, wheel zoom, drag to pan, click to select, key actions.

namespace fusiondiff::ui {

bool TimelineView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int side = laneAt(help->pos());
        const int kernel = kernelAt(side, help->pos());
        const int gap = kernel < 0 ? gapAt(side, help->pos()) : -1;
        const int notRecorded = kernel < 0 && gap < 0 ? notRecordedAt(side, help->pos()) : -1;
        if (kernel >= 0)
            QToolTip::showText(help->globalPos(), kernelToolTip(side, kernel), this);
        else if (gap >= 0)
            QToolTip::showText(help->globalPos(), gapToolTip(side, gap), this);
        else if (notRecorded >= 0)
            QToolTip::showText(help->globalPos(), notRecordedToolTip(side, notRecorded), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
    const QPoint delta = event->angleDelta();
    if (delta.x() != 0 && delta.y() == 0) {
        m_start -= delta.x() / 120.0 * 60 * m_usPerPixel;
        m_fitted = false;
        m_setRange.reset();
        clampRange();
        update();
    } else if (delta.y() != 0) {
        zoomAt(std::pow(1.0015, delta.y()), event->position().x());
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    m_dragging = false;
    m_pressPosition = event->position();
    m_pressStart = m_start;
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    if (!(event->buttons() & Qt::LeftButton))
        return;
    const double dx = event->position().x() - m_pressPosition.x();
    if (!m_dragging && std::abs(dx) < 3)
        return;
    m_dragging = true;
    setCursor(Qt::ClosedHandCursor);
    m_start = m_pressStart - dx * m_usPerPixel;
    m_fitted = false;
    m_setRange.reset();
    clampRange();
    update();
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    unsetCursor();
    if (m_dragging) {
        m_dragging = false;
        return;
    }
    const int side = laneAt(event->position());
    const int kernel = kernelAt(side, event->position());
    if (kernel < 0)
        return;
    setSelectedKernel(side, kernel);
    emit kernelClicked(side, kernel, m_data.lanes[static_cast<size_t>(side)].kernels[static_cast<size_t>(kernel)].row);
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent*)
{
    fitAll();
}

void TimelineView::panBy(double fraction)
{
    m_start += fraction * plotWidth() * m_usPerPixel;
    m_fitted = false;
    m_setRange.reset();
    clampRange();
    update();
}

void TimelineView::addKeyActions()
{
    // Actions, not a keyPressEvent: Help > Keyboard Shortcuts lists them from here.
    const auto add = [this](const QString& text, const QList<QKeySequence>& keys, auto slot) {
        auto* action = new QAction(text, this);
        action->setShortcuts(keys);
        action->setShortcutContext(Qt::WidgetShortcut);
        connect(action, &QAction::triggered, this, slot);
        addAction(action);
    };
    add(tr("Timeline: zoom in"), { QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal) },
        [this] { zoomAt(1.5, width() / 2.0); });
    add(tr("Timeline: zoom out"), { QKeySequence(Qt::Key_Minus) }, [this] { zoomAt(1 / 1.5, width() / 2.0); });
    add(tr("Timeline: show every kernel"), { QKeySequence(Qt::Key_0), QKeySequence(Qt::Key_Home) },
        [this] { fitAll(); });
    add(tr("Timeline: pan left"), { QKeySequence(Qt::Key_Left) }, [this] { panBy(-0.2); });
    add(tr("Timeline: pan right"), { QKeySequence(Qt::Key_Right) }, [this] { panBy(0.2); });
}

void TimelineView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    // Its keys work as soon as it is shown (its tab switched to), not after a click; after the
    // event, since a tab widget moves the focus into the page it shows once the page is shown.
    // It leaves the focus where the user types (a search box) or moves through a table.
    if (event->spontaneous())
        return;
    QTimer::singleShot(0, this, [this] {
        const QWidget* focus = QApplication::focusWidget();
        const bool userIsThere = focus && focus->isVisible() && focus != this
            && (qobject_cast<const QLineEdit*>(focus) || qobject_cast<const QAbstractItemView*>(focus->parentWidget())
                || qobject_cast<const QAbstractItemView*>(focus));
        if (isVisible() && !userIsThere)
            setFocus(Qt::OtherFocusReason);
    });
}

void TimelineView::focusInEvent(QFocusEvent* event)
{
    QWidget::focusInEvent(event);
    update();
}

void TimelineView::focusOutEvent(QFocusEvent* event)
{
    QWidget::focusOutEvent(event);
    update();
}

void TimelineView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (m_fitted)
        fitAll();
    else if (m_setRange)
        setVisibleRange(m_setRange->first, m_setRange->second);
}

} // namespace fusiondiff::ui
