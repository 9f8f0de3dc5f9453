#pragma once
// A step's think time: how long a virtual user pauses after the step's answer
// before its next step (or, after the last step, before its iteration ends).
// One of four distributions, sampled per pause on the worker's own random
// numbers:
//   fixed        always `a`
//   uniform      between `a` and `b`
//   normal       mean `a`, standard deviation `b`, cut at 0 and at the bound
//   exponential  mean `a` (memoryless pauses, as arrivals of a Poisson process)
#include "core/clock.h"
#include "core/random.h"

namespace stampede {

struct ThinkTime
{
    enum class Kind
    {
        None,
        Fixed,
        Uniform,
        Normal,
        Exponential,
    };
    Kind kind = Kind::None;
    Nanos a = 0;
    Nanos b = 0;

    // The longest pause there may be (a sample past it is cut to it).
    static constexpr Nanos kMax = 3600 * kNanosPerSecond;

    bool none() const { return kind == Kind::None; }
    Nanos sample(FastRandom& random) const;
};

} // namespace stampede
