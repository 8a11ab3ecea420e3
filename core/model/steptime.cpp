#include "model/steptime.h"

namespace fusiondiff {

const char* idleCauseKey(IdleCause cause)
{
    switch (cause) {
    case IdleCause::Host:
        return "host";
    case IdleCause::Sync:
        return "sync";
    case IdleCause::Launch:
        return "launch";
    case IdleCause::BetweenSteps:
        return "between_steps";
    case IdleCause::Other:
        return "other_idle";
    }
    return "";
}

const char* hostCodeKindKey(HostCodeKind kind)
{
    switch (kind) {
    case HostCodeKind::Python:
        return "python";
    case HostCodeKind::Operator:
        return "operator";
    case HostCodeKind::Runtime:
        return "runtime";
    case HostCodeKind::None:
        return "none";
    }
    return "";
}

double StepRecord::idleTotalUs() const
{
    double total = 0;
    for (const double us : idleUs)
        total += us;
    return total;
}

} // namespace fusiondiff
