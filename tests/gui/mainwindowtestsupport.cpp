#include "mainwindowtestsupport.h"

#include <QSignalSpy>

namespace fusiondiff::test {

bool compare(ui::MainWindow& window, const QString& a, const QString& b)
{
    QSignalSpy shown(&window, &ui::MainWindow::resultsShown);
    window.openTraces(a, b);
    return shown.wait(kResultsTimeoutMs);
}

} // namespace fusiondiff::test
