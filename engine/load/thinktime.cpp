#include "thinktime.h"

#include <algorithm>
#include <cmath>

namespace stampede {

Nanos ThinkTime::sample(FastRandom& random) const
{
    double ns = 0;
    switch (kind) {
    case Kind::None:
        return 0;
    case Kind::Fixed:
        ns = double(a);
        break;
    case Kind::Uniform:
        ns = double(a) + random.unit() * double(b - a);
        break;
    case Kind::Normal: {                       // Box-Muller: one of the pair is enough
        const double u1 = 1.0 - random.unit(); // (0, 1]: the log is finite
        const double u2 = random.unit();
        ns = double(a) + double(b) * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
        break;
    }
    case Kind::Exponential:
        ns = -double(a) * std::log(1.0 - random.unit());
        break;
    }
    return Nanos(std::clamp(ns, 0.0, double(kMax)));
}

} // namespace stampede
