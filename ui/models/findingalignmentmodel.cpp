#include "models/findingalignmentmodel.h"

#include "display/colors.h"
#include "display/formatting.h"
#include "display/kernelnames.h"
#include "model/fusionreport.h"
#include "models/reporttablemodel.h"

#include <QFont>

namespace fusiondiff::ui {

static_assert(int(FindingAlignmentModel::SortRole) == int(ReportTableModel::SortRole));
static_assert(int(FindingAlignmentModel::FullTextRole) == int(ReportTableModel::FullTextRole));

namespace {

int sideOfColumn(int column)
{
    return column < FindingAlignmentModel::RunColumn ? 0 : 1;
}

// 0: index, 1: name, 2: type, 3: tags, 4: median.
int fieldOfColumn(int column)
{
    return column < FindingAlignmentModel::RunColumn ? column : column - FindingAlignmentModel::IndexBColumn;
}

} // namespace

FindingAlignmentModel::FindingAlignmentModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void FindingAlignmentModel::setFinding(std::shared_ptr<const FusionReport> report, int finding)
{
    beginResetModel();
    m_report = std::move(report);
    m_finding = nullptr;
    m_runOfRow.clear();
    m_names[0].clear();
    m_names[1].clear();
    m_typeNames.clear();
    if (m_report && finding >= 0 && static_cast<size_t>(finding) < m_report->opFindings.size()) {
        m_finding = &m_report->opFindings[static_cast<size_t>(finding)];
        for (const std::string& name : m_report->classifier.categories)
            m_typeNames.append(toQString(name));
        // Converted when first shown: a graph finding has hundreds of kernels, some with names of
        // thousands of characters, and only the rows on screen need theirs.
        for (size_t side = 0; side < 2; ++side)
            m_names[side].resize(static_cast<qsizetype>(m_finding->kernels[side].size()));
        // Which row shows which kernel of each side, to find the rows of the listed runs.
        const std::vector<AlignedPair>& alignment = m_finding->alignment;
        std::vector<int> rowOf[2] = { std::vector<int>(m_finding->kernels[0].size(), -1),
            std::vector<int>(m_finding->kernels[1].size(), -1) };
        m_runOfRow.assign(alignment.size(), -1);
        for (size_t row = 0; row < alignment.size(); ++row) {
            const AlignedPair& pair = alignment[row];
            if (pair.first >= 0 && static_cast<size_t>(pair.first) < rowOf[0].size())
                rowOf[0][static_cast<size_t>(pair.first)] = static_cast<int>(row);
            if (pair.second >= 0 && static_cast<size_t>(pair.second) < rowOf[1].size())
                rowOf[1][static_cast<size_t>(pair.second)] = static_cast<int>(row);
            // Every row one side has alone belongs to a run; those not listed below repeat one.
            if (!pair.isMatch())
                m_runOfRow[row] = kRepeatedRun;
        }
        for (size_t run = 0; run < m_finding->extraRuns.size(); ++run) {
            const ExtraRun& extra = m_finding->extraRuns[run];
            const std::vector<int>& rows = rowOf[sideIndex(extra.side)];
            for (const uint32_t kernel : extra.kernels) {
                if (kernel < rows.size() && rows[kernel] >= 0)
                    m_runOfRow[static_cast<size_t>(rows[kernel])] = static_cast<int>(run);
            }
        }
    }
    endResetModel();
}

const OpFinding* FindingAlignmentModel::finding() const
{
    return m_finding;
}

AlignedRowStatus FindingAlignmentModel::statusOf(int row) const
{
    const AlignedPair& pair = m_finding->alignment[static_cast<size_t>(row)];
    const CategoryId typeA = pair.first >= 0 ? m_finding->kernels[0][static_cast<size_t>(pair.first)].type : 0;
    const CategoryId typeB = pair.second >= 0 ? m_finding->kernels[1][static_cast<size_t>(pair.second)].type : 0;
    return alignedRowStatus(pair, typeA, typeB);
}

int FindingAlignmentModel::rowsWithStatus(AlignedRowStatus status) const
{
    int count = 0;
    for (int row = 0; row < rowCount(); ++row)
        count += statusOf(row) == status;
    return count;
}

int FindingAlignmentModel::firstRowOfRun(int run) const
{
    for (size_t row = 0; row < m_runOfRow.size(); ++row) {
        if (m_runOfRow[row] == run)
            return static_cast<int>(row);
    }
    return -1;
}

QList<int> FindingAlignmentModel::rowsOfRun(int run) const
{
    QList<int> rows;
    for (size_t row = 0; row < m_runOfRow.size(); ++row) {
        if (m_runOfRow[row] == run)
            rows.append(static_cast<int>(row));
    }
    return rows;
}

int FindingAlignmentModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_finding ? 0 : static_cast<int>(m_finding->alignment.size());
}

int FindingAlignmentModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NumColumns;
}

QVariant FindingAlignmentModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= NumColumns)
        return {};
    if (role == Qt::ToolTipRole) {
        if (section == RunColumn)
            return tr("The extra run (kernels one side runs where the other has none) the row belongs to, as "
                      "numbered in the details; \"repeat\": the same run again, counted in its xN");
        if (fieldOfColumn(section) == 4)
            return tr("The kernel's median duration over the finding's calls");
        if (fieldOfColumn(section) == 3)
            return tr("Fusion tags: what else the kernel does (docs/classifiers.md)");
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    const bool a = sideOfColumn(section) == 0;
    switch (section == RunColumn ? -1 : fieldOfColumn(section)) {
    case -1:
        return tr("Extra run");
    case 0:
        return a ? tr("A #") : tr("B #");
    case 1:
        return a ? tr("A kernel") : tr("B kernel");
    case 2:
        return a ? tr("A type") : tr("B type");
    case 3:
        return a ? tr("A tags") : tr("B tags");
    case 4:
        return a ? tr("A median") : tr("B median");
    }
    return {};
}

QVariant FindingAlignmentModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    if (role == StatusRole)
        return statusOf(row);
    if (role == RunRole)
        return m_runOfRow[static_cast<size_t>(row)];
    if (index.column() == RunColumn)
        return runData(row, role);

    const int side = sideOfColumn(index.column());
    const AlignedPair& pair = m_finding->alignment[static_cast<size_t>(row)];
    const int position = static_cast<int>(side == 0 ? pair.first : pair.second);
    const int field = fieldOfColumn(index.column());
    if (role == Qt::BackgroundRole)
        return alignedRowBackground(statusOf(row), side);
    if (role == Qt::TextAlignmentRole) {
        return QVariant::fromValue(Qt::Alignment(
            field == 0 || field == 4 ? Qt::AlignRight | Qt::AlignVCenter : Qt::AlignLeft | Qt::AlignVCenter));
    }
    if (position < 0)
        return {};
    return kernelData(side, position, field, role);
}

QVariant FindingAlignmentModel::kernelData(int side, int position, int field, int role) const
{
    if (role != Qt::DisplayRole && role != SortRole && role != FullTextRole && role != Qt::ToolTipRole)
        return {};
    if (role == Qt::ToolTipRole && field != 1 && field != 3)
        return {};
    const FindingKernel& kernel = m_finding->kernels[static_cast<size_t>(side)][static_cast<size_t>(position)];
    switch (field) {
    case 0:
        return role == SortRole ? QVariant(position) : QVariant(position + 1);
    case 1: {
        QString& name = m_names[side][position];
        if (name.isNull())
            name = toQString(kernel.name);
        if (role == Qt::ToolTipRole)
            return kernelNameToolTip(name);
        return role == Qt::DisplayRole ? shownKernelName(name) : name;
    }
    case 2:
        return kernel.type < m_typeNames.size() ? m_typeNames[kernel.type] : QString::number(kernel.type);
    case 3:
        return tagsText(*m_report, kernel.tags);
    case 4:
        return role == SortRole ? QVariant(kernel.medianUs) : QVariant(formatDuration(kernel.medianUs));
    }
    return {};
}

QVariant FindingAlignmentModel::runData(int row, int role) const
{
    const int run = m_runOfRow[static_cast<size_t>(row)];
    if (run == -1)
        return {};
    const ExtraRun* extra = run >= 0 ? &m_finding->extraRuns[static_cast<size_t>(run)] : nullptr;
    const AlignedPair& pair = m_finding->alignment[static_cast<size_t>(row)];
    const int side = pair.first >= 0 ? 0 : 1;
    switch (role) {
    case Qt::DisplayRole:
    case FullTextRole:
    case SortRole:
        if (!extra)
            return tr("%1 repeat").arg(side == 0 ? QStringLiteral("A") : QStringLiteral("B"));
        return extra->repeats > 1
            ? tr("%1 run %2 (x%3)")
                  .arg(side == 0 ? QStringLiteral("A") : QStringLiteral("B"))
                  .arg(run + 1)
                  .arg(extra->repeats)
            : tr("%1 run %2").arg(side == 0 ? QStringLiteral("A") : QStringLiteral("B")).arg(run + 1);
    case Qt::ToolTipRole:
        if (!extra)
            return tr("Kernels only %1 runs, like one of the runs listed in the details: counted in its xN")
                .arg(side == 0 ? QStringLiteral("A") : QStringLiteral("B"));
        return toQString(extra->explanation);
    case Qt::BackgroundRole:
        return extra ? QVariant(sideSelectedColor(side)) : QVariant(sideBackground(side));
    case Qt::ForegroundRole:
        return extra ? QVariant(QColor(Qt::white)) : QVariant();
    case Qt::FontRole: {
        if (!extra)
            return {};
        QFont font;
        font.setBold(true);
        return font;
    }
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::Alignment(Qt::AlignHCenter | Qt::AlignVCenter));
    }
    return {};
}

} // namespace fusiondiff::ui
