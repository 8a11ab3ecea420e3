#include "display/idlecolors.h"

#include <QCoreApplication>

namespace fusiondiff::ui {

// Chosen by a greedy max-min search over the sRGB cube (lightness 38 to 68, chroma 35 or more:
// readable on the light and the dark base, and not washed out as the Timeline's tint) for the
// largest smallest difference, lightness counted half (colorDifference's weight 2), from every
// kernel type colour of both themes, the sides' colours and each other: launch idle was the
// default classifier's Elementwise teal, and sync idle a magenta beside its types'.
QColor idleCauseColor(IdleCause cause)
{
    switch (cause) {
    case IdleCause::Host:
        return QColor(0x69, 0x4B, 0xA5); // violet: the host runs code
    case IdleCause::Sync:
        return QColor(0x96, 0x3C, 0x4B); // wine: the host waits for the GPU
    case IdleCause::Launch:
        return QColor(0x78, 0xA5, 0x69); // sage: launched, started late
    case IdleCause::BetweenSteps:
        return QColor(0xB4, 0x87, 0xFF); // lavender: outside the compared steps
    case IdleCause::Other:
        break;
    }
    return QColor(0x5A, 0x69, 0x2D); // olive: not explained
}

QString idleCauseName(IdleCause cause)
{
    switch (cause) {
    case IdleCause::Host:
        return QCoreApplication::translate("IdleCause", "host");
    case IdleCause::Sync:
        return QCoreApplication::translate("IdleCause", "sync");
    case IdleCause::Launch:
        return QCoreApplication::translate("IdleCause", "launch");
    case IdleCause::BetweenSteps:
        return QCoreApplication::translate("IdleCause", "between steps");
    case IdleCause::Other:
        break;
    }
    return QCoreApplication::translate("IdleCause", "other");
}

} // namespace fusiondiff::ui
