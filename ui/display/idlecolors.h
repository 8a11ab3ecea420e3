#pragma once

#include "model/steptime.h"

#include <QColor>
#include <QString>

namespace fusiondiff::ui {

// One colour per cause of the GPU's idle time (host, sync, launch, between steps, other), the
// same wherever idle time is drawn (the Steps chart, the Timeline's shading); each is readable on
// both light and dark bases, and none is a side's colour (busy time is drawn in the side's).
QColor idleCauseColor(IdleCause cause);
// The cause in words, for legends and tooltips: "host", "sync", "launch", "between steps", "other".
QString idleCauseName(IdleCause cause);

} // namespace fusiondiff::ui
