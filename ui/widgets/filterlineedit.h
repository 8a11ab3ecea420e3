#pragma once

#include <QLineEdit>
#include <QTimer>

namespace fusiondiff::ui {

// A search box that reports its text once typing pauses (300 ms), so that a large table is not
// filtered again on every keystroke.
class FilterLineEdit : public QLineEdit
{
    Q_OBJECT
public:
    static constexpr int kDebounceMs = 300;

    explicit FilterLineEdit(QWidget* parent = nullptr);

    // Reports the current text now instead of when the timer fires.
    void applyNow();

protected:
    // Esc clears the filter (and shows every row at once).
    bool event(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

signals:
    void filterChanged(const QString& text);

private:
    QTimer m_timer;
};

} // namespace fusiondiff::ui
