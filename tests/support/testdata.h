#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <initializer_list>
#include <vector>

namespace fusiondiff::test {

// tests/data/<relative>
QString dataPath(const QString& relative);
// <repository>/<relative>, e.g. "resources/samples/..."
QString sourcePath(const QString& relative);
// The built fusiondiff-cli, for tests that run it as a user would.
QString cliPath();
// The bundled sample pair (resources/samples): Qwen1.5-0.5B-Chat on an MI300X (A), on an H100 (B).
QString sampleA();
QString sampleB();

// The contents of `path`; "<missing>" if it cannot be read, so that a comparison with what it
// should hold (even nothing) fails saying so.
QByteArray readFile(const QString& path);
// Writes `bytes` to `path` whole; throws std::runtime_error naming the path if it cannot.
void writeFile(const QString& path, const QByteArray& bytes);
// The names of the files in `folder`, hidden ones too, sorted.
QStringList filesIn(const QString& folder);

// Whether tests over many constructed cases run fewer of them: where FUSIONDIFF_TEST_FEWER_CASES
// is set, which the sanitizer build does (CMakePresets.json). There the constructions check memory
// safety, which a few cases cover, while the accuracy bar over every case is the test build's.
bool fewerCases();
// All of `seeds`, or only the first with fewerCases().
std::vector<unsigned long long> seedsToRun(std::initializer_list<unsigned long long> seeds);

} // namespace fusiondiff::test
