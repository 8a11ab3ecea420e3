#include "timeline/timelinepanel.h"

#include "display/colors.h"
#include "display/idlecolors.h"
#include "export/imageexport.h"
#include "timeline/timelinedata.h"
#include "timeline/timelineview.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

#include <set>

namespace fusiondiff::ui {

TimelinePanel::TimelinePanel(const QString& saveName, QWidget* parent)
    : QWidget(parent)
    , m_view(new TimelineView(this))
    , m_title(new QLabel(this))
    , m_legend(new QLabel(this))
    , m_note(new QLabel(this))
    , m_controls(new QHBoxLayout)
    , m_saveName(saveName)
{
    m_title->setTextFormat(Qt::RichText);
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);
    m_legend->setObjectName(QStringLiteral("timeline_legend"));
    m_legend->setToolTip(tr("A kernel's colour is its type; a strip in the colour of \"only A\" or \"only B\" "
                            "above a kernel marks a kernel only that side runs (the alignment pairs it with "
                            "nothing); an idle gap is shaded in its cause's colour, full along the lane's foot"));
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::PlainText);
    m_note->hide();
    // What is shown and how it is placed wraps beside the buttons: a capped lane's notice is long.
    m_title->setObjectName(QStringLiteral("timeline_title"));
    m_title->setWordWrap(true);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_title->setToolTip(
        tr("Wheel: zoom around the pointer · drag: pan · double-click or 0: fit · hover a kernel "
           "for its name, type and duration, or a shaded idle gap for its cause and the host code running · "
           "click a kernel to select its row"));

    auto* fit = new QToolButton(this);
    fit->setText(tr("Fit"));
    fit->setToolTip(tr("Show every kernel (double-click the timeline, or 0)"));
    connect(fit, &QToolButton::clicked, m_view, &TimelineView::fitAll);
    auto* save = new QToolButton(this);
    save->setText(tr("Save image..."));
    save->setToolTip(tr("Save the timeline as shown, as a PNG or SVG image"));
    connect(save, &QToolButton::clicked, this, &TimelinePanel::saveImage);

    m_controls->setContentsMargins(0, 0, 0, 0);
    m_controls->addWidget(m_title, 1);
    m_controls->addWidget(fit);
    m_controls->addWidget(save);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(m_controls);
    layout->addWidget(m_note);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_legend);
}

void TimelinePanel::setData(TimelineData timeline, const QString& title)
{
    const QString placement = timeline.placement;
    // A legend of the types on the lanes, in category order.
    std::set<CategoryId> types;
    for (const TimelineLane& lane : timeline.lanes) {
        for (const TimelineKernel& kernel : lane.kernels)
            types.insert(kernel.type);
    }
    QStringList chips;
    for (const CategoryId type : types)
        chips.append(colorChip(m_view->typeColor(type), timeline.typeNames.value(type)));
    chips.append(colorChip(sideSelectedColor(0), tr("only A")) + QStringLiteral(" ")
        + colorChip(sideSelectedColor(1), tr("only B")) + QStringLiteral(" ")
        + tr("above a kernel: only that side runs it"));
    std::set<IdleCause> causes;
    for (const TimelineLane& lane : timeline.lanes) {
        for (const TimelineGap& gap : lane.gaps)
            causes.insert(gap.cause);
    }
    for (const IdleCause cause : causes)
        chips.append(colorChip(idleCauseColor(cause), tr("idle: %1").arg(idleCauseName(cause))));
    m_legend->setText(chips.join(QStringLiteral(" ")));
    m_legend->setVisible(!types.empty());
    setNote({});
    m_view->setData(std::move(timeline));
    m_title->setText(
        QStringLiteral("<b>%1</b> &nbsp;<span>%2</span>").arg(title.toHtmlEscaped(), placement.toHtmlEscaped()));
}

void TimelinePanel::setNote(const QString& note)
{
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
}

QString TimelinePanel::note() const
{
    return m_note->text();
}

void TimelinePanel::addControl(QWidget* control)
{
    m_controls->insertWidget(m_controls->count() - 2, control);
}

void TimelinePanel::saveImage()
{
    askAndSaveImage(
        this, tr("Save Timeline"), m_saveName, [this](const QString& path) { return m_view->saveImage(path); });
}

} // namespace fusiondiff::ui
