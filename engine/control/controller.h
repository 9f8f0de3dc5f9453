#pragma once
// The controller: drives n engines (agents) through one run. It splits the
// scenario (each engine runs share i of n: rate, CSV slice, increment stride,
// users), starts them together, merges their per-second snapshots exactly as
// each second completes on every engine, watches their health (a lost agent is
// detected within the loss timeout and recorded with the seconds it covered),
// and continues or aborts by the run's policy. Local and remote engines go
// through this one path.
//
// Threads: run() blocks its caller (the run's thread) and calls the callbacks
// there, never holding a lock, so a slow callback (an SQLite transaction)
// delays only the merge, never the health of the agents: one reader thread per
// agent and one heartbeat thread stamp what they hear with the clock as it
// arrives. Decisions (loss, abort) are made by RunTracker on the run's thread
// with the injected clock.
#include "agentlink.h"
#include "core/clock.h"
#include "flow/rendezvous.h"
#include "run/runengine.h"
#include "runcontrol.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace stampede::v1 {
class Bundle;
}

namespace stampede {

class SharedStore;

// What a run does when an agent is lost: end (abort), go on without its
// share (continue), or give its share to the survivors from the next second
// (rebalance: the delivered load stays as planned). Default: rebalance for
// paced (open, replay) plans, abort for the others (RunService decides).
enum class AgentLossPolicy
{
    Default,
    Abort,
    Continue,
    Rebalance,
};

struct ControllerOptions
{
    std::string name = "stampede-cli";
    std::string token;
    std::string caFile;  // set: connect with TLS, verifying the agents against this CA
    std::string tlsName; // set: the name the agents' certificates are checked for (else each address's host)
    AgentLossPolicy onAgentLoss = AgentLossPolicy::Default; // Default here: abort
    Nanos lossTimeout = 3 * kNanosPerSecond;
    // An agent that answers heartbeats but sends no snapshot this long is
    // lost (RunTracker::Policy::snapshotStall); 0: never.
    Nanos snapshotStall = 15 * kNanosPerSecond;
    unsigned deadManSeconds = 3; // agents stop by themselves when this controller is silent so long
    Nanos startTimeout = 10 * kNanosPerSecond;
    Nanos heartbeatInterval = 500 * kNanosPerMilli;
    ClockPtr clock;                      // null: the steady clock
    std::shared_ptr<RunControl> control; // live control; null: the controller makes its own
    // The run split into this many shares (0: one per agent; at most
    // kMaxShares): each agent runs an even part of them from the start, and
    // an agent that joins takes shares from those that run the most.
    std::uint32_t shares = 0;
    // Set (--elastic): the agents' addresses now (names looked up again),
    // asked every `discoverEvery` on the run's clock; an agent not yet in the
    // run that answers joins it and takes shares from the next second.
    std::function<std::vector<std::string>()> discover;
    Nanos discoverEvery = 10 * kNanosPerSecond;
    // How to reach an agent found mid-run (null: gRPC with the token and CA above).
    std::function<AgentLinkPtr(const std::string& address)> linkFor;
    // Set: the run uses shared data (core/shareddata.h), held here: each agent's Shared stream is served from it
    // (one store for a run's setup, load and teardown).
    std::shared_ptr<SharedStore> shared;
};

class Controller
{
public:
    // Agents at these addresses, over gRPC.
    Controller(std::vector<std::string> agentAddresses, ControllerOptions options);
    // Agents through these links (tests script them).
    Controller(std::vector<AgentLinkPtr> links, ControllerOptions options);
    ~Controller();

    // Says hello to every agent: reachable, same protocol version, not busy.
    // Returns false with a message naming the agent.
    bool connect(std::string& error);
    const std::vector<std::string>& agentNames() const;

    // Called on run()'s thread, never under a lock.
    struct Callbacks
    {
        // Each merged second, in order, as it completes on every engine.
        RunEngine::SecondCallback onSecond;
        // Each agent's own part of a second, just before the merged second.
        std::function<void(std::size_t agent, const IntervalMetrics& part)> onAgentSecond;
        // Each event (agent lost, agent error, run aborted) as it happens.
        std::function<void(const RunEvent&)> onEvent;
    };
    // Runs `bundle` as run `runId` on every agent. `stepCount` sizes the
    // merged metrics. Every event is also in the result.
    RunResult run(const v1::Bundle& bundle, const std::string& runId, std::size_t stepCount,
                  const Callbacks& callbacks);

    // The run's rendezvous points, by the run's step (users 0: none): the
    // controller releases them when enough users arrived over every engine.
    void setRendezvous(std::vector<RendezvousRule::Point> points) { m_rendezvous = std::move(points); }
    // Applied to each merged second before anything reads it (the run's own
    // bookkeeping of it: NamedTests).
    void setSecondHook(std::function<void(IntervalMetrics&)> hook) { m_secondHook = std::move(hook); }
    // Live control, from any thread, before or during run(); it outlives the controller.
    std::shared_ptr<RunControl> control() const { return m_control; }
    // Thread-safe: stops every agent; run() returns soon after.
    void stop() { m_control->stop(); }
    // During run(), from another thread: scales the planned level (rate or
    // users) on every engine and waits until it is applied. Returns false with
    // a message naming the agent.
    bool adjust(double factor, std::string& error);

private:
    class Impl;
    std::unique_ptr<Impl> m_impl;
    std::vector<RendezvousRule::Point> m_rendezvous;
    std::function<void(IntervalMetrics&)> m_secondHook;
    std::shared_ptr<RunControl> m_control;
};

} // namespace stampede
