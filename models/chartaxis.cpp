#include "chartaxis.h"

#include "core/nicescale.h"

#include <algorithm>
#include <cmath>

NiceRange niceRange(double low, double high, int ticks)
{
    NiceRange r;
    if (!(high > low))
        high = low + 1;
    r.step = stampede::niceStep(high - low, ticks);
    r.low = std::floor(low / r.step + 1e-9) * r.step;
    r.high = std::ceil(high / r.step - 1e-9) * r.step;
    if (r.high <= r.low)
        r.high = r.low + r.step;
    r.decimals = stampede::stepDecimals(r.step);
    return r;
}

NiceRange niceRangeWithin(double low, double high, int maxLabels)
{
    NiceRange r = niceRange(low, high);
    if (maxLabels <= 0)
        return r;
    maxLabels = std::max(2, maxLabels);
    const double top = high > low ? high : low + 1;
    while (r.ticks() > maxLabels) {
        const double magnitude = std::pow(10.0, std::floor(std::log10(r.step) + 1e-9));
        const double fraction = r.step / magnitude;
        r.step = (fraction < 1.5 ? 2 : fraction < 3 ? 5 : 10) * magnitude;
        r.low = std::floor(low / r.step + 1e-9) * r.step;
        r.high = std::ceil(top / r.step - 1e-9) * r.step;
        if (r.high <= r.low)
            r.high = r.low + r.step;
        r.decimals = stampede::stepDecimals(r.step);
    }
    return r;
}
