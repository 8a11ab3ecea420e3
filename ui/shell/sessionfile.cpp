#include "shell/sessionfile.h"

#include "analysis/traceerror.h"
#include "util/atomicfile.h"
#include "util/inputerror.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

namespace fusiondiff::ui {

namespace {

const QString kFormat = QStringLiteral("fusiondiff-session");

QString tr(const char* text)
{
    return QCoreApplication::translate("fusiondiff::ui::Session", text);
}

QString latin1(std::string_view text)
{
    return QString::fromLatin1(text.data(), static_cast<qsizetype>(text.size()));
}

// A path as the session gives it, relative ones from the session's folder; "" stays "".
QString resolvedPath(const QJsonValue& value, const QString& folder)
{
    const QString path = value.toString();
    return path.isEmpty() ? QString() : QDir::cleanPath(QDir(folder).absoluteFilePath(path));
}

bool isBuiltinClassifier(const QString& spec)
{
    return spec == QLatin1String("default") || spec == QLatin1String("seed");
}

QChar sideLetter(size_t side)
{
    return side == 0 ? QLatin1Char('A') : QLatin1Char('B');
}

// The parts of a session after the format and version were checked; "" or the reason.
QString readFields(const QJsonObject& root, const QString& folder, Session& session)
{
    const QJsonValue traces = root.value(QLatin1String("traces"));
    if (!traces.isArray() || traces.toArray().size() != 2)
        return tr("\"traces\" is not a list of two traces (A and B)");
    for (size_t side = 0; side < 2; ++side) {
        const QJsonValue entry = traces.toArray().at(static_cast<qsizetype>(side));
        const QJsonValue path = entry.toObject().value(QLatin1String("path"));
        const QJsonValue capture = entry.toObject().value(QLatin1String("capture"));
        if (!entry.isObject() || !path.isString() || path.toString().isEmpty())
            return tr("trace %1 has no \"path\"").arg(sideLetter(side));
        if (!capture.isUndefined() && !capture.isString())
            return tr("the \"capture\" of trace %1 is not a path").arg(sideLetter(side));
        session.sides[side].trace = resolvedPath(path, folder);
        session.sides[side].capture = resolvedPath(capture, folder);
        const QJsonValue run = entry.toObject().value(QLatin1String("run"));
        const QJsonValue rank = entry.toObject().value(QLatin1String("rank"));
        if (run.isUndefined())
            continue;
        if (!run.isArray() || run.toArray().isEmpty())
            return tr("the \"run\" of trace %1 is not a list of rank traces or folders").arg(sideLetter(side));
        for (const QJsonValue input : run.toArray()) {
            if (!input.isString() || input.toString().isEmpty())
                return tr("the \"run\" of trace %1 holds something that is not a path").arg(sideLetter(side));
            session.sides[side].run.append(resolvedPath(input, folder));
        }
        if (!rank.isUndefined()) {
            const double number = rank.toDouble(-1);
            if (!rank.isDouble() || number < 0 || number != static_cast<int>(number))
                return tr("the \"rank\" of trace %1 is not a rank number").arg(sideLetter(side));
            session.sides[side].rank = static_cast<int>(number);
        }
    }

    const QJsonValue classifier = root.value(QLatin1String("classifier"));
    if (!classifier.isUndefined()) {
        if (!classifier.isString() || classifier.toString().isEmpty())
            return tr("\"classifier\" is not \"default\", \"seed\" or a rule file's path");
        session.classifier
            = isBuiltinClassifier(classifier.toString()) ? classifier.toString() : resolvedPath(classifier, folder);
    }

    const QJsonValue level = root.value(QLatin1String("op_level"));
    if (!level.isUndefined() && !parseOpLevel(level.toString().toStdString(), session.options.opLevel))
        return tr("\"op_level\" is auto, operator, module or launch, not '%1'").arg(level.toVariant().toString());
    const QJsonValue parameters = root.value(QLatin1String("parameters"));
    if (!parameters.isUndefined() && !parameters.isObject())
        return tr("\"parameters\" is not an object of analysis parameters");
    const QJsonObject values = parameters.toObject();
    for (auto it = values.begin(); it != values.end(); ++it) {
        if (!it.value().isDouble())
            return tr("the analysis parameter %1 is not a number").arg(it.key());
        const std::string error = setAnalysisParameter(
            session.options, it.key().toStdString(), QString::number(it.value().toDouble(), 'g', 17).toStdString());
        if (!error.empty())
            return QString::fromStdString(error);
    }

    const QJsonValue tab = root.value(QLatin1String("tab"));
    const QJsonValue pages = root.value(QLatin1String("pages"));
    if ((!tab.isUndefined() && !tab.isString()) || (!pages.isUndefined() && !pages.isObject()))
        return tr("\"tab\" is not a tab's name or \"pages\" not an object");
    session.tab = tab.toString();
    session.pages = pages.toObject();
    return {};
}

// "" or why the file at `path` cannot be opened as trace or capture `what`.
QString fileProblem(const QString& path, const QString& what)
{
    if (const std::optional<TraceError> error = validateTraceFile(path))
        return tr("%1 %2: %3").arg(what, QDir::toNativeSeparators(path), error->reason);
    return {};
}

// "" or why an input of the run `what` cannot be read: a rank trace must be a readable trace file,
// a folder must exist (the run's loader then names a missing or bad rank in it).
QString runProblem(const QStringList& inputs, const QString& what)
{
    for (const QString& input : inputs) {
        const QFileInfo info(input);
        if (info.isDir()) {
            if (!info.isReadable())
                return tr("the run folder of %1, %2, cannot be read").arg(what, QDir::toNativeSeparators(input));
            continue;
        }
        QString problem = fileProblem(input, tr("a rank of %1,").arg(what));
        if (!problem.isEmpty())
            return problem;
    }
    return {};
}

} // namespace

bool isSessionFile(const QString& path)
{
    return QFileInfo(path).suffix().compare(QLatin1String(kSessionSuffix), Qt::CaseInsensitive) == 0;
}

QByteArray sessionToJson(const Session& session)
{
    QJsonObject root;
    root.insert(QLatin1String("format"), kFormat);
    root.insert(QLatin1String("version"), session.comparesRuns() ? Session::kVersion : 2);
    QJsonArray traces;
    for (const Session::Side& side : session.sides) {
        QJsonObject trace { { QLatin1String("path"), side.trace } };
        if (!side.capture.isEmpty())
            trace.insert(QLatin1String("capture"), side.capture);
        if (!side.run.isEmpty()) {
            trace.insert(QLatin1String("run"), QJsonArray::fromStringList(side.run));
            if (side.rank >= 0)
                trace.insert(QLatin1String("rank"), side.rank);
        }
        traces.append(trace);
    }
    root.insert(QLatin1String("traces"), traces);
    root.insert(QLatin1String("classifier"), session.classifier);
    root.insert(QLatin1String("op_level"), QString::fromLatin1(opLevelKey(session.options.opLevel)));
    QJsonObject parameters;
    for (const AnalysisParameter& parameter : analysisParameters())
        parameters.insert(latin1(parameter.name), parameterValue(session.options, parameter));
    root.insert(QLatin1String("parameters"), parameters);
    root.insert(QLatin1String("tab"), session.tab);
    root.insert(QLatin1String("pages"), session.pages);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

std::optional<Session> sessionFromJson(const QByteArray& bytes, const QString& folder, QString* error)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = tr("not a session file: %1 at byte %2").arg(parseError.errorString()).arg(parseError.offset);
        return std::nullopt;
    }
    const QJsonObject root = document.object();
    if (!document.isObject() || root.value(QLatin1String("format")).toString() != kFormat) {
        *error = tr("not a FusionDiff session file (it has no \"format\": \"%1\")").arg(kFormat);
        return std::nullopt;
    }
    const QJsonValue version = root.value(QLatin1String("version"));
    const double number = version.toDouble(-1);
    if (!version.isDouble() || number < 1 || number != static_cast<int>(number)) {
        *error = tr("its \"version\" is not a version number");
        return std::nullopt;
    }
    if (number > Session::kVersion) {
        *error = tr("it was saved by a newer FusionDiff (session version %1; this one reads version %2 and older)")
                     .arg(static_cast<int>(number))
                     .arg(Session::kVersion);
        return std::nullopt;
    }
    Session session;
    *error = readFields(root, folder, session);
    if (!error->isEmpty())
        return std::nullopt;
    return session;
}

SessionReading readSession(const QString& path)
{
    SessionReading reading;
    const auto fail = [&](const QString& reason) {
        reading.error = tr("Cannot open the session %1: %2.").arg(QDir::toNativeSeparators(path), reason);
        return reading;
    };
    QFile file(path);
    if (!QFileInfo(path).isFile())
        return fail(QFileInfo::exists(path) ? tr("this is not a file") : tr("the file does not exist"));
    if (!file.open(QIODevice::ReadOnly))
        return fail(file.errorString());
    QString error;
    std::optional<Session> session = sessionFromJson(file.readAll(), QFileInfo(path).absolutePath(), &error);
    if (!session)
        return fail(error);
    for (size_t side = 0; side < 2; ++side) {
        const QString name = side == 0 ? tr("trace A") : tr("trace B");
        QString problem;
        if (!session->sides[side].run.isEmpty())
            problem = runProblem(session->sides[side].run, name);
        else
            problem = fileProblem(session->sides[side].trace, name);
        if (problem.isEmpty() && !session->sides[side].capture.isEmpty())
            problem = fileProblem(session->sides[side].capture, tr("the capture trace of %1").arg(name));
        if (!problem.isEmpty())
            return fail(problem);
    }
    if (!isBuiltinClassifier(session->classifier) && !QFileInfo(session->classifier).isFile())
        return fail(
            tr("the classifier rule file %1 does not exist").arg(QDir::toNativeSeparators(session->classifier)));
    reading.session = std::move(session);
    return reading;
}

QString writeSession(const QString& path, const Session& session)
{
    try {
        const QByteArray json = sessionToJson(session);
        writeFileAtomically(QFile::encodeName(path).toStdString(), std::string_view(json.constData(), json.size()));
    } catch (const InputError& error) {
        return tr("Cannot save the session %1: %2.")
            .arg(QDir::toNativeSeparators(path), QString::fromStdString(error.reason()));
    } catch (const std::exception& error) {
        return tr("Cannot save the session %1: %2.")
            .arg(QDir::toNativeSeparators(path), QString::fromUtf8(error.what()));
    }
    return {};
}

} // namespace fusiondiff::ui
