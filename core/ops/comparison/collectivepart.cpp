#include "ops/comparison/collectivepart.h"

#include "ops/comparison/kernelwork.h"
#include "util/textformat.h"

namespace fusiondiff {

std::vector<bool> collectivePositions(const std::vector<FindingKernel>& kernels, const NamingContext& naming)
{
    std::vector<bool> positions(kernels.size(), false);
    for (size_t position = 0; position < kernels.size(); ++position) {
        const FindingKernel& kernel = kernels[position];
        const std::string& typeName
            = kernel.type < naming.typeNames.size() ? naming.typeNames[kernel.type] : std::string();
        positions[position] = kernelWork(typeName, kernel.name) == KernelWork::Communication;
    }
    return positions;
}

void setCollectiveKernels(OpFinding& finding, const std::array<const TraceStore*, 2>& stores,
    const std::array<std::vector<std::vector<uint32_t>>, 2>& occurrences,
    const std::array<std::vector<bool>, 2>& positions)
{
    for (size_t side = 0; side < 2; ++side) {
        uint32_t count = 0;
        for (const bool collective : positions[side])
            count += collective ? 1 : 0;
        finding.collectiveKernels[side] = count;
        double time = 0;
        if (count > 0) {
            for (const auto& kernels : occurrences[side]) {
                for (size_t position = 0; position < kernels.size() && position < positions[side].size(); ++position) {
                    if (positions[side][position])
                        time += stores[side]->kernels[kernels[position]].dur;
                }
            }
        }
        finding.collectiveUs[side] = time;
    }
}

bool differsOnlyInCollectives(const OpFinding& finding)
{
    if (finding.collectiveKernels[0] == 0 && finding.collectiveKernels[1] == 0)
        return false;
    return finding.kernels[0].size() - finding.collectiveKernels[0]
        == finding.kernels[1].size() - finding.collectiveKernels[1];
}

std::string collectiveText(const OpFinding& finding, const NamingContext& naming)
{
    if (finding.collectiveKernels[0] == 0 && finding.collectiveKernels[1] == 0)
        return {};
    std::string sides;
    for (size_t side = 0; side < 2; ++side) {
        sides += (side == 0 ? "" : "; ") + naming.sideNames[side] + " ";
        if (finding.collectiveKernels[side] == 0)
            sides += "none";
        else
            sides += withThousands(int64_t(finding.collectiveKernels[side])) + " a "
                + (finding.isGraph ? "launch" : "call") + ", " + formatDuration(finding.collectiveUs[side]) + " in all";
    }
    return "; its communication kernels are left out of this comparison, counted as collectives: " + sides;
}

} // namespace fusiondiff
