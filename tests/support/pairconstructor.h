#pragma once

#include "model/opreport.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace fusiondiff {
class Classifier;
struct FusionReport;
} // namespace fusiondiff

namespace fusiondiff::test {

// Builds trace B of a constructed pair from a real eager trace A, as another vendor's software
// stack would record the same model, with known differences:
// - operator names renamed consistently (a share of them: vendor custom operators);
// - every kernel renamed to a name of another style that the classifier puts in the same
//   category, with the same role (split-K reduce, layout conversion, fill, copy);
// - Python line numbers moved (per file), kernel speeds changed (per category, with jitter);
// - in a few launching operators, in every call, one kernel split in two (B runs one more) or two
//   consecutive kernels merged into one (B runs one fewer): the injected changes;
// - optionally, operator fusions: two consecutive operators of one kernel each, in the same module
//   call, replaced in B by one custom operator of one kernel (a vendor's fused operator), wherever
//   that pair of operators follows each other in a module.
struct PairRecipe
{
    enum class Stacks
    {
        Keep, // as recorded
        ModulesOnly, // Python frames other than nn.Module calls removed from A and B
        None, // every python_function event removed from A and B: operators and kernels only
    };
    uint64_t seed = 1;
    double renamedOperatorShare = 0.8;
    int splits = 3;
    int merges = 3;
    Stacks stacks = Stacks::Keep;
    int operatorFusions = 0;
    // Autograd nodes named after their forward operator's new name (AddmmBackward0 -> Op7Backward0),
    // as a build that names its own operators' nodes does; false: every renamed node gets a name
    // of its own that says nothing of its forward operator (VendorGrad12Backward0), as a stack whose
    // backward pass is its own code might.
    bool nodesNamedAfterOperators = true;
    // With nodesNamedAfterOperators false: the renamed nodes keep the Backward<N> suffix
    // (VendorGrad12Backward0); false: they lose it too (VendorGrad12), so that nothing in a node's
    // name says it is one but the engine's wrapper where the trace records it.
    bool nodesKeepSuffix = true;
};
const char* stacksName(PairRecipe::Stacks stacks); // "python", "modules", "none"

// One injected change, named as the comparison should report it: the operation (outermost
// operator around the launching one) on each side.
struct InjectedChange
{
    std::string kind; // "split", "merge" or "fuse_operators"
    std::string launchingOp; // in A
    std::string trace1Op; // the outermost operator around it, in A ("X + Y" for fused operators)
    std::string trace2Op; // the same in B (renamed or not; the custom operator for fused ones)
    uint64_t calls = 0; // calls changed
    int kernelDelta = 0; // kernels B runs per call minus A's: +1 for a split, -1 for a merge
    std::string region; // "forward", "backward", "optimizer" or "communication"
    // The kernel split, or the one a merge removes, is a communication kernel: a collective
    // difference, which the comparison counts as collectives and reports no finding for.
    bool collective = false;
};

struct ConstructedPair
{
    QByteArray traceA; // A as compared: the input, without the stacks the recipe removes
    QByteArray traceB; // Kineto JSON
    std::vector<InjectedChange> changes;
    std::map<std::string, std::string> renamedOperators; // A's name -> B's
    uint64_t renamedKernelNames = 0;
    uint64_t keptKernelNames = 0; // no other name of the same category and role was found
};

// A's JSON (plain; gzip is read by readTraceBytes), of today's schema or of 2021's (`Operator`,
// `Runtime`, `Kernel` events, string thread ids, nodes recorded without the engine's wrapper).
// Throws std::runtime_error, naming what is missing, on a trace without kernels or without CPU
// operators: there is nothing to inject into.
ConstructedPair constructPair(const QByteArray& traceA, const Classifier& classifier, const PairRecipe& recipe);

// The bytes of a trace file, decompressed if it is gzip.
QByteArray readTraceBytes(const QString& path);

// How a comparison of A against B did: an injected change is found when a finding names its
// operation on both sides (trace1_op, trace2_op) with the side that runs fewer kernels; every
// other finding is spurious (B differs from A by nothing else).
struct PairScore
{
    uint64_t injected = 0;
    uint64_t found = 0;
    uint64_t findings = 0;
    uint64_t spurious = 0;
    bool comparable = false;
    double matchedShare = 0;
    std::string levels; // what the alignment paired on: "python 79%, module_operator 21%"
    std::string regions; // where the changes were injected: "backward 2, forward 4"
    std::vector<std::string> missed; // "split in aten::linear (aten::addmm)"
    std::vector<std::string> spuriousFindings; // their summaries
};

PairScore scorePair(const FusionReport& report, const std::vector<InjectedChange>& changes);

// Whether a pair meets the bar: changes were injected (a pair with none tests nothing), the traces
// are called the same work, at least 95% of the changes found and at most 5% of the findings
// spurious.
bool meetsTheBar(const PairScore& score);

// Constructs B from the trace at `path` and compares A with B with the default options, at `level`.
PairScore scoreConstructedPair(
    const QString& path, const Classifier& classifier, const PairRecipe& recipe, OpLevel level = OpLevel::Auto);

} // namespace fusiondiff::test
