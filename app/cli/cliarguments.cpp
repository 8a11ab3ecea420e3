#include "cliarguments.h"

#include <charconv>

namespace fusiondiff::cli {

namespace {

class ArgumentReader
{
public:
    explicit ArgumentReader(const std::vector<std::string>& arguments)
        : m_arguments(arguments)
    { }

    bool done() const { return m_next >= m_arguments.size(); }
    const std::string& next() { return m_arguments[m_next++]; }

    // The value of an option given as "--name VALUE" or "--name=VALUE".
    std::string valueOf(const std::string& option, const std::optional<std::string>& inlineValue)
    {
        if (inlineValue)
            return *inlineValue;
        if (done())
            throw UsageError(option + " needs a value");
        return next();
    }

private:
    const std::vector<std::string>& m_arguments;
    size_t m_next = 0;
};

// Splits "--name=value" into its parts.
std::pair<std::string, std::optional<std::string>> splitOption(const std::string& argument)
{
    const auto equals = argument.find('=');
    if (argument.rfind("--", 0) != 0 || equals == std::string::npos)
        return { argument, std::nullopt };
    return { argument.substr(0, equals), argument.substr(equals + 1) };
}

void setParameter(AnalysisOptions& options, const std::string& name, const std::string& value)
{
    const std::string error = setAnalysisParameter(options, name, value);
    if (!error.empty())
        throw UsageError(error);
}

size_t parseThreads(const std::string& text)
{
    size_t threads = 0;
    const auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), threads);
    if (status != std::errc() || end != text.data() + text.size() || threads < 1 || threads > 1024)
        throw UsageError("--threads takes a whole number from 1 to 1024, not '" + text + "'");
    return threads;
}

std::array<int32_t, 2> parseRankPair(const std::string& text)
{
    const auto colon = text.find(':');
    std::array<int32_t, 2> pair {};
    for (size_t side = 0; side < 2; ++side) {
        const std::string part
            = side == 0 ? text.substr(0, colon) : (colon == std::string::npos ? "" : text.substr(colon + 1));
        const auto [end, status] = std::from_chars(part.data(), part.data() + part.size(), pair[side]);
        if (colon == std::string::npos || part.empty() || status != std::errc() || end != part.data() + part.size()
            || pair[side] < 0)
            throw UsageError("--rank-pair takes two rank numbers A:B, as in 0:0, not '" + text + "'");
    }
    return pair;
}

CompareArguments parseCompare(ArgumentReader& reader)
{
    CompareArguments compare;
    std::vector<std::string> traces;
    std::optional<size_t> versus; // where --vs splits the traces into A's and B's
    while (!reader.done()) {
        const std::string& argument = reader.next();
        const auto [option, inlineValue] = splitOption(argument);
        if (option == "--json") {
            compare.jsonPath = reader.valueOf(option, inlineValue);
        } else if (option == "--csv") {
            compare.csvDirectory = reader.valueOf(option, inlineValue);
        } else if (option == "--markdown") {
            compare.markdownPath = reader.valueOf(option, inlineValue);
        } else if (option == "--classifier") {
            compare.classifier = reader.valueOf(option, inlineValue);
        } else if (option == "--peaks") {
            compare.options.peaksFile = reader.valueOf(option, inlineValue);
        } else if (option == "--min-group-size") {
            setParameter(compare.options, "min_group_size", reader.valueOf(option, inlineValue));
        } else if (option == "--size-tolerance") {
            setParameter(compare.options, "size_tolerance", reader.valueOf(option, inlineValue));
        } else if (option == "--op-level") {
            const std::string level = reader.valueOf(option, inlineValue);
            if (!parseOpLevel(level, compare.options.opLevel))
                throw UsageError("--op-level takes auto, operator, module or launch, not '" + level + "'");
        } else if (option == "--param") {
            const std::string assignment = reader.valueOf(option, inlineValue);
            const auto equals = assignment.find('=');
            if (equals == std::string::npos)
                throw UsageError("--param needs NAME=VALUE, not '" + assignment + "'");
            setParameter(compare.options, assignment.substr(0, equals), assignment.substr(equals + 1));
        } else if (option == "--capture1" || option == "--capture-a") {
            compare.captureA = reader.valueOf(option, inlineValue);
        } else if (option == "--capture2" || option == "--capture-b") {
            compare.captureB = reader.valueOf(option, inlineValue);
        } else if (option == "--quiet" || option == "-q") {
            compare.quiet = true;
        } else if (option == "--threads") {
            compare.threads = parseThreads(reader.valueOf(option, inlineValue));
        } else if (option == "--rank-pair") {
            compare.rankPair = parseRankPair(reader.valueOf(option, inlineValue));
        } else if (argument == "--vs") {
            if (versus)
                throw UsageError("--vs appears twice: it separates A's rank traces from B's");
            versus = traces.size();
        } else if (argument.size() > 1 && argument[0] == '-' && argument != "-") {
            throw UsageError("unknown option for compare: " + argument);
        } else {
            traces.push_back(argument);
        }
    }
    if (versus) {
        if (*versus == 0 || *versus == traces.size())
            throw UsageError("--vs needs A's rank traces before it and B's after it");
        compare.runA.assign(traces.begin(), traces.begin() + std::ptrdiff_t(*versus));
        compare.runB.assign(traces.begin() + std::ptrdiff_t(*versus), traces.end());
    } else if (traces.size() != 2) {
        throw UsageError("compare needs exactly two trace files (A and B), got " + std::to_string(traces.size()));
    } else {
        compare.runA = { traces[0] };
        compare.runB = { traces[1] };
    }
    compare.traceA = compare.runA[0];
    compare.traceB = compare.runB[0];
    int toStdout = 0;
    toStdout += compare.jsonPath == "-";
    toStdout += compare.markdownPath == "-";
    if (toStdout > 1)
        throw UsageError("only one of --json and --markdown can write to standard output (-)");
    return compare;
}

ClassifyArguments parseClassify(ArgumentReader& reader)
{
    ClassifyArguments classify;
    while (!reader.done()) {
        const std::string& argument = reader.next();
        const auto [option, inlineValue] = splitOption(argument);
        if (option == "--names") {
            classify.namesFile = reader.valueOf(option, inlineValue);
        } else if (option == "--classifier") {
            classify.classifier = reader.valueOf(option, inlineValue);
        } else if (argument.size() > 1 && argument[0] == '-') {
            throw UsageError("unknown option for classify: " + argument);
        } else if (classify.trace) {
            throw UsageError("classify takes one trace file");
        } else {
            classify.trace = argument;
        }
    }
    if (classify.trace.has_value() == classify.namesFile.has_value())
        throw UsageError("classify needs either a trace file or --names FILE");
    return classify;
}

} // namespace

Arguments parseArguments(const std::vector<std::string>& arguments)
{
    ArgumentReader reader(arguments);
    Arguments parsed;
    if (reader.done())
        throw UsageError("no command given");
    const std::string& command = reader.next();
    if (command == "--help" || command == "-h" || command == "help") {
        parsed.command = Arguments::Command::Help;
    } else if (command == "--version" || command == "-V") {
        parsed.command = Arguments::Command::Version;
    } else if (command == "compare") {
        parsed.command = Arguments::Command::Compare;
        parsed.compare = parseCompare(reader);
    } else if (command == "classify") {
        parsed.command = Arguments::Command::Classify;
        parsed.classify = parseClassify(reader);
    } else if (command == "params") {
        parsed.command = Arguments::Command::Parameters;
    } else {
        throw UsageError("unknown command '" + command + "'");
    }
    for (const std::string& argument : arguments) {
        if (argument == "--help" || argument == "-h")
            parsed.command = Arguments::Command::Help;
    }
    return parsed;
}

std::string usageText()
{
    return R"(fusiondiff-cli - compare kernel fusion between two PyTorch profiler traces

Usage:
  fusiondiff-cli compare A B [--json FILE|-] [--csv DIR] [--markdown FILE|-]
  fusiondiff-cli compare A-RANK... --vs B-RANK... [options] [--rank-pair A:B]
                             [--classifier seed|default|PATH] [--min-group-size N]
                             [--size-tolerance X] [--op-level auto|operator|module|launch]
                             [--param NAME=VALUE]... [--capture1 FILE]
                             [--capture2 FILE] [--peaks FILE] [--threads N] [--quiet]
  fusiondiff-cli classify (TRACE | --names FILE) [--classifier seed|default|PATH]
  fusiondiff-cli params
  fusiondiff-cli --help | --version

compare
  Loads the traces A and B (Kineto / Chrome-trace JSON, plain or gzip; A is
  "trace1" and B "trace2" everywhere), classifies every GPU kernel, attributes
  kernels to the PyTorch operations that launched them, aligns the operations
  (and matched correlation groups) of the two traces, and reports where one
  side launches more kernels than the other for the same work, with the time
  it costs. Without an output option it prints a summary that starts with
  where to look first.
    --json FILE|-       the whole report as JSON ("-": standard output)
    --csv DIR           one CSV file per table in DIR (created if needed):
                        traces, global_counts, fusion_opportunities,
                        fusion_mappings, op_findings, op_summary,
                        extra_kernels, collectives, graph_kinds,
                        graph_pairs, graph_coverage, matched_groups, kernels,
                        matched_kernels, time_gap, where_to_look_first,
                        collective_calls, layer_times, step_times,
                        host_time, efficiency
    --markdown FILE|-   a Markdown report
    --classifier C      "default" (FusionDiff's rules), "seed" (the reference
                        analyzer's rules) or the path of a rule file
    --min-group-size N  smallest correlation group compared (default 50)
    --size-tolerance X  largest relative size difference of matched groups
                        (default 0.25)
    --op-level L        group kernels by the outermost PyTorch "operator", the
                        innermost nn.Module ("module"), or the operator that
                        launched them ("launch"), and align on those names
                        only; "auto" (default): operators, aligned on the
                        whole stack, then Python frames, modules, operator
                        names and kernels where the stacks differ
    --param NAME=VALUE  any analysis threshold; "fusiondiff-cli params" lists them
    --capture1 FILE     a graph-capture trace that goes with A (recorded while
                        A's CUDA/HIP graphs were captured): graph findings then
                        name the operation and Python code of each kernel
    --capture2 FILE     the same for B
    --peaks FILE        GPU peaks that replace the built-in datasheet figures
                        (the format of resources/peaks/datasheet.json), e.g.
                        measured "max achievable" figures; the efficiency
                        table says which it used
    --threads N         parse and analyse the traces on at most N threads
                        (default: the machine's cores); 1 reads them one after
                        the other and analyses them on one thread
    --quiet             no progress display on the terminal
    --rank-pair A:B     multi-rank runs: the ranks the detailed report compares
                        (default: the straggler's pair)

  Multi-rank runs: A or B may be a folder of rank traces, or each side several
  files, A's before --vs and B's after it. Ranks come from each trace's
  distributedInfo, else from its file name (worker3, rank3, rank_3). The ranks
  are compared as jobs (their collectives matched, each rank's wait, the
  stragglers) and the detailed report is made for one pair of ranks.

classify
  Prints TSV with the header name<TAB>category<TAB>count<TAB>total_us: one row
  per distinct kernel name of TRACE (by total time, largest first), or per line
  of FILE (count and total 0). Tabs, newlines and backslashes in names are
  written as \t, \n and \\.

Exit status: 0 on success; 2 on bad input or usage, with a message naming the
file, the problem and where; 1 on an internal error.
Documentation: docs/cli.md, docs/report-format.md, docs/classifiers.md.
)";
}

std::string parametersText()
{
    std::string text = "Analysis parameters (--param NAME=VALUE), with their defaults:\n";
    const AnalysisOptions defaults;
    for (const AnalysisParameter& parameter : analysisParameters()) {
        std::string value;
        if (parameter.isInteger) {
            value = std::to_string(defaults.*parameter.integer);
        } else {
            char buffer[32];
            const auto [end, status] = std::to_chars(buffer, buffer + sizeof buffer, defaults.*parameter.real);
            value = std::string(buffer, end);
        }
        std::string name(parameter.name);
        name.resize(std::max<size_t>(name.size(), 24), ' ');
        text.append("  ").append(name).append(" ").append(value).append("\n      ");
        text.append(parameter.description).append("\n");
    }
    return text;
}

} // namespace fusiondiff::cli
