#pragma once

#include <QLabel>

#include <functional>

namespace fusiondiff::ui {

// A one-line label whose text is made for its width (a status bar's description of the pair: the
// longest form that fits), made again whenever the width changes; it asks for no width of its own,
// so it never widens the window. The tooltip has the whole text.
class FittingLabel : public QLabel
{
    Q_OBJECT
public:
    using TextFor = std::function<QString(const QFontMetrics& metrics, int width)>;

    explicit FittingLabel(QWidget* parent = nullptr);

    void setTextFor(TextFor textFor, const QString& whole);
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void fit();

    TextFor m_textFor;
};

} // namespace fusiondiff::ui
