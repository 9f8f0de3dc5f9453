#pragma once
// One engine as the controller speaks to it: the control protocol's calls,
// each with its own deadline. The product's link speaks gRPC to an agent
// (local or remote, the same code); tests script one to drive the controller
// through losses and slow sinks without real agents.
//
// Threads: watch() blocks a reader thread of its own until the stream ends
// (its callback may run on another thread meanwhile, one call at a time);
// cancelWatch() may be called from any thread and also makes a later watch()
// return at once; the other calls may run on other threads while watch() blocks.
#include "core/clock.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace stampede::v1 {
class HelloReply;
class StartRunRequest;
class Snapshot;
} // namespace stampede::v1

namespace stampede {

class SharedStore;

class AgentLink
{
public:
    virtual ~AgentLink() = default;
    virtual const std::string& address() const = 0;
    // Each returns false with a message (without the agent's name) on failure.
    virtual bool hello(const std::string& controller, Nanos timeout, v1::HelloReply& reply, std::string& error) = 0;
    virtual bool startRun(const v1::StartRunRequest& request, Nanos timeout, std::string& error) = 0;
    virtual bool stop(const std::string& runId, std::string& error) = 0;
    virtual bool adjust(const std::string& runId, double factor, std::string& error) = 0;
    // From the next second on, the agent also runs engine `share`'s share of the run.
    virtual bool adopt(const std::string& runId, std::uint32_t share, std::string& error)
    {
        (void)runId, (void)share;
        error = "this link cannot hand over a share";
        return false;
    }
    // The agent stops running `share` from the start of second `fromSecond`
    // (or a later one it can still keep); `applied` says which.
    virtual bool handOver(const std::string& runId, std::uint32_t share, std::uint32_t fromSecond,
                          std::uint32_t& applied, std::string& error)
    {
        (void)runId, (void)share, (void)fromSecond, (void)applied;
        error = "this link cannot hand over a share";
        return false;
    }
    // Every user waiting at rendezvous `point` goes.
    virtual bool release(const std::string& runId, std::uint32_t point, bool byTimeout, std::string& error)
    {
        (void)runId, (void)point, (void)byTimeout;
        error = "this link cannot release a rendezvous";
        return false;
    }
    // True when the agent answered (it lives, whatever its run's state).
    virtual bool heartbeat(const std::string& runId) = 0;
    // heartbeat() without waiting: `done` gets its answer, on any thread,
    // before the link is destroyed. By default asked at once, on this thread.
    virtual void heartbeatAsync(const std::string& runId, std::function<void(bool)> done) { done(heartbeat(runId)); }
    // True when something still accepts connections at the agent's address:
    // a frozen agent's does, a dead one's refuses (it can no longer send load).
    virtual bool reachable() = 0;
    // Reads the run's snapshots after `afterSequence`, in order, until the
    // stream ends (the run's final snapshot, a broken connection) or cancelWatch().
    using SnapshotCallback = std::function<void(const v1::Snapshot&)>;
    virtual void watch(const std::string& runId, std::uint64_t afterSequence, const SnapshotCallback& onSnapshot) = 0;
    virtual void cancelWatch() = 0;
    // The run's shared data served to the agent (its Shared stream: the run named, each of its asks answered
    // from `store`, in order) until the stream ends or cancelWatch(). False when opening it again would not help
    // (the agent's run uses no shared data, or it has no such run); a link that cannot serve returns false at once.
    virtual bool serveShared(const std::string& runId, SharedStore& store)
    {
        (void)runId, (void)store;
        return false;
    }
};
using AgentLinkPtr = std::unique_ptr<AgentLink>;

// `token` set: sent as `authorization: Bearer TOKEN`; `caFile` set: TLS, the
// agent verified against that CA, its certificate for `tlsName` when set (a
// Kubernetes Service's name, when the address is one of its pods'), else for
// the address's host.
AgentLinkPtr makeGrpcAgentLink(const std::string& address, const std::string& token, const std::string& caFile,
                               const std::string& tlsName = {});

} // namespace stampede
