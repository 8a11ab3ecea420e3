#include "widgets/fittedtabwidget.h"

#include <QMenu>
#include <QTabBar>
#include <QToolButton>

#include <algorithm>

namespace fusiondiff::ui {

namespace {

// A tab bar that says how wide a tab is besides its text (the style's padding and frame), so
// that the width of any title can be known without showing it.
class MeasuringTabBar : public QTabBar
{
public:
    using QTabBar::QTabBar;

    int chromeWidth(int index) const
    {
        return tabSizeHint(index).width() - fontMetrics().horizontalAdvance(tabText(index));
    }
};

QString overflowText(int tabs)
{
    return FittedTabWidget::tr("%1 more \u25BE").arg(tabs);
}

} // namespace

FittedTabWidget::FittedTabWidget(QWidget* parent)
    : QTabWidget(parent)
    , m_overflow(new QToolButton(this))
{
    setTabBar(new MeasuringTabBar(this));
    setUsesScrollButtons(false);
    // Only where a single tab is wider than the row: the fitting never lets it come to that otherwise.
    setElideMode(Qt::ElideRight);
    m_overflow->setPopupMode(QToolButton::InstantPopup);
    m_overflow->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_overflow->setAutoRaise(true);
    m_overflow->setMenu(new QMenu(m_overflow));
    m_overflow->setObjectName(QStringLiteral("tabOverflowButton"));
    // The arrow is in the text ("3 more ▾"): the style's indicator sat over it.
    m_overflow->setStyleSheet(QStringLiteral("QToolButton::menu-indicator { image: none; width: 0px; }"));
    setCornerWidget(m_overflow, Qt::TopRightCorner);
    m_overflow->hide();
    connect(this, &QTabWidget::currentChanged, this, &FittedTabWidget::fitTabs);
}

void FittedTabWidget::tabInserted(int index)
{
    QTabWidget::tabInserted(index);
    if (!m_titles.contains(widget(index)))
        m_titles.insert(widget(index), { { tabText(index) }, tabToolTip(index) });
    fitTabs();
}

void FittedTabWidget::setTabTitles(int index, const QStringList& forms, const QString& description)
{
    if (index < 0 || index >= count() || forms.isEmpty())
        return;
    m_titles.insert(widget(index), { forms, description });
    setTabText(index, forms.first());
    setTabToolTip(index, description);
    fitTabs();
}

void FittedTabWidget::setOverflowOrder(const QList<QWidget*>& pages)
{
    m_overflowOrder.clear();
    for (QWidget* page : pages)
        m_overflowOrder.append(page);
    fitTabs();
}

const FittedTabWidget::Titles& FittedTabWidget::titlesOf(int index) const
{
    static const Titles none;
    const auto it = m_titles.constFind(widget(index));
    return it == m_titles.constEnd() ? none : *it;
}

QString FittedTabWidget::formOf(int index, int level) const
{
    const QStringList& forms = titlesOf(index).forms;
    return forms.isEmpty() ? tabText(index) : forms.value(std::min<qsizetype>(level, forms.size() - 1));
}

QString FittedTabWidget::wholeTabTitle(int index) const
{
    return formOf(index, 0);
}

QList<int> FittedTabWidget::overflowTabs() const
{
    QList<int> hidden;
    for (int index = 0; index < count(); ++index) {
        if (!isTabVisible(index))
            hidden.append(index);
    }
    return hidden;
}

int FittedTabWidget::overflowButtonWidth(int tabs) const
{
    m_overflow->setText(overflowText(tabs));
    return m_overflow->sizeHint().width();
}

void FittedTabWidget::fitTabs()
{
    // A hidden widget has no width of its own yet: the titles stay whole until it is shown.
    if (m_fitting || !isVisible() || count() == 0)
        return;
    const auto* bar = static_cast<const MeasuringTabBar*>(tabBar());
    const QFontMetrics metrics = bar->fontMetrics();
    int levels = 1;
    for (int index = 0; index < count(); ++index)
        levels = std::max(levels, static_cast<int>(titlesOf(index).forms.size()));
    // A tab's width at a level: its title's and the style's around it (the same for every title).
    QList<int> chrome;
    for (int index = 0; index < count(); ++index)
        chrome.append(bar->chromeWidth(index));
    const auto widthAt
        = [&](int index, int level) { return metrics.horizontalAdvance(formOf(index, level)) + chrome[index]; };
    const int room = width();
    for (int level = 0; level < levels; ++level) {
        int total = 0;
        for (int index = 0; index < count(); ++index)
            total += widthAt(index, level);
        if (total <= room) {
            apply(level, {});
            return;
        }
    }
    // Even the shortest titles do not fit: tabs go into the menu, those named first, then the
    // others from the right, until the rest and the menu's button fit.
    const int level = levels - 1;
    QList<int> order;
    for (const QPointer<QWidget>& page : m_overflowOrder) {
        const int index = page ? indexOf(page) : -1;
        if (index >= 0 && !order.contains(index))
            order.append(index);
    }
    for (int index = count() - 1; index >= 0; --index) {
        if (!order.contains(index))
            order.append(index);
    }
    int total = 0;
    for (int index = 0; index < count(); ++index)
        total += widthAt(index, level);
    QList<int> hidden;
    for (const int index : order) {
        if (total + overflowButtonWidth(static_cast<int>(hidden.size())) <= room)
            break;
        if (index == currentIndex())
            continue;
        hidden.append(index);
        total -= widthAt(index, level);
    }
    std::sort(hidden.begin(), hidden.end());
    apply(level, hidden);
}

void FittedTabWidget::apply(int level, const QList<int>& hidden)
{
    m_fitting = true;
    for (int index = 0; index < count(); ++index) {
        const Titles& titles = titlesOf(index);
        const QString shown = formOf(index, level);
        setTabText(index, shown);
        // Shortened, the tooltip gives the whole title first.
        const QString whole = formOf(index, 0);
        setTabToolTip(index,
            shown == whole                     ? titles.description
                : titles.description.isEmpty() ? whole
                                               : whole + QStringLiteral("\n") + titles.description);
    }
    // The current tab first: QTabWidget makes a tab it shows current while the current one is hidden
    // (a tab chosen from the menu, or by Ctrl+Tab, is current before it is in the row). Hiding never
    // reaches the current tab, so it stays current.
    const int current = currentIndex();
    if (current >= 0)
        setTabVisible(current, true);
    for (int index = 0; index < count(); ++index) {
        if (isTabVisible(index) == hidden.contains(index))
            setTabVisible(index, !hidden.contains(index));
    }

    QMenu* menu = m_overflow->menu();
    menu->clear();
    QStringList names;
    for (const int index : hidden) {
        QAction* action = menu->addAction(formOf(index, 0));
        action->setToolTip(titlesOf(index).description);
        QWidget* page = widget(index);
        connect(action, &QAction::triggered, this, [this, page] { setCurrentWidget(page); });
        names.append(formOf(index, 0));
    }
    m_overflow->setText(overflowText(static_cast<int>(hidden.size())));
    m_overflow->setToolTip(tr("Tabs without room in the row: %1").arg(names.join(QStringLiteral(", "))));
    // QTabWidget keeps a corner widget's room even while it is hidden: the button is a corner
    // widget only while it is shown, or the bar elides titles that fit.
    const bool overflowing = !hidden.isEmpty();
    if (overflowing != (cornerWidget(Qt::TopRightCorner) == m_overflow))
        setCornerWidget(overflowing ? m_overflow : nullptr, Qt::TopRightCorner);
    m_overflow->setVisible(overflowing);
    m_fitting = false;
}

void FittedTabWidget::resizeEvent(QResizeEvent* event)
{
    QTabWidget::resizeEvent(event);
    fitTabs();
}

void FittedTabWidget::showEvent(QShowEvent* event)
{
    QTabWidget::showEvent(event);
    fitTabs();
}

} // namespace fusiondiff::ui
