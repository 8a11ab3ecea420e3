#include "pages/findingdetails.h"

#include "display/colors.h"
#include "display/formatting.h"
#include "display/sidenames.h"
#include "model/fusionreport.h"

#include <QCoreApplication>

namespace fusiondiff::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("fusiondiff::ui::FindingDetails", text);
}

QString letter(int side)
{
    return side == 0 ? QStringLiteral("A") : QStringLiteral("B");
}

QString escaped(const std::string& text)
{
    return toQString(text).toHtmlEscaped();
}

// "A: AMD 169 us per call (IQR 166–174 us), 4.0 ms in all, 2 kernels per call"
QString timeItem(const FusionReport& report, const OpFinding& finding, int side)
{
    const Spread& time = finding.timeUs[static_cast<size_t>(side)];
    return QStringLiteral("<li>")
        + colorChip(sideBackground(side),
            letter(side) + QStringLiteral(": ") + toQString(report.sideNames[static_cast<size_t>(side)]))
        + QStringLiteral(" ")
        + tr("<b>%1</b> (IQR %2 to %3), %4 in all, %5")
              .arg(formatDuration(time.median), formatDuration(time.q1), formatDuration(time.q3),
                  formatDuration(time.total),
                  formatCountOf(finding.kernels[static_cast<size_t>(side)].size(), tr("kernel"), tr("kernels")))
        + QStringLiteral("</li>");
}

} // namespace

QString findingDetailsHtml(const FusionReport& report, const OpFinding& finding)
{
    QString html = QStringLiteral("<h3 style=\"margin-bottom:2px\">") + escaped(finding.op) + QStringLiteral("</h3>");
    html += QStringLiteral("<p style=\"margin-top:2px\">") + escaped(finding.summary) + QStringLiteral("</p>");
    if (!finding.layers.empty()) {
        html += QStringLiteral("<p><b>") + tr("In layers") + QStringLiteral("</b> ") + escaped(finding.layers)
            + QStringLiteral(" (<a href=\"layers:\">") + tr("show them on the Layers tab")
            + QStringLiteral("</a>)</p>");
    }

    html += QStringLiteral("<p style=\"margin-bottom:0\"><b>") + tr("Call stack") + QStringLiteral("</b> ");
    if (finding.stack.empty()) {
        html += finding.isGraph ? tr("(none: the kernels of a graph replay run on the GPU, launched by one call)")
                                : tr("(none recorded)");
        html += QStringLiteral("</p>");
    } else {
        html += tr("(outermost first)") + QStringLiteral("</p><ol style=\"margin-top:0\">");
        for (const std::string& frame : finding.stack)
            html += QStringLiteral("<li><tt>") + escaped(frame) + QStringLiteral("</tt></li>");
        html += QStringLiteral("</ol>");
    }

    html += QStringLiteral("<p style=\"margin-bottom:0\"><b>") + tr("What differs") + QStringLiteral("</b> ")
        + tr("(click a run to show its rows)") + QStringLiteral("</p><ol style=\"margin-top:0\">");
    for (size_t run = 0; run < finding.extraRuns.size(); ++run) {
        const ExtraRun& extra = finding.extraRuns[run];
        const int side = static_cast<int>(sideIndex(extra.side));
        QString label = tr("%1 run %2").arg(letter(side)).arg(run + 1);
        html += QStringLiteral("<li><a href=\"run:%1\">").arg(run) + colorChip(sideBackground(side), label)
            + QStringLiteral("</a> ") + escaped(extra.explanation);
        if (extra.repeats > 1)
            html += QStringLiteral(" <b>(x%1)</b>").arg(extra.repeats);
        html += QStringLiteral("</li>");
    }
    html += QStringLiteral("</ol>");

    html += QStringLiteral("<p style=\"margin-bottom:0\"><b>") + tr("GPU time per call") + QStringLiteral("</b> ")
        + tr("(median over %1)").arg(formatCountOf(finding.occurrences, tr("call"), tr("calls")))
        + QStringLiteral("</p>");
    html += QStringLiteral("<ul style=\"margin-top:0\">") + timeItem(report, finding, 0) + timeItem(report, finding, 1)
        + QStringLiteral("</ul>");
    html += QStringLiteral("<p>");
    html += escaped(savingText(report.sideNames, finding.slowerSide, finding.savingUs, finding.savingExtraKernelsUs,
                finding.savingSpeedUs, finding.isGraph ? "over the launches" : "over the calls"))
        + QStringLiteral(".");
    if (finding.isGraph)
        html += QStringLiteral(" ")
            + tr("%1% of the kernels line up by type.").arg(QString::number(finding.typeAgreement * 100, 'f', 0));
    html += QStringLiteral("</p>");
    // Long labels of two traces of one platform: their aliases (the details column is narrow).
    return withSideAliases(report, html);
}

} // namespace fusiondiff::ui
