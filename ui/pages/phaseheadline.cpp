#include "pages/phaseheadline.h"

#include "display/formatting.h"
#include "display/sidenames.h"
#include "model/fusionreport.h"
#include "ops/timegap/significance.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace fusiondiff::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("PhaseHeadline", text);
}

// The phase's summed gap against run-to-run noise, by the verdict's rule (ops/timegap/significance.h):
// the steps' spread where both sides have enough steps, else only the floor, below which the gap
// is noise and above which it cannot be told.
void judgePhase(const StepTimeRow& row, PhaseHeadline& phase)
{
    const double deltaUs = row.totalUs[0] - row.totalUs[1];
    const bool enough = row.steps[0] >= kMinStepsForSpread && row.steps[1] >= kMinStepsForSpread;
    double variance = 0;
    for (size_t side = 0; side < 2; ++side) {
        const double sigma = robustSigma(row.timeUs[side]);
        variance += double(row.steps[side]) * sigma * sigma;
    }
    const GapNoise noise = judgeDelta(
        deltaUs, row.totalUs, enough ? kNoiseStandardErrors * std::sqrt(variance) : 0.0, enough ? "steps" : "floor");
    if (!noise.significant()) {
        phase.noise = NoiseVerdict::WithinNoise;
        phase.noiseText = tr("within run-to-run noise (%1)").arg(formatDuration(noise.noiseUs));
    } else if (!enough) {
        phase.noise = NoiseVerdict::CannotTell;
        phase.noiseText = tr("cannot tell from noise: under %1 steps a side").arg(kMinStepsForSpread);
    } else {
        phase.noise = NoiseVerdict::Significant;
        phase.noiseText = tr("beyond run-to-run noise (%1)").arg(formatDuration(noise.noiseUs));
    }
}

} // namespace

std::vector<PhaseHeadline> phaseHeadlines(const FusionReport& report)
{
    std::vector<PhaseHeadline> phases;
    // The rows of the compared phases come first, one each; "all steps" follows them.
    const StepTimeReport& steps = report.stepTime;
    for (size_t i = 0; i < std::min(steps.rows.size(), steps.phases.size()); ++i) {
        const StepTimeRow& row = steps.rows[i];
        PhaseHeadline phase;
        phase.phase = QString::fromStdString(row.phase);
        phase.stepsA = row.steps[0];
        phase.stepsB = row.steps[1];
        phase.medianA = row.timeUs[0].median;
        phase.medianB = row.timeUs[1].median;
        phase.deltaUs = phase.medianB - phase.medianA;
        judgePhase(row, phase);
        phases.push_back(std::move(phase));
    }
    if (phases.size() < 2)
        phases.clear();
    return phases;
}

QString phaseHeadlineHtml(const FusionReport& report)
{
    const std::vector<PhaseHeadline> phases = phaseHeadlines(report);
    if (phases.empty())
        return {};
    // A table row; every cell after the first has room on its left, numbers aligned right.
    const auto row = [](const char* tag, const QStringList& cells, const QList<bool>& right) -> QString {
        QString html = QStringLiteral("<tr>");
        for (qsizetype i = 0; i < cells.size(); ++i)
            html
                += QStringLiteral("<%1 align=\"%2\" style=\"padding-left:%3px\">%4</%1>")
                       .arg(QString::fromLatin1(tag), right.value(i) ? QStringLiteral("right") : QStringLiteral("left"))
                       .arg(i == 0 ? 0 : 14)
                       .arg(cells[i]);
        return html + QStringLiteral("</tr>");
    };
    const QList<bool> right { false, true, true, true, false, false };
    QString html = QStringLiteral("<b>") + tr("Per phase")
        + QStringLiteral("</b> <span>(%1)</span>").arg(tr("a step's median time; the verdict adds the phases up"))
        + QStringLiteral("<table cellspacing=\"0\" cellpadding=\"1\">")
        + row("th",
            { tr("phase"), tr("steps A / B"), QStringLiteral("A (%1)").arg(sideAlias(report, 0).toHtmlEscaped()),
                QStringLiteral("B (%1)").arg(sideAlias(report, 1).toHtmlEscaped()), tr("gap a step"), tr("noise") },
            right);
    for (const PhaseHeadline& phase : phases) {
        const double faster = std::min(phase.medianA, phase.medianB);
        const QString slower = phase.deltaUs > 0 ? QStringLiteral("B") : QStringLiteral("A");
        QString gap = phase.deltaUs == 0 ? tr("the same")
            : faster > 0                 ? tr("%1 slower by %2 (%3%)")
                               .arg(slower, formatDuration(std::fabs(phase.deltaUs)),
                                   formatFixed(100.0 * std::fabs(phase.deltaUs) / faster, 0))
                         : tr("%1 slower by %2").arg(slower, formatDuration(std::fabs(phase.deltaUs)));
        if (phase.noise == NoiseVerdict::Significant)
            gap = QStringLiteral("<b>%1</b>").arg(gap);
        html += row("td",
            { phase.phase.toHtmlEscaped(),
                QStringLiteral("%1 / %2").arg(formatCount(phase.stepsA), formatCount(phase.stepsB)),
                formatDuration(phase.medianA), formatDuration(phase.medianB), gap, phase.noiseText.toHtmlEscaped() },
            right);
    }
    return html + QStringLiteral("</table>");
}

} // namespace fusiondiff::ui
