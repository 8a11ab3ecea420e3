#pragma once

#include <QString>
#include <QTextBrowser>
#include <QTimer>

namespace fusiondiff::ui {

// A QTextBrowser whose HTML is laid out in an event-loop turn of its own (a zero timer), after the
// window has been painted with whatever else changed: the rich text of a page's findings takes
// 3-4 ms to lay out and as long to paint, too much to add to the first paint of a page of tables.
class DeferredTextBrowser : public QTextBrowser
{
    Q_OBJECT
public:
    explicit DeferredTextBrowser(QWidget* parent = nullptr);

    // Shows `html` a turn later; an empty text clears the browser at once.
    void setHtmlSoon(const QString& html);
    // Shows the waiting HTML now, if any.
    void flush();
    // The text shown, as plain text (the waiting HTML shown first).
    QString plainText();

private:
    QString m_html; // waiting for m_timer
    QTimer m_timer;
};

} // namespace fusiondiff::ui
