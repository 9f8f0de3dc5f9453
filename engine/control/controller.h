#pragma once
// The controller: drives n engines (agents) through one run. It splits the
// scenario (each engine runs share i of n: rate, CSV slice, increment stride,
// users), starts them together, merges their per-second snapshots exactly as
// each second completes on every engine, watches their health (a lost agent is
// detected within the loss timeout and recorded with the seconds it covered),
// and continues or aborts by the run's policy. Local and remote engines go
// through this one path.
#include "core/clock.h"
#include "run/runengine.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace stampede::v1 {
class Bundle;
}

namespace stampede {

struct ControllerOptions
{
    std::string name = "stampede-cli";
    std::string token;
    std::string caFile; // set: connect with TLS, verifying the agents against this CA
    bool abortOnAgentLoss = true;
    Nanos lossTimeout = 3 * kNanosPerSecond;
    unsigned deadManSeconds = 15;
    Nanos startTimeout = 10 * kNanosPerSecond;
};

class Controller
{
public:
    Controller(std::vector<std::string> agentAddresses, ControllerOptions options);
    ~Controller();

    // Says hello to every agent: reachable, same protocol version, not busy.
    // Returns false with a message naming the agent.
    bool connect(std::string& error);
    const std::vector<std::string>& agentNames() const;

    // Runs `bundle` as run `runId` on every agent. `stepCount` sizes the
    // merged metrics. Calls `onSecond` on this thread as seconds complete.
    // Events (agents lost, errors, abort) are in the result.
    RunResult run(const v1::Bundle& bundle, const std::string& runId, std::size_t stepCount,
                  const RunEngine::SecondCallback& onSecond);
    // Thread-safe, during run(): scales the planned level (rate or users) on
    // every engine from now on. Returns false with a message naming the agent.
    bool adjust(double factor, std::string& error);
    // Called on run()'s thread with each agent's own part of a second, just
    // before the merged second goes to run()'s callback. Set before run().
    using AgentSecondCallback = std::function<void(std::size_t agent, const IntervalMetrics& part)>;
    void setAgentSecondCallback(AgentSecondCallback cb) { m_onAgentSecond = std::move(cb); }
    // Thread-safe: stops every agent; run() returns soon after.
    void stop() { m_stopRequested.store(true); }

private:
    class Impl;
    std::unique_ptr<Impl> m_impl;
    std::atomic<bool> m_stopRequested{false};
    AgentSecondCallback m_onAgentSecond;
};

} // namespace stampede
