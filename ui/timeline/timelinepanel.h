#pragma once

#include <QWidget>

class QHBoxLayout;
class QLabel;

namespace fusiondiff::ui {

class TimelineView;
struct TimelineData;

// A TimelineView with its controls: what it shows and how its kernels are placed, "Fit" and
// "Save image..." (PNG or SVG).
class TimelinePanel : public QWidget
{
    Q_OBJECT
public:
    // `saveName`: the file name offered when saving.
    explicit TimelinePanel(const QString& saveName, QWidget* parent = nullptr);

    TimelineView* view() const { return m_view; }
    // The colours' legend: the kernel types, the side-only marks and the idle causes shown.
    QLabel* legend() const { return m_legend; }
    void setData(TimelineData timeline, const QString& title);
    // A line under the controls saying what is selected ("12 gaps selected: ..."); empty hides it.
    void setNote(const QString& note);
    QString note() const;
    // A control of the page's own, on the controls' row before "Fit".
    void addControl(QWidget* control);

public slots:
    void saveImage();

private:
    TimelineView* m_view;
    QLabel* m_title;
    QLabel* m_legend; // the kernel types' colours, and the idle causes' where the lanes have gaps
    QLabel* m_note;
    QHBoxLayout* m_controls;
    QString m_saveName;
};

} // namespace fusiondiff::ui
