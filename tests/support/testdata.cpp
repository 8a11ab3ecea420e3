#include "testdata.h"

#include <QDir>
#include <QFile>

#include <stdexcept>

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

QString sampleA()
{
    return sourcePath(QStringLiteral("resources/samples/Qwen1.5-0.5B-Chat.mi300x.json.gz"));
}

QString sampleB()
{
    return sourcePath(QStringLiteral("resources/samples/Qwen1.5-0.5B-Chat.h100.json.gz"));
}

QByteArray readFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return "<missing>";
    return file.readAll();
}

void writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        throw std::runtime_error("cannot write " + path.toStdString());
}

QStringList filesIn(const QString& folder)
{
    QStringList files = QDir(folder).entryList(QDir::Files | QDir::Hidden | QDir::System, QDir::NoSort);
    files.sort();
    return files;
}

bool fewerCases()
{
    return qEnvironmentVariableIsSet("FUSIONDIFF_TEST_FEWER_CASES");
}

std::vector<unsigned long long> seedsToRun(std::initializer_list<unsigned long long> seeds)
{
    if (fewerCases() && seeds.size() > 1)
        return { *seeds.begin() };
    return seeds;
}

} // namespace fusiondiff::test
