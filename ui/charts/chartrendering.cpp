#include "charts/chartrendering.h"

#include "display/colors.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QLegend>
#include <QPainter>

namespace fusiondiff::ui {

void applyChartPalette(QChartView& view, std::initializer_list<QAbstractAxis*> axes)
{
    const QPalette palette = view.palette();
    const QColor background = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    QChart* chart = view.chart();
    chart->setBackgroundBrush(background);
    chart->setBackgroundPen(Qt::NoPen);
    chart->setPlotAreaBackgroundVisible(false);
    chart->setTitleBrush(text);
    chart->legend()->setLabelColor(text);
    for (QAbstractAxis* axis : axes) {
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
        axis->setLinePenColor(blend(background, text, 0.5));
        axis->setGridLineColor(blend(background, text, 0.15));
        axis->setMinorGridLineColor(blend(background, text, 0.07));
    }
    view.setBackgroundBrush(background);
}

QImage renderChartImage(QChartView& view, const QSize& size, const QString& title)
{
    QChart* chart = view.chart();
    const QString shownTitle = chart->title();
    const QSize shownSize = view.size();
    chart->setTitle(title);
    view.resize(size);
    chart->resize(size);
    chart->layout()->activate();
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(view.palette().color(QPalette::Base));
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    chart->scene()->render(&painter, QRectF(QPointF(0, 0), size), chart->geometry());
    painter.end();
    chart->setTitle(shownTitle);
    view.resize(shownSize);
    chart->resize(shownSize);
    chart->layout()->activate();
    return image;
}

} // namespace fusiondiff::ui
