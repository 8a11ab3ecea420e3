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
