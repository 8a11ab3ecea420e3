#pragma once

#include "classify/classifier.h"

#include <cstdint>
#include <span>
#include <vector>

namespace fusiondiff {

struct TraceStore;

// The category and fusion tags of every kernel of a trace. Each distinct kernel name is
// classified once.
struct KernelTypes
{
    std::vector<CategoryId> ofName; // indexed by StringId; meaningful for kernel names only
    std::vector<uint64_t> tagsOfName; // indexed by StringId: bit t for Classifier::tags()[t]
    std::vector<CategoryId> ofKernel; // indexed like TraceStore::kernels
};

KernelTypes classifyKernels(const TraceStore& store, const Classifier& classifier);

// `indices` (into store.kernels) ordered by start time; kernels that start together keep their
// order (the seed sorts stably by ts).
std::vector<uint32_t> inTimeOrder(const TraceStore& store, std::span<const uint32_t> indices);

// The types of the kernels `indices`, in that order.
std::vector<CategoryId> typesOf(const KernelTypes& types, std::span<const uint32_t> indices);

} // namespace fusiondiff
