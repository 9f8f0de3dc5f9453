#pragma once
// A line chart as inline SVG for the HTML reports (a run's, a trend's): no
// script, no external reference; a NaN y is a gap in its line; each event a
// dotted vertical line with its kind; the time axis in whole seconds.
#include "metrics/timeline.h"

#include <string>
#include <utility>
#include <vector>

namespace stampede {

using ChartSeries = std::vector<std::pair<std::string, std::vector<std::pair<double, double>>>>;

// `xUnit` "s": x is seconds of the run (ticks on whole seconds, labelled `xLabel`, "seconds" when empty); else
// its name on the axis (or `xLabel`).
std::string svgChart(const std::string& title, const std::string& unit, const ChartSeries& series,
                     const std::vector<RunEvent>& events = {}, const std::string& xUnit = "s",
                     const std::string& xLabel = {});

// The colour of a chart's `i`th line, the same in the workbench (live and report) and the HTML exports.
const char* seriesColour(std::size_t i);

// Bars, one per (label, value), left to right, each labelled under it and its value above it.
std::string svgBars(const std::string& title, const std::string& unit,
                    const std::vector<std::pair<std::string, double>>& bars);

// Points (x, y) as dots, x labelled `xUnit` and y `unit`: one dot per second of a run, for what goes with what.
std::string svgDots(const std::string& title, const std::string& unit, const std::string& xUnit,
                    const std::vector<std::pair<double, double>>& points);

// `v` with `decimals` digits after the point.
std::string svgNumber(double v, int decimals = 3);

} // namespace stampede
