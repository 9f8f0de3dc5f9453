#pragma once
// What the live dashboard and the saved reports draw alike: a chart over the
// seconds of a run, with a value axis, the legend below, in a view; and the
// fixed series colours (the theme's own palette repeats after five series).
#include <QColor>
#include <QList>
#include <QPair>
#include <QPointF>
#include <QString>

class QChart;
class QChartView;
class QValueAxis;

namespace timechart {

// A view of a chart with a "seconds" axis below and a `unit` axis on the left.
QChartView* makeView(const QString& title, const QString& unit);
// The axis from `low` to `high` widened to whole steps of niceRange() (models/chartaxis.h),
// ticks on those steps, labelled with as many decimals as the step needs
// (0, 500, 1000 … not 868.5, 2605).
void setNiceRange(QValueAxis* axis, double low, double high);
// The same for a count (errors, connections, users): whole steps, at least 0 to 4.
void setCountRange(QValueAxis* axis, double high);
// The unit a value axis shows, and what its values are divided by.
struct Scale
{
    double divisor = 1;
    QString unit;
};
// Latency held in milliseconds: µs below 1 ms, ms, s from 10 s.
Scale millisecondScale(double maxMs);
// Counts and rates: as they are, "k" from 10,000, "M" from 10 million ("k requests/s").
Scale countScale(double max, const QString& unit);
QList<QPointF> scaled(const QList<QPointF>& points, double divisor);
// The view's value axis titled `unit`.
void setValueTitle(QChartView* view, const QString& unit);
// The unit a chart's values are in (what setValueTitle() put in its title).
QString valueUnit(const QChartView* view);
// The i-th series colour (cycling).
QColor seriesColour(int i);
// Adds a line to the view's chart, on its two axes; a point whose y is NaN is
// a gap (a second with nothing to draw, as while a run was paused): the line
// stops there and starts again after it, one legend entry for all its pieces.
void addLine(QChartView* view, const QString& name, const QColor& colour, const QList<QPointF>& points);
// Marks moments of the run (pause, resume, scale, a lost agent) as dotted
// vertical lines up to `top`, named in the legend by what happened when
// `inLegend` (one chart of a row says it; the others only draw the lines).
void addEventMarks(QChartView* view, const QList<QPair<double, QString>>& events, double top, bool inLegend);

} // namespace timechart
