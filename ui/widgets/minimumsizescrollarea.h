#pragma once

#include <QScrollArea>

namespace fusiondiff::ui {

// Gives its widget the viewport's size, but never less than the widget's minimum size hint, so
// that scroll bars appear only when the window is smaller than the pages can be (QScrollArea's
// widgetResizable also honours height-for-width, which the wrapped labels of hidden pages inflate).
class MinimumSizeScrollArea : public QScrollArea
{
    Q_OBJECT
public:
    using QScrollArea::QScrollArea;

protected:
    bool viewportEvent(QEvent* event) override;
};

} // namespace fusiondiff::ui
