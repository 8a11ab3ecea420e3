#pragma once

#include "model/fusionreport.h"
#include "report/reporttables.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace fusiondiff {

// Cells and columns that several report tables share (fusiontables, operationtables, kerneltables).

// The app's "Fused by" cell: the fused side's key, or, where that side runs none of the kernels,
// "only " and the other side's key (the app shows "only B runs it": nothing was fused).
std::string sideNameShown(Side fused, size_t fusedKernels);

std::string joinTypes(const FusionReport& report, const std::vector<CategoryId>& types, const char* separator);
std::string joinKernelTypes(
    const FusionReport& report, const std::vector<FindingKernel>& kernels, const char* separator);

// A side that has no kernels of a row has no time, not a time of zero: the app leaves it empty.
CellFunction timeIfAny(std::function<uint64_t(size_t)> count, std::function<double(size_t)> time);

// The app's "B \u2212 A" columns: how many more kernels and how much more time B has than A, signed.
void addDifferenceColumns(ReportTable& table, const std::string& countWord, std::string countToolTip,
    std::string timeToolTip, const std::function<std::array<uint64_t, 2>(size_t)>& count,
    const std::function<std::array<double, 2>(size_t)>& timeUs);

// The four spread columns of the CSV for one side ("trace1_median_us", ...), then its total.
void addSpreadColumns(ReportTable& table, size_t side, const std::function<const Spread&(size_t)>& spread,
    std::string totalHeader, std::string totalToolTip);

// "A time/call (IQR)": the app's one column for a side's spread.
TableColumn spreadColumn(size_t side, const std::function<const Spread&(size_t)>& spread);

// A's total time over B's: infinite when only A has time, undefined (NaN) when neither has any.
double timeRatio(const OpSummary& summary);

} // namespace fusiondiff
