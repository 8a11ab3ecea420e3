#include "mappingsmodel.h"

#include "formatting.h"
#include "model/fusionreport.h"
#include "sidenames.h"

namespace fusiondiff::ui {

namespace {

QString sideText(const FusionReport& report, Side side)
{
    return QStringLiteral("%1 (%2)").arg(
        sideAlias(report, sideIndex(side)), side == Side::Trace1 ? QStringLiteral("A") : QStringLiteral("B"));
}

} // namespace

MappingsModel::MappingsModel(QObject* parent)
    : ReportTableModel(parent)
{
    setColumns({
        { tr("Evidence"), tr("What the analysis found, in the report's words"), Kind::Text },
        { tr("Kind"), tr("Which analysis found the mapping"), Kind::Text },
        { tr("Confidence"), tr("Share of the pattern's occurrences that fit"), Kind::Cost },
        { tr("Fused side"), tr("The side that runs one kernel where the other runs several"), Kind::Text },
        { tr("Fused type"), {}, Kind::Text },
        { tr("Fused count"), tr("Kernels of the fused type on the fused side"), Kind::Cost },
        { tr("Unfused side"), {}, Kind::Text },
        { tr("Unfused sequence"), tr("The kernel types the unfused side runs instead"), Kind::Text },
        { tr("Unfused kernels per type"), {}, Kind::Text },
        { tr("Pattern count"), tr("How often the pattern occurs"), Kind::Cost },
        { tr("Group A"), tr("Correlation id of the matched group in A (group sequences)"), Kind::Number },
        { tr("Group B"), tr("Correlation id of the matched group in B (group sequences)"), Kind::Number },
    });
}

int MappingsModel::rows() const
{
    return static_cast<int>(m_report->mappings.size());
}

QVariant MappingsModel::display(int row, int column) const
{
    const FusionReport& report = *m_report;
    const FusionMapping& mapping = report.mappings[static_cast<size_t>(row)];
    switch (column) {
    case EvidenceColumn:
        return toQString(mapping.evidence);
    case KindColumn:
        switch (mapping.kind) {
        case MappingKind::GroupSequence:
            return tr("group sequence");
        case MappingKind::PartialFusion:
            return tr("partial fusion");
        case MappingKind::IntraTypeChain:
            return tr("chain of one type");
        case MappingKind::GlobalSequence:
            return tr("global sequence");
        }
        return {};
    case ConfidenceColumn:
        return formatFixed(mapping.patternConfidence, 2);
    case FusedSideColumn:
        return sideText(report, mapping.fusedSide);
    case FusedTypeColumn:
        return toQString(report.typeName(mapping.fusedKernelType));
    case FusedCountColumn:
        return formatCount(mapping.fusedCount);
    case UnfusedSideColumn:
        return sideText(report, mapping.unfusedSide());
    case UnfusedSequenceColumn: {
        QStringList types;
        for (const CategoryId type : mapping.unfusedSequence)
            types.append(toQString(report.typeName(type)));
        return types.join(QStringLiteral(" + "));
    }
    case UnfusedCountsColumn: {
        QStringList counts;
        for (const auto& [type, count] : mapping.unfusedCountPerType)
            counts.append(toQString(report.typeName(type)) + QLatin1Char(' ') + formatCount(count));
        return counts.join(QStringLiteral(", "));
    }
    case PatternCountColumn:
        return formatInteger(mapping.patternCount);
    case GroupAColumn:
        return mapping.correlationGroup1 ? QString::number(*mapping.correlationGroup1) : QString();
    case GroupBColumn:
        return mapping.correlationGroup2 ? QString::number(*mapping.correlationGroup2) : QString();
    }
    return {};
}

QVariant MappingsModel::sortValue(int row, int column) const
{
    const FusionMapping& mapping = m_report->mappings[static_cast<size_t>(row)];
    switch (column) {
    case ConfidenceColumn:
        return mapping.patternConfidence;
    case FusedCountColumn:
        return QVariant::fromValue<qulonglong>(mapping.fusedCount);
    case PatternCountColumn:
        return QVariant::fromValue<qlonglong>(mapping.patternCount);
    case GroupAColumn:
        return QVariant::fromValue<qlonglong>(mapping.correlationGroup1.value_or(-1));
    case GroupBColumn:
        return QVariant::fromValue<qlonglong>(mapping.correlationGroup2.value_or(-1));
    default:
        return display(row, column);
    }
}

QVariant MappingsModel::kernelType(int row) const
{
    return static_cast<int>(m_report->mappings[static_cast<size_t>(row)].fusedKernelType);
}

} // namespace fusiondiff::ui
