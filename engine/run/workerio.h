#pragma once
// What a worker does its input and output with: the client sessions it sends
// on, and the wait between its turns. In a run it is the worker's epoll loop
// and the sessions of the plan's protocol (LoopIo); a test gives a simulation
// that answers on a fake clock (tst_worker), so the worker's decisions are
// tested without sockets or sleeping.
#include "net/clientsessions.h"
#include "net/eventloop.h"
#include "plan/scenarioplan.h"

#include <memory>
#include <vector>

namespace stampede {

// How many slots a worker with `slots` connections (open model) or users
// (closed) keeps: with HTTP/2 in the open model every connection carries
// `streams` requests at once.
std::uint32_t slotCount(const ScenarioPlan& plan, std::uint32_t slots);
// The sessions a plan's worker of `slots` slots needs.
SessionsConfig sessionsConfig(const ScenarioPlan& plan, std::uint32_t slots);
// What a step's checks, extractors, cookies and redirects read of its answers.
CaptureMode captureFor(const PlannedStep& step);
// A step's request as it goes to the sessions (its rendered form set apart).
Outgoing outgoingOf(const PlannedStep& step);

class WorkerIo
{
public:
    virtual ~WorkerIo() = default;
    // The sessions for `slots` slots of `plan`, reporting to `listener`.
    virtual ClientSessionsPtr sessions(const ScenarioPlan& plan, std::uint32_t slots, SessionListener& listener) = 0;
    // Waits up to `timeout` nanoseconds for events; returns how many there are.
    virtual int wait(Nanos timeout) = 0;
    // Sleeps `timeout`, not woken by events, and returns those ready at its
    // end: the short wait while the sessions hold writes back (EventLoop::nap).
    virtual int nap(Nanos timeout) { return wait(timeout); }
    // Handles the `events` that wait() returned (the sessions report them to
    // their listener), `ready` being when they were known to have arrived.
    virtual void dispatch(int events, Nanos ready) = 0;
    // Ends a wait at once, from any thread (a rendezvous released).
    virtual void wake() {}
};
using WorkerIoPtr = std::unique_ptr<WorkerIo>;

// The worker's epoll loop and the sessions of the plan's protocol.
class LoopIo final : public WorkerIo
{
public:
    LoopIo();
    ~LoopIo() override;
    ClientSessionsPtr sessions(const ScenarioPlan& plan, std::uint32_t slots, SessionListener& listener) override;
    int wait(Nanos timeout) override { return m_loop.wait(timeout); }
    int nap(Nanos timeout) override { return m_loop.nap(timeout); }
    void dispatch(int events, Nanos ready) override;
    void wake() override;

private:
    static constexpr std::size_t kReadBufferSize = 64 * 1024;
    EventLoop m_loop;
    std::vector<char> m_readBuffer; // shared by the worker's connections
    class Waker;
    std::unique_ptr<Waker> m_waker; // an eventfd in the loop
};

} // namespace stampede
