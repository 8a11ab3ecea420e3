#include "charts/gapbytype.h"

#include "display/formatting.h"
#include "display/sidenames.h"
#include "model/fusionreport.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace fusiondiff::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("GapByType", text);
}

} // namespace

GapWaterfallData gapByKernelType(const FusionReport& report, int maxParts, QList<int>* typeRows)
{
    GapWaterfallData data;
    data.nameA = sideAlias(report, 0);
    data.nameB = sideAlias(report, 1);
    for (size_t side = 0; side < 2; ++side)
        data.totalUs[side] = report.traces[side].kernelTimeUs;
    // From the faster side to the slower, as the time gap's waterfall: a part's sign is what it
    // adds to the slower side's time, the verdict's.
    data.fromB = data.totalUs[0] > data.totalUs[1];
    const double sign = data.fromB ? -1.0 : 1.0;
    std::vector<int> rows;
    for (size_t row = 0; row < report.globalCounts.size(); ++row)
        rows.push_back(static_cast<int>(row));
    const auto delta = [&](int row) {
        const TypeCount& counts = report.globalCounts[static_cast<size_t>(row)];
        return sign * (counts.timeUs[1] - counts.timeUs[0]);
    };
    std::sort(rows.begin(), rows.end(), [&](int a, int b) { return std::abs(delta(a)) > std::abs(delta(b)); });
    const size_t own = rows.size() <= static_cast<size_t>(maxParts) ? rows.size() : static_cast<size_t>(maxParts - 1);
    if (typeRows)
        typeRows->clear();
    for (size_t i = 0; i < own; ++i) {
        const TypeCount& counts = report.globalCounts[static_cast<size_t>(rows[i])];
        GapPart part;
        part.title = QString::fromStdString(report.typeName(counts.type));
        part.deltaUs = delta(rows[i]);
        part.cause
            = tr("%1 in A (%2), %3 in B (%4)")
                  .arg(formatCountOf(counts.count[0], tr("kernel"), tr("kernels")), formatDuration(counts.timeUs[0]),
                      formatCount(counts.count[1]), formatDuration(counts.timeUs[1]));
        part.fusion = std::any_of(report.opportunities.begin(), report.opportunities.end(),
            [&](const FusionOpportunity& opportunity) { return opportunity.kernelType == counts.type; });
        if (part.fusion)
            part.cause += QStringLiteral("; ") + tr("a fusion opportunity of the reference analysis");
        data.parts.push_back(part);
        if (typeRows)
            typeRows->append(rows[i]);
    }
    if (own < rows.size()) {
        GapPart rest;
        rest.title = tr("%1 other types").arg(rows.size() - own);
        for (size_t i = own; i < rows.size(); ++i)
            rest.deltaUs += delta(rows[i]);
        rest.cause = tr("The types that move the gap least, together");
        data.parts.push_back(rest);
        if (typeRows)
            typeRows->append(-1);
    }
    return data;
}

QString gapVerdict(const FusionReport& report)
{
    const double a = report.traces[0].kernelTimeUs;
    const double b = report.traces[1].kernelTimeUs;
    if (a <= 0 || b <= 0)
        return tr("A: %1, B: %2 of GPU kernel time.").arg(formatDuration(a), formatDuration(b));
    const bool bSlower = b > a;
    const double gap = std::abs(b - a);
    const double share = 100.0 * gap / std::min(a, b);
    if (report.timeGap.kernelTime.noise.verdict == NoiseVerdict::WithinNoise && a != b)
        return tr("<b>A and B take the same GPU time within run-to-run noise</b> (%1 %2 longer, %3%; noise ±%4): "
                  "%5 against %6 of kernel time.")
            .arg(bSlower ? QStringLiteral("B") : QStringLiteral("A"), formatDuration(gap), formatFixed(share, 1),
                formatDuration(report.timeGap.kernelTime.noise.noiseUs), formatDuration(a), formatDuration(b));
    return tr("<b>%1 takes %2 (%3%) longer than %4 on the GPU</b>: %5 against %6 of kernel time.")
        .arg(bSlower ? QStringLiteral("B (%1)").arg(sideAlias(report, 1).toHtmlEscaped())
                     : QStringLiteral("A (%1)").arg(sideAlias(report, 0).toHtmlEscaped()),
            formatDuration(gap), formatFixed(share, 0), bSlower ? QStringLiteral("A") : QStringLiteral("B"),
            formatDuration(bSlower ? b : a), formatDuration(bSlower ? a : b));
}

} // namespace fusiondiff::ui
