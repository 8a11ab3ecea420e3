#pragma once

#include "classify/classifier.h"
#include "ops/alignment/sequencealignment.h"

#include <QVariant>

namespace fusiondiff::ui {

// What one row of two kernel lists shown side by side (one column of an alignment) holds.
enum AlignedRowStatus
{
    SameType, // a kernel on each side, of one type
    DifferentTypes, // a kernel on each side, of different types
    OnlyA, // A's kernel where B has none
    OnlyB,
};

// The role under which the side-by-side models give each row's AlignedRowStatus.
constexpr int kAlignedRowStatusRole = Qt::UserRole + 16;

AlignedRowStatus alignedRowStatus(const AlignedPair& row, CategoryId typeA, CategoryId typeB);
// The background of a cell of `side` on a row: the side's colour where only one side has a
// kernel, grey on the side that has none, yellow where the types differ; none where they agree.
QVariant alignedRowBackground(AlignedRowStatus status, int side);

} // namespace fusiondiff::ui
