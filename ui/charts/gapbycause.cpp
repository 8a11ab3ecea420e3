#include "charts/gapbycause.h"

#include "display/formatting.h"
#include "display/sidenames.h"
#include "model/fusionreport.h"

#include <QCoreApplication>

#include <cmath>

namespace fusiondiff::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("GapByCause", text);
}

// A residual below this is the floating-point remainder of the identity, not a part to show.
constexpr double kRoundingUs = 0.01;

QString contributorsText(const TimeGapPart& part, double sign)
{
    QStringList names;
    for (const GapContributor& contributor : part.top) {
        names << tr("%1 (%2)").arg(QString::fromStdString(contributor.name),
            formatDuration(contributor.deltaUs * sign)); // towards the slower side, as the chart shows it
    }
    return names.join(QStringLiteral(", "));
}

} // namespace

bool isIdleCause(GapCause cause)
{
    return cause == GapCause::IdleHost || cause == GapCause::IdleSync || cause == GapCause::IdleLaunch
        || cause == GapCause::IdleOther;
}

GapWaterfallData gapByCause(const FusionReport& report, const TimeGapBreakdown& gap, std::vector<GapCause>* causes)
{
    GapWaterfallData data;
    data.nameA = sideAlias(report, 0);
    data.nameB = sideAlias(report, 1);
    data.totalUs[0] = gap.timeUs[0];
    data.totalUs[1] = gap.timeUs[1];
    // From the faster side to the slower: the core's A - B when A is slower, B - A otherwise.
    data.fromB = gap.deltaUs > 0;
    const double sign = data.fromB ? 1.0 : -1.0;
    if (gap.basis == TimeBasis::StepTime)
        data.timeName = tr("step time");
    // The band only where the noise is known (not "cannot tell").
    if (gap.noise.verdict != NoiseVerdict::CannotTell)
        data.noiseUs = gap.noise.noiseUs;
    if (causes)
        causes->clear();
    for (const TimeGapPart& part : gap.parts) {
        if (part.deltaUs == 0 || (part.cause == GapCause::Residual && std::abs(part.deltaUs) < kRoundingUs))
            continue;
        GapPart shown;
        shown.title = QString::fromStdString(part.label);
        shown.deltaUs = part.deltaUs * sign;
        shown.cause = QString::fromStdString(part.title) + QStringLiteral("\n")
            + (isIdleCause(part.cause)
                    ? tr("GPU idle: A %1, B %2").arg(formatDuration(part.timeUs[0]), formatDuration(part.timeUs[1]))
                    : part.cause == GapCause::NotRecorded
                    ? tr("GPU time without kernel records: A %1, B %2")
                          .arg(formatDuration(part.timeUs[0]), formatDuration(part.timeUs[1]))
                    : tr("A %1 in %2, B %3 in %4")
                          .arg(formatDuration(part.timeUs[0]),
                              formatCountOf(part.kernels[0], tr("kernel"), tr("kernels")),
                              formatDuration(part.timeUs[1]),
                              formatCountOf(part.kernels[1], tr("kernel"), tr("kernels"))));
        const QString top = contributorsText(part, sign);
        if (!top.isEmpty())
            shown.cause += QStringLiteral("\n") + tr("Largest: %1").arg(top);
        shown.fusion = part.cause == GapCause::Fusion;
        data.parts.push_back(shown);
        if (causes)
            causes->push_back(part.cause);
    }
    return data;
}

QString gapCauseVerdict(const FusionReport& report)
{
    QString verdict = QString::fromStdString(report.timeGap.verdict).toHtmlEscaped();
    // The headline in bold: up to " in step time" or " in GPU ..." where the breakdown starts.
    qsizetype cut = verdict.indexOf(QStringLiteral(" in GPU"));
    if (const qsizetype step = verdict.indexOf(QStringLiteral(" in step time")); step >= 0 && (cut < 0 || step < cut))
        cut = step;
    // A gap that noise could make, or that cannot be told from it, says so before its size: the
    // bold part is what is read alone.
    const TimeGap& gap = report.timeGap;
    const TimeGapBreakdown& headline = gap.onStepTime && gap.stepTime ? *gap.stepTime : gap.kernelTime;
    const QString first = headline.noise.verdict == NoiseVerdict::CannotTell
        ? tr("Cannot tell from run-to-run noise:") + QStringLiteral(" ")
        : headline.noise.verdict == NoiseVerdict::WithinNoise ? tr("Within run-to-run noise:") + QStringLiteral(" ")
                                                              : QString();
    if (cut < 0)
        return first.isEmpty() ? verdict : QStringLiteral("<b>") + first + QStringLiteral("</b>") + verdict;
    return QStringLiteral("<b>") + first + verdict.left(cut) + QStringLiteral("</b>") + verdict.mid(cut);
}

} // namespace fusiondiff::ui
