#pragma once

#include <cstddef>
#include <cstring>

namespace fusiondiff {

// What the loader makes of an event, by its category.
enum class EventKind
{
    Unknown, // `cat` not seen yet
    Kernel,
    GpuCopy, // a copy or memset on the device (`gpu_memcpy`, `gpu_memset`, 2021: `Memcpy`, `Memset`)
    Runtime,
    CpuOp,
    CpuAnnotation,
    GpuAnnotation,
    PythonFunction, // a module call, or another Python frame
    Irrelevant,
};

// `raw` points just after an opening quote (a string as On-Demand leaves it, still escaped); true
// if the string there is exactly `literal`.
template<size_t N>
bool rawEquals(const char* raw, const char (&literal)[N])
{
    return std::memcmp(raw, literal, N - 1) == 0 && raw[N - 1] == '"';
}

// The kind of the events whose `cat` starts at `raw` (just after its opening quote); Irrelevant for
// the categories no analysis reads.
inline EventKind kindOfCategory(const char* raw)
{
    switch (raw[0]) {
    case 'k':
        return rawEquals(raw, "kernel") ? EventKind::Kernel : EventKind::Irrelevant;
    case 'K':
        return rawEquals(raw, "Kernel") ? EventKind::Kernel : EventKind::Irrelevant;
    case 'c':
        if (rawEquals(raw, "cpu_op"))
            return EventKind::CpuOp;
        if (rawEquals(raw, "cuda_runtime") || rawEquals(raw, "cuda_driver"))
            return EventKind::Runtime;
        return EventKind::Irrelevant;
    case 'R':
        return rawEquals(raw, "Runtime") ? EventKind::Runtime : EventKind::Irrelevant;
    case 'M':
        return rawEquals(raw, "Memcpy") || rawEquals(raw, "Memset") ? EventKind::GpuCopy : EventKind::Irrelevant;
    case 'O':
        return rawEquals(raw, "Operator") ? EventKind::CpuOp : EventKind::Irrelevant;
    case 'p':
        return rawEquals(raw, "python_function") ? EventKind::PythonFunction : EventKind::Irrelevant;
    case 'u':
        return rawEquals(raw, "user_annotation") ? EventKind::CpuAnnotation : EventKind::Irrelevant;
    case 'g':
        if (rawEquals(raw, "gpu_memcpy") || rawEquals(raw, "gpu_memset"))
            return EventKind::GpuCopy;
        return rawEquals(raw, "gpu_user_annotation") ? EventKind::GpuAnnotation : EventKind::Irrelevant;
    default:
        return EventKind::Irrelevant;
    }
}

} // namespace fusiondiff
