#pragma once

#include <QString>

namespace fusiondiff::test {

// tests/data/<relative>
QString dataPath(const QString& relative);
// <repository>/<relative>, e.g. "resources/samples/..."
QString sourcePath(const QString& relative);
// The built fusiondiff-cli, for tests that run it as a user would.
QString cliPath();

} // namespace fusiondiff::test
