#pragma once
// Axis steps people read at a glance: 1, 2 or 5 times a power of ten.
#include <algorithm>
#include <cmath>

namespace stampede {

// The step nearest span / ticks among 1, 2, 5 × 10^k (1 for an empty or bad span).
inline double niceStep(double span, int ticks = 4)
{
    if (!(span > 0) || !std::isfinite(span))
        return 1;
    const double raw = span / std::max(1, ticks);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double fraction = raw / magnitude;
    const double nice = fraction < 1.5 ? 1 : fraction < 3 ? 2 : fraction < 7.5 ? 5 : 10;
    return nice * magnitude;
}

// The decimals a label needs to show multiples of `step` exactly (0 for 1, 2, 5, 10…; 1 for 0.2).
inline int stepDecimals(double step)
{
    return std::max(0, int(-std::floor(std::log10(step) + 1e-9)));
}

} // namespace stampede
