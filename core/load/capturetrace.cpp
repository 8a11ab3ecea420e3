#include "load/capturetrace.h"

#include "load/bytereader.h"
#include "util/inputerror.h"

#include <simdjson.h>

#include <algorithm>
#include <memory>
#include <unordered_map>

namespace fusiondiff {

namespace {

namespace ondemand = simdjson::ondemand;

// The events of a capture trace that matter, per thread.
struct Frame
{
    double ts = 0;
    double end = 0;
    std::string name;
    bool isOperator = false; // a cpu_op (else a Python frame)
};

struct Call
{
    double ts = 0;
    std::string name;
    std::string kernel;
};

struct Annotation
{
    double ts = 0;
    double end = 0;
    std::string name;
};

struct ThreadEvents
{
    std::vector<Frame> frames;
    std::vector<Call> calls;
};

std::string readAll(ByteReader& reader)
{
    std::string bytes;
    std::vector<char> block(size_t(4) << 20);
    while (const size_t got = reader.read(block.data(), block.size())) {
        if (bytes.size() + got > kMaxCaptureBytes)
            throw InputError(reader.path(),
                "the capture trace holds more than 2 GiB of JSON: a graph-capture trace is "
                "much smaller (did you give the replay trace as the capture trace?)");
        bytes.append(block.data(), got);
    }
    return bytes;
}

double numberOf(ondemand::value value)
{
    double number = 0;
    if (!value.get_double().get(number))
        return number;
    std::string_view text;
    if (!value.get_string().get(text)) {
        try {
            return std::stod(std::string(text));
        } catch (...) { }
    }
    return 0;
}

bool isLaunchCall(const Call& call)
{
    return !call.kernel.empty()
        || ((call.name.find("LaunchKernel") != std::string::npos
                || call.name.find("LaunchCooperativeKernel") != std::string::npos)
            && call.name.find("Graph") == std::string::npos);
}

class CaptureReader
{
public:
    explicit CaptureReader(const std::string& path)
        : m_path(path)
    { }

    CaptureTrace read(std::string bytes)
    {
        const simdjson::padded_string json(bytes);
        bytes.clear();
        bytes.shrink_to_fit();
        ondemand::parser parser(std::max<size_t>(json.size(), 1024));
        ondemand::document document;
        check(parser.iterate(json).get(document));
        ondemand::json_type type {};
        check(document.type().get(type));
        if (type == ondemand::json_type::array) {
            ondemand::array events;
            check(document.get_array().get(events));
            readEvents(events);
        } else {
            ondemand::object top;
            check(document.get_object().get(top));
            ondemand::array events;
            const auto error = top.find_field_unordered("traceEvents").get_array().get(events);
            if (error == simdjson::NO_SUCH_FIELD)
                throw InputError(m_path, "no \"traceEvents\" array: this is not a PyTorch profiler (Kineto) trace");
            check(error);
            readEvents(events);
        }
        return build();
    }

private:
    void check(simdjson::error_code error) const
    {
        if (error)
            throw InputError(m_path, std::string("not a valid capture trace: ") + simdjson::error_message(error));
    }

    void readEvents(ondemand::array& events)
    {
        for (auto element : events) {
            ondemand::object event;
            if (element.get_object().get(event))
                continue;
            std::string_view category;
            std::string_view name;
            double ts = 0;
            double dur = 0;
            int64_t tid = 0;
            std::string_view kernel;
            bool hasTs = false;
            for (auto field : event) {
                std::string_view key;
                check(field.unescaped_key().get(key));
                ondemand::value value;
                check(field.value().get(value));
                if (key == "cat") {
                    if (value.get_string().get(category))
                        category = {};
                } else if (key == "name") {
                    if (value.get_string().get(name)) // views into the document: valid until it is done
                        name = {};
                } else if (key == "ts") {
                    ts = numberOf(value);
                    hasTs = true;
                } else if (key == "dur") {
                    dur = numberOf(value);
                } else if (key == "tid") {
                    int64_t number = 0;
                    if (!value.get_int64().get(number))
                        tid = number;
                    else
                        tid = int64_t(numberOf(value));
                } else if (key == "args") {
                    ondemand::object args;
                    if (value.get_object().get(args))
                        continue;
                    for (auto argument : args) {
                        std::string_view argumentKey;
                        check(argument.unescaped_key().get(argumentKey));
                        if (argumentKey != "kernel")
                            continue;
                        ondemand::value argumentValue;
                        check(argument.value().get(argumentValue));
                        if (argumentValue.get_string().get(kernel))
                            kernel = {};
                    }
                }
            }
            if (!hasTs || name.empty())
                continue;
            if (category == "cpu_op" || category == "Operator" || category == "python_function") {
                m_threads[tid].frames.push_back({ ts, ts + dur, std::string(name), category != "python_function" });
            } else if (category == "cuda_runtime" || category == "cuda_driver" || category == "Runtime") {
                m_threads[tid].calls.push_back({ ts, std::string(name), std::string(kernel) });
            } else if (category == "user_annotation") {
                if (!name.starts_with("ProfilerStep#"))
                    m_annotations.push_back({ ts, ts + dur, std::string(name) });
            }
        }
    }

    // The outermost annotation around `ts`, or "".
    std::string annotationAround(double ts) const
    {
        const Annotation* outermost = nullptr;
        for (const Annotation& annotation : m_annotations) {
            if (annotation.ts <= ts && ts <= annotation.end
                && (!outermost || annotation.end - annotation.ts > outermost->end - outermost->ts))
                outermost = &annotation;
        }
        return outermost ? outermost->name : "";
    }

    CaptureTrace build()
    {
        CaptureTrace trace;
        trace.path = m_path;
        const auto slash = m_path.find_last_of('/');
        trace.fileName = slash == std::string::npos ? m_path : m_path.substr(slash + 1);
        struct Numbered
        {
            double ts;
            CapturedGraph graph;
        };
        std::vector<Numbered> graphs;
        for (auto& [tid, events] : m_threads) {
            std::stable_sort(
                events.calls.begin(), events.calls.end(), [](const Call& a, const Call& b) { return a.ts < b.ts; });
            // Enclosing frames first: by start, longer first.
            std::stable_sort(events.frames.begin(), events.frames.end(),
                [](const Frame& a, const Frame& b) { return a.ts != b.ts ? a.ts < b.ts : a.end > b.end; });
            std::vector<const Frame*> open;
            size_t nextFrame = 0;
            bool capturing = false;
            double captureTs = 0;
            CapturedGraph graph;
            for (const Call& call : events.calls) {
                while (nextFrame < events.frames.size() && events.frames[nextFrame].ts <= call.ts) {
                    const Frame& frame = events.frames[nextFrame++];
                    while (!open.empty() && open.back()->end < frame.ts)
                        open.pop_back();
                    open.push_back(&frame);
                }
                while (!open.empty() && open.back()->end < call.ts)
                    open.pop_back();
                if (call.name.find("BeginCapture") != std::string::npos) {
                    capturing = true;
                    captureTs = call.ts;
                    graph = {};
                } else if (call.name.find("EndCapture") != std::string::npos) {
                    if (capturing && !graph.launches.empty()) {
                        graphs.push_back({ captureTs, std::move(graph) });
                        graph = {};
                    }
                    capturing = false;
                } else if (capturing && isLaunchCall(call)) {
                    graph.launches.push_back(launchOf(call, open));
                }
            }
        }
        if (graphs.empty())
            throw InputError(m_path,
                "no graph capture in this trace (no kernel launch between a "
                "cudaStreamBeginCapture/hipStreamBeginCapture and its EndCapture): it is not a "
                "graph-capture trace");
        std::stable_sort(
            graphs.begin(), graphs.end(), [](const Numbered& a, const Numbered& b) { return a.ts < b.ts; });
        std::unordered_map<std::string, int> numberOfName;
        std::unordered_map<std::string, int> countOfName;
        for (const Numbered& numbered : graphs)
            ++countOfName[annotationAround(numbered.ts)];
        for (Numbered& numbered : graphs) {
            std::string name = annotationAround(numbered.ts);
            if (name.empty())
                name = "capture";
            const int number = ++numberOfName[name];
            if (countOfName[annotationAround(numbered.ts)] > 1 || name == "capture")
                name += " #" + std::to_string(number);
            numbered.graph.name = std::move(name);
            trace.graphs.push_back(std::move(numbered.graph));
        }
        return trace;
    }

    static CapturedLaunch launchOf(const Call& call, const std::vector<const Frame*>& open)
    {
        CapturedLaunch launch;
        launch.kernel = call.kernel;
        std::string innermostPython;
        for (const Frame* frame : open) {
            if (frame->end < call.ts)
                continue;
            if (frame->name.starts_with("<built-in"))
                continue; // C++ entry points: their Python caller names them better
            launch.stack.push_back(frame->name);
            if (frame->isOperator && launch.op.empty())
                launch.op = frame->name;
            if (!frame->isOperator)
                innermostPython = frame->name;
        }
        if (launch.op.empty())
            launch.op = innermostPython;
        return launch;
    }

    std::string m_path;
    std::unordered_map<int64_t, ThreadEvents> m_threads;
    std::vector<Annotation> m_annotations;
};

} // namespace

CaptureTrace loadCaptureTrace(const std::string& path)
{
    const std::unique_ptr<ByteReader> reader = openTraceFile(path);
    return CaptureReader(path).read(readAll(*reader));
}

CaptureTrace loadCaptureTraceFromMemory(std::string_view bytes, const std::string& name)
{
    const std::unique_ptr<ByteReader> reader = openTraceBuffer(name, bytes);
    return CaptureReader(name).read(readAll(*reader));
}

} // namespace fusiondiff
