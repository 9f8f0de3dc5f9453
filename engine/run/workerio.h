#pragma once
// What a worker does its input and output with: the client sessions it sends
// on, and the wait between its turns. In a run it is the worker's epoll loop
// and the sessions of the plan's protocol (LoopIo); a test gives a simulation
// that answers on a fake clock (tst_worker), so the worker's decisions are
// tested without sockets or sleeping.
#include "clientsessions.h"
#include "net/eventloop.h"

#include <memory>
#include <vector>

namespace stampede {

class WorkerIo
{
public:
    virtual ~WorkerIo() = default;
    // The sessions for `slots` slots of `plan`, reporting to `listener`.
    virtual ClientSessionsPtr sessions(const ScenarioPlan& plan, std::uint32_t slots, SessionListener& listener) = 0;
    // Waits up to `timeout` nanoseconds for events; returns how many there are.
    virtual int wait(Nanos timeout) = 0;
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
    ClientSessionsPtr sessions(const ScenarioPlan& plan, std::uint32_t slots, SessionListener& listener) override
    {
        return makeClientSessions(plan, slots, m_loop, listener, m_readBuffer.data(), m_readBuffer.size());
    }
    int wait(Nanos timeout) override { return m_loop.wait(timeout); }
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
