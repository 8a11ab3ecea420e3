#include "shell/globalsearch.h"

#include "display/kernelnames.h"
#include "model/fusionreport.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QKeyEvent>
#include <QStandardItemModel>

namespace fusiondiff::ui {

namespace {

constexpr int kSearchTextRole = Qt::UserRole + 1; // what is matched: lower-case names
constexpr int kKindRole = Qt::UserRole + 2;
constexpr int kRowRole = Qt::UserRole + 3;

QString kindText(GlobalSearch::Kind kind)
{
    switch (kind) {
    case GlobalSearch::OperationFinding:
        return GlobalSearch::tr("operation that differs (Operations)");
    case GlobalSearch::Operation:
        return GlobalSearch::tr("operation (Operation summary)");
    case GlobalSearch::KernelType:
        return GlobalSearch::tr("kernel type (Kernel types)");
    case GlobalSearch::Kernel:
        return GlobalSearch::tr("kernel (Kernels)");
    }
    return {};
}

} // namespace

GlobalSearch::GlobalSearch(QWidget* parent)
    : QLineEdit(parent)
    , m_items(new QStandardItemModel(this))
    , m_completer(new QCompleter(m_items, this))
{
    // Short, so that it shows whole beside the tabs in a small window; the tooltip says what it finds.
    setPlaceholderText(tr("Find (Ctrl+F)"));
    setToolTip(tr("Find a kernel, a kernel type or an operation of either trace"));
    setClearButtonEnabled(true);
    setMinimumWidth(fontMetrics().horizontalAdvance(placeholderText()) + 40);
    m_completer->setCompletionRole(kSearchTextRole);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setFilterMode(Qt::MatchContains);
    m_completer->setMaxVisibleItems(14);
    // Matched against the search texts, but the line shows what was chosen as listed.
    m_completer->setWidget(this);
    m_completer->setCompletionMode(QCompleter::PopupCompletion);
    connect(this, &QLineEdit::textEdited, this, [this](const QString& text) {
        m_completer->setCompletionPrefix(text.toLower());
        if (!text.isEmpty())
            m_completer->complete();
    });
    connect(m_completer, qOverload<const QModelIndex&>(&QCompleter::activated), this, [this](const QModelIndex& index) {
        Hit hit;
        hit.kind = static_cast<Kind>(index.data(kKindRole).toInt());
        hit.row = index.data(kRowRole).toInt();
        hit.text = index.data().toString();
        setText(hit.text);
        emit hitActivated(hit);
    });
}

void GlobalSearch::setReport(const std::shared_ptr<const FusionReport>& report)
{
    m_items->clear();
    if (!report)
        return;
    const auto add = [this](Kind kind, int row, const QString& shown, const QString& whole) {
        auto* item = new QStandardItem(QStringLiteral("%1  \u2014  %2").arg(shown, kindText(kind)));
        item->setData(
            shown == whole ? shown.toLower() : shown.toLower() + QLatin1Char('\n') + whole.toLower(), kSearchTextRole);
        item->setData(kind, kKindRole);
        item->setData(row, kRowRole);
        item->setToolTip(whole);
        m_items->appendRow(item);
    };
    for (size_t i = 0; i < report->opFindings.size(); ++i) {
        const QString op = QString::fromStdString(report->opFindings[i].op);
        add(OperationFinding, static_cast<int>(i), op, op);
    }
    for (size_t i = 0; i < report->opSummary.size(); ++i) {
        const QString op = QString::fromStdString(report->opSummary[i].op);
        add(Operation, static_cast<int>(i), op, op);
    }
    for (size_t i = 0; i < report->globalCounts.size(); ++i) {
        const QString type = QString::fromStdString(report->typeName(report->globalCounts[i].type));
        add(KernelType, static_cast<int>(i), type, type);
    }
    for (size_t i = 0; i < report->kernels.size(); ++i) {
        const QString name = QString::fromStdString(report->kernels[i].name);
        add(Kernel, static_cast<int>(i), shownKernelName(name), demangledKernelName(name) + QLatin1Char('\n') + name);
    }
}

QList<GlobalSearch::Hit> GlobalSearch::find(const QString& text, int limit) const
{
    QList<Hit> hits;
    const QString needle = text.trimmed().toLower();
    if (needle.isEmpty())
        return hits;
    for (int row = 0; row < m_items->rowCount() && hits.size() < limit; ++row) {
        const QModelIndex index = m_items->index(row, 0);
        if (!index.data(kSearchTextRole).toString().contains(needle))
            continue;
        Hit hit;
        hit.kind = static_cast<Kind>(index.data(kKindRole).toInt());
        hit.row = index.data(kRowRole).toInt();
        hit.text = index.data().toString();
        hits.append(hit);
    }
    return hits;
}

void GlobalSearch::activateFirst()
{
    const QList<Hit> hits = find(text(), 1);
    if (!hits.isEmpty())
        emit hitActivated(hits.first());
}

void GlobalSearch::keyPressEvent(QKeyEvent* event)
{
    const bool popup = m_completer->popup() && m_completer->popup()->isVisible();
    if (!popup && (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter)) {
        activateFirst();
        return;
    }
    if (!popup && event->key() == Qt::Key_Escape && !text().isEmpty()) {
        clear();
        return;
    }
    QLineEdit::keyPressEvent(event);
}

} // namespace fusiondiff::ui
