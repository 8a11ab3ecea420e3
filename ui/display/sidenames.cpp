#include "display/sidenames.h"

#include "display/nameelision.h"
#include "model/fusionreport.h"

#include <QRegularExpression>
#include <QStringList>

namespace fusiondiff::ui {

namespace {

QString elidedInTheMiddle(const QString& text, qsizetype length)
{
    if (text.size() <= length)
        return text;
    const qsizetype head = (length - 1) / 2;
    const qsizetype tail = length - 1 - head;
    return text.left(head) + QChar(kEllipsis) + text.right(tail);
}

// The parts of a name and the separators after them: "a_b.c" -> {"a", "_"}, {"b", "."}, {"c", ""}.
QList<std::pair<QString, QString>> tokens(const QString& name)
{
    static const QRegularExpression separators(QStringLiteral("[._\\- ]+"));
    QList<std::pair<QString, QString>> parts;
    qsizetype start = 0;
    QRegularExpressionMatchIterator it = separators.globalMatch(name);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        parts.append({ name.mid(start, match.capturedStart() - start), match.captured() });
        start = match.capturedEnd();
    }
    parts.append({ name.mid(start), QString() });
    return parts;
}

} // namespace

std::array<QString, 2> differingNames(const std::array<QString, 2>& names)
{
    // Words both names start or end with.
    const auto a = tokens(names[0]);
    const auto b = tokens(names[1]);
    qsizetype front = 0;
    while (front + 1 < a.size() && front + 1 < b.size() && a[front].first == b[front].first)
        ++front;
    qsizetype back = 0;
    while (back + 1 < a.size() - front && back + 1 < b.size() - front
        && a[a.size() - 1 - back].first == b[b.size() - 1 - back].first)
        ++back;
    const auto join = [](const QList<std::pair<QString, QString>>& parts, qsizetype from, qsizetype to) {
        QString text;
        for (qsizetype i = from; i < to; ++i)
            text += parts[i].first + (i + 1 < to ? parts[i].second : QString());
        return text;
    };
    std::array<QString, 2> shortened = { join(a, front, a.size() - back), join(b, front, b.size() - back) };
    if (!shortened[0].isEmpty() && !shortened[1].isEmpty() && shortened[0] != shortened[1])
        return shortened;
    return names;
}

std::array<QString, 2> sideAliases(const std::array<QString, 2>& names)
{
    if (names[0].size() <= kMaxAliasLength && names[1].size() <= kMaxAliasLength)
        return names;
    // Alike labels, which the core names "A: x" and "B: x" (two ranks of one name): the letters
    // tell them apart, so they stay, and x is shortened (without its GPU, the same on both).
    static const QRegularExpression gpuSuffix(QStringLiteral("\\s*\\([^()]*\\)$"));
    const QString a = QStringLiteral("A: ");
    const QString b = QStringLiteral("B: ");
    if (names[0].startsWith(a) && names[1].startsWith(b) && names[0].mid(3) == names[1].mid(3)) {
        QString alike = names[0].mid(3);
        alike.remove(gpuSuffix);
        alike = elidedInTheMiddle(alike, kMaxAliasLength - 3);
        return { a + alike, b + alike };
    }
    std::array<QString, 2> aliases = names;
    // The GPU of a label, "(AMD Instinct MI300X)": dropped when both name the same; otherwise
    // kept where the alias has room for it.
    static const QRegularExpression gpu(QStringLiteral("\\s*\\([^()]*\\)$"));
    std::array<QString, 2> gpus;
    for (size_t side = 0; side < 2; ++side) {
        const QRegularExpressionMatch match = gpu.match(aliases[side]);
        if (match.hasMatch()) {
            gpus[side] = match.captured();
            aliases[side].chop(match.capturedLength());
        }
    }
    if (gpus[0] == gpus[1])
        gpus = {};
    aliases = differingNames(aliases);
    for (size_t side = 0; side < 2; ++side) {
        if (aliases[side].size() + gpus[side].size() <= kMaxAliasLength || aliases[0] == aliases[1])
            aliases[side] += gpus[side];
    }
    for (QString& alias : aliases)
        alias = elidedInTheMiddle(alias, kMaxAliasLength);
    if (aliases[0] == aliases[1]) // elided alike: the letters tell them apart
        return { aliases[0] + QStringLiteral(" (A)"), aliases[1] + QStringLiteral(" (B)") };
    return aliases;
}

QString sideAlias(const FusionReport& report, int side)
{
    const std::array<QString, 2> names
        = { QString::fromStdString(report.sideNames[0]), QString::fromStdString(report.sideNames[1]) };
    return sideAliases(names)[static_cast<size_t>(side)];
}

QString withSideAliases(const FusionReport& report, const QString& text)
{
    QString result = text;
    // The longer name first, in case one contains the other.
    const std::array<QString, 2> names
        = { QString::fromStdString(report.sideNames[0]), QString::fromStdString(report.sideNames[1]) };
    const std::array<QString, 2> aliases = sideAliases(names);
    const int first = names[0].size() >= names[1].size() ? 0 : 1;
    for (const int side : { first, 1 - first }) {
        if (names[static_cast<size_t>(side)] != aliases[static_cast<size_t>(side)])
            result.replace(names[static_cast<size_t>(side)], aliases[static_cast<size_t>(side)]);
    }
    return result;
}

} // namespace fusiondiff::ui
