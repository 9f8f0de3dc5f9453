#pragma once
// Capacity search: "how much can it take?". The open-model rate climbs in
// exponential steps from `start` (x`growth` a level, default 4) until a level
// breaks an SLO, then bisects (geometrically) between the last good and the
// first bad rate until the bad one is at most (1 + precision) times the good
// one, holding each level for `stepSeconds`. The answer is the last good rate,
// so the true limit lies between it and 10 % above it (by default): from 100/s
// to a limit anywhere up to 100,000/s, in at most 10 levels.
//
// Driven by the merged seconds of a run (RunService): the first second of a
// level is the change-over and is not judged; the others are merged exactly
// (histograms, not averages) and judged against the SLOs as thresholds are.
// The search itself has no clock: a test drives it with simulated seconds.
#include "core/threshold.h"
#include "metrics/runmetrics.h"
#include "report/capacity.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stampede {

namespace v1 {
class Scenario;
}

struct CapacityOptions
{
    double start = 100;             // the first level's rate
    double max = 100000;            // never above this
    std::uint32_t stepSeconds = 10; // each level lasts this long (the first second is not judged)
    double growth = 4;              // each level's rate before the first one that breaks an SLO: the last times this
    double precision = 0.1;         // the search ends when the first bad rate is within this of the last good one
    std::uint32_t maxLevels = 40;   // a search that has not concluded by then stops, saying so
    std::vector<Threshold> slos;
};

// The limits a user may give (README "Capacity search").
constexpr double kCapacityMaxRate = 10000000;
constexpr std::uint32_t kCapacityMaxStepSeconds = 3600;
constexpr std::uint32_t kCapacityMinStepSeconds = 2;
constexpr double kCapacityMinGrowth = 1.25;
constexpr double kCapacityMaxGrowth = 10;

// The scenario a search runs: its steps in the open model at the start rate
// (scaled level by level), lasting as long as the most levels can, without
// thresholds (the SLOs judge each level; the answer is the verdict).
void shapeForCapacity(v1::Scenario& s, const CapacityOptions& o);

class CapacitySearch
{
public:
    // `stepNames`: the plan's, to judge SLOs scoped to a step.
    CapacitySearch(CapacityOptions options, std::vector<std::string> stepNames);
    // Why the options cannot run; empty when they can.
    static std::string invalid(const CapacityOptions& o);

    double rate() const { return m_rate; } // the level running now
    bool done() const { return m_result.finished; }
    // A merged second of the run (in order) and the server metrics read in
    // it; the next level's rate when this second ended a level and the search
    // goes on, nothing otherwise (also when it concluded: see done()).
    std::optional<double> onSecond(const IntervalMetrics& second, const std::map<std::string, double>& server = {});
    // The run ended before the search did: `why` is the note.
    void interrupted(const std::string& why);
    const CapacityResult& result() const { return m_result; }

private:
    CapacityLevel judge(std::uint32_t fromS, std::uint32_t toS) const;
    std::optional<double> next(const CapacityLevel& level);
    void conclude(const std::string& note);

    CapacityOptions m_o;
    std::vector<std::string> m_steps;
    double m_rate = 0;
    double m_good = 0;                // the highest rate that passed
    double m_bad = 0;                 // the lowest rate that failed; 0: none yet
    std::uint32_t m_levelSeconds = 0; // seconds of the current level seen
    std::uint32_t m_firstJudged = 0;
    std::optional<IntervalMetrics> m_merged; // the current level's judged seconds
    std::map<std::string, std::pair<double, std::uint32_t>> m_server;
    CapacityResult m_result;
};

} // namespace stampede
