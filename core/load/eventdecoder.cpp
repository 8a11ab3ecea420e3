#include "load/eventdecoder.h"

#include "load/eventkind.h"
#include "load/jsonstring.h"
#include "load/pythonframes.h"
#include "model/tracestore.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace fusiondiff {

namespace ondemand = simdjson::ondemand;
using simdjson::error_code;

// The decoder's types (with EventKind), outside the anonymous namespace because EventDecoder's
// private members take a PendingEvent.

// Outcome of reading a field that should hold a number.
enum class FieldRead
{
    Read,
    Coerced,
    Unusable,
};

// The fields of one event that any analysis reads.
struct PendingEvent
{
    EventKind kind = EventKind::Unknown;
    std::string_view rawName; // between the quotes, still escaped; decoded once the kind is known
    bool hasName = false;
    bool hasTs = false;
    bool hasDur = false;
    bool hasPid = false;
    bool hasTid = false;
    double ts = 0;
    double dur = 0;
    int64_t pid = -1;
    int64_t tid = -1;
    int64_t argsDevice = kNoId; // kernels: args.device and args.stream win over pid and tid
    int64_t argsStream = kNoId;
    int64_t correlation = kNoId;
    int64_t externalId = kNoId;
    int64_t messageElements = kNoId; // record_param_comms: args["In msg nelems"]
    std::string_view dtype; // record_param_comms: args.dtype
    std::string_view processGroup; // record_param_comms: args["Process Group Name"]
    int64_t sequence = kNoId; // record_param_comms: args.Seq
    int64_t inputElements = kNoId; // collective operators: elements of the first tensor of args["Input Dims"]
    std::string_view inputType; // and its type, the first of args["Input type"]
    // Other operators: the raw JSON arrays of args "Input Dims", "Input type", "Concrete Inputs".
    std::string_view shapeDims;
    std::string_view shapeTypes;
    std::string_view shapeConcrete;
    // Whether the name is a collective's, asked once per "args" object (the name cannot change
    // within one): 0 not asked yet, 1 yes, 2 no.
    uint8_t collective = 0;
    // Conversions, counted in the statistics only if the event is kept.
    uint32_t coerced = 0;
    uint32_t ignored = 0;
    uint32_t pidTidCoerced = 0;
    uint32_t pidTidIgnored = 0;

    void count(FieldRead how)
    {
        coerced += how == FieldRead::Coerced;
        ignored += how == FieldRead::Unusable;
    }
    void countPidTid(FieldRead how)
    {
        pidTidCoerced += how == FieldRead::Coerced;
        pidTidIgnored += how == FieldRead::Unusable;
    }
};

namespace {

// A field of an object as iteration yields it: reading its key or value returns any error.
using FieldResult = simdjson::simdjson_result<ondemand::field>;

constexpr std::string_view kModulePrefix = "nn.Module: ";

// Nesting accepted in values the decoder skips whole (JsonCursor applies the same limit).
constexpr size_t kMaxNesting = 1024;

bool parseNumberText(std::string_view text, double& out)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    if (text.empty())
        return false;
    const auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), out);
    return status == std::errc() && end == text.data() + text.size() && std::isfinite(out);
}

// Reads a number that may have been written as a string ("ts": "12.5"). A malformed JSON
// number is an error; a value of another type is unusable. This and the other readers of numbers
// are always inlined: as calls of their own (GCC's choice at -O2) they cost ~10% of a with-stack
// load's CPU, the ondemand::value going through the stack each time.
[[gnu::always_inline]] inline error_code readDouble(ondemand::value value, double& out, FieldRead& how)
{
    const error_code error = value.get_double().get(out);
    if (!error) {
        how = FieldRead::Read;
        return simdjson::SUCCESS;
    }
    if (error != simdjson::INCORRECT_TYPE)
        return error;
    std::string_view text;
    if (!value.get_string().get(text) && parseNumberText(text, out)) {
        how = FieldRead::Coerced;
        return simdjson::SUCCESS;
    }
    how = FieldRead::Unusable;
    return simdjson::SUCCESS;
}

// A collective operator (vllm::all_reduce, c10d::allreduce_, ...), whose first input tensor is the
// message: its size is kept from the args that record_shapes writes. The name holds all_reduce,
// allreduce, all_gather, allgather, all_to_all, alltoall or reduce_scatter; one pass over it, as
// operators ask twice each (args["Input Dims"] and args["Input type"]).
bool isCollectiveOperator(std::string_view rawName)
{
    for (size_t at = 0; at + 3 <= rawName.size(); ++at) {
        const std::string_view rest = rawName.substr(at);
        if (rest[0] == 'a' && rest.starts_with("all")) {
            const std::string_view tail = rest.substr(3);
            if (tail.starts_with("_reduce") || tail.starts_with("reduce") || tail.starts_with("_gather")
                || tail.starts_with("gather") || tail.starts_with("_to_all") || tail.starts_with("toall"))
                return true;
        } else if (rest[0] == 'r' && rest.starts_with("reduce_scatter")) {
            return true;
        }
    }
    return false;
}

// The element count of one tensor's dims ([888, 2880] -> 2,557,440), or of the first tensor of a
// tensor list ([[4, 4], [4, 4]] -> 16); kNoId if none.
int64_t tensorElements(ondemand::array dims, int depth = 0)
{
    int64_t product = 1;
    bool any = false;
    for (auto dim : dims) {
        ondemand::array list;
        if (!any && depth == 0 && !dim.get_array().get(list))
            return tensorElements(list, depth + 1);
        int64_t extent = 0;
        if (dim.get_int64().get(extent) || extent < 0)
            return kNoId;
        product *= extent;
        any = true;
    }
    return any ? product : kNoId;
}

// The element count of the first input of args["Input Dims"] ([[888, 2880], []] -> 2,557,440).
// Values of another shape are left alone.
void readFirstTensorElements(ondemand::value value, int64_t& out)
{
    ondemand::array inputs;
    if (value.get_array().get(inputs))
        return;
    for (auto input : inputs) {
        ondemand::array dims;
        if (!input.get_array().get(dims))
            out = tensorElements(dims);
        return;
    }
}

// The first string of args["Input type"] (["c10::BFloat16", ""] -> "c10::BFloat16").
void readFirstString(ondemand::value value, std::string_view& out)
{
    ondemand::array items;
    if (value.get_array().get(items))
        return;
    for (auto item : items) {
        std::string_view text;
        if (!item.get_string().get(text))
            out = text;
        return;
    }
}

[[gnu::always_inline]] inline error_code readInteger(ondemand::value value, int64_t& out, FieldRead& how)
{
    const error_code error = value.get_int64().get(out);
    if (!error) {
        how = FieldRead::Read;
        return simdjson::SUCCESS;
    }
    if (error != simdjson::INCORRECT_TYPE && error != simdjson::NUMBER_OUT_OF_RANGE)
        return error;
    double real = 0;
    FieldRead realHow = FieldRead::Unusable;
    if (const error_code again = readDouble(value, real, realHow))
        return again;
    if (realHow != FieldRead::Unusable && std::trunc(real) == real && std::fabs(real) < 9.2e18) {
        out = static_cast<int64_t>(real);
        how = FieldRead::Coerced;
        return simdjson::SUCCESS;
    }
    how = FieldRead::Unusable;
    return simdjson::SUCCESS;
}

// Reads the element's end from the object iterator; works whether or not all fields were read.
error_code objectEnd(ondemand::object& object, const char*& end)
{
    std::string_view text;
    if (const error_code error = object.raw_json().get(text))
        return error;
    end = text.data() + text.size();
    return simdjson::SUCCESS;
}

// "cat": the event's kind; a category that is not a string makes the event irrelevant.
error_code readCategory(ondemand::value value, PendingEvent& event)
{
    ondemand::raw_json_string category;
    const error_code error = value.get_raw_json_string().get(category);
    if (error == simdjson::INCORRECT_TYPE) {
        event.kind = EventKind::Irrelevant;
        return simdjson::SUCCESS;
    }
    if (error)
        return error;
    event.kind = kindOfCategory(category.raw());
    return simdjson::SUCCESS;
}

// "name", kept raw (still escaped) until the kind says whether it is needed.
void readName(ondemand::value value, PendingEvent& event)
{
    // The token runs from the opening quote to the next structural character: the string is what
    // lies between its first and last quote.
    const std::string_view token = value.raw_json_token();
    const size_t close = token.find_last_of('"');
    if (token.size() >= 2 && token.front() == '"' && close > 0) {
        event.rawName = token.substr(1, close - 1);
        event.hasName = true;
    } else {
        ++event.ignored;
    }
}

// A collective operator's args["Input Dims"] or args["Input type"]: the message's size and type.
void readCollectiveInput(FieldResult& argument, const char* key, PendingEvent& event)
{
    ondemand::value input;
    if (argument.value().get(input))
        return;
    if (rawEquals(key, "Input Dims"))
        readFirstTensorElements(input, event.inputElements);
    else
        readFirstString(input, event.inputType);
}

// An operator's args "Input Dims", "Input type" or "Concrete Inputs": its raw JSON array, kept
// until the event is stored (the text lives in the input window).
void readShapeArgument(FieldResult& argument, const char* key, PendingEvent& event)
{
    ondemand::value value;
    ondemand::array array;
    std::string_view text;
    if (argument.value().get(value) || value.get_array().get(array) || array.raw_json().get(text))
        return;
    if (rawEquals(key, "Input Dims"))
        event.shapeDims = text;
    else if (rawEquals(key, "Input type"))
        event.shapeTypes = text;
    else
        event.shapeConcrete = text;
}

// The integer argument `key` is read into, or nullptr.
int64_t* integerArgument(const char* key, PendingEvent& event)
{
    if (rawEquals(key, "correlation"))
        return &event.correlation;
    if (rawEquals(key, "External id") || rawEquals(key, "external id"))
        return &event.externalId;
    if (rawEquals(key, "device"))
        return &event.argsDevice;
    if (rawEquals(key, "stream"))
        return &event.argsStream;
    if (rawEquals(key, "In msg nelems"))
        return &event.messageElements;
    if (rawEquals(key, "Seq"))
        return &event.sequence;
    return nullptr;
}

error_code readArgument(FieldResult& argument, PendingEvent& event)
{
    ondemand::raw_json_string argumentKey;
    if (const error_code error = argument.key().get(argumentKey))
        return error;
    const char* key = argumentKey.raw();
    if (rawEquals(key, "dtype")) {
        // The text lives in the parser's string buffer until the event is stored.
        ondemand::value dtype;
        std::string_view text;
        if (!argument.value().get(dtype) && !dtype.get_string().get(text))
            event.dtype = text;
        return simdjson::SUCCESS;
    }
    if (event.kind == EventKind::CpuOp && key[0] == 'P' && rawEquals(key, "Process Group Name")) {
        ondemand::value group;
        std::string_view text;
        if (!argument.value().get(group) && !group.get_string().get(text))
            event.processGroup = text;
        return simdjson::SUCCESS;
    }
    // The key first: the name's seven substring searches cost ~5% of a with-stack load when run
    // for every argument of every operator.
    if (event.kind == EventKind::CpuOp && key[0] == 'I'
        && (rawEquals(key, "Input Dims") || rawEquals(key, "Input type"))) {
        if (event.collective == 0)
            event.collective = isCollectiveOperator(event.rawName) ? 1 : 2;
        if (event.collective == 2)
            readShapeArgument(argument, key, event);
        else
            readCollectiveInput(argument, key, event);
        return simdjson::SUCCESS;
    }
    if (event.kind == EventKind::CpuOp && key[0] == 'C' && rawEquals(key, "Concrete Inputs")) {
        readShapeArgument(argument, key, event);
        return simdjson::SUCCESS;
    }
    int64_t* target = integerArgument(key, event);
    if (!target)
        return simdjson::SUCCESS;
    ondemand::value argumentValue;
    if (const error_code error = argument.value().get(argumentValue))
        return error;
    FieldRead how = FieldRead::Read;
    if (const error_code error = readInteger(argumentValue, *target, how))
        return error;
    if (how == FieldRead::Unusable)
        *target = kNoId;
    // device and stream only stand in for pid and tid: no need to count them.
    if (target != &event.argsDevice && target != &event.argsStream && target != &event.messageElements
        && target != &event.sequence)
        event.count(how);
    return simdjson::SUCCESS;
}

// "args": the ids that link events, a kernel's device and stream, a collective's message size.
error_code readArgs(ondemand::value value, PendingEvent& event)
{
    ondemand::object args;
    error_code error = value.get_object().get(args);
    if (error == simdjson::INCORRECT_TYPE) {
        ++event.ignored;
        return simdjson::SUCCESS;
    }
    if (error)
        return error;
    event.collective = 0;
    for (auto argument : args) {
        if ((error = readArgument(argument, event)))
            return error;
    }
    return simdjson::SUCCESS;
}

// A number field ("ts", "dur"): `has` tells whether it was usable.
[[gnu::always_inline]] inline error_code readTime(ondemand::value value, double& out, bool& has, PendingEvent& event)
{
    FieldRead how = FieldRead::Read;
    if (const error_code error = readDouble(value, out, how))
        return error;
    has = how != FieldRead::Unusable;
    event.count(how);
    return simdjson::SUCCESS;
}

// "pid" or "tid", counted apart: a kernel's args.device and args.stream may stand in for them.
[[gnu::always_inline]] inline error_code readPidOrTid(
    ondemand::value value, int64_t& out, bool& has, PendingEvent& event)
{
    FieldRead how = FieldRead::Read;
    if (const error_code error = readInteger(value, out, how))
        return error;
    has = true;
    event.countPidTid(how);
    return simdjson::SUCCESS;
}

// One field of the event object, by its key; fields nobody reads are skipped.
error_code readField(FieldResult& field, PendingEvent& event)
{
    ondemand::raw_json_string rawKey;
    if (const error_code error = field.key().get(rawKey))
        return error;
    const char* key = rawKey.raw();
    ondemand::value value;
    if (const error_code error = field.value().get(value))
        return error;
    switch (key[0]) {
    case 'c':
        return rawEquals(key, "cat") ? readCategory(value, event) : simdjson::SUCCESS;
    case 'n':
        if (rawEquals(key, "name"))
            readName(value, event);
        return simdjson::SUCCESS;
    case 't':
        if (rawEquals(key, "ts"))
            return readTime(value, event.ts, event.hasTs, event);
        if (rawEquals(key, "tid"))
            return readPidOrTid(value, event.tid, event.hasTid, event);
        return simdjson::SUCCESS;
    case 'd':
        if (rawEquals(key, "dur")) {
            if (const error_code error = readTime(value, event.dur, event.hasDur, event))
                return error;
            if (!event.hasDur)
                event.dur = 0;
        }
        return simdjson::SUCCESS;
    case 'p':
        return rawEquals(key, "pid") ? readPidOrTid(value, event.pid, event.hasPid, event) : simdjson::SUCCESS;
    case 'a':
        return rawEquals(key, "args") ? readArgs(value, event) : simdjson::SUCCESS;
    default:
        return simdjson::SUCCESS;
    }
}

// True once the rest of the object cannot matter: an irrelevant category, or a Python frame
// (the most numerous events of with_stack traces, which need no args) with all it needs.
bool doneReading(const PendingEvent& event)
{
    if (event.kind == EventKind::Irrelevant)
        return true;
    return event.kind == EventKind::PythonFunction && event.hasName && event.hasTs && event.hasDur && event.hasPid
        && event.hasTid;
}

// A kernel's args.device and args.stream win over its pid and tid (whose conversions then do not
// count); the event's conversions go into the statistics.
void settleStreamAndConversions(PendingEvent& event, LoadStatistics& statistics)
{
    const bool streamFromArgs = (event.kind == EventKind::Kernel || event.kind == EventKind::GpuCopy)
        && event.argsDevice != kNoId && event.argsStream != kNoId;
    if (streamFromArgs) {
        event.pid = event.argsDevice;
        event.tid = event.argsStream;
    } else {
        event.coerced += event.pidTidCoerced;
        event.ignored += event.pidTidIgnored;
    }
    statistics.coercedFields += event.coerced;
    statistics.ignoredFields += event.ignored;
}

} // namespace

EventDecoder::EventDecoder(TraceStore& store)
    : m_store(store)
{ }

uint32_t EventDecoder::pythonThread(int64_t pid, int64_t tid)
{
    const ThreadId thread { pid, tid };
    std::vector<ThreadId>& threads = m_store.pythonThreads;
    if (m_lastPythonThread < threads.size() && threads[m_lastPythonThread] == thread)
        return m_lastPythonThread;
    const auto [known, added] = m_pythonThreadIndex.try_emplace(thread, uint32_t(threads.size()));
    if (added)
        threads.push_back(thread);
    m_lastPythonThread = known->second;
    return m_lastPythonThread;
}

error_code EventDecoder::decode(ondemand::value& element, const char* limit, const char*& end)
{
    ondemand::object object;
    error_code error = element.get_object().get(object);
    if (error == simdjson::INCORRECT_TYPE)
        return skipNonObject(element, limit, end);
    if (error)
        return error;

    PendingEvent event;
    for (auto field : object) {
        if ((error = readField(field, event)))
            return error;
        if (doneReading(event))
            break;
    }
    const char* objectEndsAt = nullptr;
    if ((error = objectEnd(object, objectEndsAt)))
        return error;
    if (objectEndsAt > limit)
        return simdjson::INCOMPLETE_ARRAY_OR_OBJECT;
    end = objectEndsAt;
    return store(event);
}

error_code EventDecoder::skipNonObject(ondemand::value element, const char* limit, const char*& end)
{
    ondemand::json_type type {};
    error_code error = element.type().get(type);
    if (error)
        return error;
    std::string_view text;
    if (type == ondemand::json_type::array) {
        ondemand::array array;
        if ((error = element.get_array().get(array)) || (error = array.raw_json().get(text)))
            return error;
    } else {
        text = element.raw_json_token();
    }
    // Not read, but a pathological value: reject it as other JSON parsers would.
    if (nestsDeeperThan(text, kMaxNesting))
        return simdjson::DEPTH_ERROR;
    if (text.data() + text.size() > limit)
        return simdjson::INCOMPLETE_ARRAY_OR_OBJECT;
    end = text.data() + text.size();
    ++m_store.statistics.nonObjectEvents;
    return simdjson::SUCCESS;
}

error_code EventDecoder::store(PendingEvent& event)
{
    if (event.kind == EventKind::Unknown || event.kind == EventKind::Irrelevant)
        return simdjson::SUCCESS;
    LoadStatistics& statistics = m_store.statistics;
    if (!event.hasName || !event.hasTs) {
        ++statistics.eventsMissingFields;
        return simdjson::SUCCESS;
    }
    if (!event.hasDur)
        ++statistics.eventsMissingDuration;
    settleStreamAndConversions(event, statistics);
    if (event.kind == EventKind::PythonFunction && !event.rawName.starts_with(kModulePrefix))
        return storePythonFrame(event);
    if (event.kind == EventKind::PythonFunction) {
        std::string_view name;
        if (!decodeName(event.rawName, name))
            return simdjson::STRING_ERROR;
        m_store.modules.push_back(
            { event.ts, event.dur, event.pid, event.tid, m_store.strings.intern(name.substr(kModulePrefix.size())) });
        return simdjson::SUCCESS;
    }
    StringId nameId = 0;
    if (!internOnce(
            m_eventNames, event.rawName, [](std::string_view name) { return name; }, nameId))
        return simdjson::STRING_ERROR;
    switch (event.kind) {
    case EventKind::Kernel:
        m_store.kernels.push_back({ event.ts, event.dur, event.correlation, event.externalId, narrowGpuId(event.pid),
            narrowGpuId(event.tid), nameId });
        break;
    case EventKind::GpuCopy:
        m_store.gpuCopies.push_back(
            { event.ts, event.dur, event.correlation, narrowGpuId(event.pid), narrowGpuId(event.tid) });
        break;
    case EventKind::Runtime:
        m_store.runtimeCalls.push_back(
            { event.ts, event.dur, event.correlation, event.externalId, event.pid, event.tid, nameId, false });
        break;
    case EventKind::CpuOp:
        storeCpuOp(event, nameId);
        break;
    case EventKind::CpuAnnotation:
    case EventKind::GpuAnnotation:
        m_store.annotations.push_back(
            { event.ts, event.dur, event.pid, event.tid, nameId, event.kind == EventKind::GpuAnnotation });
        break;
    case EventKind::PythonFunction:
    case EventKind::Unknown:
    case EventKind::Irrelevant:
        break;
    }
    return simdjson::SUCCESS;
}

bool EventDecoder::decodeName(std::string_view raw, std::string_view& name)
{
    bool ok = false;
    name = decodeJsonStringContent(raw, m_scratch, ok);
    return ok;
}

template<typename Key>
bool EventDecoder::internOnce(RawNameTable& table, std::string_view raw, Key&& key, StringId& id)
{
    if (const uint32_t* known = table.find(raw)) {
        id = *known;
        return true;
    }
    std::string_view name;
    if (!decodeName(raw, name))
        return false;
    id = m_store.strings.intern(key(name));
    table.insert(raw, id);
    return true;
}

error_code EventDecoder::storePythonFrame(const PendingEvent& event)
{
    // Python frames repeat a few hundred names tens of thousands of times: each raw name is
    // decoded and shortened once.
    StringId key = 0;
    const auto frameKey = [this](std::string_view name) { return pythonFrameKey(name, m_frameKey); };
    if (!internOnce(m_pythonFrameNames, event.rawName, frameKey, key))
        return simdjson::STRING_ERROR;
    m_pythonFrames.push_back({ event.ts, event.dur, pythonThread(event.pid, event.tid), key });
    return simdjson::SUCCESS;
}

void EventDecoder::storeCpuOp(const PendingEvent& event, StringId nameId)
{
    // A collective's message: from record_param_comms' args, else from the operator's first input.
    const bool messageRecorded = event.messageElements != kNoId && event.messageElements >= 0;
    if (messageRecorded || !event.processGroup.empty() || event.sequence != kNoId)
        m_store.commMessages.push_back({ uint32_t(m_store.cpuOps.size()), messageRecorded ? event.messageElements : -1,
            dtypeBytes(event.dtype), std::string(event.processGroup), event.sequence != kNoId ? event.sequence : -1 });
    else if (event.inputElements != kNoId)
        m_store.commMessages.push_back(
            { uint32_t(m_store.cpuOps.size()), event.inputElements, dtypeBytes(event.inputType), {}, -1 });
    if (!event.shapeDims.empty() && event.collective != 1) {
        m_shapeText.assign(event.shapeDims);
        m_shapeText += '\x1f';
        m_shapeText += event.shapeTypes;
        m_shapeText += '\x1f';
        m_shapeText += event.shapeConcrete;
        m_store.opShapes.push_back({ uint32_t(m_store.cpuOps.size()), m_store.shapeTexts.intern(m_shapeText) });
    }
    m_store.cpuOps.push_back({ event.ts, event.dur, event.externalId, event.pid, event.tid, nameId });
}

} // namespace fusiondiff
