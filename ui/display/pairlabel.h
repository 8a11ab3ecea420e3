#pragma once

#include <QString>

#include <array>

class QFontMetrics;

namespace fusiondiff {
struct FusionReport;
}

namespace fusiondiff::ui {

// What the status bar says of the pair on screen: "Showing A: <label>  vs  B: <label>  ·
// classifier …  ·  operations at the … level" where there is room, and where there is not, what
// tells the traces apart first: the parts of their names that differ ("mi300x" and "h100" for
// Qwen1.5-0.5B-Chat.mi300x and …h100) and their GPUs (once where both have the same).
struct PairDescription
{
    std::array<QString, 2> labels; // "Qwen1.5-0.5B-Chat.mi300x (AMD Instinct MI300X VF)"
    std::array<QString, 2> names; // the parts of the labels' names that differ
    std::array<QString, 2> gpus; // "AMD Instinct MI300X VF"
    QString classifier;
    QString opLevel;
};
PairDescription describePair(const FusionReport& report);

// The whole description (the label's tooltip).
QString wholePairText(const PairDescription& pair);
// The longest form of the description that is at most `width` pixels wide in `metrics`: whole;
// without "Showing" and with the settings shortened; the labels alone; the differing names with
// the GPUs; narrower still, the names whole and the GPUs elided in their middles, then left out;
// and last the names elided in their middles.
QString fittedPairText(const PairDescription& pair, const QFontMetrics& metrics, int width);

} // namespace fusiondiff::ui
