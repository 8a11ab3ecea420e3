#include "analysis/peaksfilesetting.h"

#include "analysis/traceerror.h"
#include "display/colors.h"
#include "ops/efficiency/gpupeaks.h"
#include "widgets/filedialogs.h"

#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace fusiondiff::ui {

PeaksFileSetting::PeaksFileSetting(QWidget* parent)
    : QWidget(parent)
    , m_info(new QLabel(this))
    , m_error(new QLabel(this))
    , m_builtIn(new QPushButton(tr("Built-in"), this))
{
    setObjectName(QStringLiteral("peaks_file"));
    m_info->setWordWrap(true);
    m_info->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(secondaryTextColor().name()));
    m_error->setWordWrap(true);
    m_error->setObjectName(QStringLiteral("peaks_file_error"));
    m_error->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(errorTextColor().name()));
    m_error->hide();
    auto* choose = new QPushButton(tr("GPU Peaks File..."), this);
    choose->setToolTip(tr("A file of GPU peaks that replaces the built-in datasheet figures, e.g. measured "
                          "\"max achievable\" ones (fusiondiff-cli --peaks; the format of "
                          "resources/peaks/datasheet.json, docs/report-format.md)"));
    m_builtIn->setToolTip(tr("Back to the built-in datasheet figures"));
    connect(choose, &QPushButton::clicked, this, &PeaksFileSetting::choosePeaksFile);
    connect(m_builtIn, &QPushButton::clicked, this, &PeaksFileSetting::useBuiltInPeaks);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(choose);
    buttons->addWidget(m_builtIn);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addWidget(m_info);
    layout->addWidget(m_error);
    updateInfo();
}

bool PeaksFileSetting::setPeaksFile(const QString& path, bool notify)
{
    if (!path.isEmpty()) {
        try {
            loadGpuPeaks(QFile::encodeName(path).toStdString());
        } catch (...) {
            const TraceError error = TraceError::fromException(std::current_exception(), path);
            const QString offset = error.offsetText();
            m_error->setText(
                tr("GPU peaks file %1: %2%3. The previous peaks are kept.")
                    .arg(path, error.reason, offset.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(offset)));
            m_error->show();
            return false;
        }
    }
    m_error->hide();
    const bool changed = path != m_file;
    m_file = path;
    updateInfo();
    if (changed && notify)
        emit peaksFileChanged(m_file);
    return true;
}

QString PeaksFileSetting::error() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

void PeaksFileSetting::choosePeaksFile()
{
    const QString file = openFileName(this, tr("Open GPU Peaks File"), tr("GPU peaks files (*.json);;All files (*)"));
    if (!file.isEmpty())
        setPeaksFile(file);
}

void PeaksFileSetting::updateInfo()
{
    m_builtIn->setEnabled(!m_file.isEmpty());
    m_info->setText(m_file.isEmpty() ? tr("Built-in: vendors' datasheets, dense, no sparsity")
                                     : tr("From %1").arg(m_file.toHtmlEscaped()));
    m_info->setToolTip(m_file);
}

} // namespace fusiondiff::ui
