#pragma once

#include <QImage>
#include <QSize>
#include <QString>

#include <initializer_list>

class QAbstractAxis;
class QChartView;

namespace fusiondiff::ui {

// The chart in its view's palette: background, title, legend, and the axes' lines, grids and
// labels (the charts of the app draw in the window's colours, light or dark).
void applyChartPalette(QChartView& view, std::initializer_list<QAbstractAxis*> axes);

// The view's chart drawn at `size` with `title` (a report's image: the view may be hidden or of
// another size), then put back as it was shown.
QImage renderChartImage(QChartView& view, const QSize& size, const QString& title);

} // namespace fusiondiff::ui
