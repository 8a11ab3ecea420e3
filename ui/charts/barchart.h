#pragma once

#include <QChartView>
#include <QImage>
#include <QList>
#include <QStringList>

#include <array>

class QAbstractAxis;
class QBarCategoryAxis;
class QBarSet;
class QHorizontalBarSeries;
class QLogValueAxis;
class QValueAxis;

namespace fusiondiff::ui {

// Horizontal grouped bars, A beside B, one category per row of a table (so that long kernel type
// names stay readable). Linear or logarithmic value axis; selected categories are drawn in darker
// colours, and a click on a bar reports its category. A chart on a hidden page of a shown window
// builds its series and axes when it is first shown: Qt Charts lays out a chart whether or not it
// can be seen, 2–15 ms each.
class BarChart : public QChartView
{
    Q_OBJECT
public:
    explicit BarChart(QWidget* parent = nullptr);

    // `categories` from the top of the chart down; `values` per side, one per category.
    void setData(const QStringList& categories, const QString& nameA, const QList<qreal>& valuesA, const QString& nameB,
        const QList<qreal>& valuesB, const QString& valueTitle);
    void setLogarithmic(bool logarithmic);
    bool isLogarithmic() const { return m_logarithmic; }
    void setTitle(const QString& title);

    void setSelectedCategories(const QList<int>& categories);
    QList<int> selectedCategories() const;
    int categoryCount() const { return static_cast<int>(m_categories.size()); }
    QStringList categories() const { return m_categories; }
    QList<qreal> values(int side) const;
    // What hovering a bar of `side` in `category` shows: the category and both sides' values.
    QString hoverText(int category, int side) const;

    // Writes the chart as shown (its size on screen) as PNG or, for a name ending in .svg, SVG;
    // returns an error text or "".
    QString saveImage(const QString& path);
    // The title of a saved image: the chart's and both traces' names ("A: AMD vs B: NVIDIA").
    QString savedImageTitle() const;
    // The chart drawn at `size`, titled as a saved image (for reports; the widget may be hidden).
    QImage image(const QSize& size);
    // Takes the chart's colours from the widget's palette (text, background, grid lines), so that
    // the chart follows a dark theme as the tables do.
    void applyPalette();

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;

signals:
    void categoryClicked(int category);

private:
    // Rebuilds the chart now, or marks it to be rebuilt when it is shown.
    void rebuildWhenShown();
    void rebuildAxes();
    void applySelection();
    // Removes `axis` from the chart and keeps it for later.
    void releaseAxis(QAbstractAxis* axis);
    // Fills the bar sets from m_values; on a log scale values below `floor` (zeros) become
    // `floor`, a bar of no length, since zero has no logarithm.
    void applyValues(qreal floor);
    int barIndex(int category) const { return static_cast<int>(m_categories.size()) - 1 - category; }

    QHorizontalBarSeries* m_series;
    // Owned by the chart while attached, by this view while not (the value axis not in use).
    QBarCategoryAxis* m_categoryAxis;
    QValueAxis* m_linearAxis;
    QLogValueAxis* m_logAxis;
    std::array<QBarSet*, 2> m_sets {};
    std::array<QString, 2> m_names { QStringLiteral("A"), QStringLiteral("B") }; // the legend's
    QStringList m_categories;
    std::array<QList<qreal>, 2> m_values; // per side, in category order
    QString m_valueTitle;
    QList<int> m_selected; // categories, sorted
    bool m_logarithmic = false;
    bool m_rebuildPending = false;
};

} // namespace fusiondiff::ui
