#pragma once

#include <QStringList>

namespace fusiondiff::ui {

// The bundled cross-vendor sample pair (A: MI300X, B: H100), looked up next to the executable
// (../share/fusiondiff/samples, where it is installed) and then in the source tree it was built
// from. Empty if neither has both files.
QStringList sampleTracePaths();

} // namespace fusiondiff::ui
