#pragma once

#include <QString>

#include <array>

namespace fusiondiff {
struct FusionReport;
}

namespace fusiondiff::ui {

// The names of the two sides in the views. The report names a side by its platform, or, when both
// traces come from one platform, by its label ("sglang_qwen3-8b_decode.mi300x (AMD Instinct
// MI300X)"): repeated in every sentence and column, such labels widened the tables off the screen.
// A side's alias drops what both labels share (the GPU, common words of the file names) and is
// elided in the middle past kMaxAliasLength; the tooltips keep the whole label.
constexpr qsizetype kMaxAliasLength = 28;

std::array<QString, 2> sideAliases(const std::array<QString, 2>& names);
// The names without the words both start or end with ("mi300x" and "h100" for
// "Qwen1.5-0.5B-Chat.mi300x" and "Qwen1.5-0.5B-Chat.h100"); the whole names where that leaves one
// of them empty or both alike.
std::array<QString, 2> differingNames(const std::array<QString, 2>& names);
QString sideAlias(const FusionReport& report, int side);
// `text` (a sentence of the core's) with each side's whole name replaced by its alias.
QString withSideAliases(const FusionReport& report, const QString& text);

} // namespace fusiondiff::ui
