#include "display/nameelision.h"

#include <QFontMetricsF>

#include <algorithm>

namespace fusiondiff::ui {

namespace {

// Characters of common text kept on each side of the distinguishing part, so that it reads as a
// piece of the name ("_MT256x128" rather than "256").
constexpr qsizetype kContext = 3;

qsizetype commonStart(const QString& a, const QString& b)
{
    const qsizetype n = std::min(a.size(), b.size());
    qsizetype i = 0;
    while (i < n && a[i] == b[i])
        ++i;
    return i;
}

qsizetype commonEnd(const QString& a, const QString& b)
{
    const qsizetype n = std::min(a.size(), b.size());
    qsizetype i = 0;
    while (i < n && a[a.size() - 1 - i] == b[b.size() - 1 - i])
        ++i;
    return i;
}

// The length of a name's first word with its separator ("Cijk_", "at::"): what names it as a
// family; at most a few characters.
qsizetype firstWordLength(const QString& name)
{
    constexpr qsizetype kLongestWord = 12;
    for (qsizetype i = 1; i < std::min(name.size(), kLongestWord); ++i) {
        if (name[i] == QLatin1Char('_') || name[i] == QLatin1Char(':'))
            return i + (i + 1 < name.size() && name[i + 1] == QLatin1Char(':') ? 2 : 1);
    }
    return 0;
}

} // namespace

DistinguishingPart distinguishingPart(const QString& name, const QStringList& others)
{
    qsizetype start = 0;
    qsizetype end = 0;
    bool any = false;
    for (const QString& other : others) {
        if (other == name)
            continue;
        any = true;
        start = std::max(start, commonStart(name, other));
        end = std::max(end, commonEnd(name, other));
    }
    if (!any)
        return { 0, name.size() };
    // A name that is another's start or end ("gemm" beside "gemm_bias"): what follows or precedes
    // it is where they differ, at its own end or start.
    start = std::min(start, name.size());
    qsizetype stop = std::max(start, name.size() - end);
    if (stop == start) {
        // The common start and end overlap (one name inside another): keep a character at least.
        start = std::min(start, name.size() - 1);
        stop = start + 1;
    }
    return { start, stop };
}

QString elideDistinguishing(const QString& name, const QStringList& others, const QFontMetricsF& metrics, qreal width)
{
    if (metrics.horizontalAdvance(name) <= width)
        return name;
    const DistinguishingPart part = distinguishingPart(name, others);
    const qsizetype coreStart = std::max<qsizetype>(0, part.start - kContext);
    const qsizetype coreEnd = std::min(name.size(), part.end + kContext);
    if (coreStart == 0 && coreEnd == name.size())
        return metrics.elidedText(name, Qt::ElideMiddle, width);
    const QString ellipsis { QChar(kEllipsis) };
    const QString core = name.mid(coreStart, coreEnd - coreStart);
    // `head` characters of the start and `tail` of the end around the core, with an ellipsis
    // where something is left out.
    const auto compose = [&](qsizetype head, qsizetype tail) {
        QStringList pieces { name.left(head) };
        if (head < coreStart)
            pieces.append(ellipsis);
        pieces.append(core);
        if (tail < name.size() - coreEnd)
            pieces.append(ellipsis);
        pieces.append(name.right(tail));
        return pieces.join(QString());
    };
    const qsizetype maxHead = coreStart;
    const qsizetype maxTail = name.size() - coreEnd;
    if (metrics.horizontalAdvance(compose(0, 0)) > width) {
        // Not even the distinguishing part fits: the name's first word, then the distinguishing
        // part from where it starts to differ ("Cijk_…MT256x128x64_MI16x16x1_S…").
        const QString head = name.left(std::min(firstWordLength(name), coreStart));
        const QString lead = head.size() < coreStart ? head + ellipsis : head;
        const qreal room = width - metrics.horizontalAdvance(lead);
        if (room <= metrics.horizontalAdvance(ellipsis) * 4)
            return metrics.elidedText(ellipsis + core, Qt::ElideRight, width);
        return lead + metrics.elidedText(name.mid(coreStart), Qt::ElideRight, room);
    }
    // The start and the end grow together (k characters each, as far as each goes): the largest k
    // that fits.
    qsizetype low = 0;
    qsizetype high = std::max(maxHead, maxTail);
    while (low < high) {
        const qsizetype k = (low + high + 1) / 2;
        if (metrics.horizontalAdvance(compose(std::min(k, maxHead), std::min(k, maxTail))) <= width)
            low = k;
        else
            high = k - 1;
    }
    return compose(std::min(low, maxHead), std::min(low, maxTail));
}

} // namespace fusiondiff::ui
