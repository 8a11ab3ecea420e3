#pragma once

// How another software stack names what a trace records: operators, autograd nodes, nn.Module
// classes and kernels, for the cross-stack pair constructor (crossstack.h). Written from how the
// stacks name things (PyTorch on CUDA and on ROCm, other autograd engines, Tensile and hipBLASLt,
// MIOpen, cuDNN, CUTLASS, rocPRIM, RCCL), not from the analysis's rules.
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>

namespace fusiondiff::test::crossstack {

using Rng = std::mt19937_64;

// Operator names of the other stack: every name changes, consistently, one to one.
class OperatorRenamer
{
public:
    explicit OperatorRenamer(Rng& rng);
    // "aten::addmm" -> "hpu::linear_fwd"; an autograd node ("ReluBackward0", recorded alone or
    // inside the engine's wrapper) by another engine's convention ("relu_backward", "GradRelu",
    // "vjp::relu"); the engine's own nodes too ("torch::autograd::AccumulateGrad").
    std::string rename(const std::string& name);
    // "nn.Module: Linear_3" -> "nn.Module: Dense_3"
    std::string renameModule(const std::string& name);

private:
    std::string renameOperator(const std::string& name);
    std::string renameNode(const std::string& node);
    std::string unique(std::string name);

    Rng& m_rng;
    std::string m_atenNamespace;
    std::string m_suffix;
    int m_nodeStyle = 0;
    std::map<std::string, std::string> m_renamed;
    std::set<std::string> m_used;
};

// Kernel names of the other vendor's libraries: a CUDA trace's as ROCm names them and the other
// way around (`toRocm`), keeping what the kernel does (GEMM, convolution, batch norm, elementwise,
// reduction, scan, collective) but in that stack's own words.
class KernelRenamer
{
public:
    KernelRenamer(Rng& rng, bool toRocm);
    std::string rename(const std::string& name);
    // The name of a kernel that does the second half of a split one, in the same stack's style.
    std::string secondPartOf(const std::string& renamed);
    // A collective's kernel in B's library (`collective` "AllReduce", "ReduceScatter", "AllGather").
    std::string collectiveKernel(const std::string& collective) const;

private:
    std::string gemm(const std::string& lowered);
    std::string convolution(const std::string& lowered);

    Rng& m_rng;
    bool m_toRocm;
    int m_tritonShift = 0;
    std::map<std::string, std::string> m_renamed;
    uint64_t m_next = 1;
};

// Whether the kernel names say the trace ran on ROCm (Tensile, MIOpen, rocPRIM names).
bool looksLikeRocm(const std::string& kernelName);

} // namespace fusiondiff::test::crossstack
