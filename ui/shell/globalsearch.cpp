#include "shell/globalsearch.h"

#include "display/kernelnames.h"
#include "model/fusionreport.h"
#include "widgets/tabletextdelegate.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QKeyEvent>
#include <QLabel>
#include <QStandardItemModel>

#include <algorithm>

namespace fusiondiff::ui {

namespace {

constexpr int kSearchTextRole = Qt::UserRole + 1; // what is matched: lower-case names
constexpr int kKindRole = Qt::UserRole + 2;
constexpr int kRowRole = Qt::UserRole + 3;

// What a match is, first in its line so that a long name never hides it.
QString kindText(GlobalSearch::Kind kind)
{
    switch (kind) {
    case GlobalSearch::OperationFinding:
        return GlobalSearch::tr("Operation that differs");
    case GlobalSearch::Operation:
        return GlobalSearch::tr("Operation");
    case GlobalSearch::KernelType:
        return GlobalSearch::tr("Kernel type");
    case GlobalSearch::Kernel:
        return GlobalSearch::tr("Kernel");
    }
    return {};
}

// The tab a match opens.
QString tabText(GlobalSearch::Kind kind)
{
    switch (kind) {
    case GlobalSearch::OperationFinding:
        return GlobalSearch::tr("Operations");
    case GlobalSearch::Operation:
        return GlobalSearch::tr("Operation summary");
    case GlobalSearch::KernelType:
        return GlobalSearch::tr("Kernel types");
    case GlobalSearch::Kernel:
        return GlobalSearch::tr("Kernels");
    }
    return {};
}

// Which side runs it: "A and B", "A only", "B only".
QString sidesText(const std::array<uint64_t, 2>& count)
{
    if (count[0] > 0 && count[1] > 0)
        return GlobalSearch::tr("A and B");
    return count[0] > 0 ? GlobalSearch::tr("A only") : GlobalSearch::tr("B only");
}

// The widest the list of matches gets, in pixels: wide enough for a kernel name and what it is.
constexpr int kPopupWidth = 760;
constexpr int kWindowMargin = 8;

} // namespace

GlobalSearch::GlobalSearch(QWidget* parent)
    : QLineEdit(parent)
    , m_items(new QStandardItemModel(this))
    , m_completer(new QCompleter(m_items, this))
    , m_noMatch(new QLabel(this))
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
    // Names that differ only inside a long common start and end stay apart in the list.
    auto* delegate = new TableTextDelegate(m_completer->popup());
    delegate->setMiddleElidedColumns({ 0 });
    m_completer->popup()->setItemDelegate(delegate);
    // Enter while the list is open with no match chosen opens the first (the completer only hid it).
    m_completer->popup()->installEventFilter(this);
    m_noMatch->setWindowFlags(Qt::ToolTip);
    m_noMatch->setMargin(4);
    m_noMatch->hide();
    connect(this, &QLineEdit::textEdited, this, [this](const QString& text) {
        m_completer->setCompletionPrefix(text.toLower());
        m_noMatch->hide();
        if (text.trimmed().isEmpty())
            return;
        if (m_completer->completionCount() == 0) {
            m_noMatch->setText(tr("Nothing matches \u201C%1\u201D (kernels, kernel types and operations are searched)")
                                   .arg(text.trimmed()));
            m_noMatch->adjustSize();
            m_noMatch->move(mapToGlobal(QPoint(std::max(0, width() - m_noMatch->width()), height())));
            m_noMatch->show();
            return;
        }
        m_completer->complete(popupRect());
    });
    connect(this, &QLineEdit::editingFinished, m_noMatch, &QWidget::hide);
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
    const auto add = [this](Kind kind, int row, const QString& shown, const QString& whole, const QString& sides = {}) {
        const QString what = sides.isEmpty() ? kindText(kind) : kindText(kind) + QStringLiteral(", ") + sides;
        auto* item = new QStandardItem(QStringLiteral("%1:  %2").arg(what, shown));
        item->setData(
            shown == whole ? shown.toLower() : shown.toLower() + QLatin1Char('\n') + whole.toLower(), kSearchTextRole);
        item->setData(kind, kKindRole);
        item->setData(row, kRowRole);
        item->setToolTip(whole + QStringLiteral("\n\n") + tr("%1, in the %2 tab").arg(what, tabText(kind)));
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
        add(KernelType, static_cast<int>(i), type, type, sidesText(report->globalCounts[i].count));
    }
    QStringList kernelNames;
    for (const KernelNameRow& kernel : report->kernels)
        kernelNames.append(QString::fromStdString(kernel.name));
    const QStringList shownNames = distinctShownKernelNames(kernelNames);
    for (size_t i = 0; i < report->kernels.size(); ++i) {
        const QString& name = kernelNames[static_cast<qsizetype>(i)];
        add(Kernel, static_cast<int>(i), shownNames[static_cast<qsizetype>(i)],
            demangledKernelName(name) + QLatin1Char('\n') + name, sidesText(report->kernels[i].count));
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

QRect GlobalSearch::popupRect() const
{
    // As wide as a kernel name needs, inside the window: the box sits at the window's right, so
    // the list grows to the left of it.
    const QWidget* top = window();
    const int left = mapTo(top, QPoint(0, 0)).x();
    const int room = std::max(width(), top->width() - 2 * kWindowMargin);
    const int popupWidth = std::min(std::max(width(), kPopupWidth), room);
    const int x = std::max(width() - popupWidth, kWindowMargin - left);
    return { x, 0, popupWidth, height() };
}

QString GlobalSearch::noMatchText() const
{
    return m_noMatch->isVisible() ? m_noMatch->text() : QString();
}

void GlobalSearch::activateFirst()
{
    const QList<Hit> hits = find(text(), 1);
    if (!hits.isEmpty())
        emit hitActivated(hits.first());
}

bool GlobalSearch::eventFilter(QObject* watched, QEvent* event)
{
    // Installed after the completer's own filter, so this one sees the key first.
    if (watched == m_completer->popup() && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if ((key == Qt::Key_Return || key == Qt::Key_Enter) && !m_completer->popup()->currentIndex().isValid()) {
            m_completer->popup()->hide();
            activateFirst();
            return true;
        }
    }
    return QLineEdit::eventFilter(watched, event);
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
