#include "display/kernelnames.h"

#include "display/nameelision.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace fusiondiff::ui {

namespace {

constexpr qsizetype kLongName = 160;
constexpr qsizetype kShownCharacters = 512;

// `name` with the template arguments nested deeper than `keptDepth` replaced by "…" ("<…>").
QString collapseTemplates(const QString& name, int keptDepth)
{
    QString out;
    out.reserve(name.size());
    int depth = 0;
    for (qsizetype i = 0; i < name.size(); ++i) {
        const QChar c = name[i];
        // "operator<" and "operator<<" are not templates; neither is "->".
        if (c == QLatin1Char('<')) {
            if (name.left(i).endsWith(QLatin1String("operator")) || (i > 0 && name[i - 1] == QLatin1Char('<'))) {
                if (depth <= keptDepth)
                    out += c;
                continue;
            }
            ++depth;
            if (depth <= keptDepth + 1)
                out += c;
            if (depth == keptDepth + 1)
                out += QChar(kEllipsis);
            continue;
        }
        if (c == QLatin1Char('>') && depth > 0 && !(i > 0 && name[i - 1] == QLatin1Char('-'))) {
            if (depth <= keptDepth + 1)
                out += c;
            --depth;
            continue;
        }
        if (depth <= keptDepth)
            out += c;
    }
    return out;
}

// The index of the '(' that opens the parameter list of a function signature: the last '(' at
// template depth 0 whose ')' ends the name (qualifiers such as " const" aside); -1 if none.
qsizetype parameterListStart(const QString& name)
{
    int depth = 0;
    int parens = 0;
    qsizetype start = -1;
    for (qsizetype i = 0; i < name.size(); ++i) {
        const QChar c = name[i];
        if (c == QLatin1Char('<'))
            ++depth;
        else if (c == QLatin1Char('>') && depth > 0)
            --depth;
        else if (c == QLatin1Char('(') && depth == 0) {
            if (parens == 0)
                start = i;
            ++parens;
        } else if (c == QLatin1Char(')') && depth == 0 && parens > 0)
            --parens;
    }
    return start;
}

// Drops a leading return type ("void "), where the name has one before its scope.
QString withoutReturnType(const QString& name)
{
    int depth = 0;
    for (qsizetype i = 0; i < name.size(); ++i) {
        const QChar c = name[i];
        if (c == QLatin1Char('<'))
            ++depth;
        else if (c == QLatin1Char('>') && depth > 0)
            --depth;
        else if (c == QLatin1Char('(') || c == QLatin1Char(':'))
            return name;
        else if (c == QLatin1Char(' ') && depth == 0)
            return name.mid(i + 1);
    }
    return name;
}

} // namespace

QString demangledKernelName(const QString& name)
{
    if (!name.startsWith(QLatin1String("_Z")))
        return name;
    const auto demangle = [](const QByteArray& mangled) {
        int status = 0;
        const std::unique_ptr<char, decltype(&std::free)> demangled(
            abi::__cxa_demangle(mangled.constData(), nullptr, nullptr, &status), &std::free);
        return status == 0 && demangled ? QString::fromLatin1(demangled.get()) : QString();
    };
    const QByteArray mangled = name.toLatin1();
    QString demangled = demangle(mangled);
    // std::bfloat16_t (DF16b, GCC 13) is newer than some runtimes' demangler (GCC 12): read it as
    // the other builtin 16-bit float, `half` (Dh), and name it back.
    if (demangled.isEmpty() && mangled.contains("DF16b") && !mangled.contains("Dh")) {
        static const QRegularExpression half(QStringLiteral("\\bhalf\\b"));
        demangled = demangle(QByteArray(mangled).replace("DF16b", "Dh"));
        demangled.replace(half, QStringLiteral("std::bfloat16_t"));
    }
    return demangled.isEmpty() ? name : demangled;
}

namespace {

// shownKernelName with template arguments collapsed below `keptDepth` (-1: none collapsed).
QString shownKernelName(const QString& name, int keptDepth)
{
    QString shown = demangledKernelName(name);
    const qsizetype parameters = parameterListStart(shown);
    // A C++ signature ("ns::kernel<...>(int)"), not a name with words in parentheses ("Memcpy HtoD
    // (Pinned -> Device)").
    const QStringView function = QStringView(shown).left(parameters);
    const bool cpp = function.contains(QLatin1String("::")) || function.contains(QLatin1Char('<'));
    if (parameters > 0 && shown.endsWith(QLatin1Char(')')) && cpp)
        shown = shown.left(parameters);
    if (cpp)
        shown = withoutReturnType(shown);
    if (keptDepth >= 0) {
        shown = collapseTemplates(shown, keptDepth);
        if (shown.size() > kLongName)
            shown = collapseTemplates(shown, 0);
    }
    // Still longer than any column (a name without templates): its start and its end.
    if (shown.size() > kShownCharacters)
        shown = shown.left(kShownCharacters / 2) + QChar(kEllipsis) + shown.right(kShownCharacters / 2 - 1);
    return shown;
}

} // namespace

QString shownKernelName(const QString& name)
{
    return shownKernelName(name, 1);
}

QStringList distinctShownKernelNames(const QStringList& names)
{
    QStringList shown;
    shown.reserve(names.size());
    QHash<QString, QSet<QString>> namesOfShown; // the different names each shown name stands for
    for (const QString& name : names) {
        shown.append(shownKernelName(name));
        namesOfShown[shown.back()].insert(name);
    }
    for (qsizetype i = 0; i < names.size(); ++i) {
        if (namesOfShown.value(shown[i]).size() < 2)
            continue;
        // Names that collapse to one: their template arguments, and where those are the same too,
        // their parameters (the demangled signature).
        const QString full = shownKernelName(names[i], -1);
        shown[i] = full == shownKernelName(names[i], 1) ? demangledKernelName(names[i]) : full;
    }
    return shown;
}

QString kernelNameToolTip(const QString& name)
{
    const QString demangled = demangledKernelName(name);
    return demangled == name ? name : demangled + QStringLiteral("\n\n") + name;
}

} // namespace fusiondiff::ui
