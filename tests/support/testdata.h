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
// The names of the files in `folder`, hidden ones too, sorted.
QStringList filesIn(const QString& folder);

// The seeds a test over constructed pairs runs: all of `seeds`, or only the first where
// FUSIONDIFF_TEST_FIRST_SEED is set. The sanitizer build sets it (CMakePresets.json): there the
// constructions check memory safety, which one seed covers, while the accuracy bar over every seed
// is the test build's.
std::vector<unsigned long long> seedsToRun(std::initializer_list<unsigned long long> seeds);

} // namespace fusiondiff::test
