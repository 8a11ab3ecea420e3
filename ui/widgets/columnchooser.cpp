#include "widgets/columnchooser.h"

#include <QAbstractItemModel>
#include <QHeaderView>
#include <QMenu>
#include <QTableView>

#include <algorithm>

namespace fusiondiff::ui {

ColumnChooser::ColumnChooser(QTableView* view, int keyRole, const QStringList& hiddenByDefault, QObject* parent)
    : QObject(parent)
    , m_view(view)
    , m_keyRole(keyRole)
    , m_defaults(hiddenByDefault)
    , m_hidden(hiddenByDefault.begin(), hiddenByDefault.end())
    , m_menu(std::make_unique<QMenu>())
{
    m_menu->setObjectName(QStringLiteral("column_chooser"));
    m_menu->setToolTipsVisible(true);
    connect(m_menu.get(), &QMenu::aboutToShow, this, &ColumnChooser::fillMenu);
    QHeaderView* header = view->horizontalHeader();
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QWidget::customContextMenuRequested, this,
        [this, header](const QPoint& at) { m_menu->popup(header->mapToGlobal(at)); });
    QAbstractItemModel* model = view->model();
    connect(model, &QAbstractItemModel::modelReset, this, &ColumnChooser::apply);
    connect(model, &QAbstractItemModel::columnsInserted, this, &ColumnChooser::apply);
    connect(model, &QAbstractItemModel::headerDataChanged, this, &ColumnChooser::apply);
    apply();
}

ColumnChooser::~ColumnChooser() = default;

QString ColumnChooser::keyOf(int column) const
{
    return m_view->model()->headerData(column, Qt::Horizontal, m_keyRole).toString();
}

QStringList ColumnChooser::hiddenKeys() const
{
    QStringList keys(m_hidden.begin(), m_hidden.end());
    std::sort(keys.begin(), keys.end());
    return keys;
}

void ColumnChooser::setHiddenKeys(const QStringList& keys)
{
    m_hidden = QSet<QString>(keys.begin(), keys.end());
    apply();
}

QString ColumnChooser::buttonText() const
{
    int hidden = 0;
    for (int column = 0; column < m_view->model()->columnCount(); ++column)
        hidden += m_view->isColumnHidden(column) ? 1 : 0;
    return hidden == 0 ? tr("Columns") : tr("Columns (%1 hidden)").arg(hidden);
}

void ColumnChooser::apply()
{
    const int columns = m_view->model()->columnCount();
    for (int column = 0; column < columns; ++column) {
        const QString key = keyOf(column);
        m_view->setColumnHidden(column, !key.isEmpty() && m_hidden.contains(key));
    }
    emit columnsChanged();
}

void ColumnChooser::fillMenu()
{
    m_menu->clear();
    const QAbstractItemModel* model = m_view->model();
    for (int column = 0; column < model->columnCount(); ++column) {
        const QString key = keyOf(column);
        if (key.isEmpty())
            continue;
        QAction* action = m_menu->addAction(model->headerData(column, Qt::Horizontal).toString());
        action->setToolTip(model->headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString());
        action->setCheckable(true);
        action->setChecked(!m_hidden.contains(key));
        connect(action, &QAction::toggled, this, [this, key](bool shown) {
            if (shown)
                m_hidden.remove(key);
            else
                m_hidden.insert(key);
            apply();
        });
    }
    m_menu->addSeparator();
    connect(m_menu->addAction(tr("Show every column")), &QAction::triggered, this, [this] { setHiddenKeys({}); });
    connect(m_menu->addAction(tr("Default columns")), &QAction::triggered, this, [this] { setHiddenKeys(m_defaults); });
}

} // namespace fusiondiff::ui
