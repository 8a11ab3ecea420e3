#include "pages/drilldownstate.h"

#include "pages/resultspage.h"
#include "timeline/timelinedata.h"
#include "timeline/timelineview.h"

#include <QEvent>
#include <QJsonArray>
#include <QSplitter>

#include <algorithm>
#include <functional>

namespace fusiondiff::ui {

namespace {

const QString kStartKey = QStringLiteral("start_us");
const QString kEndKey = QStringLiteral("end_us");
const QString kWaitingRange = QStringLiteral("fusiondiff_waitingLanesRange");
const QString kWaitingSizes = QStringLiteral("fusiondiff_waitingSplitterSizes");

void applyRange(TimelineView* view, double start, double end)
{
    if (start <= 0 && end >= view->timeline().end() * (1 - 1e-9))
        view->fitAll();
    else
        view->setVisibleRange(start, end);
}

// Runs `apply` on `widget` when it is next laid out on screen (a hidden widget's size is not the
// one it will have), then goes; one waiting under the same name gives way to it.
class WhenLaidOut : public QObject
{
public:
    WhenLaidOut(QWidget* widget, const QString& name, std::function<void()> apply)
        : QObject(widget)
        , m_apply(std::move(apply))
    {
        for (QObject* waiting : widget->findChildren<QObject*>(name, Qt::FindDirectChildrenOnly)) {
            widget->removeEventFilter(waiting);
            delete waiting;
        }
        setObjectName(name);
        widget->installEventFilter(this);
    }

    bool eventFilter(QObject* watched, QEvent* event) override
    {
        auto* widget = static_cast<QWidget*>(watched);
        if (event->type() == QEvent::Resize && widget->isVisible() && !widget->size().isEmpty()) {
            widget->removeEventFilter(this);
            m_apply();
            deleteLater();
        }
        return false;
    }

private:
    std::function<void()> m_apply;
};

// At once where `widget` is on screen, else when it is laid out there.
void whenLaidOut(QWidget* widget, const QString& name, std::function<void()> apply)
{
    if (widget->isVisible() && !widget->size().isEmpty())
        apply();
    else
        new WhenLaidOut(widget, name, std::move(apply));
}

} // namespace

QJsonObject lanesState(const TimelineView* view)
{
    return { { kStartKey, view->visibleStart() }, { kEndKey, view->visibleEnd() } };
}

void restoreLanesState(TimelineView* view, const QJsonObject& state)
{
    if (!state.value(kStartKey).isDouble() || !state.value(kEndKey).isDouble())
        return;
    const double start = state.value(kStartKey).toDouble();
    const double end = state.value(kEndKey).toDouble();
    whenLaidOut(view, kWaitingRange, [view, start, end] { applyRange(view, start, end); });
}

QJsonObject splittersState(const QWidget* page)
{
    QJsonObject state;
    for (const QSplitter* splitter : page->findChildren<QSplitter*>()) {
        if (splitter->objectName().isEmpty() || !splitter->property(kUserSizedProperty).toBool())
            continue;
        QJsonArray sizes;
        for (const int size : splitter->sizes())
            sizes.append(size);
        state.insert(splitter->objectName(), sizes);
    }
    return state;
}

void restoreSplittersState(QWidget* page, const QJsonObject& state)
{
    for (QSplitter* splitter : page->findChildren<QSplitter*>()) {
        const QJsonArray sizes = state.value(splitter->objectName()).toArray();
        if (splitter->objectName().isEmpty() || sizes.size() != splitter->count())
            continue;
        QList<int> values;
        for (const auto& size : sizes)
            values.append(std::max(0, size.toInt()));
        splitter->setProperty(kUserSizedProperty, true);
        whenLaidOut(splitter, kWaitingSizes, [splitter, values] { splitter->setSizes(values); });
    }
}

} // namespace fusiondiff::ui
