#include "display/idlecolors.h"

#include <QCoreApplication>

namespace fusiondiff::ui {

QColor idleCauseColor(IdleCause cause)
{
    switch (cause) {
    case IdleCause::Host:
        return QColor(0x7e, 0x57, 0xc2); // violet: the host runs code (apart from A's orange)
    case IdleCause::Sync:
        return QColor(0xc0, 0x39, 0x8c); // magenta: the host waits for the GPU
    case IdleCause::Launch:
        return QColor(0x2a, 0xa1, 0x98); // teal: launched, started late
    case IdleCause::BetweenSteps:
        return QColor(0x9e, 0x9e, 0x9e); // grey: outside the compared steps
    case IdleCause::Other:
        break;
    }
    return QColor(0x8d, 0x6e, 0x63); // brown: not explained
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
