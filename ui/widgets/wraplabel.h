#pragma once

#include <QLabel>

namespace fusiondiff::ui {

// A word-wrapped QLabel that remembers its height for the last width it was asked about.
// QLabel lays its text out for every heightForWidth(), and layouts ask often: a QStackedWidget
// asks each of its pages, shown or not, so that every relayout of the window (a tab shown, results
// arriving) laid out the rich text of the labels on every page, hidden ones included.
class WrapLabel : public QLabel
{
public:
    explicit WrapLabel(QWidget* parent = nullptr);

    int heightForWidth(int width) const override;

    // While shown, its minimum height is the height its text needs at its current width. What
    // knows nothing of height-for-width (a splitter, a layout's minimum size, the window's scroll
    // area) then never gives it less, nor the widgets below it less than their minimum because
    // it took their room. Off by default: a label that may be cut (a tooltip has its text) does
    // not need to push the page's minimum up.
    void setMinimumHeightFollowsText(bool follows);
    QSize minimumSizeHint() const override;

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    // What the height was measured for; a font or style change (changeEvent) forgets it.
    struct Measured
    {
        int width = -1;
        QString text;
        Qt::TextFormat format = Qt::AutoText;
        Qt::Alignment alignment;
        int margin = 0;
        int indent = 0;
        bool operator==(const Measured&) const = default;
    };
    Measured current() const;

    mutable Measured m_measured;
    mutable int m_height = -1;
    bool m_followsText = false;
};

} // namespace fusiondiff::ui
