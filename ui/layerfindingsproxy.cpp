#include "layerfindingsproxy.h"

#include "model/fusionreport.h"
#include "reporttablemodel.h"

#include <algorithm>
#include <charconv>
#include <string_view>

namespace fusiondiff::ui {

namespace {

constexpr std::string_view kRangeDash = "\xE2\x80\x93"; // the en dash of util/textformat numberRanges

// The number at the start of `text`, which it consumes; -1 if there is none.
long long takeNumber(std::string_view& text)
{
    long long value = -1;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc())
        return -1;
    text.remove_prefix(static_cast<size_t>(end - text.data()));
    return value;
}

} // namespace

bool layerRangesContain(const std::string& ranges, int layer)
{
    std::string_view text(ranges);
    while (!text.empty()) {
        const long long first = takeNumber(text);
        if (first < 0)
            return false;
        long long last = first;
        if (text.starts_with(kRangeDash)) {
            text.remove_prefix(kRangeDash.size());
            last = takeNumber(text);
            if (last < 0)
                return false;
        }
        if (layer >= first && layer <= last)
            return true;
        while (!text.empty() && (text.front() == ',' || text.front() == ' '))
            text.remove_prefix(1);
    }
    return false;
}

LayerFindingsProxy::LayerFindingsProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{ }

void LayerFindingsProxy::setLayers(const QList<int>& layers)
{
    if (layers == m_layers)
        return;
    m_layers = layers;
    invalidateFilter();
}

bool LayerFindingsProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const auto* model = qobject_cast<const ReportTableModel*>(sourceModel());
    if (m_layers.isEmpty() || !model || !model->report())
        return false;
    const int row = model->index(sourceRow, 0, sourceParent).data(ReportTableModel::SourceRowRole).toInt();
    const std::vector<OpFinding>& findings = model->report()->opFindings;
    if (row < 0 || static_cast<size_t>(row) >= findings.size())
        return false;
    const std::string& ranges = findings[static_cast<size_t>(row)].layers;
    return std::any_of(
        m_layers.begin(), m_layers.end(), [&ranges](int layer) { return layerRangesContain(ranges, layer); });
}

} // namespace fusiondiff::ui
