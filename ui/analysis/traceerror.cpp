#include "analysis/traceerror.h"

#include "util/inputerror.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <new>

namespace fusiondiff::ui {

namespace {
QString tr(const char* text)
{
    return QCoreApplication::translate("fusiondiff::ui::TraceError", text);
}
} // namespace

QString TraceError::fileName() const
{
    return QFileInfo(path).fileName();
}

QString TraceError::offsetText() const
{
    if (!byteOffset)
        return {};
    return offsetInDecompressedData ? tr("at byte %1 of the decompressed data").arg(*byteOffset)
                                    : tr("at byte %1").arg(*byteOffset);
}

QString TraceError::text() const
{
    QString result = fileName() + QStringLiteral(": ") + reason;
    if (byteOffset)
        result += QStringLiteral(" (") + offsetText() + QLatin1Char(')');
    return result;
}

TraceError TraceError::fromException(const std::exception_ptr& error, const QString& path)
{
    TraceError result;
    result.path = path;
    try {
        std::rethrow_exception(error);
    } catch (const InputError& input) {
        result.path = QString::fromStdString(input.path());
        result.reason = QString::fromStdString(input.reason());
        result.byteOffset = input.byteOffset();
        result.offsetInDecompressedData = input.offsetKind() == InputError::OffsetKind::Decompressed;
    } catch (const std::bad_alloc&) {
        result.reason = tr("not enough memory to load this trace");
    } catch (const std::exception& other) {
        result.reason = QString::fromStdString(other.what());
    } catch (...) {
        result.reason = tr("unknown error");
    }
    return result;
}

std::optional<TraceError> validateTraceFile(const QString& path)
{
    const QFileInfo info(path);
    TraceError error;
    error.path = path;
    if (path.isEmpty())
        error.reason = tr("no file given");
    else if (!info.exists())
        error.reason = tr("the file does not exist");
    else if (!info.isFile())
        error.reason = tr("this is not a file");
    else if (!info.isReadable())
        error.reason = tr("the file is not readable");
    else if (info.size() == 0)
        error.reason = tr("the file is empty");
    else
        return std::nullopt;
    return error;
}

} // namespace fusiondiff::ui
