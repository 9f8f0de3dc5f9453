#include "chartaxis.h"

#include "core/nicescale.h"

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
