#include "shell/onetraceview.h"

#include "classify/classifier.h"
#include "display/formatting.h"
#include "display/kernelnames.h"
#include "display/nameelision.h"
#include "model/tracestore.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>
#include <vector>

namespace fusiondiff::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("OneTraceView", text);
}

struct Totals
{
    uint64_t count = 0;
    double timeUs = 0;
};

} // namespace

QString oneTraceHtml(const TraceStore& store, const Classifier& classifier, int topKernels)
{
    // One classification per distinct name.
    QHash<StringId, Totals> byName;
    for (const KernelEvent& kernel : store.kernels) {
        Totals& totals = byName[kernel.name];
        ++totals.count;
        totals.timeUs += kernel.dur;
    }
    std::vector<Totals> byType(classifier.categories().size());
    std::vector<std::pair<StringId, Totals>> names;
    double total = 0;
    for (auto it = byName.cbegin(); it != byName.cend(); ++it) {
        const CategoryId type = classifier.classify(store.name(it.key()));
        byType[type].count += it->count;
        byType[type].timeUs += it->timeUs;
        names.emplace_back(it.key(), *it);
        total += it->timeUs;
    }
    std::vector<CategoryId> types;
    for (size_t type = 0; type < byType.size(); ++type) {
        if (byType[type].count > 0)
            types.push_back(static_cast<CategoryId>(type));
    }
    std::sort(
        types.begin(), types.end(), [&](CategoryId a, CategoryId b) { return byType[a].timeUs > byType[b].timeUs; });
    std::sort(
        names.begin(), names.end(), [](const auto& a, const auto& b) { return a.second.timeUs > b.second.timeUs; });

    const auto share
        = [&](double us) { return total > 0 ? formatFixed(100.0 * us / total, 1) + QLatin1Char('%') : QString(); };
    QString html = QStringLiteral("<h3>%1</h3>")
                       .arg(tr("Kernel types of %1").arg(QString::fromStdString(store.label).toHtmlEscaped()));
    html += QStringLiteral(
        "<table cellspacing=\"0\" cellpadding=\"3\"><tr><th align=\"left\">%1</th><th align=\"right\">%2</th>"
        "<th align=\"right\">%3</th><th align=\"right\">%4</th></tr>")
                .arg(tr("Type"), tr("Kernels"), tr("GPU time"), tr("Share"));
    for (const CategoryId type : types) {
        html += QStringLiteral(
            "<tr><td>%1</td><td align=\"right\">%2</td><td align=\"right\">%3</td><td align=\"right\">%4</td></tr>")
                    .arg(QString::fromStdString(classifier.categoryName(type)).toHtmlEscaped(),
                        formatCount(byType[type].count), formatDuration(byType[type].timeUs),
                        share(byType[type].timeUs));
    }
    html += QStringLiteral("</table>");
    html += QStringLiteral("<h3>%1</h3>").arg(tr("The kernels that take the most GPU time"));
    html += QStringLiteral(
        "<table cellspacing=\"0\" cellpadding=\"3\"><tr><th align=\"left\">%1</th><th align=\"left\">%2</th>"
        "<th align=\"right\">%3</th><th align=\"right\">%4</th><th align=\"right\">%5</th></tr>")
                .arg(tr("Kernel"), tr("Type"), tr("Launches"), tr("GPU time"), tr("Average"));
    for (size_t i = 0; i < names.size() && i < static_cast<size_t>(topKernels); ++i) {
        const std::string_view name = store.name(names[i].first);
        QString text = shownKernelName(QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())));
        if (text.size() > 100) // one line of the table: its start and its end
            text = text.left(60) + QChar(kEllipsis) + text.right(39);
        const Totals& totals = names[i].second;
        html += QStringLiteral("<tr><td>%1</td><td>%2</td><td align=\"right\">%3</td><td align=\"right\">%4</td>"
                               "<td align=\"right\">%5</td></tr>")
                    .arg(text.toHtmlEscaped(),
                        QString::fromStdString(classifier.categoryName(classifier.classify(name))).toHtmlEscaped(),
                        formatCount(totals.count), formatDuration(totals.timeUs),
                        formatDuration(totals.timeUs / static_cast<double>(totals.count)));
    }
    html += QStringLiteral("</table>");
    return html;
}

} // namespace fusiondiff::ui
