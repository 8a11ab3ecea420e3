#include "export/reportfilename.h"

#include <QStringList>

namespace fusiondiff::ui {

namespace {

constexpr qsizetype kMaxPartLength = 60;

// The trace's name without the extensions traces are saved with.
QString traceStem(QString name)
{
    for (const QString& suffix :
        { QStringLiteral(".gz"), QStringLiteral(".json"), QStringLiteral(".trace"), QStringLiteral(".pt") }) {
        if (name.endsWith(suffix, Qt::CaseInsensitive) && name.size() > suffix.size())
            name.chop(suffix.size());
    }
    return name;
}

bool isSeparator(QChar c)
{
    return c == u'.' || c == u'_' || c == u'-';
}

// Letters, digits, '.', '_' and '-' kept; any run of other characters one '-'; no separator at
// either end (a leading '.' would hide the file).
QString sanitised(const QString& name)
{
    QString out;
    for (const QChar c : name) {
        const bool kept = (c.isLetterOrNumber() && c.unicode() < 128) || isSeparator(c);
        if (kept)
            out.append(c);
        else if (!out.endsWith(u'-'))
            out.append(u'-');
    }
    while (!out.isEmpty() && isSeparator(out.front()))
        out.remove(0, 1);
    out.truncate(kMaxPartLength);
    while (!out.isEmpty() && isSeparator(out.back()))
        out.chop(1);
    return out;
}

// How much of `b` to leave out: its longest start in common with `a` that ends just after a
// separator, as long as something of `b` is left.
qsizetype sharedStart(const QString& a, const QString& b)
{
    qsizetype shared = 0;
    for (qsizetype i = 0; i < std::min(a.size(), b.size()) && a[i] == b[i]; ++i) {
        if (isSeparator(a[i]) && i + 1 < b.size())
            shared = i + 1;
    }
    return shared;
}

} // namespace

QString defaultReportFileName(const QString& fileA, const QString& fileB)
{
    QString a = sanitised(traceStem(fileA));
    QString b = sanitised(traceStem(fileB));
    if (a != b)
        b = sanitised(b.mid(sharedStart(a, b)));
    if (a.isEmpty() || b.isEmpty())
        return QStringLiteral("fusiondiff-report.html");
    return QStringLiteral("fusiondiff-%1-vs-%2.html").arg(a, b);
}

} // namespace fusiondiff::ui
