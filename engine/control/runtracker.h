#pragma once
// The controller's bookkeeping of one run, on the run's own thread, with time
// from the injected clock: when each agent was last heard from (a lost agent
// is one silent past the loss timeout), which seconds each has delivered, and
// the exact merge of a second once every engine still in the run delivered it.
// No I/O and no threads: the controller feeds it what the agents said and
// carries out what it decides, so loss, abort and late data are tested with a
// fake clock (tests/engine/tst_runtracker.cpp).
#include "core/clock.h"
#include "metrics/runmetrics.h"
#include "run/runengine.h"

#include <map>
#include <string>
#include <vector>

namespace stampede::v1 {
class Snapshot;
}

namespace stampede {

// One second of the run: merged over the engines, and each engine's own part.
struct MergedSecond
{
    IntervalMetricsPtr merged;
    std::vector<std::pair<std::size_t, IntervalMetricsPtr>> parts; // (agent index, its part), in arrival order
};

class RunTracker
{
public:
    struct Policy
    {
        Nanos lossTimeout = 3 * kNanosPerSecond;
        bool abortOnLoss = true;
        // An agent that answers heartbeats but has sent no snapshot for this
        // long (an engine publishes one every second; its stream's writes
        // fail) is lost too: a run always ends, whatever an engine cannot send.
        Nanos snapshotStall = 15 * kNanosPerSecond;
    };

    // The run starts at clock.now(): every agent counts as heard then.
    RunTracker(std::vector<std::string> agentNames, std::size_t stepCount, const Clock& clock, Policy policy);

    // An agent that joins the running run (--elastic): its seconds are
    // merged from `fromSecond` on (those before are complete without it);
    // it counts as heard now. Returns its index.
    std::size_t addAgent(std::string name, std::uint32_t fromSecond);
    // Any word from `agent` (a heartbeat answered, a snapshot) heard at `at`.
    void heard(std::size_t agent, Nanos at);
    // `agent`'s stream broke and its port refuses: its process is gone, and
    // the next checkHealth() declares it lost without waiting for the timeout.
    void gone(std::size_t agent) { m_agents[agent].gone = true; }
    // A snapshot from `agent`, in sequence order, heard at `at`. A lost
    // agent's late data is not counted in the results; the requests it
    // reports after the loss (of any second: those it had not delivered were
    // merged without it) are counted apart (sentAfterLoss).
    void snapshot(std::size_t agent, const v1::Snapshot& s, Nanos at);
    // Declares the agents silent past the loss timeout lost (each once, with
    // an event naming the seconds its data covers); returns them. With the
    // abort policy the first loss aborts the run. An engine whose final
    // snapshot says it failed aborts the run whatever the policy.
    std::vector<std::size_t> checkHealth();
    // The seconds every engine still in the run has delivered, merged, in
    // order; with `all`, every second still pending (at the end of the run).
    std::vector<MergedSecond> takeReady(bool all);

    bool ended() const; // every agent finished or lost
    // A lost agent that said its run ended (its final snapshot came after all).
    bool settled(std::size_t agent) const { return m_agents[agent].endedAfterLoss; }
    Nanos lostAt(std::size_t agent) const { return m_agents[agent].lostAt; }
    // Requests lost agents reported only after they were declared lost
    // (their late snapshots, whatever seconds those cover; never part of the
    // results): with the results, every request the engines sent.
    std::uint64_t sentAfterLoss() const;
    // Adds an event for each lost agent that went on sending; once, at the end.
    void reportLateLoad();
    bool aborted() const { return m_aborted; }
    // Aborts the run (once), saying why.
    void abort(const std::string& agent, const std::string& why)
    {
        if (m_aborted)
            return;
        m_aborted = true;
        addEvent("run_aborted", agent, why);
    }
    // An engine ended because a step's error stops the run (onError: stopRun): the others must too.
    bool stepStopped() const { return m_stepStopped; }
    // What the first engine's first user extracted (its final snapshot).
    const std::map<std::string, std::string>& values() const { return m_values; }
    bool lost(std::size_t agent) const { return m_agents[agent].lost; }
    bool finished(std::size_t agent) const { return m_agents[agent].done; }
    void addEvent(const std::string& kind, const std::string& agent, const std::string& detail);
    const std::vector<RunEvent>& events() const { return m_events; }
    double secondsSinceStart() const;
    Nanos elapsed() const { return m_clock.now() - m_start; }

private:
    struct Agent
    {
        std::string name;
        Nanos lastHeard = 0;
        Nanos lastSnapshot = 0; // the start, until its first
        std::uint32_t firstSecond = 0;
        std::uint32_t lastSecond = 0; // highest second delivered
        bool done = false;            // final snapshot seen
        bool lost = false;
        bool gone = false;
        Nanos lostAt = 0;
        bool endedAfterLoss = false;
        std::uint64_t sentAfterLoss = 0;
    };
    void lateSnapshot(Agent& a, const v1::Snapshot& s);

    std::vector<Agent> m_agents;
    std::size_t m_stepCount;
    const Clock& m_clock;
    Policy m_policy;
    Nanos m_start;
    bool m_aborted = false;
    bool m_stepStopped = false;
    std::map<std::string, std::string> m_values;
    std::vector<RunEvent> m_events;
    std::map<std::uint32_t, std::vector<std::pair<std::size_t, IntervalMetricsPtr>>> m_pending;
};

} // namespace stampede
