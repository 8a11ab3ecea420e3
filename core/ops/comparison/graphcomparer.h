#pragma once

#include "ops/comparison/findingparts.h"
#include "ops/comparison/graphcomparison.h"
#include "ops/comparison/graphfindings.h"
#include "ops/comparison/graphlaunches.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace fusiondiff {

// The working state of compareGraphs (graphcomparison.h). Its member functions are split by job:
// graphcomparison.cpp describes the kinds, matches the kinds left over by similarity and compares
// matched kinds kernel by kernel; graphlaunchmatching.cpp aligns the first launches of both traces
// and finds which launch does the work of which (one to one, or one covering several);
// graphcoverage.cpp compares a covering launch part by part and words it.
class GraphComparer
{
public:
    GraphComparer(const std::array<GraphComparisonTrace, 2>& traces, const Classifier& classifier,
        const std::array<std::string, 2>& sideNames);
    GraphComparisonResult run();

private:
    struct PreparedSide
    {
        const GraphComparisonTrace& input;
        TraceGraphs graphs;
        std::vector<int32_t> capturedOfKind; // index into the capture's graphs, -1 if none
        size_t window = 0; // launches whose kernels were aligned
        std::vector<int32_t> pairedKind; // per kind: the other side's kind it is matched with, -1 if none
    };

    struct Covering
    {
        size_t side;
        uint32_t launch;
        std::vector<uint32_t> parts; // the other side's launches it does the work of, in order
    };

    // The launches (1-based, ascending) a "within" pattern is about.
    struct PatternLaunches
    {
        size_t side = 0; // the covering side
        uint32_t coveringKind = 0;
        uint32_t coveredKind = 0;
        std::vector<uint32_t> covering;
        std::vector<uint32_t> covered;
    };

    GraphSide side(size_t s) const { return { m_sides[s].input.store, m_sides[s].input.types }; }
    // What a kind of graph runs: the captured graph's name where a capture trace maps it, else its
    // (at most three) kernel types that take the most time in its first launch.
    std::string kindContent(size_t s, uint32_t kind) const;

    // "GEMM/Attention/Norm (B kind 2, 1,510 kernels, 10 launches)": what the graph runs, then which
    // kind of which side it is and how often it runs. `launches` overrides the kind's launch count
    // with the launch numbers a finding is about ("launches 3–4").
    std::string kindLabel(size_t s, uint32_t kind, const std::string& launches = {}) const;

    void describeKinds(size_t s);

    void noteStructure();

    // Aligns the kernel types of the first launches of both traces (the same share of each
    // trace's graph kernels, as many as kWindowCells allows) and derives which launch does the
    // work of which.
    void alignWindows();

    std::vector<uint32_t> startsOf(size_t s) const;

    uint64_t weightOf(size_t s, uint32_t own, uint32_t other) const;

    // The other side's launches that do their work inside launch `own` of side `s`.
    std::vector<uint32_t> partsOf(size_t s, uint32_t own) const;

    void findCoverage();

    // Launches that do each other's work one to one vote for matching their kinds.
    // A covering launch followed by launches of its own trace that do nothing of the other's work,
    // while the other trace has launches left over, is an artefact of aligning different work:
    // the alignment squeezed the other side's launches into it. Such coverage is dropped.
    void dropInconsistentCoverage();

    void pairLaunches();

    void addKindPair(uint32_t ka, uint32_t kb, const char* how);

    bool kindInCoverage(size_t s, uint32_t kind) const;

    // Kinds not matched through the aligned launches (outside the window, or only in it on one
    // side): matched by how well their kernel types align, best first.
    void matchRemainingKinds();

    std::vector<const CapturedLaunch*> capturedLaunches(size_t s, uint32_t kind, size_t first, size_t count) const;

    // The launches of each matched kind pair, the i-th with the i-th, compared kernel by kernel.
    void comparePairs();

    // Records a pattern: its summary row, and a finding if the kernel counts differ.
    void addPattern(const GraphPattern& pattern, GraphKindPair* pair);

    // Each covering launch, part by part: which kernels of it do the work of which launch of the
    // other trace, compared kernel by kernel.
    void compareCoverage();

    // A covering launch whose trace stops recording its kernels before the launch ends (graphtail.h):
    // the other side's launches right after its last part, of kinds its whole parts do, whose work
    // at the covering side's speed fits in the time the GPU ran on, are done in that time. They
    // and a partial last part are not compared kernel by kernel (one side's kernels are missing),
    // but they have a counterpart: the time gap shows them as not compared, under one name.
    void addUnrecordedTail(const Covering& covering, GraphCoverage& coverage);

    // Where each part of a covering launch begins (and, last, where the launch ends): a part runs
    // from its first kernel paired with the covered launch (or a little before, see below) up to the
    // next part; kernels before the first part belong to it.
    std::vector<uint32_t> partBoundaries(const Covering& covering) const;

    std::string statementOf(const GraphCoverage& coverage) const;

    void finish();

    std::array<PreparedSide, 2> m_sides;
    const Classifier& m_classifier;
    NamingContext m_naming;
    std::vector<ExtraKernels> m_extras;
    GraphComparisonResult m_result;
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> m_weight;
    std::map<std::pair<uint32_t, uint32_t>, std::vector<std::pair<uint32_t, uint32_t>>> m_positionPartner;
    std::array<std::vector<std::vector<std::pair<uint32_t, uint64_t>>>, 2> m_neighbours; // per side and launch
    std::array<std::vector<uint64_t>, 2> m_matched;
    std::array<std::vector<uint32_t>, 2> m_windowStart;
    std::array<std::vector<bool>, 2> m_involved; // per side and aligned launch: covering or covered
    std::array<std::vector<bool>, 2> m_paired; // paired one to one
    std::vector<Covering> m_coverings;
};

} // namespace fusiondiff
