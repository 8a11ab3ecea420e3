#pragma once

#include "model/categoryid.h"
#include "model/opreport.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace fusiondiff {

struct FusionReport;
struct LargeGroup;

// The report's tables, each described once: the CSV writer (reportToCsv) writes the columns that
// have a CSV name, the app's table model (ui/reportcolumnsmodel.h) shows those that have a
// header, and the JSON writer writes the rows of those whose JSON array has the CSV's flat shape
// (report/tablejson.h). In the CSV's order. The tables of the graph comparison are described in
// graphtables.cpp, those of the time gap and the collective calls in reporttimegap.cpp, those of the step
// time in reportsteptime.cpp, `efficiency` in reportefficiency.cpp.
enum class ReportTableId
{
    Traces,
    GlobalCounts,
    FusionOpportunities,
    FusionMappings,
    OpFindings,
    OpSummary,
    ExtraKernels,
    Collectives,
    GraphKinds,
    GraphPairs,
    GraphCoverage,
    MatchedGroups,
    Kernels,
    MatchedKernels,
    TimeGap,
    WhereToLookFirst,
    CollectiveCalls,
    LayerTimes,
    StepTimes,
    HostTime,
    Efficiency,
    JobSteps, // the job tables: only for multi-rank runs (kJobReportTableIds)
    RankTimes,
    RankCollectives,
};
inline constexpr std::array kReportTableIds { ReportTableId::Traces, ReportTableId::GlobalCounts,
    ReportTableId::FusionOpportunities, ReportTableId::FusionMappings, ReportTableId::OpFindings,
    ReportTableId::OpSummary, ReportTableId::ExtraKernels, ReportTableId::Collectives, ReportTableId::GraphKinds,
    ReportTableId::GraphPairs, ReportTableId::GraphCoverage, ReportTableId::MatchedGroups, ReportTableId::Kernels,
    ReportTableId::MatchedKernels, ReportTableId::TimeGap, ReportTableId::WhereToLookFirst,
    ReportTableId::CollectiveCalls, ReportTableId::LayerTimes, ReportTableId::StepTimes, ReportTableId::HostTime,
    ReportTableId::Efficiency };

// The tables of two multi-rank runs compared as jobs (report/reportjob.h): written after the others,
// and only when FusionReport::job is set.
inline constexpr std::array kJobReportTableIds { ReportTableId::JobSteps, ReportTableId::RankTimes,
    ReportTableId::RankCollectives };

// The table's CSV file name without ".csv" ("global_counts").
const char* reportTableName(ReportTableId table);

// How the app shows a value; the CSV writes every value as it is.
enum class Unit
{
    Text,
    KernelName, // text that can run to thousands of characters: shortened on screen
    Count, // uint64_t, with thousands separators
    Integer, // int64_t, with thousands separators
    Identifier, // int64_t shown as it is (correlation ids)
    Microseconds, // double, in the unit that fits
    Milliseconds, // double, in milliseconds
    Ratio, // double; infinity as the infinity sign
    Decimal, // double with `decimals` decimals
    Spread, // a Spread of microseconds: median (first to third quartile)
    SignedCount, // int64_t, with its sign ("+12", "\u221212")
    SignedMicroseconds, // double, with its sign
    SideName, // sideKey ("trace1"): the app shows the side's name, as short as it can, and A or B
    SideText, // text that names the sides: the app shortens their names as everywhere else
};

// One value of a table: none (an empty CSV field, an empty cell), text, an integer, a real number,
// or, for the app only, a spread.
using CellValue = std::variant<std::monostate, std::string, int64_t, uint64_t, double, Spread>;
using CellFunction = std::function<CellValue(size_t row)>;

struct TableColumn
{
    std::string key {}; // unique within its table: the CSV header where the column is written as CSV
    std::string header {}; // the app's column title; empty: not shown in the app
    std::string toolTip {}; // the app's header tooltip; empty: the header
    Unit unit = Unit::Text;
    bool inCsv = true;
    bool largestFirst = false; // a cost: the app sorts it descending on the first click
    int decimals = -1; // for Ratio and Decimal; -1: the unit's default
    CellFunction value {}; // what the CSV writes, and what the app shows and sorts by unless below
    CellFunction shown = nullptr; // what the app shows instead of `value`
    CellFunction sortKey = nullptr; // what the app sorts by instead of `value`
    std::function<std::string(size_t row)> detail = nullptr; // the app's cell tooltip
};

struct ReportTable
{
    ReportTableId id = ReportTableId::Traces;
    size_t rows = 0;
    std::vector<TableColumn> columns {}; // in the CSV's order; the app shows them in this order too
    // The kernel type a row is about, where it is about one.
    std::function<std::optional<CategoryId>(size_t row)> kernelType = nullptr;

    // The index of the column `key`, or -1.
    int columnIndex(const std::string& key) const;
};

// For a table whose rows are made for it (nested report data flattened, one row per part): a
// function from row index to row, which the column functions copy and which shares `rows`.
template<typename Row>
auto rowsOfTable(std::vector<Row> rows)
{
    return [shared = std::make_shared<const std::vector<Row>>(std::move(rows))](
               size_t row) -> const Row& { return (*shared)[row]; };
}

// The table `table` of `report`; its functions read `report`, which must outlive them.
ReportTable reportTable(ReportTableId table, const FusionReport& report);

// "GEMM 72, Attention 36, Norm 49": a group's kernels per type, in category order.
std::string compositionText(const FusionReport& report, const LargeGroup& group);

} // namespace fusiondiff
