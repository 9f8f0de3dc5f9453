#include "svgchart.h"

#include "core/nicescale.h"
#include "junitreport.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace stampede {

std::string svgNumber(double v, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

namespace {

std::string num(double v, int decimals = 3)
{
    return svgNumber(v, decimals);
}

// About how wide `text` is at `px` pixels: a Latin letter about 0.6 of its size, a CJK character its whole size
// (the legend starts after the title, a name after the one before it).
double approxWidth(const std::string& text, double px)
{
    double w = 0;
    for (const char c : text) {
        const auto b = static_cast<unsigned char>(c);
        if (b < 0x80)
            w += 0.6 * px;
        else if (b >= 0xc0) // a character's first byte
            w += b >= 0xe0 ? px : 0.6 * px;
    }
    return w;
}

// Every chart's layout: 760 x 236, the plot inside its margins.
constexpr double kW = 760, kH = 236, kLeft = 60, kBottom = 40, kTop = 24;
constexpr double kPlotW = kW - kLeft - 10, kPlotH = kH - kBottom - kTop;

// The picture's frame with its title, and the unit above the value axis, on the title's line (at the top tick's
// height it ran into its label).
std::string opening(const std::string& title, const std::string& unit)
{
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(kW, 0) + "\" height=\"" + num(kH, 0) +
           "\" role=\"img\"><title>" + escapeXml(title) + "</title><text x=\"" + num(kLeft, 0) +
           "\" y=\"16\" font-size=\"13\" font-weight=\"bold\">" + escapeXml(title) +
           "</text><text x=\"4\" y=\"16\" font-size=\"10\">" + escapeXml(unit) + "</text>";
}

// The value axis: a grid line and a label on each whole step up to maxY.
void valueTicks(std::string& svg, double maxY, double yStep)
{
    for (double v = 0; v <= maxY + yStep / 2; v += yStep) {
        const double y = kTop + kPlotH - kPlotH * v / maxY;
        svg += "<line x1=\"" + num(kLeft, 0) + "\" x2=\"" + num(kLeft + kPlotW, 0) + "\" y1=\"" + num(y, 1) +
               "\" y2=\"" + num(y, 1) + "\" stroke=\"#ddd\"/><text x=\"" + num(kLeft - 4, 0) + "\" y=\"" +
               num(y + 4, 1) + "\" font-size=\"10\" text-anchor=\"end\">" + num(v, stepDecimals(yStep)) + "</text>";
    }
}

// The x axis labelled on its steps up to maxX, its name under its end.
void xTicks(std::string& svg, double maxX, double xStep, const std::string& name)
{
    for (double v = 0; v <= maxX + xStep / 2; v += xStep) {
        const double x = kLeft + kPlotW * v / maxX;
        svg += "<line x1=\"" + num(x, 1) + "\" x2=\"" + num(x, 1) + "\" y1=\"" + num(kTop + kPlotH, 0) + "\" y2=\"" +
               num(kTop + kPlotH + 4, 0) + "\" stroke=\"#999\"/><text x=\"" + num(x, 1) + "\" y=\"" +
               num(kTop + kPlotH + 15, 0) + "\" font-size=\"10\" text-anchor=\"middle\">" +
               num(v, stepDecimals(xStep)) + "</text>";
    }
    svg += "<text x=\"" + num(kLeft + kPlotW, 0) + "\" y=\"" + num(kH - 2, 0) +
           "\" font-size=\"10\" text-anchor=\"end\">" + escapeXml(name) + "</text>";
}

} // namespace

// A line chart as inline SVG: no script, no external reference. A NaN y is
// a gap in its line; each event is a dotted vertical line with its kind.
const char* seriesColour(std::size_t i)
{
    static const char* const colours[] = {"#2980b9", "#c0392b", "#27ae60", "#8e44ad", "#e67e22", "#7f8c8d"};
    return colours[i % std::size(colours)];
}

std::string svgChart(const std::string& title, const std::string& unit, const ChartSeries& series,
                     const std::vector<RunEvent>& events, const std::string& xUnit, const std::string& xLabel)
{
    const double left = kLeft, top = kTop, plotW = kPlotW, plotH = kPlotH;
    double maxX = 1, maxY = 0;
    for (const auto& [name, pts] : series)
        for (const auto& [x, y] : pts) {
            maxX = std::max(maxX, x);
            if (!std::isnan(y))
                maxY = std::max(maxY, y);
        }
    if (maxY <= 0)
        maxY = 1;
    // seconds and runs are whole: a short run's time axis is not labelled in halves of one
    const double yStep = niceStep(maxY * 1.05),
                 xStep = xUnit == "s" || xUnit == "run" ? std::max(1.0, niceStep(maxX, 5)) : niceStep(maxX, 5);
    maxY = std::ceil(maxY * 1.05 / yStep - 1e-9) * yStep;
    maxX = std::ceil(maxX / xStep - 1e-9) * xStep;
    std::string svg = opening(title, unit);
    valueTicks(svg, maxY, yStep);
    xTicks(svg, maxX, xStep, !xLabel.empty() ? xLabel : xUnit == "s" ? "seconds" : xUnit);
    std::size_t ci = 0;
    double legendX = left + approxWidth(title, 13) + 16;
    for (const auto& [name, pts] : series) {
        const char* color = seriesColour(ci++);
        std::string path;
        bool gap = true;
        for (const auto& [x, y] : pts) {
            if (std::isnan(y)) {
                gap = true;
                continue;
            }
            path += (path.empty() ? "M"
                     : gap        ? " M"
                                  : " L") +
                    num(left + plotW * x / maxX, 1) + "," + num(top + plotH - plotH * y / maxY, 1);
            gap = false;
        }
        svg += "<path d=\"" + path + "\" fill=\"none\" stroke=\"" + color + "\" stroke-width=\"1.5\"/>";
        svg += "<text x=\"" + num(legendX, 0) + "\" y=\"16\" font-size=\"11\" fill=\"" + color + "\">" +
               escapeXml(name) + "</text>";
        legendX += 12 + approxWidth(name, 11);
    }
    for (const auto& e : events) {
        const double x = left + plotW * std::min(e.atS, maxX) / maxX;
        svg += "<line x1=\"" + num(x, 1) + "\" x2=\"" + num(x, 1) + "\" y1=\"" + num(top, 0) + "\" y2=\"" +
               num(top + plotH, 0) + "\" stroke=\"#884ea0\" stroke-dasharray=\"2,3\"><title>" +
               escapeXml((xUnit == "s" ? num(e.atS, 1) + " s" : xUnit + " " + num(e.atS, 0)) + ": " + e.kind + " " +
                         e.detail) +
               "</title></line>";
        // its kind beside it, to its left near the right edge (it would be cut there)
        const bool nearEnd = x > left + plotW - 6.0 * double(e.kind.size()) - 4;
        svg += "<text x=\"" + num(nearEnd ? x - 2 : x + 2, 1) + "\" y=\"" + num(top + 10, 0) +
               "\" font-size=\"9\" fill=\"#884ea0\"" + (nearEnd ? " text-anchor=\"end\"" : "") + ">" +
               escapeXml(e.kind) + "</text>";
    }
    return svg + "</svg>";
}

std::string svgBars(const std::string& title, const std::string& unit,
                    const std::vector<std::pair<std::string, double>>& bars)
{
    const double left = kLeft, top = kTop, plotW = kPlotW, plotH = kPlotH;
    double maxY = 0;
    for (const auto& [label, v] : bars)
        maxY = std::max(maxY, v);
    if (maxY <= 0)
        maxY = 1;
    const double yStep = niceStep(maxY * 1.05);
    maxY = std::ceil(maxY * 1.05 / yStep - 1e-9) * yStep;
    std::string svg = opening(title, unit);
    valueTicks(svg, maxY, yStep);
    const double slot = bars.empty() ? plotW : plotW / double(bars.size());
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const double x = left + slot * double(i), bh = plotH * bars[i].second / maxY;
        svg += "<rect x=\"" + num(x + slot * 0.1, 1) + "\" y=\"" + num(top + plotH - bh, 1) + "\" width=\"" +
               num(slot * 0.8, 1) + "\" height=\"" + num(bh, 1) + "\" fill=\"" + std::string(seriesColour(0)) +
               "\"><title>" + escapeXml(bars[i].first + ": " + num(bars[i].second, 0)) + "</title></rect>";
        svg += "<text x=\"" + num(x + slot / 2, 1) + "\" y=\"" + num(top + plotH + 15, 0) +
               "\" font-size=\"10\" text-anchor=\"middle\">" + escapeXml(bars[i].first) + "</text>";
        if (bars[i].second > 0)
            svg += "<text x=\"" + num(x + slot / 2, 1) + "\" y=\"" + num(top + plotH - bh - 3, 1) +
                   "\" font-size=\"9\" text-anchor=\"middle\">" + num(bars[i].second, 0) + "</text>";
    }
    return svg + "</svg>";
}

std::string svgDots(const std::string& title, const std::string& unit, const std::string& xUnit,
                    const std::vector<std::pair<double, double>>& points)
{
    const double left = kLeft, top = kTop, plotW = kPlotW, plotH = kPlotH;
    double maxX = 0, maxY = 0;
    for (const auto& [x, y] : points) {
        maxX = std::max(maxX, x);
        maxY = std::max(maxY, y);
    }
    if (maxX <= 0)
        maxX = 1;
    if (maxY <= 0)
        maxY = 1;
    const double xStep = niceStep(maxX * 1.05, 5), yStep = niceStep(maxY * 1.05);
    maxX = std::ceil(maxX * 1.05 / xStep - 1e-9) * xStep;
    maxY = std::ceil(maxY * 1.05 / yStep - 1e-9) * yStep;
    std::string svg = opening(title, unit);
    valueTicks(svg, maxY, yStep);
    xTicks(svg, maxX, xStep, xUnit);
    for (const auto& [x, y] : points)
        svg += "<circle cx=\"" + num(left + plotW * x / maxX, 1) + "\" cy=\"" + num(top + plotH - plotH * y / maxY, 1) +
               "\" r=\"3\" fill=\"" + std::string(seriesColour(0)) + "\" fill-opacity=\"0.7\"/>";
    return svg + "</svg>";
}

} // namespace stampede
