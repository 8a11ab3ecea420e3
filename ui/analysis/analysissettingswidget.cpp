#include "analysis/analysissettingswidget.h"

#include "analysis/analysisworker.h"
#include "analysis/peaksfilesetting.h"
#include "classify/classifier.h"
#include "display/colors.h"
#include "util/inputerror.h"
#include "widgets/filedialogs.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHash>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include <climits>

namespace fusiondiff::ui {

namespace {
const QString kRuleFileItem = QStringLiteral("<rule file>");

// The settings' label of an analysis parameter: words, not its key (which is in the tooltip, as
// the CLI's --param takes it). A parameter without a label here gets its key in words.
QString parameterLabel(const QString& key)
{
    static const QHash<QString, const char*> labels = {
        { QStringLiteral("min_group_size"), QT_TRANSLATE_NOOP("AnalysisSettingsWidget", "Smallest group compared") },
        { QStringLiteral("size_tolerance"), QT_TRANSLATE_NOOP("AnalysisSettingsWidget", "Group size tolerance") },
        { QStringLiteral("pattern_min_occurrences"),
            QT_TRANSLATE_NOOP("AnalysisSettingsWidget", "Pattern: fewest occurrences") },
        { QStringLiteral("pattern_min_share"), QT_TRANSLATE_NOOP("AnalysisSettingsWidget", "Pattern: smallest share") },
        { QStringLiteral("imbalance_min_ratio"),
            QT_TRANSLATE_NOOP("AnalysisSettingsWidget", "Imbalance: smallest ratio") },
        { QStringLiteral("imbalance_min_total"),
            QT_TRANSLATE_NOOP("AnalysisSettingsWidget", "Imbalance: fewest kernels") },
        { QStringLiteral("partial_min_groups"),
            QT_TRANSLATE_NOOP("AnalysisSettingsWidget", "Partial fusion: fewest groups") },
        { QStringLiteral("chain_min_runs"), QT_TRANSLATE_NOOP("AnalysisSettingsWidget", "Chains: fewest runs") },
        { QStringLiteral("chain_min_ratio"), QT_TRANSLATE_NOOP("AnalysisSettingsWidget", "Chains: smallest ratio") },
        { QStringLiteral("chain_min_difference"),
            QT_TRANSLATE_NOOP("AnalysisSettingsWidget", "Chains: smallest kernel difference") },
        { QStringLiteral("strong_ratio"), QT_TRANSLATE_NOOP("AnalysisSettingsWidget", "Strong group ratio") },
        { QStringLiteral("significant_ratio"), QT_TRANSLATE_NOOP("AnalysisSettingsWidget", "Significant group ratio") },
        { QStringLiteral("significant_min_total"),
            QT_TRANSLATE_NOOP("AnalysisSettingsWidget", "Significant: fewest kernels") },
        { QStringLiteral("global_min_total"),
            QT_TRANSLATE_NOOP("AnalysisSettingsWidget", "Whole trace: fewest kernels") },
        { QStringLiteral("global_ratio"), QT_TRANSLATE_NOOP("AnalysisSettingsWidget", "Whole trace: smallest ratio") },
        { QStringLiteral("fused_by_ratio"), QT_TRANSLATE_NOOP("AnalysisSettingsWidget", "Fused-by ratio") },
    };
    if (const auto it = labels.find(key); it != labels.end())
        return AnalysisSettingsWidget::tr(it.value());
    QString words = key;
    words.replace(QLatin1Char('_'), QLatin1Char(' '));
    if (!words.isEmpty())
        words[0] = words[0].toUpper();
    return words;
}
} // namespace

AnalysisSettingsWidget::AnalysisSettingsWidget(QWidget* parent)
    : QWidget(parent)
    , m_classifierCombo(new QComboBox(this))
    , m_opLevelCombo(new QComboBox(this))
    , m_classifierInfo(new QLabel(this))
    , m_classifierError(new QLabel(this))
    , m_peaks(new PeaksFileSetting(this))
{
    for (const std::string& name : Classifier::builtinNames()) {
        const QString spec = QString::fromStdString(name);
        m_classifierCombo->addItem(spec == QLatin1String("seed") ? tr("seed (the reference analyzer's rules)")
                : spec == QLatin1String("default")               ? tr("default (FusionDiff's rules)")
                                                                 : spec,
            spec);
    }
    m_classifierCombo->addItem(tr("Rule file..."), kRuleFileItem);
    m_classifierCombo->setToolTip(tr("How kernel names are sorted into kernel types (docs/classifiers.md)"));
    connect(m_classifierCombo, &QComboBox::activated, this, &AnalysisSettingsWidget::onComboActivated);

    m_classifierInfo->setWordWrap(true);
    m_classifierInfo->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(secondaryTextColor().name()));
    m_classifierError->setWordWrap(true);
    m_classifierError->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(errorTextColor().name()));
    m_classifierError->hide();

    const struct
    {
        OpLevel level;
        QString text;
        QString toolTip;
    } levels[] = {
        { OpLevel::Auto, tr("Automatic (any stack)"),
            tr("Operators as below, lined up on the whole stack where it agrees and, where the stacks differ, on "
               "Python frames, module paths, operator names and last the kernels themselves") },
        { OpLevel::Operator, tr("Operator (aten::linear)"),
            tr("The outermost PyTorch operator inside the innermost module: what the model's code called") },
        { OpLevel::Module, tr("Module (nn.Module: Qwen2RMSNorm)"),
            tr("The innermost nn.Module, by class, for a layer-level view (the operator where there is none)") },
        { OpLevel::LaunchingOperator, tr("Launching operator (aten::addmm)"),
            tr("The innermost operator: the one that launched the kernel") },
    };
    for (const auto& level : levels) {
        m_opLevelCombo->addItem(level.text, QString::fromLatin1(opLevelKey(level.level)));
        m_opLevelCombo->setItemData(m_opLevelCombo->count() - 1, level.toolTip, Qt::ToolTipRole);
    }
    m_opLevelCombo->setObjectName(QStringLiteral("op_level"));
    m_opLevelCombo->setToolTip(tr("What an operation is when kernels are compared operation by operation "
                                  "(fusiondiff-cli --op-level; docs/operations.md)"));
    // setOptions() blocks this: only the user's choices (and setOpLevel) re-run the analysis.
    connect(m_opLevelCombo, &QComboBox::currentIndexChanged, this, [this] { emit optionsChanged(options()); });

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    const AnalysisOptions defaults;
    for (const AnalysisParameter& parameter : analysisParameters()) {
        const QString name = QString::fromLatin1(parameter.name.data(), static_cast<qsizetype>(parameter.name.size()));
        const QString description
            = QString::fromLatin1(parameter.description.data(), static_cast<qsizetype>(parameter.description.size()));
        QAbstractSpinBox* box = nullptr;
        if (parameter.isInteger) {
            auto* spin = new QSpinBox(this);
            spin->setRange(0, INT_MAX);
            spin->setValue(static_cast<int>(parameterValue(defaults, parameter)));
            connect(spin, &QSpinBox::valueChanged, &m_debounce, qOverload<>(&QTimer::start));
            box = spin;
        } else {
            auto* spin = new QDoubleSpinBox(this);
            spin->setDecimals(3);
            spin->setRange(0, 1e6);
            const double value = parameterValue(defaults, parameter);
            spin->setSingleStep(value <= 1.0 ? 0.05 : 0.5);
            spin->setValue(value);
            connect(spin, &QDoubleSpinBox::valueChanged, &m_debounce, qOverload<>(&QTimer::start));
            box = spin;
        }
        box->setObjectName(name);
        const QString toolTip = tr("%1 (the parameter %2, as fusiondiff-cli --param takes it)").arg(description, name);
        box->setToolTip(toolTip);
        box->setKeyboardTracking(false);
        auto* label = new QLabel(parameterLabel(name), this);
        label->setToolTip(toolTip);
        label->setBuddy(box);
        form->addRow(label, box);
        m_boxes.push_back(box);
    }

    // Not an analysis parameter: the next load reads it from the settings.
    auto* threads = new QSpinBox(this);
    threads->setObjectName(QStringLiteral("load_threads"));
    threads->setRange(0, 1024);
    threads->setSpecialValueText(tr("all cores"));
    threads->setValue(QSettings().value(kLoadThreadsSetting, 0).toInt());
    threads->setToolTip(tr("Threads that parse the traces when they are opened and analyse them "
                           "(fusiondiff-cli --threads); fewer leave cores to other work"));
    connect(
        threads, &QSpinBox::valueChanged, this, [](int value) { QSettings().setValue(kLoadThreadsSetting, value); });
    form->addRow(new QLabel(tr("threads for loading"), this), threads);

    auto* reset = new QPushButton(tr("Reset to defaults"), this);
    connect(reset, &QPushButton::clicked, this, &AnalysisSettingsWidget::resetToDefaults);

    auto* classifierCaption = new QLabel(tr("<b>Classifier</b>"), this);
    auto* opLevelCaption = new QLabel(tr("<b>Operations</b> are compared at the level of"), this);
    auto* parametersCaption = new QLabel(tr("<b>Parameters</b> (hover for their meaning)"), this);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(classifierCaption);
    layout->addWidget(m_classifierCombo);
    layout->addWidget(m_classifierInfo);
    layout->addWidget(m_classifierError);
    layout->addSpacing(8);
    layout->addWidget(opLevelCaption);
    layout->addWidget(m_opLevelCombo);
    layout->addSpacing(8);
    layout->addWidget(new QLabel(tr("<b>GPU peaks</b> the efficiency table is measured against"), this));
    layout->addWidget(m_peaks);
    layout->addSpacing(8);
    layout->addWidget(parametersCaption);
    layout->addLayout(form);
    layout->addWidget(reset, 0, Qt::AlignLeft);
    layout->addStretch(1);

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, [this] { emit optionsChanged(options()); });
    connect(m_peaks, &PeaksFileSetting::peaksFileChanged, this, [this] { emit optionsChanged(options()); });

    setClassifierSpec(QStringLiteral("default"));
}

AnalysisSettingsWidget::~AnalysisSettingsWidget() = default;

bool AnalysisSettingsWidget::setClassifierSpec(const QString& spec)
{
    std::shared_ptr<const Classifier> rules;
    try {
        rules = std::make_shared<const Classifier>(Classifier::load(QFile::encodeName(spec).toStdString()));
    } catch (const InputError& error) {
        QString text = tr("%1: %2").arg(
            QFileInfo(QString::fromStdString(error.path())).fileName(), QString::fromStdString(error.reason()));
        if (error.byteOffset())
            text += tr(" (at byte %1)").arg(*error.byteOffset());
        m_classifierError->setText(text);
        m_classifierError->show();
        selectSpecInCombo();
        return false;
    } catch (const std::exception& error) {
        m_classifierError->setText(QString::fromStdString(error.what()));
        m_classifierError->show();
        selectSpecInCombo();
        return false;
    }
    m_classifierError->hide();
    m_spec = spec;
    m_classifierRules = rules;
    selectSpecInCombo();
    const QString source = QString::fromStdString(rules->source());
    m_classifierInfo->setText(tr("%1 kernel types; %2").arg(rules->categories().size()).arg(source.toHtmlEscaped()));
    m_classifierInfo->setToolTip(QString::fromStdString(rules->description()));
    emit classifierChanged(rules);
    return true;
}

void AnalysisSettingsWidget::selectSpecInCombo()
{
    int index = m_classifierCombo->findData(m_spec);
    if (index < 0 && !m_spec.isEmpty()) {
        // A rule file: listed by its name, above "Rule file...".
        index = m_classifierCombo->count() - 1;
        m_classifierCombo->insertItem(index, QFileInfo(m_spec).fileName(), m_spec);
        m_classifierCombo->setItemData(index, m_spec, Qt::ToolTipRole);
    }
    m_classifierCombo->setCurrentIndex(index);
}

void AnalysisSettingsWidget::onComboActivated(int index)
{
    const QString spec = m_classifierCombo->itemData(index).toString();
    if (spec == kRuleFileItem) {
        chooseRuleFile();
        return;
    }
    if (spec != m_spec)
        setClassifierSpec(spec);
}

void AnalysisSettingsWidget::chooseRuleFile()
{
    const QString file
        = openFileName(this, tr("Open Classifier Rule File"), tr("Classifier rule files (*.json);;All files (*)"));
    if (file.isEmpty()) {
        selectSpecInCombo();
        return;
    }
    setClassifierSpec(file);
}

QString AnalysisSettingsWidget::classifierError() const
{
    return m_classifierError->isHidden() ? QString() : m_classifierError->text();
}

AnalysisOptions AnalysisSettingsWidget::options() const
{
    AnalysisOptions options;
    const auto parameters = analysisParameters();
    for (size_t i = 0; i < parameters.size(); ++i) {
        const AnalysisParameter& parameter = parameters[i];
        if (parameter.isInteger)
            options.*parameter.integer = static_cast<QSpinBox*>(m_boxes[i])->value();
        else
            options.*parameter.real = static_cast<QDoubleSpinBox*>(m_boxes[i])->value();
    }
    parseOpLevel(m_opLevelCombo->currentData().toString().toStdString(), options.opLevel);
    options.peaksFile = QFile::encodeName(m_peaks->peaksFile()).toStdString();
    return options;
}

void AnalysisSettingsWidget::setOptions(const AnalysisOptions& options)
{
    const auto parameters = analysisParameters();
    for (size_t i = 0; i < parameters.size(); ++i) {
        const QSignalBlocker blocker(m_boxes[i]);
        if (parameters[i].isInteger)
            static_cast<QSpinBox*>(m_boxes[i])->setValue(static_cast<int>(parameterValue(options, parameters[i])));
        else
            static_cast<QDoubleSpinBox*>(m_boxes[i])->setValue(parameterValue(options, parameters[i]));
    }
    const QSignalBlocker blocker(m_opLevelCombo);
    m_opLevelCombo->setCurrentIndex(m_opLevelCombo->findData(QString::fromLatin1(opLevelKey(options.opLevel))));
    // A file that is no longer one keeps the peaks in use, and says why.
    m_peaks->setPeaksFile(QFile::decodeName(options.peaksFile.c_str()), false);
}

void AnalysisSettingsWidget::setOpLevel(OpLevel level)
{
    m_opLevelCombo->setCurrentIndex(m_opLevelCombo->findData(QString::fromLatin1(opLevelKey(level))));
}

void AnalysisSettingsWidget::setParameter(const QString& name, double value)
{
    const auto parameters = analysisParameters();
    for (size_t i = 0; i < parameters.size(); ++i) {
        if (m_boxes[i]->objectName() != name)
            continue;
        if (parameters[i].isInteger)
            static_cast<QSpinBox*>(m_boxes[i])->setValue(static_cast<int>(value));
        else
            static_cast<QDoubleSpinBox*>(m_boxes[i])->setValue(value);
    }
}

void AnalysisSettingsWidget::resetToDefaults()
{
    AnalysisOptions defaults;
    defaults.peaksFile = options().peaksFile; // not a parameter: the GPU peaks file stays
    setOptions(defaults);
    emit optionsChanged(options());
}

} // namespace fusiondiff::ui
