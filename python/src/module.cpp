// The extension fusiondiff._fusiondiff: the core's compare, tables, JSON and classification for
// the Python package fusiondiff (python/fusiondiff/, docs/python.md), which builds the DataFrames.

#include "comparejob.h"
#include "compareruns.h"
#include "pyerrors.h"
#include "tablecolumns.h"

#include "classify/classifier.h"
#include "fusionversion.h"
#include "model/fusionreport.h"
#include "report/jsonwriter.h"
#include "report/reportefficiency.h"
#include "report/reporttables.h"
#include "report/reporttimegap.h"
#include "report/reportwriters.h"
#include "runs/runloader.h"

#include <pybind11/stl.h>

#include <atomic>

namespace py = pybind11;

namespace fusiondiff::python {

namespace {

// A finished comparison. Counts the reports alive, so that a test can show a dropped Report frees
// its FusionReport (nothing else, a DataFrame included, keeps it).
class Report
{
public:
    explicit Report(std::shared_ptr<const FusionReport> report)
        : m_report(std::move(report))
    {
        ++s_alive;
    }
    Report(const Report&) = delete;
    Report& operator=(const Report&) = delete;
    ~Report() { --s_alive; }

    static int64_t alive() { return s_alive; }

    // The report's tables, and those of the job for two multi-rank runs (compare_runs).
    std::vector<ReportTableId> tableIds() const
    {
        std::vector<ReportTableId> ids(kReportTableIds.begin(), kReportTableIds.end());
        if (m_report->job)
            ids.insert(ids.end(), kJobReportTableIds.begin(), kJobReportTableIds.end());
        return ids;
    }

    py::list tableNames() const
    {
        py::list names;
        for (const ReportTableId id : tableIds())
            names.append(reportTableName(id));
        return names;
    }

    py::list table(const std::string& name) const
    {
        for (const ReportTableId id : tableIds()) {
            if (name == reportTableName(id))
                return tableColumns(reportTable(id, *m_report));
        }
        std::string known;
        for (const ReportTableId id : tableIds()) {
            if (!known.empty())
                known += ", ";
            known += reportTableName(id);
        }
        throw py::key_error("no report table '" + name + "' (the tables: " + known + ")");
    }

    py::bytes json() const
    {
        std::string text;
        {
            const py::gil_scoped_release release;
            text = reportToJson(*m_report);
        }
        return py::bytes(text);
    }

    // The value of one section of the JSON report, as JSON text: what the JSON writer writes.
    py::bytes sectionJson(const std::string& section) const
    {
        JsonWriter json;
        if (section == "time_gap")
            writeTimeGapJson(json, *m_report);
        else if (section == "where_to_look_first")
            writeWhereToLookFirstJson(json, *m_report);
        else if (section == "efficiency")
            writeEfficiencyJson(json, *m_report);
        else
            throw py::key_error("no such section: " + section);
        return py::bytes(json.finish());
    }

    const std::string& verdict() const { return m_report->timeGap.verdict; }

private:
    std::shared_ptr<const FusionReport> m_report;
    static std::atomic<int64_t> s_alive;
};

std::atomic<int64_t> Report::s_alive { 0 };

AnalysisOptions optionsFrom(const std::string& opLevel, const std::vector<std::pair<std::string, std::string>>& params)
{
    AnalysisOptions options;
    if (!parseOpLevel(opLevel, options.opLevel))
        throw py::value_error("op_level takes auto, operator, module or launch, not '" + opLevel + "'");
    for (const auto& [name, value] : params) {
        const std::string error = setAnalysisParameter(options, name, value);
        if (!error.empty())
            throw py::value_error(error);
    }
    return options;
}

std::unique_ptr<Report> compare(const std::string& traceA, const std::string& traceB, const std::string& classifier,
    const std::string& opLevel, const std::vector<std::pair<std::string, std::string>>& params,
    const std::optional<std::string>& captureA, const std::optional<std::string>& captureB, const py::object& progress,
    double pollSeconds, int64_t threads, const std::optional<std::string>& peaks)
{
    if (!(pollSeconds > 0 && pollSeconds <= 1))
        throw py::value_error("poll_seconds must be in (0, 1]");
    // 0 is the machine's cores, as without --threads; else the CLI's range.
    if (threads < 0 || threads > 1024)
        throw py::value_error("threads takes a whole number from 1 to 1024, or None, not " + std::to_string(threads));
    AnalysisOptions options = optionsFrom(opLevel, params);
    options.peaksFile = peaks.value_or("");
    const CompareRequest request { traceA, traceB, classifier, options, captureA, captureB,
        static_cast<size_t>(threads), nullptr };
    return std::make_unique<Report>(runCompare(request, progress, pollSeconds));
}

py::bytes summarizeRank(const std::string& path, const std::string& classifier)
{
    std::string json;
    {
        const py::gil_scoped_release release;
        json = summarizeRankJson(path, classifier);
    }
    return py::bytes(json);
}

std::unique_ptr<Report> compareRuns(const std::vector<std::string>& summariesA,
    const std::vector<std::string>& summariesB, const std::optional<std::array<int32_t, 2>>& rankPair,
    const std::string& classifier, const std::string& opLevel,
    const std::vector<std::pair<std::string, std::string>>& params, const py::object& progress, double pollSeconds,
    int64_t threads, const std::optional<std::string>& peaks)
{
    if (threads < 0 || threads > 1024)
        throw py::value_error("threads takes a whole number from 1 to 1024, or None, not " + std::to_string(threads));
    RunComparison merged;
    {
        const py::gil_scoped_release release;
        merged = mergeRankSummaries({ summariesA, summariesB }, rankPair);
    }
    AnalysisOptions options = optionsFrom(opLevel, params);
    options.peaksFile = peaks.value_or("");
    CompareRequest request { merged.detailedFiles[0], merged.detailedFiles[1], classifier, options, std::nullopt,
        std::nullopt, static_cast<size_t>(threads), merged.job };
    return std::make_unique<Report>(runCompare(request, progress, pollSeconds));
}

std::vector<std::string> classify(const std::vector<std::string>& names, const std::string& spec)
{
    const Classifier classifier = Classifier::load(spec);
    std::vector<std::string> categories;
    categories.reserve(names.size());
    for (const std::string& name : names)
        categories.push_back(classifier.categoryName(classifier.classify(name)));
    return categories;
}

py::dict parameters()
{
    const AnalysisOptions defaults;
    py::dict result;
    for (const AnalysisParameter& parameter : analysisParameters()) {
        const py::object value = parameter.isInteger ? py::object(py::int_(defaults.*parameter.integer))
                                                     : py::object(py::float_(defaults.*parameter.real));
        result[py::str(std::string(parameter.name))]
            = py::make_tuple(value, py::str(std::string(parameter.description)));
    }
    return result;
}

} // namespace

} // namespace fusiondiff::python

PYBIND11_MODULE(_fusiondiff, module)
{
    using namespace fusiondiff::python;
    module.doc() = "FusionDiff's analysis core; use the package fusiondiff (docs/python.md).";
    module.attr("__version__") = FUSIONDIFF_VERSION;
    registerErrorTranslation();

    py::class_<Report>(module, "_Report")
        .def("table_names", &Report::tableNames)
        .def("table_columns", &Report::table, py::arg("name"))
        .def("to_json", &Report::json)
        .def("section_json", &Report::sectionJson, py::arg("section"))
        .def_property_readonly("verdict", &Report::verdict);

    module.def("compare", &compare, py::arg("a"), py::arg("b"), py::arg("classifier"), py::arg("op_level"),
        py::arg("params"), py::arg("capture1"), py::arg("capture2"), py::arg("progress"), py::arg("poll_seconds") = 0.1,
        py::arg("threads") = 0, py::arg("peaks") = std::nullopt);
    module.def("classify", &classify, py::arg("names"), py::arg("classifier"));
    module.def("run_trace_files", &fusiondiff::runTraceFiles, py::arg("inputs"));
    module.def("summarize_rank", &summarizeRank, py::arg("path"), py::arg("classifier"));
    module.def("compare_runs", &compareRuns, py::arg("summaries_a"), py::arg("summaries_b"), py::arg("rank_pair"),
        py::arg("classifier"), py::arg("op_level"), py::arg("params"), py::arg("progress"),
        py::arg("poll_seconds") = 0.1, py::arg("threads") = 0, py::arg("peaks") = std::nullopt);
    module.def("parameters", &parameters);
    module.def("builtin_classifiers", &fusiondiff::Classifier::builtinNames);
    // For the tests: the reports alive, and how the last compare's thread ended.
    module.def("_alive_reports", &Report::alive);
    module.def("_last_compare_outcome", &lastCompareOutcome);
}
