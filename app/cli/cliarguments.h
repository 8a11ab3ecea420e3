#pragma once

#include "model/analysisoptions.h"

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace fusiondiff::cli {

// A command line that cannot be run as given; main() prints it with the usage and exits with 2.
class UsageError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

struct CompareArguments
{
    std::string traceA;
    std::string traceB;
    // Multi-rank runs: each side's files or folders (`compare A... --vs B...`, or a folder for A or
    // B); the first of each is traceA, traceB.
    std::vector<std::string> runA;
    std::vector<std::string> runB;
    std::optional<std::array<int32_t, 2>> rankPair; // --rank-pair A:B: the ranks the detailed report compares
    std::optional<std::string> jsonPath; // "-" is standard output
    std::optional<std::string> csvDirectory;
    std::optional<std::string> markdownPath;
    std::string classifier = "default";
    AnalysisOptions options;
    bool quiet = false; // no progress on the terminal
    size_t threads = 0; // that parse the traces; 0: the machine's cores
    std::optional<std::string> captureA; // graph-capture traces that go with A and B
    std::optional<std::string> captureB;
};

struct ClassifyArguments
{
    std::optional<std::string> trace;
    std::optional<std::string> namesFile;
    std::string classifier = "default";
};

struct Arguments
{
    enum class Command
    {
        Help,
        Version,
        Compare,
        Classify,
        Parameters,
    };
    Command command = Command::Help;
    CompareArguments compare;
    ClassifyArguments classify;
};

// Throws UsageError.
Arguments parseArguments(const std::vector<std::string>& arguments);

std::string usageText();
std::string parametersText();

} // namespace fusiondiff::cli
