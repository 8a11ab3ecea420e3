#pragma once

#include <QMenu>

namespace fusiondiff::ui {

class RecentFiles;

// File > Open Recent, built each time it opens: the recent sessions ("Session: name.fdsession"),
// the recent pairs ("a.json  vs  b.json"), then each recent file with Open as A and Open as B;
// "(none)" while there are none.
class RecentMenu : public QMenu
{
    Q_OBJECT
public:
    RecentMenu(const QString& title, const RecentFiles* recent, QWidget* parent);

    void rebuild();

signals:
    void pairRequested(const QString& pathA, const QString& pathB);
    void fileRequested(int side, const QString& path);
    void sessionRequested(const QString& path);

private:
    const RecentFiles* m_recent;
};

} // namespace fusiondiff::ui
