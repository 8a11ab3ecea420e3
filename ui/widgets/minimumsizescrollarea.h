#pragma once

#include <QScrollArea>

namespace fusiondiff::ui {

// Gives its widget the viewport's size, but never less than the widget's minimum size hint, so
// that scroll bars appear only when the window is smaller than the pages can be (QScrollArea's
// widgetResizable also honours height-for-width, which the wrapped labels of hidden pages inflate).
// Wrapped texts that must be seen whole count in that minimum at their width
// (WrapLabel::setMinimumHeightFollowsText); the widget is fitted again whenever its minimum
// changes, not only when the viewport does.
class MinimumSizeScrollArea : public QScrollArea
{
    Q_OBJECT
public:
    using QScrollArea::QScrollArea;

    bool eventFilter(QObject* watched, QEvent* event) override;

protected:
    bool viewportEvent(QEvent* event) override;

private:
    void fitWidget();
};

} // namespace fusiondiff::ui
