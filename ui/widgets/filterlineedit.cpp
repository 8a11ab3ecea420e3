#include "widgets/filterlineedit.h"

#include <QKeyEvent>

namespace fusiondiff::ui {

FilterLineEdit::FilterLineEdit(QWidget* parent)
    : QLineEdit(parent)
{
    setClearButtonEnabled(true);
    setPlaceholderText(tr("Filter (all columns)"));
    m_timer.setSingleShot(true);
    m_timer.setInterval(kDebounceMs);
    connect(this, &QLineEdit::textChanged, &m_timer, qOverload<>(&QTimer::start));
    connect(&m_timer, &QTimer::timeout, this, &FilterLineEdit::applyNow);
}

// Escape in a filter with text clears it, even while a window-wide Escape shortcut (Cancel, while
// an analysis runs) is enabled: claim the key before shortcuts see it.
bool FilterLineEdit::event(QEvent* event)
{
    if (event->type() == QEvent::ShortcutOverride) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Escape && key->modifiers() == Qt::NoModifier && !text().isEmpty()) {
            event->accept();
            return true;
        }
    }
    return QLineEdit::event(event);
}

void FilterLineEdit::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape && event->modifiers() == Qt::NoModifier && !text().isEmpty()) {
        clear();
        applyNow();
        event->accept();
        return;
    }
    QLineEdit::keyPressEvent(event);
}

void FilterLineEdit::applyNow()
{
    m_timer.stop();
    emit filterChanged(text());
}

} // namespace fusiondiff::ui
