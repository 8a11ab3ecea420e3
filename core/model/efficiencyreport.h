#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fusiondiff {

// One side of an efficiency row. A negative number is a blank cell; `blank` says why.
struct EfficiencySide
{
    uint64_t calls = 0;
    double medianUs = -1; // the median call's time on the GPU: all the kernels the call launched
    double tflops = -1; // achieved: flops / median
    double tbps = -1; // achieved: bytes / median
    double peakTflops = -1; // the GPU's dense matrix peak for the row's data type
    double peakTbps = -1; // the GPU's HBM bandwidth
    double peakShare = -1; // achieved / the roof that binds (compute or memory), 0..1 and above
    std::string bound; // "compute" or "memory": which roof binds at the row's intensity on this GPU
    std::string blank; // why cells of this side are blank ("" when none is)
};

// One operator, shape and data type, both sides (docs/report-format.md, table `efficiency`).
struct EfficiencyRow
{
    std::string op; // "aten::addmm"
    std::string family; // "GEMM", "attention", "convolution", "memory", "" (no model)
    std::string shape; // "M=8944 N=1024 K=1024 bias"
    std::string dtype; // "bf16"
    double flops = -1; // per call; negative: blank, `workBlank` says why
    double bytes = -1;
    std::string workBlank;
    std::array<EfficiencySide, 2> sides;
    // Time at stake: the calls both run × (A's median − B's median), or, for a row one side alone
    // runs, that side's calls × its median (positive on A's side, negative on B's).
    double stakeUs = 0;
};

// What a side's GPU was taken to be.
struct EfficiencyGpu
{
    std::string gpu; // the peaks file's row ("H100 SXM"); empty if unknown
    std::string how; // how it was detected, or why it was not
    std::string source; // the row's datasheet
};

struct EfficiencyReport
{
    std::string peaksDefinition; // "datasheet", or a replacing file's definition
    std::string peaksOrigin; // "built-in" or the file's path
    std::array<EfficiencyGpu, 2> gpus;
    // Per side: the GPU time of all kernels, and the part of it in rows with FLOPs or bytes (what the
    // table can judge against the peaks).
    std::array<double, 2> kernelUs { 0, 0 };
    std::array<double, 2> modelledUs { 0, 0 };
    std::vector<EfficiencyRow> rows; // largest |stakeUs| first
};

} // namespace fusiondiff
