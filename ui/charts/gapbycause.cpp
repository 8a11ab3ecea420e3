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

QString contributorsText(const TimeGapPart& part)
{
    QStringList names;
    for (const GapContributor& contributor : part.top) {
        names << tr("%1 (%2)").arg(QString::fromStdString(contributor.name),
            formatDuration(-contributor.deltaUs)); // B - A, as the chart shows it
    }
    return names.join(QStringLiteral(", "));
}

} // namespace

GapWaterfallData gapByCause(const FusionReport& report, std::vector<GapCause>* causes)
{
    const TimeGapBreakdown& gap = report.timeGap.kernelTime;
    GapWaterfallData data;
    data.nameA = sideAlias(report, 0);
    data.nameB = sideAlias(report, 1);
    data.totalUs[0] = gap.timeUs[0];
    data.totalUs[1] = gap.timeUs[1];
    if (causes)
        causes->clear();
    for (const TimeGapPart& part : gap.parts) {
        if (part.deltaUs == 0 || (part.cause == GapCause::Residual && std::abs(part.deltaUs) < kRoundingUs))
            continue;
        GapPart shown;
        shown.title = QString::fromStdString(part.label);
        shown.deltaUs = -part.deltaUs; // the core says A - B, the chart steps from A to B
        shown.cause = QString::fromStdString(part.title) + QStringLiteral("\n")
            + tr("A %1 in %2, B %3 in %4")
                  .arg(formatDuration(part.timeUs[0]), formatCountOf(part.kernels[0], tr("kernel"), tr("kernels")),
                      formatDuration(part.timeUs[1]), formatCountOf(part.kernels[1], tr("kernel"), tr("kernels")));
        const QString top = contributorsText(part);
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
    // The headline in bold: up to " in GPU ..." where the breakdown starts.
    const qsizetype cut = verdict.indexOf(QStringLiteral(" in GPU"));
    if (cut < 0)
        return verdict;
    return QStringLiteral("<b>") + verdict.left(cut) + QStringLiteral("</b>") + verdict.mid(cut);
}

} // namespace fusiondiff::ui
