#include "stageprofile.h"

#include <algorithm>

namespace stampede {

Nanos StageProfile::stagesLength(const std::vector<StageSpec>& stages)
{
    Nanos sum = 0;
    for (const auto& s : stages)
        sum += s.duration;
    return sum;
}

StageProfile StageProfile::build(double initial, const std::vector<StageSpec>& stages, Nanos duration)
{
    StageProfile p;
    p.m_duration = duration;
    double level = initial;
    Nanos t = 0;
    auto add = [&](Nanos length, double from, double to) {
        if (length <= 0 || t >= duration)
            return;
        const Nanos end = std::min(t + length, duration);
        // a cut segment ends at the level the line reaches at the cut
        const double toAtEnd = from + (to - from) * double(end - t) / double(length);
        p.m_segments.push_back({t, end, from, toAtEnd});
        t = end;
    };
    for (const auto& s : stages) {
        const double target = s.target.value_or(level);
        switch (s.kind) {
        case StageSpec::Kind::Hold:
            add(s.duration, target, target);
            level = target;
            break;
        case StageSpec::Kind::Ramp:
            add(s.duration, level, target);
            level = target;
            break;
        case StageSpec::Kind::Step: {
            const unsigned n = std::max(1u, s.steps);
            for (unsigned i = 1; i <= n; ++i) {
                const Nanos from = s.duration * Nanos(i - 1) / n;
                const Nanos to = s.duration * Nanos(i) / n;
                const double l = level + (target - level) * double(i) / double(n);
                add(to - from, l, l);
            }
            level = target;
            break;
        }
        case StageSpec::Kind::Spike:
            add(s.duration, target, target);
            break; // back to the previous level afterwards
        }
    }
    if (t < duration)
        add(duration - t, level, level);
    return p;
}

double StageProfile::levelAt(Nanos t) const
{
    for (const auto& s : m_segments) {
        if (t >= s.start && t < s.end)
            return s.from + (s.to - s.from) * double(t - s.start) / double(s.end - s.start);
    }
    return 0;
}

double StageProfile::peak() const
{
    double m = 0;
    for (const auto& s : m_segments)
        m = std::max({m, s.from, s.to});
    return m;
}

double StageProfile::cumulative(Nanos t) const
{
    double sum = 0;
    for (const auto& s : m_segments) {
        if (t <= s.start)
            break;
        const Nanos end = std::min(t, s.end);
        const double len = double(s.end - s.start) / 1e9;
        const double tau = double(end - s.start) / 1e9;
        sum += s.from * tau + (s.to - s.from) * tau * tau / (2 * len);
    }
    return sum;
}

} // namespace stampede
