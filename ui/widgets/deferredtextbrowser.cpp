#include "widgets/deferredtextbrowser.h"

namespace fusiondiff::ui {

DeferredTextBrowser::DeferredTextBrowser(QWidget* parent)
    : QTextBrowser(parent)
{
    // A timer, not a queued call: queued calls run with the paint that is waiting, timers after it
    // (and after the other timers due, such as a heartbeat).
    m_timer.setSingleShot(true);
    m_timer.setInterval(0);
    connect(&m_timer, &QTimer::timeout, this, &DeferredTextBrowser::flush);
}

void DeferredTextBrowser::setHtmlSoon(const QString& html)
{
    m_html = html;
    if (html.isEmpty()) {
        m_timer.stop();
        clear();
        return;
    }
    m_timer.start();
}

void DeferredTextBrowser::flush()
{
    m_timer.stop();
    if (m_html.isEmpty())
        return;
    setHtml(m_html);
    m_html.clear();
}

QString DeferredTextBrowser::plainText()
{
    flush();
    return toPlainText();
}

} // namespace fusiondiff::ui
