#include "display/pairlabel.h"

#include "display/sidenames.h"
#include "model/fusionreport.h"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QRegularExpression>
#include <QStringList>

#include <algorithm>

namespace fusiondiff::ui {

namespace {

// A GPU's name elided to fewer letters than this ("A…F") says nothing: it is left out instead.
constexpr qsizetype kFewestGpuLetters = 8;

QString tr(const char* text)
{
    return QCoreApplication::translate("fusiondiff::ui::PairLabel", text);
}

// "A: mi300x (AMD Instinct MI300X VF)  vs  B: h100 (NVIDIA H100 80GB HBM3)", the GPU once at the
// end where both sides have the same.
QString shortForm(const std::array<QString, 2>& names, const std::array<QString, 2>& gpus)
{
    if (gpus[0] == gpus[1]) {
        const QString pair = tr("A: %1  vs  B: %2").arg(names[0], names[1]);
        return gpus[0].isEmpty() ? pair : tr("%1  (both %2)").arg(pair, gpus[0]);
    }
    const auto side = [&](size_t s) { return gpus[s].isEmpty() ? names[s] : tr("%1 (%2)").arg(names[s], gpus[s]); };
    return tr("A: %1  vs  B: %2").arg(side(0), side(1));
}

} // namespace

PairDescription describePair(const FusionReport& report)
{
    PairDescription pair;
    static const QRegularExpression gpuSuffix(QStringLiteral("\\s*\\([^()]*\\)$"));
    std::array<QString, 2> stems;
    for (size_t side = 0; side < 2; ++side) {
        pair.labels[side] = QString::fromStdString(report.traces[side].label);
        pair.gpus[side] = QString::fromStdString(report.traces[side].gpuName);
        stems[side] = pair.labels[side];
        stems[side].remove(gpuSuffix);
    }
    // Alike labels come from the core as "A: x" and "B: x"; the texts here put A and B in front.
    if (pair.labels[0].startsWith(QStringLiteral("A: ")) && pair.labels[1].startsWith(QStringLiteral("B: "))) {
        for (size_t side = 0; side < 2; ++side) {
            pair.labels[side].remove(0, 3);
            stems[side].remove(0, 3);
        }
    }
    pair.names = differingNames(stems);
    pair.classifier = QString::fromStdString(report.classifier.name);
    pair.opLevel = QString::fromLatin1(opLevelKey(report.options.opLevel));
    return pair;
}

QString wholePairText(const PairDescription& pair)
{
    return tr("Showing A: %1  vs  B: %2  \u00B7  classifier %3  \u00B7  operations at the %4 level")
        .arg(pair.labels[0], pair.labels[1], pair.classifier, pair.opLevel);
}

QString fittedPairText(const PairDescription& pair, const QFontMetrics& metrics, int width)
{
    const QStringList forms = {
        wholePairText(pair),
        tr("A: %1  vs  B: %2  \u00B7  %3, %4 level").arg(pair.labels[0], pair.labels[1], pair.classifier, pair.opLevel),
        tr("A: %1  vs  B: %2").arg(pair.labels[0], pair.labels[1]),
        shortForm(pair.names, pair.gpus),
    };
    for (const QString& form : forms) {
        if (metrics.horizontalAdvance(form) <= width)
            return form;
    }
    // The names' differing parts tell the traces apart first: whole, with the GPUs elided in
    // their middles to what is left, or left out where too few of their letters would stay.
    const auto fits = [&](const QString& text) { return metrics.horizontalAdvance(text) <= width; };
    if (fits(shortForm(pair.names, {}))) {
        const int longest = std::max(metrics.horizontalAdvance(pair.gpus[0]), metrics.horizontalAdvance(pair.gpus[1]));
        for (int gpuWidth = longest; gpuWidth > 0; gpuWidth -= std::max(1, metrics.averageCharWidth())) {
            const std::array<QString, 2> gpus = { metrics.elidedText(pair.gpus[0], Qt::ElideMiddle, gpuWidth),
                metrics.elidedText(pair.gpus[1], Qt::ElideMiddle, gpuWidth) };
            if (std::min(gpus[0].size(), gpus[1].size()) < kFewestGpuLetters)
                break;
            QString text = shortForm(pair.names, gpus);
            if (fits(text))
                return text;
        }
        return shortForm(pair.names, {});
    }
    // Not even the names: each elided in its middle to an even share of the room (the shorter
    // keeping its whole width if it needs less).
    const int room = std::max(0, width - metrics.horizontalAdvance(shortForm({}, {})));
    const std::array<int, 2> needs
        = { metrics.horizontalAdvance(pair.names[0]), metrics.horizontalAdvance(pair.names[1]) };
    const size_t shorter = needs[0] <= needs[1] ? 0 : 1;
    std::array<int, 2> widths {};
    widths[shorter] = std::min(needs[shorter], room / 2);
    widths[1 - shorter] = room - widths[shorter];
    return shortForm({ metrics.elidedText(pair.names[0], Qt::ElideMiddle, widths[0]),
                         metrics.elidedText(pair.names[1], Qt::ElideMiddle, widths[1]) },
        {});
}

} // namespace fusiondiff::ui
