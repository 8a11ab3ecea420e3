#include "pages/kernelspage.h"

#include "analysis/analysisresults.h"
#include "model/fusionreport.h"
#include "models/reportcolumnsmodel.h"
#include "pages/tablepage.h"
#include "widgets/wraplabel.h"

#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace fusiondiff::ui {

KernelsPage::KernelsPage(QWidget* parent)
    : QWidget(parent)
    , m_matchedModel(new ReportColumnsModel(ReportTableId::MatchedKernels, this))
    , m_matched(new TablePage(m_matchedModel, this))
    , m_noMatches(new WrapLabel(this))
    , m_matchedStack(new QStackedWidget(this))
{
    auto* kernels = new ReportColumnsModel(ReportTableId::Kernels, this);
    m_all = new TablePage(kernels, this);
    m_all->setTitle(tr("Every kernel of each trace"));
    m_all->setStretchColumnKeys({ QStringLiteral("name") }, 400);
    m_all->setMiddleElidedColumnKeys({ QStringLiteral("name") });

    m_matched->setTitle(tr("Matched across traces"));
    const QStringList names { QStringLiteral("trace1_kernel"), QStringLiteral("trace2_kernel") };
    m_matched->setStretchColumnKeys(names, 240);
    m_matched->setMiddleElidedColumnKeys(names);
    m_noMatches->setText(tr("<b>Kernels matched across traces</b><p>The comparison lined up no kernels of the "
                            "two traces: no operation or graph of one found its counterpart in the other (the "
                            "Summary's notes say how the operations line up).</p>"));
    m_noMatches->setAlignment(Qt::AlignCenter);
    m_noMatches->setTextFormat(Qt::RichText);
    m_matchedStack->addWidget(m_matched);
    m_matchedStack->addWidget(m_noMatches);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("kernels_splitter"));
    splitter->addWidget(m_matchedStack);
    splitter->addWidget(m_all);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(m_all, &TablePage::exportCsvRequested, this, &KernelsPage::exportCsvRequested);
    connect(m_matched, &TablePage::exportCsvRequested, this, &KernelsPage::exportCsvRequested);
}

void KernelsPage::setResults(const AnalysisResults& results)
{
    m_matched->setResults(results);
    m_all->setResults(results);
    const bool matched = results.report && !results.report->matchedKernels.empty();
    m_matchedStack->setCurrentWidget(matched ? static_cast<QWidget*>(m_matched) : m_noMatches);
}

QJsonObject KernelsPage::saveState() const
{
    return { { QStringLiteral("matched"), m_matched->saveState() }, { QStringLiteral("all"), m_all->saveState() } };
}

void KernelsPage::restoreState(const QJsonObject& state)
{
    m_matched->restoreState(state.value(QStringLiteral("matched")).toObject());
    m_all->restoreState(state.value(QStringLiteral("all")).toObject());
}

QString KernelsPage::csvName() const
{
    return m_all->csvName();
}

bool KernelsPage::matchedShown() const
{
    return m_matchedStack->currentWidget() == m_matched;
}

} // namespace fusiondiff::ui
