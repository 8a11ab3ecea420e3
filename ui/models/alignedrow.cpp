#include "models/alignedrow.h"

#include "display/colors.h"

namespace fusiondiff::ui {

AlignedRowStatus alignedRowStatus(const AlignedPair& row, CategoryId typeA, CategoryId typeB)
{
    if (row.first < 0)
        return OnlyB;
    if (row.second < 0)
        return OnlyA;
    return typeA == typeB ? SameType : DifferentTypes;
}

QVariant alignedRowBackground(AlignedRowStatus status, int side)
{
    switch (status) {
    case SameType:
        return {};
    case DifferentTypes:
        return differenceBackground();
    case OnlyA:
        return side == 0 ? sideBackground(0) : gapBackground();
    case OnlyB:
        return side == 1 ? sideBackground(1) : gapBackground();
    }
    return {};
}

} // namespace fusiondiff::ui
