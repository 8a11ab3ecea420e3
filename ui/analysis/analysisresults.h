#pragma once

#include <QMetaType>

#include <array>
#include <memory>

namespace fusiondiff {
struct CaptureTrace;
class Classifier;
struct FusionReport;
struct TraceStore;
} // namespace fusiondiff

namespace fusiondiff::ui {

// One finished comparison and everything it was computed from, so that drilling into a group
// uses the same stores and rules as the report even while newer traces are being loaded.
// Cheap to copy and to queue across threads (shared, immutable parts).
struct AnalysisResults
{
    std::shared_ptr<const FusionReport> report;
    std::array<std::shared_ptr<const TraceStore>, 2> stores;
    std::array<std::shared_ptr<const CaptureTrace>, 2> captures; // null where the side has none
    std::shared_ptr<const Classifier> classifier;
    double analysisSeconds = 0; // classification and analysis, not loading
};

} // namespace fusiondiff::ui

Q_DECLARE_METATYPE(fusiondiff::ui::AnalysisResults)
