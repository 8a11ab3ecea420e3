#include "widgets/tracedropzone.h"

#include "display/colors.h"
#include "display/nameelision.h"
#include "widgets/wraplabel.h"

#include <QBoxLayout>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QFontMetrics>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QResizeEvent>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace fusiondiff::ui {

TraceDropZone::TraceDropZone(int side, QWidget* parent)
    : QFrame(parent)
    , m_side(side)
    , m_file(new WrapLabel(this))
    , m_details(new WrapLabel(this))
    , m_error(new WrapLabel(this))
    , m_open(new QPushButton(this))
    , m_capture(new WrapLabel(this))
    , m_chooseCapture(new QPushButton(this))
    , m_removeCapture(new QPushButton(this))
{
    setObjectName(side == 0 ? QStringLiteral("dropZoneA") : QStringLiteral("dropZoneB"));
    setAcceptDrops(true);
    setFrameShape(QFrame::StyledPanel);
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
    m_file->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // elided to the zone's width
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Long file names and messages wrap or are cut inside the zone; they never widen the window.
    for (QLabel* label : std::initializer_list<QLabel*> { m_file, m_details, m_error })
        label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    // Their wrapped lines count in the zone's minimum height, so that the window (its scroll area)
    // makes room for them rather than taking it from the pages below.
    // The file label wraps only "Drop a trace here (...)" in a narrow zone (at twice the scale): a
    // file name is one word, elided to the zone's width.
    for (WrapLabel* label : { m_file, m_details, m_error, m_capture })
        label->setMinimumHeightFollowsText(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(errorTextColor().name()));
    m_error->setObjectName(QStringLiteral("errorLabel"));

    m_open->setText(tr("Open..."));
    m_open->setToolTip(side == 0 ? tr("Open trace A (Ctrl+O)") : tr("Open trace B (Ctrl+Shift+O)"));
    connect(m_open, &QPushButton::clicked, this, [this] { emit openRequested(m_side); });

    // The capture trace, one row under the trace: graph findings then name the operations.
    m_capture->setObjectName(QStringLiteral("captureLabel"));
    m_capture->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_capture->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_chooseCapture->setObjectName(QStringLiteral("chooseCapture"));
    m_chooseCapture->setText(tr("Capture trace..."));
    m_chooseCapture->setToolTip(tr("Optional: a trace recorded while this run's CUDA/HIP graphs were captured. Graph "
                                   "findings then name the operation and Python code of each captured kernel "
                                   "(as the CLI's --capture%1)")
                                    .arg(side + 1));
    m_removeCapture->setObjectName(QStringLiteral("removeCapture"));
    m_removeCapture->setText(tr("Remove"));
    m_removeCapture->setToolTip(tr("Compare without the capture trace"));
    connect(m_chooseCapture, &QPushButton::clicked, this, [this] { emit captureRequested(m_side); });
    connect(m_removeCapture, &QPushButton::clicked, this, [this] { emit captureRemoved(m_side); });
    auto* captureButtons = new QHBoxLayout;
    captureButtons->setSpacing(6);
    captureButtons->addWidget(m_chooseCapture);
    captureButtons->addWidget(m_removeCapture);
    captureButtons->addStretch(1); // left-aligned when under the label
    m_captureRow = new QBoxLayout(QBoxLayout::LeftToRight);
    m_captureRow->setSpacing(6);
    m_captureRow->addWidget(m_capture, 1);
    m_captureRow->addLayout(captureButtons);

    auto* text = new QVBoxLayout;
    text->setSpacing(2);
    text->addWidget(caption);
    text->addWidget(m_file);
    text->addWidget(m_details);
    text->addWidget(m_error);
    text->addLayout(m_captureRow);
    text->addStretch(1);

    auto* layout = new QHBoxLayout(this);
    layout->addWidget(badge, 0, Qt::AlignTop);
    layout->addLayout(text, 1);
    layout->addWidget(m_open, 0, Qt::AlignTop);

    setHighlighted(false);
    showEmpty();
    showCapture({}, {}, {});
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
    m_fileName.clear();
    if (m_otherZone)
        m_otherZone->elideFileName();
    m_file->setText(tr("Drop a trace here (.json or .json.gz)"));
    m_file->setToolTip({});
    m_details->setText(tr("or click Open..."));
    m_error->clear();
    m_error->hide();
}

void TraceDropZone::showLoading(const QString& path)
{
    showFileName(path);
    m_details->setText(tr("Loading..."));
    m_error->clear();
    m_error->hide();
}

void TraceDropZone::showLoaded(const QString& path, const QString& details)
{
    showFileName(path);
    // A long word (a run's folder name, "dlrm_8ranks_rank2_slow5x") may break after its
    // underscores where the zone is narrow (twice the scale) rather than be cut at its edge.
    m_details->setText(QString(details).replace(QLatin1Char('_'), QStringLiteral("_\u200B")));
    m_error->clear();
    m_error->hide();
}

void TraceDropZone::showError(const QString& path, const QString& message)
{
    showFileName(path);
    m_details->setText(tr("Not loaded"));
    m_error->setText(message);
    m_error->show();
}

void TraceDropZone::showCancelled(const QString& path)
{
    showFileName(path);
    m_details->setText(tr("Loading cancelled: drop or open the file again to load it"));
    m_error->clear();
    m_error->hide();
}

void TraceDropZone::showCapture(const QString& path, const QString& details, const QString& error)
{
    m_capturePath = path;
    m_captureDetails = details;
    m_captureError = error;
    m_removeCapture->setVisible(!path.isEmpty());
    m_chooseCapture->setText(path.isEmpty() ? tr("Capture trace...") : tr("Change..."));
    m_capture->setToolTip(path);
    m_capture->setStyleSheet(error.isEmpty() || path.isEmpty()
            ? QString()
            : QStringLiteral("QLabel { color: %1; }").arg(errorTextColor().name()));
    placeCaptureRow();
}

// The capture label goes above its buttons rather than beside them where the room beside them
// would cut its words (a narrow zone, at twice the scale); a long file name loses its middle.
void TraceDropZone::placeCaptureRow()
{
    int buttons = m_chooseCapture->sizeHint().width() + m_captureRow->spacing();
    if (!m_removeCapture->isHidden())
        buttons += m_removeCapture->sizeHint().width() + m_captureRow->spacing();
    const int room = m_file->width() - buttons;
    const bool beside = room >= m_capture->fontMetrics().horizontalAdvance(tr("No capture trace"));
    const auto direction = beside ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (m_captureRow->direction() != direction)
        m_captureRow->setDirection(direction);

    if (m_capturePath.isEmpty()) {
        m_capture->setText(captureHtml({}));
        return;
    }
    QFont bold = m_capture->font();
    bold.setBold(true);
    const int width = std::max(beside ? room : m_file->width(), 1);
    m_capture->setText(
        captureHtml(QFontMetrics(bold).elidedText(QFileInfo(m_capturePath).fileName(), Qt::ElideMiddle, width)));
}

QString TraceDropZone::captureHtml(const QString& fileShown) const
{
    if (m_capturePath.isEmpty())
        return tr("No capture trace");
    const QString file = fileShown.toHtmlEscaped();
    if (!m_captureError.isEmpty())
        return tr("Capture trace <b>%1</b>: %2").arg(file, m_captureError.toHtmlEscaped());
    if (m_captureDetails.isEmpty())
        return tr("Capture trace: <b>%1</b>").arg(file);
    return tr("Capture trace: <b>%1</b> \u00B7 %2").arg(file, m_captureDetails.toHtmlEscaped());
}

QString TraceDropZone::captureText() const
{
    return captureHtml(QFileInfo(m_capturePath).fileName());
}

QString TraceDropZone::fileText() const
{
    return m_fileName.isEmpty() ? m_file->text() : m_fileName;
}

void TraceDropZone::showFileName(const QString& path)
{
    m_fileName = QFileInfo(path).fileName();
    m_file->setToolTip(path);
    elideFileName();
    if (m_otherZone)
        m_otherZone->elideFileName();
}

void TraceDropZone::setOtherZone(TraceDropZone* other)
{
    m_otherZone = other;
    elideFileName();
}

QString TraceDropZone::shownFileText() const
{
    return m_fileName.isEmpty() ? m_file->text() : m_shownFileName;
}

// Long trace names ("Qwen1.5-0.5B-Chat.mi300x.json.gz") are elided where the zone is narrow (the
// window at twice the scale), keeping the part that differs from the other side's name: eliding
// both in their middles left "Qwen1.5-0…x.json.gz" against "Qwen1.5-0…0.json.gz". The whole path
// is in the tooltip.
void TraceDropZone::elideFileName()
{
    if (m_fileName.isEmpty())
        return;
    QFont bold = m_file->font();
    bold.setBold(true);
    QStringList others;
    if (m_otherZone && !m_otherZone->m_fileName.isEmpty())
        others.append(m_otherZone->m_fileName);
    m_shownFileName = elideDistinguishing(m_fileName, others, QFontMetricsF(bold), m_file->width());
    m_file->setText(QStringLiteral("<b>%1</b>").arg(m_shownFileName.toHtmlEscaped()));
}

void TraceDropZone::resizeEvent(QResizeEvent* event)
{
    QFrame::resizeEvent(event);
    elideFileName();
    placeCaptureRow();
}

QString TraceDropZone::detailsText() const
{
    return QString(m_details->text()).remove(QChar(0x200B));
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
    if (files.size() > 2)
        emit runDropped(m_side, files);
    else if (files.size() == 2)
        emit filesDropped(files.mid(0, 2));
    else
        emit fileDropped(m_side, files.first());
}

} // namespace fusiondiff::ui
