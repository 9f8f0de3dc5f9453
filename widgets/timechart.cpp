#include "timechart.h"

#include "chartaxis.h"

#include <cmath>

#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QFontMetricsF>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

namespace timechart {

namespace {

// The most labels a vertical axis of a laid-out chart shows without two
// touching (0: no limit, for a horizontal axis or a chart not laid out yet).
// Qt Charts hides a label that would overlap the one before: in a 90 px plot
// the taller Chinese font left one of six out.
int labelRoom(const QValueAxis* axis)
{
    if (axis->orientation() != Qt::Vertical)
        return 0;
    const QChart* chart = nullptr;
    for (QObject* p = axis->parent(); p && !chart; p = p->parent())
        chart = qobject_cast<const QChart*>(p);
    const double height = chart ? chart->plotArea().height() : 0;
    if (height <= 0)
        return 0;
    const double line = QFontMetricsF(axis->labelsFont()).height() * 1.25;
    return std::max(2, int(height / line) + 1);
}

} // namespace

void setNiceRange(QValueAxis* axis, double low, double high)
{
    const NiceRange r = niceRangeWithin(low, high, labelRoom(axis));
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(r.low);
    axis->setTickInterval(r.step);
    axis->setRange(r.low, r.high);
    axis->setLabelFormat(QStringLiteral("%.") + QString::number(r.decimals) + QStringLiteral("f"));
}

void setCountRange(QValueAxis* axis, double high)
{
    NiceRange r = niceRangeWithin(0, std::max(4.0, high), labelRoom(axis));
    if (r.step < 1) { // a count is whole: 0 1 2 3 4, never 0 0.2 0.4
        r.step = 1;
        r.high = std::ceil(r.high);
        r.decimals = 0;
    }
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(r.step);
    axis->setRange(0, r.high);
    axis->setLabelFormat(QStringLiteral("%.0f"));
}

Scale millisecondScale(double maxMs)
{
    if (maxMs > 0 && maxMs < 1)
        return {0.001, QCoreApplication::translate("TimeChart", "µs")};
    if (maxMs >= 10000)
        return {1000, QCoreApplication::translate("TimeChart", "s")};
    return {1, QCoreApplication::translate("TimeChart", "ms")};
}

Scale countScale(double max, const QString& unit)
{
    if (max >= 1e7)
        return {1e6, QStringLiteral("M ") + unit};
    if (max >= 1e4)
        return {1e3, QStringLiteral("k ") + unit};
    return {1, unit};
}

QList<QPointF> scaled(const QList<QPointF>& points, double divisor)
{
    if (divisor == 1)
        return points;
    QList<QPointF> out;
    out.reserve(points.size());
    for (const QPointF& p : points)
        out.append({p.x(), p.y() / divisor}); // a NaN gap stays a gap
    return out;
}

void setValueTitle(QChartView* view, const QString& unit)
{
    // the unit in the chart's title: a vertical axis title is cut short in a short chart
    const QString base = view->property("baseTitle").toString();
    view->chart()->setTitle(unit.isEmpty() ? base : QStringLiteral("%1 (%2)").arg(base, unit));
    view->setProperty("unit", unit);
}

QString valueUnit(const QChartView* view)
{
    return view->property("unit").toString();
}

QChartView* makeView(const QString& title, const QString& unit)
{
    auto* chart = new QChart;
    chart->setTitle(title);
    auto* x = new QValueAxis;
    x->setTitleText(QCoreApplication::translate("TimeChart", "seconds"));
    auto* y = new QValueAxis;
    // before the first second arrives (an engine still starting): ten seconds by two, values 0 to 1
    setNiceRange(x, 0, 10);
    setNiceRange(y, 0, 1);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setShowToolTips(true); // a name cut short shows whole on hover
    QFont legendFont = chart->legend()->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.9);
    chart->legend()->setFont(legendFont);
    chart->setMargins(QMargins(4, 4, 4, 4));
    auto* view = new QChartView(chart);
    view->setProperty("baseTitle", title);
    setValueTitle(view, unit);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(200);
    return view;
}

void addLine(QChartView* view, const QString& name, const QColor& colour, const QList<QPointF>& points)
{
    QChart* chart = view->chart();
    QList<QPointF> piece;
    bool first = true;
    auto flush = [&] {
        if (piece.isEmpty() && !first)
            return;
        auto* s = new QLineSeries;
        s->setName(name);
        s->setPen(QPen(colour, 2));
        s->replace(piece);
        chart->addSeries(s);
        for (auto* axis : chart->axes())
            s->attachAxis(axis);
        if (!first)
            for (auto* marker : chart->legend()->markers(s))
                marker->setVisible(false);
        first = false;
        piece.clear();
    };
    for (const QPointF& p : points) {
        if (std::isnan(p.y()))
            flush();
        else
            piece << p;
    }
    flush();
}

void addEventMarks(QChartView* view, const QList<QPair<double, QString>>& events, double top, bool inLegend)
{
    QChart* chart = view->chart();
    for (const auto& [at, label] : events) {
        auto* mark = new QLineSeries;
        mark->setName(label);
        QPen pen(QColor(0x88, 0x4e, 0xa0));
        pen.setStyle(Qt::DotLine);
        mark->setPen(pen);
        mark->append(at, 0);
        mark->append(at, top);
        chart->addSeries(mark);
        for (auto* axis : chart->axes())
            mark->attachAxis(axis);
        if (!inLegend)
            for (auto* marker : chart->legend()->markers(mark))
                marker->setVisible(false);
    }
}

QColor seriesColour(int i)
{
    return QColor(QLatin1String(seriesColourName(i))); // the HTML exports' too
}

} // namespace timechart
