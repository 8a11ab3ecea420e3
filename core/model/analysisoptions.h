#pragma once

#include "model/opreport.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace fusiondiff {

// Every threshold of the analysis. The defaults are the seed's; the names are those of the
// command line's --param and of the JSON report's "options".
struct AnalysisOptions
{
    // Correlation groups
    int64_t minGroupSize = 50; // groups with fewer kernels are not compared
    double sizeTolerance = 0.25; // matched groups differ in size by at most this fraction
    // Sequence patterns: a type only one trace has, nearly always preceded by the same type
    int64_t patternMinOccurrences = 5;
    double patternMinShare = 0.8; // share of occurrences that must follow the same type (strictly more)
    // Count imbalance of a type both traces have (sequence and partial-fusion mappings)
    double imbalanceMinRatio = 1.3;
    int64_t imbalanceMinTotal = 100;
    int64_t partialMinGroups = 5; // matched groups that must show the imbalance
    // Chains of consecutive kernels of one type
    int64_t chainMinRuns = 5;
    double chainMinRatio = 2.0; // strictly more
    int64_t chainMinDifference = 100; // difference in total kernels, strictly more
    // Fusion opportunities from matched groups
    double strongRatio = 10.0; // per-group average ratio that is significant on its own
    double significantRatio = 2.0; // ratio that is significant with enough kernels
    int64_t significantMinTotal = 20; // kernels needed with significantRatio (strictly more)
    // Fusion opportunities from global counts (types not found in matched groups)
    int64_t globalMinTotal = 100; // strictly more
    double globalRatio = 2.0;
    // Which side fuses: trace 2 if trace 1 has this many times more per group, else trace 1
    double fusedByRatio = 1.5;
    // Beyond the seed: the level at which kernels are grouped by the operation that launched them
    OpLevel opLevel = OpLevel::Auto;
    // Not a threshold, and no part of the report: the results are the same for any value. The
    // threads the analysis may use (0: the machine's cores; 1: the calling thread alone).
    size_t threads = 0;
    // The GPU peaks file that replaces the built-in datasheet figures (--peaks FILE); empty: the
    // built-in one. The report says which it used (efficiency.peaks_origin).
    std::string peaksFile {};
};

// "auto", "operator", "module" or "launching_operator" (also "launch"); false if unknown.
bool parseOpLevel(std::string_view text, OpLevel& level);

// One settable parameter, for command lines, settings dialogs and reports.
struct AnalysisParameter
{
    std::string_view name;
    std::string_view description;
    bool isInteger;
    double AnalysisOptions::*real;
    int64_t AnalysisOptions::*integer;
};

std::span<const AnalysisParameter> analysisParameters();
double parameterValue(const AnalysisOptions& options, const AnalysisParameter& parameter);

// Sets the parameter `name` from `value`; returns an error message, empty on success.
std::string setAnalysisParameter(AnalysisOptions& options, std::string_view name, std::string_view value);

} // namespace fusiondiff
