#include "runs/ranksummaryjson.h"

#include "report/jsonwriter.h"
#include "util/inputerror.h"

#include <simdjson.h>

#include <limits>

namespace fusiondiff {

namespace {

void writeTimes(JsonWriter& json, const std::vector<std::vector<NamedTime>>& perStep)
{
    json.beginArray();
    for (const std::vector<NamedTime>& step : perStep) {
        json.beginArray();
        for (const NamedTime& time : step) {
            json.beginArray();
            json.value(time.name);
            json.value(time.timeUs);
            json.endArray();
        }
        json.endArray();
    }
    json.endArray();
}

class Reader
{
public:
    explicit Reader(const std::string& origin)
        : m_origin(origin)
    { }

    [[noreturn]] void fail(const std::string& what) const { throw InputError(m_origin, "not a rank summary: " + what); }

    template<typename T>
    T get(simdjson::dom::element value, const char* what) const
    {
        T out {};
        if (value.get(out))
            fail(std::string("bad or missing ") + what);
        return out;
    }

    simdjson::dom::element at(simdjson::dom::object object, const char* key) const
    {
        simdjson::dom::element value;
        if (object[key].get(value))
            fail(std::string("no ") + key);
        return value;
    }

    double number(simdjson::dom::element value, const char* what) const
    {
        double out = 0;
        if (value.is_null())
            return std::numeric_limits<double>::quiet_NaN();
        if (value.get_double().get(out))
            fail(std::string("bad ") + what);
        return out;
    }

    std::string text(simdjson::dom::object object, const char* key) const
    {
        return std::string(get<std::string_view>(at(object, key), key));
    }

    std::vector<std::vector<NamedTime>> times(simdjson::dom::element value, const char* what) const
    {
        std::vector<std::vector<NamedTime>> out;
        for (simdjson::dom::element step : get<simdjson::dom::array>(value, what)) {
            std::vector<NamedTime>& times = out.emplace_back();
            for (simdjson::dom::element pair : get<simdjson::dom::array>(step, what)) {
                const auto items = get<simdjson::dom::array>(pair, what);
                if (items.size() != 2)
                    fail(what);
                times.push_back({ std::string(get<std::string_view>(items.at(0), what)), number(items.at(1), what) });
            }
        }
        return out;
    }

private:
    std::string m_origin;
};

} // namespace

std::string rankSummaryToJson(const RankSummary& summary)
{
    JsonWriter json;
    json.beginObject();
    json.field("path", summary.path);
    json.field("label", summary.label);
    json.field("rank", int64_t(summary.rank));
    json.field("world_size", int64_t(summary.worldSize));
    json.field("rank_source", summary.rankSource);
    json.field("process_groups", summary.processGroups);
    json.field("kernels", summary.kernels);
    json.key("steps");
    json.beginArray();
    for (size_t s = 0; s < summary.steps.size(); ++s) {
        const StepRecord& step = summary.steps[s];
        json.beginObject();
        json.field("number", s < summary.stepNumbers.size() ? summary.stepNumbers[s] : int64_t(-1));
        json.field("phase", int64_t(step.phase));
        json.field("begin", step.begin);
        json.field("end", step.end);
        json.field("busy", step.busyUs);
        json.field("not_recorded", step.notRecordedUs);
        json.key("idle");
        json.beginArray();
        for (const double idle : step.idleUs)
            json.value(idle);
        json.endArray();
        json.field("kernels", step.kernels);
        json.endObject();
    }
    json.endArray();
    json.key("phase_signatures");
    json.beginArray();
    for (const std::string& signature : summary.phaseSignatures)
        json.value(signature);
    json.endArray();
    json.key("step_kernel_types");
    writeTimes(json, summary.stepKernelTypesUs);
    json.key("step_host_idle");
    writeTimes(json, summary.stepHostIdleUs);
    json.key("collectives");
    json.beginArray();
    for (const RankCollectiveCall& call : summary.collectives) {
        json.beginObject();
        json.field("collective", call.collective);
        json.field("group", call.group);
        json.field("message_bytes", call.messageBytes);
        json.field("sequence", call.sequence);
        json.field("begin", call.beginUs);
        json.field("end", call.endUs);
        json.field("step", int64_t(call.step));
        json.endObject();
    }
    json.endArray();
    json.endObject();
    return json.finish();
}

RankSummary rankSummaryFromJson(std::string_view json, const std::string& origin)
{
    const Reader read(origin);
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (parser.parse(simdjson::padded_string(json)).get(root))
        read.fail("not JSON");
    const auto object = read.get<simdjson::dom::object>(root, "object");
    RankSummary summary;
    summary.path = read.text(object, "path");
    summary.label = read.text(object, "label");
    summary.rank = int32_t(read.get<int64_t>(read.at(object, "rank"), "rank"));
    summary.worldSize = int32_t(read.get<int64_t>(read.at(object, "world_size"), "world_size"));
    summary.rankSource = read.text(object, "rank_source");
    summary.processGroups = read.text(object, "process_groups");
    summary.kernels = read.get<uint64_t>(read.at(object, "kernels"), "kernels");
    for (simdjson::dom::element value : read.get<simdjson::dom::array>(read.at(object, "steps"), "steps")) {
        const auto step = read.get<simdjson::dom::object>(value, "step");
        StepRecord record;
        record.phase = int32_t(read.get<int64_t>(read.at(step, "phase"), "phase"));
        record.begin = read.number(read.at(step, "begin"), "begin");
        record.end = read.number(read.at(step, "end"), "end");
        record.busyUs = read.number(read.at(step, "busy"), "busy");
        record.notRecordedUs = read.number(read.at(step, "not_recorded"), "not_recorded");
        const auto idle = read.get<simdjson::dom::array>(read.at(step, "idle"), "idle");
        if (idle.size() != kIdleCauses)
            read.fail("idle by cause");
        for (size_t c = 0; c < kIdleCauses; ++c)
            record.idleUs[c] = read.number(idle.at(c), "idle");
        record.kernels = read.get<uint64_t>(read.at(step, "kernels"), "kernels");
        summary.steps.push_back(record);
        int64_t number = -1; // a summary of an older version has none: its steps align on collectives
        if (simdjson::dom::element given; step["number"].get(given) == simdjson::SUCCESS)
            number = read.get<int64_t>(given, "number");
        summary.stepNumbers.push_back(number);
    }
    for (simdjson::dom::element value :
        read.get<simdjson::dom::array>(read.at(object, "phase_signatures"), "phase_signatures"))
        summary.phaseSignatures.emplace_back(read.get<std::string_view>(value, "phase signature"));
    for (const StepRecord& step : summary.steps) {
        if (step.phase >= int32_t(summary.phaseSignatures.size()))
            read.fail("a step in a phase it does not have");
    }
    summary.stepKernelTypesUs = read.times(read.at(object, "step_kernel_types"), "step_kernel_types");
    summary.stepHostIdleUs = read.times(read.at(object, "step_host_idle"), "step_host_idle");
    if (summary.stepKernelTypesUs.size() != summary.steps.size()
        || summary.stepHostIdleUs.size() != summary.steps.size())
        read.fail("per-step times for another number of steps");
    for (simdjson::dom::element value : read.get<simdjson::dom::array>(read.at(object, "collectives"), "collectives")) {
        const auto call = read.get<simdjson::dom::object>(value, "collective");
        RankCollectiveCall out;
        out.collective = read.text(call, "collective");
        out.group = read.text(call, "group");
        out.messageBytes = read.get<int64_t>(read.at(call, "message_bytes"), "message_bytes");
        out.sequence = read.get<int64_t>(read.at(call, "sequence"), "sequence");
        out.beginUs = read.number(read.at(call, "begin"), "begin");
        out.endUs = read.number(read.at(call, "end"), "end");
        out.step = int32_t(read.get<int64_t>(read.at(call, "step"), "step"));
        if (out.step >= int32_t(summary.steps.size()))
            read.fail("a collective in a step it does not have");
        summary.collectives.push_back(std::move(out));
    }
    return summary;
}

} // namespace fusiondiff
