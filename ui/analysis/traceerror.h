#pragma once

#include <QMetaType>
#include <QString>

#include <exception>
#include <optional>

namespace fusiondiff::ui {

// Why a trace could not be loaded, in the parts the drop zone shows: the file, the reason and,
// where the core knows it, the byte offset.
struct TraceError
{
    QString path;
    QString reason;
    std::optional<quint64> byteOffset;
    bool offsetInDecompressedData = false;

    QString fileName() const;
    // "at byte 1234" / "at byte 1234 of the decompressed data" / ""
    QString offsetText() const;
    // One line: "file.json.gz: reason (at byte 1234)"
    QString text() const;

    // From an exception thrown by the core (InputError, or anything else).
    static TraceError fromException(const std::exception_ptr& error, const QString& path);
};

// The checks a file passes before any thread starts: it exists, is a file, is readable, is not
// empty. The content is the core's to judge.
std::optional<TraceError> validateTraceFile(const QString& path);

} // namespace fusiondiff::ui

Q_DECLARE_METATYPE(fusiondiff::ui::TraceError)
