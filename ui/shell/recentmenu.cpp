#include "shell/recentmenu.h"

#include "shell/recentfiles.h"

#include <QFileInfo>

namespace fusiondiff::ui {

RecentMenu::RecentMenu(const QString& title, const RecentFiles* recent, QWidget* parent)
    : QMenu(title, parent)
    , m_recent(recent)
{
    connect(this, &QMenu::aboutToShow, this, &RecentMenu::rebuild);
}

void RecentMenu::rebuild()
{
    clear();
    for (const QString& session : m_recent->sessions()) {
        QAction* action = addAction(tr("Session: %1").arg(QFileInfo(session).fileName()), this,
            [this, session] { emit sessionRequested(session); });
        action->setToolTip(session);
    }
    if (!m_recent->sessions().isEmpty())
        addSeparator();
    const QStringList pairs = m_recent->pairs();
    for (const QString& pair : pairs) {
        const QStringList paths = pair.split(QLatin1Char('\n'));
        if (paths.size() != 2)
            continue;
        QAction* action
            = addAction(tr("%1  vs  %2").arg(QFileInfo(paths[0]).fileName(), QFileInfo(paths[1]).fileName()), this,
                [this, paths] { emit pairRequested(paths[0], paths[1]); });
        action->setToolTip(pair);
    }
    if (!pairs.isEmpty())
        addSeparator();
    for (const QString& path : m_recent->files()) {
        QMenu* menu = addMenu(QFileInfo(path).fileName());
        menu->setToolTip(path);
        menu->addAction(tr("Open as A"), this, [this, path] { emit fileRequested(0, path); });
        menu->addAction(tr("Open as B"), this, [this, path] { emit fileRequested(1, path); });
    }
    if (isEmpty())
        addAction(tr("(none)"))->setEnabled(false);
}

} // namespace fusiondiff::ui
