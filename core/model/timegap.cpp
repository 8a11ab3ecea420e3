#include "model/timegap.h"

#include <algorithm>
#include <cmath>

namespace fusiondiff {

const char* gapCauseKey(GapCause cause)
{
    switch (cause) {
    case GapCause::Fusion:
        return "fusion";
    case GapCause::Speed:
        return "speed";
    case GapCause::Collectives:
        return "collectives";
    case GapCause::OneSide:
        return "one_side";
    case GapCause::NotCompared:
        return "not_compared";
    case GapCause::Unattributed:
        return "unattributed";
    case GapCause::Overlap:
        return "overlap";
    case GapCause::Idle:
        return "idle";
    case GapCause::Copies:
        return "copies";
    case GapCause::IdleHost:
        return "host";
    case GapCause::IdleSync:
        return "sync";
    case GapCause::IdleLaunch:
        return "launch";
    case GapCause::IdleOther:
        return "other_idle";
    case GapCause::NotRecorded:
        return "not_recorded";
    case GapCause::Residual:
        return "residual";
    }
    return "";
}

const char* timeBasisKey(TimeBasis basis)
{
    switch (basis) {
    case TimeBasis::GpuKernelTime:
        return "gpu_kernel_time";
    case TimeBasis::GpuWallTime:
        return "gpu_wall_time";
    case TimeBasis::StepTime:
        return "step_time";
    }
    return "";
}

const char* noiseVerdictKey(NoiseVerdict verdict)
{
    switch (verdict) {
    case NoiseVerdict::Significant:
        return "significant";
    case NoiseVerdict::WithinNoise:
        return "within_noise";
    case NoiseVerdict::CannotTell:
        return "cannot_tell";
    }
    return "";
}

const char* lookFirstKindKey(LookFirstKind kind)
{
    switch (kind) {
    case LookFirstKind::Fusion:
        return "fusion";
    case LookFirstKind::Speed:
        return "speed";
    case LookFirstKind::Collective:
        return "collective";
    case LookFirstKind::OneSide:
        return "one_side";
    case LookFirstKind::KernelType:
        return "kernel_type";
    case LookFirstKind::Host:
        return "host";
    case LookFirstKind::Sync:
        return "sync";
    case LookFirstKind::Launch:
        return "launch";
    case LookFirstKind::Straggler:
        return "straggler";
    }
    return "";
}

double TimeGapBreakdown::share() const
{
    const double faster = std::min(timeUs[0], timeUs[1]);
    return faster > 0 ? std::fabs(deltaUs) / faster : 0.0;
}

} // namespace fusiondiff
