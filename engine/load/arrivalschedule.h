#pragma once
// The open model's arrival schedule: the intended start times of arrivals so
// that their count follows the integral of the planned rate. The m-th arrival
// of the whole run (m = 0, 1, ...) is intended at the time t where
// cumulative(t) = m; part `part` of `parts` takes the arrivals with
// m % parts == part, so the parts interleave evenly and together make the rate.
#include "stageprofile.h"

#include <cstdint>
#include <optional>

namespace stampede {

class ArrivalSchedule
{
public:
    ArrivalSchedule(const StageProfile& profile, std::uint32_t part, std::uint32_t parts);

    // The intended time (nanoseconds after the run's start) of this part's next
    // arrival, or nullopt when it would fall at or after the profile's end.
    std::optional<Nanos> next();
    std::uint64_t issued() const { return m_k; }
    // Takes back the last arrival that next() gave (it was not started).
    void unissue()
    {
        if (m_k)
            --m_k;
    }
    // From time `at` on, the rate is the profile's times `factor` (0 pauses:
    // next() then gives nothing until the factor is raised again).
    void rescale(double factor, Nanos at);

private:
    const StageProfile& m_profile;
    std::uint32_t m_part;
    std::uint32_t m_parts;
    std::uint64_t m_k = 0;     // arrivals this part has issued
    std::size_t m_segment = 0; // cursor: the segment that holds the next arrival
    double m_segmentBase = 0;  // cumulative count at the start of m_segment
    // Scaling: from the last rescale on, the scaled count at t is
    // m_scaledBase + m_factor * (cumulative(t) - m_profileBase).
    double m_profileBase = 0;
    double m_scaledBase = 0;
    double m_factor = 1;
};

} // namespace stampede
