#pragma once
// An axis people read at a glance, for the charts: its range widened to
// whole steps of 1, 2 or 5 times a power of ten, and the decimals its labels
// need (core/nicescale.h underneath).
struct NiceRange
{
    double low = 0;
    double high = 1;
    double step = 1;
    int decimals = 0;
    int ticks() const { return int((high - low) / step + 0.5) + 1; }
};

// [low, high] widened to whole steps (about `ticks` of them).
NiceRange niceRange(double low, double high, int ticks = 4);
// The same, with at most `maxLabels` labels (0: no limit; at least 2 are
// kept): the step goes up through 1, 2, 5 times a power of ten until they fit.
NiceRange niceRangeWithin(double low, double high, int maxLabels);

// The colour of a chart's `i`th line as "#rrggbb": the same in the workbench (live and report) and the HTML
// exports (report/svgchart.h).
const char* seriesColourName(int i);
