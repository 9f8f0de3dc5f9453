#include "arrivalschedule.h"

#include <cmath>

namespace stampede {

ArrivalSchedule::ArrivalSchedule(const StageProfile& profile, std::uint32_t part, std::uint32_t parts)
    : m_profile(profile), m_part(part), m_parts(parts ? parts : 1)
{
}

std::optional<Nanos> ArrivalSchedule::next()
{
    const double index = double(m_k * m_parts + m_part); // the global arrival index
    if (m_factor <= 0)
        return std::nullopt;
    // the profile's cumulative count at which this arrival falls
    const double target = m_profileBase + (index - m_scaledBase) / m_factor;
    const auto& segs = m_profile.segments();
    while (m_segment < segs.size()) {
        const auto& s = segs[m_segment];
        const double len = double(s.end - s.start) / 1e9;
        const double count = (s.from + s.to) / 2 * len; // arrivals in this segment
        const double c = target - m_segmentBase;        // arrivals into this segment
        if (c < count || (c == 0 && count > 0)) {
            // Solve from*tau + k*tau^2 = c with k = (to-from)/(2 len), in the
            // cancellation-free form tau = 2c / (from + sqrt(from^2 + 4kc)).
            const double k = (s.to - s.from) / (2 * len);
            const double disc = std::max(0.0, s.from * s.from + 4 * k * c);
            const double denom = s.from + std::sqrt(disc);
            const double tau = denom > 0 ? 2 * c / denom : 0;
            const Nanos t = s.start + Nanos(std::llround(tau * 1e9));
            ++m_k;
            return t < s.end ? t : s.end - 1;
        }
        m_segmentBase += count;
        ++m_segment;
    }
    return std::nullopt;
}

void ArrivalSchedule::rescale(double factor, Nanos at)
{
    const double profileNow = m_profile.cumulative(at);
    m_scaledBase += m_factor * (profileNow - m_profileBase);
    m_profileBase = profileNow;
    m_factor = factor < 0 ? 0 : factor;
    m_segment = 0; // the next target may lie in an earlier segment than the cursor
    m_segmentBase = 0;
}

} // namespace stampede
