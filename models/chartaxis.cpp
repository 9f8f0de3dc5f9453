#include "chartaxis.h"

#include "report/svgchart.h"

#include "core/nicescale.h"

#include <algorithm>
#include <cmath>

namespace {

// [low, high] widened to whole steps of `step`.
NiceRange onSteps(double low, double high, double step)
{
    NiceRange r;
    r.step = step;
    r.low = std::floor(low / r.step + 1e-9) * r.step;
    r.high = std::ceil(high / r.step - 1e-9) * r.step;
    if (r.high <= r.low)
        r.high = r.low + r.step;
    r.decimals = stampede::stepDecimals(r.step);
    return r;
}

} // namespace

NiceRange niceRange(double low, double high, int ticks)
{
    if (!(high > low))
        high = low + 1;
    return onSteps(low, high, stampede::niceStep(high - low, ticks));
}

NiceRange niceRangeWithin(double low, double high, int maxLabels)
{
    NiceRange r = niceRange(low, high);
    if (maxLabels <= 0)
        return r;
    maxLabels = std::max(2, maxLabels);
    if (!(high > low))
        high = low + 1;
    while (r.ticks() > maxLabels) { // the next of 1, 2, 5 times a power of ten
        const double magnitude = std::pow(10.0, std::floor(std::log10(r.step) + 1e-9));
        const double fraction = r.step / magnitude;
        r = onSteps(low, high, (fraction < 1.5 ? 2 : fraction < 3 ? 5 : 10) * magnitude);
    }
    return r;
}

const char* seriesColourName(int i)
{
    return stampede::seriesColour(std::size_t(i));
}
