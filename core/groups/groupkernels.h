#pragma once

#include "classify/classifier.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fusiondiff {

struct TraceStore;

struct GroupKernel
{
    std::string name;
    CategoryId type = 0;
    double ts = 0;
    double dur = 0;
};

// The kernels of one correlation group in time order, for drilling into a matched group pair.
std::vector<GroupKernel> kernelsOfGroup(const TraceStore& store, const Classifier& classifier, int64_t correlation);

} // namespace fusiondiff
