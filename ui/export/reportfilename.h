#pragma once

#include <QString>

namespace fusiondiff::ui {

// The name Export Report offers for a pair: "fusiondiff-<A>-vs-<B>.html" from the two traces' file
// names without their extensions (.json, .gz, .pt.trace), B's without the start it shares with A's
// up to a separator ("fusiondiff-Qwen1.5-0.5B-Chat.mi300x-vs-h100.html"). Characters a file name
// should not hold (path separators, spaces, quotes, ...) become '-', and each side's part is cut
// to 60 characters, so the name is one valid file name on every system.
QString defaultReportFileName(const QString& fileA, const QString& fileB);

} // namespace fusiondiff::ui
