#pragma once
// What the live dashboard and the saved reports draw alike: a chart over the
// seconds of a run, with a value axis, the legend below, in a view; and the
// fixed series colours (the theme's own palette repeats after five series).
#include <QColor>
#include <QString>

class QChart;
class QChartView;

namespace timechart {

// A view of a chart with a "seconds" axis below and a `unit` axis on the left.
QChartView* makeView(const QString& title, const QString& unit);
// The i-th series colour (cycling).
QColor seriesColour(int i);

} // namespace timechart
