#pragma once
// Capacity search: "how much can it take?". The open-model rate climbs in
// exponential steps from `start` (x`growth` a level, default 4) until a level
// breaks an SLO, then bisects (geometrically, never more than x2 past the
// last good rate) between the last good and the first bad rate until the bad
// one is at most (1 + precision) times the good one, holding each level for
// `stepSeconds`. The answer is the last good rate, so the true limit lies
// between it and 10 % above it (by default): from 100/s to a limit anywhere
// up to 100,000/s, in at most 10 levels.
//
// A level that broke leaves a queue behind on a target that queues (as real
// servers do) or in the engines' backlog: judged on it, every later level
// would break too. So after a level breaks the search settles: it offers half
// the last good rate until a second shows the backlog drained (iterations in
// flight and late arrivals back to the last good level's, and every SLO met
// on that second alone), at most settleSeconds(), and says so as an event. A
// level that broke while it was draining (more completed than it offered,
// with arrivals waiting) is not judged: the search settles and runs it again.
// Nor is a level that broke while the engines themselves sent late (a send
// lag p99 over kGeneratorLagMs with under 1 % of the arrivals waiting for a
// connection: a stalled or busy generator): it runs again at once. Either
// rule runs a level at most twice more; then it is judged as it is.
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
#include <utility>
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

// A send lag p99 above this, with connections free, is the generator's.
constexpr double kGeneratorLagMs = 10;

// The limits a user may give (docs/scenarios.md, "Capacity search").
constexpr double kCapacityMaxRate = 10000000;
constexpr std::uint32_t kCapacityMaxStepSeconds = 3600;
constexpr std::uint32_t kCapacityMinStepSeconds = 2;
constexpr double kCapacityMinGrowth = 1.25;
constexpr double kCapacityMaxGrowth = 10;

// The scenario a search runs: its steps in the open model at the start rate
// (scaled level by level), lasting as long as the most levels and their
// settling can, without thresholds (the SLOs judge each level; the answer is
// the verdict).
void shapeForCapacity(v1::Scenario& s, const CapacityOptions& o);
// The longest a search waits for the target to drain after a level broke:
// three levels' time, between 30 s and 5 minutes.
std::uint32_t settleSeconds(const CapacityOptions& o);

// What the search says of itself, in order: "capacity_level" (a level
// judged), "capacity_settle" (the target drained, or did not in time),
// "capacity_draining" (a level not judged: it was draining the backlog),
// "capacity_generator" (a level not judged: the engines, not the target, sent
// late; it runs again).
struct CapacityEvent
{
    std::string kind;
    std::string detail;
};

class CapacitySearch
{
public:
    // `stepNames`: the plan's, to judge SLOs scoped to a step; an iteration
    // sends a request of each step, so a level offers rate x steps requests.
    CapacitySearch(CapacityOptions options, std::vector<std::string> stepNames);
    // Why the options cannot run; empty when they can.
    static std::string invalid(const CapacityOptions& o);

    double rate() const { return m_rate; } // the rate offered now (a level's, or the settling one)
    bool done() const { return m_result.finished; }
    bool settling() const { return m_settling; }
    // A merged second of the run (in order) and the server metrics read in
    // it; the rate to offer from now when it changes (a level ended, the
    // search settles or has settled) and the search goes on, nothing
    // otherwise (also when it concluded: see done()).
    std::optional<double> onSecond(const IntervalMetrics& second, const std::map<std::string, double>& server = {});
    // What happened since the last call (levels judged, settling).
    std::vector<CapacityEvent> takeEvents() { return std::exchange(m_events, {}); }
    // The run ended before the search did: `why` is the note.
    void interrupted(const std::string& why);
    const CapacityResult& result() const { return m_result; }

private:
    // A level's merged seconds (or one settling second) against the SLOs.
    CapacityLevel judge(const IntervalMetrics& merged, std::uint32_t fromS, std::uint32_t toS,
                        const std::map<std::string, double>& server) const;
    std::optional<double> endLevel(const IntervalMetrics& last);
    std::optional<double> settle(const IntervalMetrics& second, const std::map<std::string, double>& server);
    std::optional<double> startSettling(double then);
    bool draining(const CapacityLevel& level) const;
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
    std::vector<CapacityEvent> m_events;
    // the backlog of the last good level: the peak of iterations in flight
    // and the late arrivals a second (what "drained" goes back to)
    std::uint32_t m_goodInFlight = 0;
    double m_goodLate = 0;
    double m_levelLate = 0; // late arrivals a second over the level just judged
    bool m_settling = false;
    std::uint32_t m_settleSeconds = 0;
    double m_then = 0;          // the rate after settling
    std::uint32_t m_reruns = 0; // of the current rate, because it was draining or the engines lagged
};

} // namespace stampede
