#pragma once

// What the suites that drive a whole MainWindow share (guitestsupport.h has what needs no window).

#include "guitestsupport.h"

#include "shell/mainwindow.h"

#include <QSignalSpy>

namespace fusiondiff::test {

// How long a pair may take to load and be analysed (a real trace pair under the sanitizers on a
// busy 2-core machine takes a minute or more).
constexpr int kResultsTimeoutMs = 120000;

// Opens the pair `a` (A) and `b` (B) in `window` and waits until their results are shown;
// false if they were not within the timeout (a trace failed, or the analysis did).
bool compare(ui::MainWindow& window, const QString& a, const QString& b);

} // namespace fusiondiff::test
