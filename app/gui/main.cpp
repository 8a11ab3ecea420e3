// fusiondiff: the desktop application.
// `fusiondiff [A B | SESSION.fdsession] [--classifier C] [--param NAME=VALUE]... [--op-level
// auto|operator|module|launch]`; A and B may be folders of rank traces (multi-rank runs).

#include "display/colors.h"
#include "fusionversion.h"
#include "model/analysisoptions.h"
#include "shell/mainwindow.h"
#include "shell/screenshotter.h"
#include "shell/windowsession.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QIcon>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <cstring>
#include <memory>

namespace {

// Whether the command line asks only for the help or the version text: those print and exit
// without a window, so they must work where no display is (a QApplication aborts there).
bool asksForHelpOrVersion(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--") == 0)
            return false;
        for (const char* option : { "-h", "-?", "--help", "--help-all", "-v", "--version" }) {
            if (std::strcmp(argv[i], option) == 0)
                return true;
        }
    }
    return false;
}

} // namespace

int main(int argc, char** argv)
{
    const std::unique_ptr<QCoreApplication> app = asksForHelpOrVersion(argc, argv)
        ? std::make_unique<QCoreApplication>(argc, argv)
        : std::make_unique<QApplication>(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("fusiondiff"));
    QCoreApplication::setOrganizationName(QStringLiteral("FusionDiff"));
    QCoreApplication::setApplicationVersion(QStringLiteral(FUSIONDIFF_VERSION));
    if (qobject_cast<QApplication*>(app.get())) {
        QApplication::setApplicationDisplayName(QStringLiteral("FusionDiff"));
        QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/fusiondiff.svg")));
    }

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QApplication::translate("main", "Compare kernel fusion between two PyTorch profiler traces."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("A"),
        QApplication::translate("main",
            "Trace A (trace1), .json or .json.gz, or a folder of rank traces (a multi-rank run); or a saved "
            "session, .fdsession"),
        QStringLiteral("[A"));
    parser.addPositionalArgument(QStringLiteral("B"),
        QApplication::translate("main", "Trace B (trace2), or a folder of rank traces"), QStringLiteral("B]"));
    const QCommandLineOption classifierOption(QStringLiteral("classifier"),
        QApplication::translate("main", "\"default\", \"seed\" or the path of a rule file."),
        QApplication::translate("main", "C"));
    const QCommandLineOption parameterOption(QStringLiteral("param"),
        QApplication::translate("main", "An analysis parameter, as fusiondiff-cli params lists them."),
        QApplication::translate("main", "NAME=VALUE"));
    const QCommandLineOption opLevelOption(QStringLiteral("op-level"),
        QApplication::translate("main",
            "Compare operations at the level of the outermost PyTorch operator (\"operator\"), "
            "the innermost nn.Module (\"module\") or the operator that launched the kernels (\"launch\"); "
            "\"auto\" (the default): operators, aligned on whatever the two stacks share."),
        QApplication::translate("main", "L"));
    const QCommandLineOption captureAOption(QStringList { QStringLiteral("capture1"), QStringLiteral("capture-a") },
        QApplication::translate("main",
            "A graph-capture trace that goes with A (recorded while A's CUDA/HIP graphs were captured): graph "
            "findings then name the operations, as fusiondiff-cli's --capture1."),
        QApplication::translate("main", "FILE"));
    const QCommandLineOption captureBOption(QStringList { QStringLiteral("capture2"), QStringLiteral("capture-b") },
        QApplication::translate("main", "The same for B."), QApplication::translate("main", "FILE"));
    QCommandLineOption screenshotOption(QStringLiteral("screenshot"),
        QStringLiteral("Save a PNG of every view into DIR and quit (docs/screenshots/make.sh)."),
        QStringLiteral("DIR"));
    screenshotOption.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption prefixOption(
        QStringLiteral("screenshot-prefix"), QStringLiteral("File name prefix."), QStringLiteral("PREFIX"));
    prefixOption.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption onlyOption(
        QStringLiteral("screenshot-only"), QStringLiteral("Comma-separated view names."), QStringLiteral("NAMES"));
    onlyOption.setFlags(QCommandLineOption::HiddenFromHelp);
    const QCommandLineOption darkOption(QStringLiteral("dark"),
        QApplication::translate("main", "Use a dark colour theme (the Fusion style with a dark palette)."));
    parser.addOption(darkOption);
    QCommandLineOption sizeOption(
        QStringLiteral("screenshot-size"), QStringLiteral("Window size, WxH (1440x900)."), QStringLiteral("SIZE"));
    sizeOption.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(sizeOption);
    parser.addOption(onlyOption);
    parser.addOption(classifierOption);
    parser.addOption(parameterOption);
    parser.addOption(opLevelOption);
    parser.addOption(captureAOption);
    parser.addOption(captureBOption);
    parser.addOption(screenshotOption);
    parser.addOption(prefixOption);
    parser.process(*app);

    if (parser.isSet(darkOption)) {
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(fusiondiff::ui::darkPalette());
    }
    QApplication::setPalette(fusiondiff::ui::withReadableLinks(QApplication::palette()));

    const QStringList traces = parser.positionalArguments();
    if (traces.size() > 2) {
        std::fprintf(stderr, "fusiondiff: give at most two traces (A and B)\n");
        return 2;
    }

    if ((parser.isSet(captureAOption) || parser.isSet(captureBOption)) && traces.size() != 2) {
        std::fprintf(stderr, "fusiondiff: --capture1 and --capture2 go with two traces (A and B)\n");
        return 2;
    }

    fusiondiff::OpLevel level = fusiondiff::OpLevel::Auto;
    if (parser.isSet(opLevelOption) && !fusiondiff::parseOpLevel(parser.value(opLevelOption).toStdString(), level)) {
        std::fprintf(stderr, "fusiondiff: --op-level takes auto, operator, module or launch, not '%s'\n",
            qPrintable(parser.value(opLevelOption)));
        return 2;
    }

    // Screenshots start from default settings, not from the user's.
    QTemporaryDir screenshotSettings;
    const bool screenshots = parser.isSet(screenshotOption);
    if (screenshots) {
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, screenshotSettings.path());
    }

    fusiondiff::ui::MainWindow window;
    if (parser.isSet(classifierOption) || parser.isSet(parameterOption) || parser.isSet(opLevelOption)) {
        window.applyClassifierAndParameters(
            parser.value(classifierOption), parser.values(parameterOption), parser.value(opLevelOption));
    }

    if (screenshots) {
        const QStringList size = parser.value(sizeOption).split(QLatin1Char('x'));
        window.resize(size.size() == 2 ? QSize(size[0].toInt(), size[1].toInt()) : QSize(1440, 900));
        window.show();
        const QStringList written
            = fusiondiff::ui::takeScreenshots(window, parser.value(screenshotOption), parser.value(prefixOption),
                traces.isEmpty(), traces, parser.value(onlyOption).split(QLatin1Char(','), Qt::SkipEmptyParts));
        for (const QString& file : written)
            std::printf("%s\n", qPrintable(QDir::cleanPath(file)));
        return written.isEmpty() ? 1 : 0;
    }

    window.show();
    if (traces.size() == 2)
        window.openTraces(traces[0], traces[1], parser.value(captureAOption), parser.value(captureBOption));
    else if (traces.size() == 1)
        window.openTrace(0, traces[0]); // a session file opens as a session
    else
        window.session()->openLastSession(); // if the setting asks for it
    return QApplication::exec();
}
