#include "tracedropzone.h"

#include "colors.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>

namespace fusiondiff::ui {

TraceDropZone::TraceDropZone(int side, QWidget* parent)
    : QFrame(parent)
    , m_side(side)
    , m_file(new QLabel(this))
    , m_details(new QLabel(this))
    , m_error(new QLabel(this))
    , m_open(new QPushButton(this))
{
    setObjectName(side == 0 ? QStringLiteral("dropZoneA") : QStringLiteral("dropZoneB"));
    setAcceptDrops(true);
    setFrameShape(QFrame::StyledPanel);
    setMinimumHeight(92);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);

    const QString letter = side == 0 ? QStringLiteral("A") : QStringLiteral("B");
    auto* badge = new QLabel(letter, this);
    badge->setAlignment(Qt::AlignCenter);
    badge->setFixedSize(44, 44);
    badge->setStyleSheet(QStringLiteral("QLabel { background: %1; color: white; font-weight: bold; font-size: 22px; "
                                        "border-radius: 22px; }")
                             .arg(sideColor(side).name()));
    badge->setToolTip(side == 0 ? tr("A is trace1 in every table") : tr("B is trace2 in every table"));

    auto* caption = new QLabel(side == 0 ? tr("Trace A (trace1)") : tr("Trace B (trace2)"), this);
    QFont captionFont = caption->font();
    captionFont.setBold(true);
    caption->setFont(captionFont);

    m_file->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Long file names and messages wrap or are cut inside the zone; they never widen the window.
    for (QLabel* label : { m_file, m_details, m_error })
        label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_details->setWordWrap(true);
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(errorTextColor().name()));
    m_error->setObjectName(QStringLiteral("errorLabel"));

    m_open->setText(tr("Open..."));
    m_open->setToolTip(side == 0 ? tr("Open trace A (Ctrl+O)") : tr("Open trace B (Ctrl+Shift+O)"));
    connect(m_open, &QPushButton::clicked, this, [this] { emit openRequested(m_side); });

    auto* text = new QVBoxLayout;
    text->setSpacing(2);
    text->addWidget(caption);
    text->addWidget(m_file);
    text->addWidget(m_details);
    text->addWidget(m_error);
    text->addStretch(1);

    auto* layout = new QHBoxLayout(this);
    layout->addWidget(badge, 0, Qt::AlignTop);
    layout->addLayout(text, 1);
    layout->addWidget(m_open, 0, Qt::AlignTop);

    setHighlighted(false);
    showEmpty();
}

void TraceDropZone::setHighlighted(bool highlighted)
{
    setStyleSheet(QStringLiteral("QFrame#%1 { border: 2px %2 %3; border-radius: 6px; background: %4; }")
                      .arg(objectName(), highlighted ? QStringLiteral("solid") : QStringLiteral("dashed"),
                          sideColor(m_side).name(),
                          highlighted ? sideBackground(m_side).name() : QStringLiteral("palette(base)")));
}

void TraceDropZone::showEmpty()
{
    m_file->setText(tr("Drop a trace here (.json or .json.gz)"));
    m_file->setToolTip({});
    m_details->setText(tr("or click Open..."));
    m_error->clear();
    m_error->hide();
}

void TraceDropZone::showLoading(const QString& path)
{
    m_file->setText(QStringLiteral("<b>%1</b>").arg(QFileInfo(path).fileName().toHtmlEscaped()));
    m_file->setToolTip(path);
    m_details->setText(tr("Loading..."));
    m_error->clear();
    m_error->hide();
}

void TraceDropZone::showLoaded(const QString& path, const QString& details)
{
    m_file->setText(QStringLiteral("<b>%1</b>").arg(QFileInfo(path).fileName().toHtmlEscaped()));
    m_file->setToolTip(path);
    m_details->setText(details);
    m_error->clear();
    m_error->hide();
}

void TraceDropZone::showError(const QString& path, const QString& message)
{
    m_file->setText(QStringLiteral("<b>%1</b>").arg(QFileInfo(path).fileName().toHtmlEscaped()));
    m_file->setToolTip(path);
    m_details->setText(tr("Not loaded"));
    m_error->setText(message);
    m_error->show();
}

void TraceDropZone::showCancelled(const QString& path)
{
    m_file->setText(QStringLiteral("<b>%1</b>").arg(QFileInfo(path).fileName().toHtmlEscaped()));
    m_file->setToolTip(path);
    m_details->setText(tr("Loading cancelled: drop or open the file again to load it"));
    m_error->clear();
    m_error->hide();
}

QString TraceDropZone::fileText() const
{
    return m_file->text();
}

QString TraceDropZone::detailsText() const
{
    return m_details->text();
}

QString TraceDropZone::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

QStringList TraceDropZone::localFiles(const QMimeData* mime)
{
    QStringList files;
    if (!mime || !mime->hasUrls())
        return files;
    for (const QUrl& url : mime->urls()) {
        if (url.isLocalFile())
            files.append(url.toLocalFile());
    }
    return files;
}

void TraceDropZone::dragEnterEvent(QDragEnterEvent* event)
{
    if (!localFiles(event->mimeData()).isEmpty()) {
        event->acceptProposedAction();
        setHighlighted(true);
    }
}

void TraceDropZone::dragLeaveEvent(QDragLeaveEvent* event)
{
    setHighlighted(false);
    QFrame::dragLeaveEvent(event);
}

void TraceDropZone::dropEvent(QDropEvent* event)
{
    setHighlighted(false);
    const QStringList files = localFiles(event->mimeData());
    if (files.isEmpty())
        return;
    event->acceptProposedAction();
    if (files.size() >= 2)
        emit filesDropped(files.mid(0, 2));
    else
        emit fileDropped(m_side, files.first());
}

} // namespace fusiondiff::ui
