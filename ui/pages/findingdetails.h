#pragma once

#include <QString>

namespace fusiondiff {
struct FusionReport;
struct OpFinding;
} // namespace fusiondiff

namespace fusiondiff::ui {

// One operation finding in words, as rich text: the operation and its summary, the call stack
// (outermost first), each extra run with its explanation ("x20" when it repeats; a link
// "run:<index>" to its rows), and the GPU time per call on each side with its spread.
QString findingDetailsHtml(const FusionReport& report, const OpFinding& finding);

} // namespace fusiondiff::ui
