#include "testdata.h"

namespace fusiondiff::test {

QString dataPath(const QString& relative)
{
    return QStringLiteral(FUSIONDIFF_TEST_DATA_DIR "/") + relative;
}

QString sourcePath(const QString& relative)
{
    return QStringLiteral(FUSIONDIFF_SOURCE_DIR "/") + relative;
}

QString cliPath()
{
    return QStringLiteral(FUSIONDIFF_CLI_PATH);
}

} // namespace fusiondiff::test
