#include "timeline/tracetimelinepage.h"

#include "classify/classifier.h"
#include "model/tracestore.h"
#include "timeline/timelinedata.h"
#include "timeline/timelinepanel.h"

#include <QVBoxLayout>

namespace fusiondiff::ui {

TraceTimelinePage::TraceTimelinePage(QWidget* parent)
    : QWidget(parent)
    , m_timeline(new TimelinePanel(QStringLiteral("trace_timeline"), this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(m_timeline);
}

void TraceTimelinePage::setResults(const AnalysisResults& results)
{
    m_results = results;
    m_timeline->setData({}, {});
    m_pending = true;
    if (isVisible())
        build();
}

void TraceTimelinePage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_pending)
        build();
}

void TraceTimelinePage::build()
{
    m_pending = false;
    if (!m_results.stores[0] || !m_results.stores[1] || !m_results.classifier)
        return;
    m_timeline->setData(
        timelineOfTraces({ m_results.stores[0].get(), m_results.stores[1].get() }, *m_results.classifier, kMaxKernels),
        tr("Every kernel of each trace"));
}

} // namespace fusiondiff::ui
