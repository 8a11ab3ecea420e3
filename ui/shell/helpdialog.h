#pragma once

#include <QDialog>
#include <QList>
#include <QString>

class QTextBrowser;

namespace fusiondiff::ui {

// A keyboard shortcut as Help lists it: what it does and its keys, in the platform's notation.
struct ShortcutEntry
{
    QString action;
    QString keys;
};

// Every shortcut `window` holds: its actions' (menus, window-wide actions, those of its views such
// as the timeline's keys) and its buttons', read from the widgets themselves so that the list
// cannot drift from what the keys do. One entry per distinct action text, in the order found.
QList<ShortcutEntry> shortcutsOf(const QWidget* window);

// Help > Glossary and Keyboard Shortcuts: the report's terms and `window`'s shortcuts.
class HelpDialog : public QDialog
{
    Q_OBJECT
public:
    explicit HelpDialog(QWidget* window);

    QTextBrowser* browser() const { return m_browser; }
    // The dialog's text: the glossary, then a table of shortcutsOf(window).
    static QString html(const QWidget* window);

private:
    QTextBrowser* m_browser;
};

} // namespace fusiondiff::ui
