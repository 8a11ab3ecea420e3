#pragma once

#include "pairconstructor.h"

#include <QByteArray>

#include <cstdint>
#include <string>
#include <vector>

namespace fusiondiff {
class Classifier;
struct FusionReport;
} // namespace fusiondiff

namespace fusiondiff::test {

// A second constructor of cross-stack pairs, written apart from the analysis and from
// pairconstructor.h: B is the real trace A as another software stack would record it.
// - EVERY operator renamed (aten:: into another namespace, synonyms, other spellings), autograd
//   nodes by another engine's convention (ReluBackward0 -> relu_backward / GradRelu / vjp::relu),
//   the engine's own nodes too, nn.Module classes (Linear -> Dense);
// - kernels named by the other vendor's libraries (cuBLAS/CUTLASS/xmma GEMMs <-> Tensile Cijk_,
//   cuDNN <-> MIOpen, cub <-> rocPRIM, PyTorch's elementwise templates instantiated otherwise,
//   Triton kernels numbered otherwise, NCCL's old and new kernel names);
// - shapes' types spelled otherwise (float -> Float), kernel speeds changed per kernel name;
// - a few pairs of consecutive independent operators run in the other order;
// - known changes: in the backward pass a node's kernel split in two or its launching operator
//   split in two operators (threshold_backward, div), two kernels merged; in the optimizer a
//   multi-tensor kernel run per parameter group (three kernels) or an update fused into one
//   kernel; in communication one all-reduce run as a reduce-scatter and an all-gather, or as two
//   bucketed all-reduces; in the forward pass a kernel split.
struct CrossStackRecipe
{
    uint64_t seed = 1;
    bool keepPythonStacks = false; // python_function events kept (renamed modules, moved lines) or removed
    int reorders = 4;
};

struct CrossStackPair
{
    QByteArray traceA; // as compared (without Python frames unless kept)
    QByteArray traceB;
    std::vector<InjectedChange> changes;
    uint64_t renamedOperators = 0;
    uint64_t renamedKernels = 0;
    uint64_t reordered = 0; // operator pairs swapped
};

// Throws std::runtime_error on a trace without kernels or operators.
CrossStackPair constructCrossStackPair(
    const QByteArray& traceA, const Classifier& classifier, const CrossStackRecipe& recipe);

// As scorePair (pairconstructor.h), except that a communication change is found only where a
// finding or a where-to-look-first entry names its operation on either side with a time: the
// count of kernels in the collectives' table alone does not say which operation launches more.
PairScore scoreCrossStackPair(const FusionReport& report, const std::vector<InjectedChange>& changes);

} // namespace fusiondiff::test
