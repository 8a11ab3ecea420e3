#include "shell/helpdialog.h"

#include <QAbstractButton>
#include <QAction>
#include <QDialogButtonBox>
#include <QKeySequence>
#include <QRegularExpression>
#include <QSet>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace fusiondiff::ui {

namespace {

QString plainText(QString text)
{
    // "&Open Trace A..." as a sentence: no mnemonic, no trailing dots.
    text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
    while (text.endsWith(QLatin1Char('.')))
        text.chop(1);
    return text;
}

QString keysOf(const QList<QKeySequence>& sequences)
{
    QStringList keys;
    for (const QKeySequence& sequence : sequences) {
        if (!sequence.isEmpty())
            keys.append(sequence.toString(QKeySequence::NativeText));
    }
    return keys.join(QStringLiteral(", "));
}

QString glossary()
{
    const std::pair<const char*, const char*> terms[] = {
        { QT_TRANSLATE_NOOP("HelpDialog", "Could save"),
            QT_TRANSLATE_NOOP("HelpDialog",
                "What the slower side of a finding would gain if it ran as the faster side does: its A − B "
                "difference, split into the extra kernels it launches and the speed of the kernels both run.") },
        { QT_TRANSLATE_NOOP("HelpDialog", "Against the gap"),
            QT_TRANSLATE_NOOP("HelpDialog",
                "An entry that works the other way: the side that is faster overall is the slower one there, so "
                "it makes the total gap smaller, not larger.") },
        { QT_TRANSLATE_NOOP("HelpDialog", "IQR"),
            QT_TRANSLATE_NOOP("HelpDialog",
                "Interquartile range: the middle half of the calls' times (from the 25th to the 75th "
                "percentile), shown in brackets after a median. A wide range means the calls vary.") },
        { QT_TRANSLATE_NOOP("HelpDialog", "Unattributed"),
            QT_TRANSLATE_NOOP("HelpDialog",
                "Kernels whose launch is not in the trace, so that no operation can be named for them; the "
                "Kernel types tab still counts them by type.") },
        { QT_TRANSLATE_NOOP("HelpDialog", "Graph"),
            QT_TRANSLATE_NOOP("HelpDialog",
                "A CUDA or HIP graph: kernels recorded once and replayed by a single launch. Graph launches are "
                "compared graph against graph; a capture trace names the operations inside them.") },
        { QT_TRANSLATE_NOOP("HelpDialog", "Step"),
            QT_TRANSLATE_NOOP("HelpDialog",
                "One iteration of the traced loop (a training step, a forward pass, a decode step), found from "
                "ProfilerStep annotations, a repeated Python call or a repeating cycle of operations. Totals are "
                "compared step against step; a first warm-up step is left out.") },
        { QT_TRANSLATE_NOOP("HelpDialog", "Phase"),
            QT_TRANSLATE_NOOP("HelpDialog",
                "Steps that run different operations, such as prefill and decode, are compared phase by phase.") },
        { QT_TRANSLATE_NOOP("HelpDialog", "Extra kernels"),
            QT_TRANSLATE_NOOP("HelpDialog",
                "Kernels one side runs where the other has none, inside operations that pair up: the unfused "
                "side's additional launches.") },
        { QT_TRANSLATE_NOOP("HelpDialog", "Within noise"),
            QT_TRANSLATE_NOOP("HelpDialog",
                "A difference no larger than the larger of two bounds: twice its standard error from the spread "
                "of the steps (or of the calls) of one run, and 5% of the faster side's time, the run-to-run "
                "floor (two runs of one build differ by more than their steps' spread shows).") },
    };
    QString html = HelpDialog::tr("<h3>Glossary</h3><dl>");
    for (const auto& [term, meaning] : terms) {
        html += QStringLiteral("<dt><b>%1</b></dt><dd>%2</dd>")
                    .arg(HelpDialog::tr(term).toHtmlEscaped(), HelpDialog::tr(meaning).toHtmlEscaped());
    }
    return html + QStringLiteral("</dl>");
}

} // namespace

QList<ShortcutEntry> shortcutsOf(const QWidget* window)
{
    QList<ShortcutEntry> entries;
    QSet<QString> seen;
    const auto add = [&](const QString& text, const QString& keys) {
        const QString action = plainText(text);
        if (keys.isEmpty() || action.isEmpty() || seen.contains(action))
            return;
        seen.insert(action);
        entries.append({ action, keys });
    };
    for (const QAction* action : window->findChildren<QAction*>())
        add(action->text(), keysOf(action->shortcuts()));
    for (const QAbstractButton* button : window->findChildren<QAbstractButton*>())
        add(button->text(), keysOf({ button->shortcut() }));
    return entries;
}

QString HelpDialog::html(const QWidget* window)
{
    QString html = glossary();
    html += tr("<h3>Keyboard shortcuts</h3><table cellspacing=\"0\" cellpadding=\"3\">");
    for (const ShortcutEntry& entry : shortcutsOf(window)) {
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                    .arg(entry.keys.toHtmlEscaped(), entry.action.toHtmlEscaped());
    }
    return html + QStringLiteral("</table>")
        + tr("<p>The timeline's keys work while it has the focus (a frame in the highlight colour): it takes it "
             "when its tab is shown, or with a click.</p>");
}

HelpDialog::HelpDialog(QWidget* window)
    : QDialog(window)
    , m_browser(new QTextBrowser(this))
{
    setWindowTitle(tr("Glossary and Keyboard Shortcuts"));
    m_browser->setHtml(html(window));
    m_browser->setOpenExternalLinks(false);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_browser);
    layout->addWidget(buttons);
    const int em = fontMetrics().averageCharWidth();
    resize(em * 90, fontMetrics().height() * 40);
}

} // namespace fusiondiff::ui
