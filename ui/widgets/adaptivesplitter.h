#pragma once

#include <QList>
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

    // The width panel `index` needs beside the others, more than its minimum (a table: all its
    // columns, in whatever font). Side by side it is given that much, the others giving way down
    // to their minimum; where they cannot, the panels are stacked. 0: only its minimum.
    void setWantedWidth(int index, int width);
    int wantedWidth(int index) const { return m_wanted.value(index); }

signals:
    // The panels went side by side (Qt::Horizontal) or were stacked (Qt::Vertical).
    void orientationChanged(Qt::Orientation orientation);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    Qt::Orientation orientationFor(int width) const;
    void giveWantedWidths();

    int m_sideBySideWidth;
    QList<int> m_wanted; // by panel index
};

} // namespace fusiondiff::ui
