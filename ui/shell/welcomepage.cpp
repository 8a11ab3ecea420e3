#include "shell/welcomepage.h"

#include "analysis/analysiscontroller.h"
#include "shell/onetraceview.h"
#include "shell/samplefiles.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace fusiondiff::ui {

WelcomePage::WelcomePage(QWidget* parent)
    : QWidget(parent)
{
    m_title = new QLabel(this);
    QLabel* title = m_title;
    auto* text = new QLabel(tr("<p>One trace from each platform (for example AMD and NVIDIA), or two runs of one "
                               "platform: Kineto Chrome-trace JSON, <tt>.json</tt> or <tt>.json.gz</tt>. Drop both "
                               "files at once, or one onto A and one onto B above. A is <i>trace1</i> and B "
                               "<i>trace2</i> in every table.</p>"),
        this);
    text->setWordWrap(true);
    // Between 480 and 720 pixels wide: centred, wrapped, and narrow enough for a small screen.
    text->setMinimumWidth(480);
    text->setMaximumWidth(720);
    title->setAlignment(Qt::AlignCenter);
    title->setWordWrap(true);
    title->setMinimumWidth(480);
    title->setMaximumWidth(900);
    text->setAlignment(Qt::AlignCenter);

    m_sampleButton = new QPushButton(tr("Open the sample traces"), this);
    m_sampleButton->setToolTip(
        tr("Qwen1.5-0.5B-Chat traced with the PyTorch profiler on an AMD MI300X (A) and an NVIDIA H100 (B)"));
    QFont buttonFont = m_sampleButton->font();
    buttonFont.setPointSizeF(buttonFont.pointSizeF() * 1.2);
    m_sampleButton->setFont(buttonFont);
    m_sampleButton->setMinimumHeight(44);
    connect(m_sampleButton, &QPushButton::clicked, this, &WelcomePage::sampleTracesRequested);
    auto* sampleText = new QLabel(
        tr("Qwen1.5-0.5B-Chat, eager PyTorch: AMD Instinct MI300X (A) vs NVIDIA H100 (B), bundled with FusionDiff"),
        this);
    sampleText->setAlignment(Qt::AlignCenter);
    sampleText->setWordWrap(true);
    sampleText->setMinimumWidth(480);
    sampleText->setMaximumWidth(720);

    auto* openA = new QPushButton(tr("Open trace A..."), this);
    auto* openB = new QPushButton(tr("Open trace B..."), this);
    m_open[0] = openA;
    m_open[1] = openB;
    connect(openA, &QPushButton::clicked, this, [this] { emit openRequested(0); });
    connect(openB, &QPushButton::clicked, this, [this] { emit openRequested(1); });
    auto* openRow = new QHBoxLayout;
    openRow->addStretch(1);
    openRow->addWidget(openA);
    openRow->addWidget(openB);
    openRow->addStretch(1);

    // The texts in a centred column, not each aligned in the page's layout: a widget given an
    // alignment gets its size hint's height, not the height its wrapped text needs at its width.
    auto* columnWidget = new QWidget(this);
    columnWidget->setMaximumWidth(720);
    auto* column = new QVBoxLayout(columnWidget);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(title);
    column->addWidget(text);
    column->addSpacing(16);
    column->addWidget(m_sampleButton, 0, Qt::AlignHCenter);
    column->addWidget(sampleText);
    column->addSpacing(16);
    column->addLayout(openRow);
    auto* centred = new QHBoxLayout;
    centred->addStretch(1);
    centred->addWidget(columnWidget, 4);
    centred->addStretch(1);

    auto* layout = new QVBoxLayout(this);
    layout->addStretch(1);
    layout->addLayout(centred);
    // The one trace loaded, while the page asks for the other.
    m_oneTrace = new QTextBrowser(this);
    m_oneTrace->setFrameShape(QFrame::NoFrame);
    m_oneTrace->setMaximumWidth(1100);
    m_oneTrace->hide();
    layout->addWidget(m_oneTrace, 6);
    layout->addStretch(2);

    if (sampleTracePaths().isEmpty()) {
        m_sampleButton->setEnabled(false);
        sampleText->setText(tr("The sample traces are not installed."));
    }
}

void WelcomePage::showSides(const AnalysisController& controller)
{
    const auto loaded
        = [&controller](int side) { return controller.side(side).status == AnalysisController::Status::Loaded; };
    int missing = -1;
    if (loaded(0) != loaded(1))
        missing = loaded(0) ? 1 : 0;
    if (missing < 0) {
        m_title->setText(tr("<h2>Drop two PyTorch profiler traces here</h2>"));
    } else {
        const QString have = QFileInfo(controller.side(1 - missing).path).fileName().toHtmlEscaped();
        m_title->setText(missing == 1 ? tr("<h2>Trace A is loaded (%1): now drop or open trace B</h2>").arg(have)
                                      : tr("<h2>Trace B is loaded (%1): now drop or open trace A</h2>").arg(have));
    }
    for (int side = 0; side < 2; ++side)
        m_open[side]->setDefault(side == missing);
    const TraceStore* store = missing < 0 ? nullptr : controller.side(1 - missing).store.get();
    if (store != m_oneTraceStore) {
        m_oneTraceStore = store;
        if (store)
            m_oneTrace->setHtml(oneTraceHtml(*store, *controller.classifier(), 15));
        m_oneTrace->setVisible(store != nullptr);
    }
}

} // namespace fusiondiff::ui
