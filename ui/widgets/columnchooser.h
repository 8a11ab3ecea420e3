#pragma once

#include <QObject>
#include <QSet>
#include <QStringList>

#include <memory>

class QMenu;
class QTableView;

namespace fusiondiff::ui {

// Which of a wide table's columns show. Some columns are secondary (a table with more columns than
// a 1440 pixel wide window holds): hidden by default, they come back from the "Columns" menu, which
// the header's context menu opens too. Columns are known by their key (the model's headerData at
// `keyRole`): a report's columns can differ from another's, and the choice is applied again at
// every model reset.
class ColumnChooser : public QObject
{
    Q_OBJECT
public:
    ColumnChooser(QTableView* view, int keyRole, const QStringList& hiddenByDefault, QObject* parent = nullptr);
    ~ColumnChooser() override;

    // A checkable entry per column (its header, its tooltip), then "Show every column" and
    // "Default columns"; rebuilt each time it opens.
    QMenu* menu() const { return m_menu.get(); }
    QStringList hiddenKeys() const;
    void setHiddenKeys(const QStringList& keys);
    // "Columns (3 hidden)", for the button that opens the menu.
    QString buttonText() const;

signals:
    void columnsChanged();

private:
    void apply();
    void fillMenu();
    QString keyOf(int column) const;

    QTableView* m_view;
    int m_keyRole;
    QStringList m_defaults;
    QSet<QString> m_hidden;
    std::unique_ptr<QMenu> m_menu; // a window of its own: not a child of the view it is about
};

} // namespace fusiondiff::ui
