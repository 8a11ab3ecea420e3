#include "pages/stepspage.h"

#include "analysis/analysisresults.h"
#include "charts/stepchart.h"
#include "model/fusionreport.h"
#include "models/reportcolumnsmodel.h"
#include "pages/tablepage.h"
#include "widgets/wraplabel.h"

#include <QSplitter>
#include <QVBoxLayout>

namespace fusiondiff::ui {

StepsPage::StepsPage(QWidget* parent)
    : QWidget(parent)
    , m_notes(new WrapLabel(this))
    , m_chart(new StepChart(this))
    , m_stepTimes(new TablePage(new ReportColumnsModel(ReportTableId::StepTimes, this), this))
    , m_hostTime(new TablePage(new ReportColumnsModel(ReportTableId::HostTime, this), this))
{
    m_stepTimes->setTitle(tr("Step time"));
    m_hostTime->setTitle(tr("Host code per step"));
    m_hostTime->setMaximumColumnWidth(420);

    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_notes);
    topLayout->addWidget(m_chart, 1);

    auto* tables = new QSplitter(Qt::Vertical, this);
    tables->setObjectName(QStringLiteral("steps_tables_splitter"));
    tables->addWidget(m_stepTimes);
    tables->addWidget(m_hostTime);
    tables->setChildrenCollapsible(false);
    // The step-time table holds a row per phase and one for all steps, the host table a row per host
    // code: the second needs the room.
    tables->setStretchFactor(0, 1);
    tables->setStretchFactor(1, 2);

    auto* page = new QSplitter(Qt::Vertical, this);
    page->setObjectName(QStringLiteral("steps_splitter"));
    page->addWidget(top);
    page->addWidget(tables);
    // The chart gets as much height as the tables: at 1440x900 its plot was 100 px against a step
    // table that held one row in two thirds of the rest.
    page->setStretchFactor(0, 1);
    page->setStretchFactor(1, 1);
    page->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(page);

    connect(m_stepTimes, &TablePage::exportCsvRequested, this, &StepsPage::exportCsvRequested);
    connect(m_hostTime, &TablePage::exportCsvRequested, this, &StepsPage::exportCsvRequested);
}

QString StepsPage::csvName() const
{
    return m_stepTimes->csvName();
}

QString StepsPage::notesText() const
{
    return m_notes->text();
}

QJsonObject StepsPage::saveState() const
{
    return { { QStringLiteral("step_times"), m_stepTimes->saveState() },
        { QStringLiteral("host_time"), m_hostTime->saveState() } };
}

void StepsPage::restoreState(const QJsonObject& state)
{
    m_stepTimes->restoreState(state.value(QStringLiteral("step_times")).toObject());
    m_hostTime->restoreState(state.value(QStringLiteral("host_time")).toObject());
}

void StepsPage::setResults(const AnalysisResults& results)
{
    m_stepTimes->setResults(results);
    m_hostTime->setResults(results);
    const FusionReport* report = results.report.get();
    m_chart->setSteps(report ? &report->stepTime : nullptr);
    QStringList lines;
    if (report && report->stepTime.sides[0].steps.empty() && report->stepTime.sides[1].steps.empty())
        lines << tr("These traces have no steps to compare.");
    if (report) {
        for (const std::string& note : report->stepTime.notes)
            lines << QString::fromStdString(note);
    }
    m_notes->setText(lines.join(QStringLiteral("\n")));
    m_notes->setVisible(!lines.isEmpty());
}

} // namespace fusiondiff::ui
