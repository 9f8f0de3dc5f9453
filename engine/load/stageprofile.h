#pragma once
// The planned level of a run over time: a rate (open model) or a number of
// virtual users (closed model), as a list of linear segments built from stages.
#include "core/clock.h"

#include <optional>
#include <string>
#include <vector>

namespace stampede {

struct StageSpec
{
    enum class Kind
    {
        Hold,
        Ramp,
        Step,
        Spike
    } kind = Kind::Hold;
    Nanos duration = 0;
    std::optional<double> target; // unset: keep the previous level
    unsigned steps = 5;           // for Step
};

class StageProfile
{
public:
    struct Segment
    {
        Nanos start;
        Nanos end;
        double from; // level at start
        double to;   // level just before end (linear in between)
    };

    // `initial` is the level before the first stage. With no stages the level
    // holds `initial` for `duration`. With stages, the profile is their
    // concatenation, cut or extended (holding the last level) to `duration`.
    static StageProfile build(double initial, const std::vector<StageSpec>& stages, Nanos duration);
    // The sum of the stages' durations.
    static Nanos stagesLength(const std::vector<StageSpec>& stages);

    const std::vector<Segment>& segments() const { return m_segments; }
    Nanos duration() const { return m_duration; }
    double levelAt(Nanos t) const;
    double peak() const;
    // The integral of the level over [0, t], in level-seconds (arrivals, for a rate).
    double cumulative(Nanos t) const;

private:
    std::vector<Segment> m_segments;
    Nanos m_duration = 0;
};

} // namespace stampede
