#pragma once

#include "analysis/traceerror.h"

#include <QStringList>

#include <array>
#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>

namespace fusiondiff {
class Classifier;
struct JobReport;
} // namespace fusiondiff

namespace fusiondiff::ui {

// Two multi-rank runs compared as jobs for the app (the CLI's compareRuns, runs/runloader.h): each
// side's inputs (folders or files) as rank traces, summarised a batch of ranks at a time so that
// `progress(ranksDone, ranksTotal)` moves as they finish. Throws what the core throws: InputError
// for a bad rank set, Cancelled when `cancel` is set.
std::shared_ptr<const JobReport> compareRunInputs(const std::array<QStringList, 2>& inputs,
    const Classifier& classifier, size_t threads, const std::atomic<bool>* cancel,
    const std::function<void(size_t done, size_t total)>& progress);

// The side (0 = A, 1 = B) whose inputs name the file an error names (the file itself, or the folder
// that holds it); 0 when neither does.
int sideOfRunError(const std::array<QStringList, 2>& inputs, const TraceError& error);

} // namespace fusiondiff::ui
