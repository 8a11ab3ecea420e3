#pragma once

#include <QSplitter>

namespace fusiondiff::ui {

// Below this width the pages stack what they show side by side (about 720 pixels at twice the
// scale on a 1440-pixel screen; 1024x700 windows keep their panels side by side).
constexpr int kSideBySideWidth = 860;

// A splitter whose panels stand side by side where it is at least `sideBySideWidth` wide and are
// stacked below that, so that a page fits a narrow window (1440 pixels at twice the scale: 720)
// without scrolling sideways. Its minimum width is the widest panel's, not their sum.
class AdaptiveSplitter : public QSplitter
{
    Q_OBJECT
public:
    AdaptiveSplitter(int sideBySideWidth, QWidget* parent = nullptr);

    int sideBySideWidth() const { return m_sideBySideWidth; }
    QSize minimumSizeHint() const override;

signals:
    // The panels went side by side (Qt::Horizontal) or were stacked (Qt::Vertical).
    void orientationChanged(Qt::Orientation orientation);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    int m_sideBySideWidth;
};

} // namespace fusiondiff::ui
