#pragma once

#include <QString>

namespace fusiondiff {
class Classifier;
struct TraceStore;
} // namespace fusiondiff

namespace fusiondiff::ui {

// What the start page shows of the one trace loaded while it waits for the other: its kernels and
// GPU time per kernel type, and its `topKernels` kernels that take the most GPU time, as HTML.
QString oneTraceHtml(const TraceStore& store, const Classifier& classifier, int topKernels);

} // namespace fusiondiff::ui
