#include "comparedpair.h"

#include "load/traceloader.h"

#include <QTemporaryDir>

namespace fusiondiff::test {

FusionReport compareWritten(const TraceWriter& a, const TraceWriter& b, const AnalysisOptions& options,
    const std::array<const CaptureTrace*, 2>& captures)
{
    QTemporaryDir dir;
    const TraceStore storeA = loadTrace(a.write(dir, QStringLiteral("a.json")).toStdString());
    const TraceStore storeB = loadTrace(b.write(dir, QStringLiteral("b.json")).toStdString());
    return analyzeFusion(storeA, storeB, captures, Classifier::builtin("default"), options);
}

} // namespace fusiondiff::test
