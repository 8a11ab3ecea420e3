#include "widgets/tooltipwrapping.h"

#include <QApplication>
#include <QEvent>
#include <QLabel>
#include <QScreen>
#include <QTextDocument>

#include <algorithm>

namespace fusiondiff::ui {

namespace {

const char* const kFilterName = "fusiondiff_tooltip_wrapping";
const char* const kWrappedText = "fusiondiff_wrapped_text";

class ToolTipWrapping : public QObject
{
public:
    explicit ToolTipWrapping(QObject* parent)
        : QObject(parent)
    {
        setObjectName(QString::fromLatin1(kFilterName));
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        // Qt resizes its tooltip label to the text before showing it, and again on each new text.
        if (event->type() == QEvent::Resize && watched->objectName() == QLatin1String("qtooltip_label")) {
            if (auto* label = qobject_cast<QLabel*>(watched))
                wrap(label);
        }
        return false;
    }

private:
    static void wrap(QLabel* label)
    {
        if (label->property(kWrappedText).toString() == label->text() && !label->text().isEmpty())
            return;
        const int maximumWidth = label->fontMetrics().averageCharWidth() * kToolTipCharacters
            + label->contentsMargins().left() + label->contentsMargins().right();
        const QScreen* screen = label->screen();
        const QRect available = screen ? screen->availableGeometry() : QRect();
        const int width = available.isValid() ? std::min(maximumWidth, available.width()) : maximumWidth;
        if (label->width() <= width)
            return;
        const QString wrapped = wrappableToolTipText(label->text());
        label->setProperty(kWrappedText, wrapped);
        label->setText(wrapped);
        label->setWordWrap(true);
        label->setMaximumWidth(width);
        const int shownWidth = std::min(width, label->sizeHint().width());
        label->resize(shownWidth, label->heightForWidth(shownWidth));
        if (available.isValid()) {
            // Narrower now: still where Qt placed it, unless that runs off the screen.
            QPoint position = label->pos();
            position.setX(std::clamp(position.x(), available.left(), available.right() - label->width()));
            position.setY(std::clamp(
                position.y(), available.top(), std::max(available.top(), available.bottom() - label->height())));
            label->move(position);
        }
    }
};

} // namespace

void installToolTipWrapping(QCoreApplication* application)
{
    if (!application || application->findChild<QObject*>(QString::fromLatin1(kFilterName), Qt::FindDirectChildrenOnly))
        return;
    application->installEventFilter(new ToolTipWrapping(application));
}

QString wrappableToolTipText(const QString& text)
{
    const QString rich = Qt::mightBeRichText(text) ? text : Qt::convertFromPlainText(text, Qt::WhiteSpaceNormal);
    QString result;
    result.reserve(rich.size() + rich.size() / 8);
    bool inTag = false;
    for (const QChar c : rich) {
        result.append(c);
        if (c == QLatin1Char('<'))
            inTag = true;
        else if (c == QLatin1Char('>'))
            inTag = false;
        else if (!inTag
            && (c == QLatin1Char('_') || c == QLatin1Char(',') || c == QLatin1Char(':') || c == QLatin1Char('/')))
            result.append(QChar(0x200B));
    }
    return result;
}

} // namespace fusiondiff::ui
