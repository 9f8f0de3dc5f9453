#pragma once
// A worker's input and output simulated on a fake clock: every request the
// worker sends is recorded and answered by a script after the delay the
// script gives, and the worker's waits move the clock to the next thing due.
// No socket, no sleep: a minute of a run takes milliseconds, every time the same.
#include "core/clock.h"
#include "run/worker.h"
#include "run/workerio.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace stampede::sim {

// One request as the worker sent it.
struct Sent
{
    std::uint32_t slot = 0;
    std::size_t step = 0;
    Nanos at = 0;
    std::string wire; // HTTP/1.1: the whole request
    std::string body; // HTTP/2 (a gRPC call's: the framed message)
};

// What the target does with it.
struct Reply
{
    Nanos delay = kNanosPerMilli;
    int status = 200;
    std::string body;
    SessionListener::HeaderList headers;
    // A gRPC call's answer (the request went as one): its grpc-status and grpc-message, judged by the gRPC
    // session's rules (net/grpcanswer.h); `body` the framed message.
    int grpcStatus = 0;
    std::string grpcMessage;
    bool fail = false;       // a transport failure instead of an answer
    bool failInSend = false; // at once, inside the send (a connection refused at connect)
    ErrorClass failure = ErrorClass::Reset;
};

class SimulatedIo final : public WorkerIo
{
public:
    using Script = std::function<Reply(const Sent&)>;
    SimulatedIo(FakeClock& clock, Script script) : m_clock(clock), m_script(std::move(script)) {}

    ClientSessionsPtr sessions(const ScenarioPlan& plan, std::uint32_t slots, SessionListener& listener) override;
    int wait(Nanos timeout) override;
    // Sleeps the whole `timeout`: answers due meanwhile do not end it.
    int nap(Nanos timeout) override;
    void dispatch(int events, Nanos ready) override;
    // The sessions hold writes back while the clock is in [from, until):
    // they ask the worker to wake by `until` (ClientSessions::wakeBy).
    void holdWrites(Nanos from, Nanos until)
    {
        m_holdFrom = from;
        m_holdUntil = until;
    }
    struct Nap
    {
        Nanos at = 0, length = 0;
    };
    const std::vector<Nap>& naps() const { return m_naps; }

    const std::vector<Sent>& sent() const { return m_sent; }
    // Times the worker waited: its wake-ups.
    std::uint64_t wakeUps() const { return m_wakeUps; }

private:
    friend class ScriptedSessions;
    struct Pending
    {
        Sent sent;
        Reply answer;
        Nanos deadline = 0;
        bool captured = false; // the step reads the answer: onCaptured first
        bool call = false;     // sent as a gRPC call
    };
    std::size_t send(std::uint32_t slot, const Outgoing& o, Nanos now);
    void deliver(const Pending& p, Nanos now, bool timedOut);

    FakeClock& m_clock;
    Script m_script;
    const ScenarioPlan* m_plan = nullptr;
    SessionListener* m_listener = nullptr;
    std::multimap<Nanos, Pending> m_pending; // by when the answer arrives
    std::vector<Sent> m_sent;
    std::uint64_t m_wakeUps = 0;
    Nanos m_holdFrom = 0, m_holdUntil = 0;
    std::vector<Nap> m_naps;
    const SessionListener::HeaderList m_noTrailers;
};

// Runs one worker (the run's only part) over the whole plan from `start`.
// `joinAt` and `releaseAt`: a share taken over from then on, and one handed
// over from its set time (WorkerSetup's).
void runWorker(const ScenarioPlan& plan, SimulatedIo& io, const Clock& clock, Nanos start, SecondSink& sink,
               const std::atomic<bool>& stop, RendezvousBoard* rendezvous = nullptr, Nanos joinAt = 0,
               const std::atomic<Nanos>* releaseAt = nullptr);

} // namespace stampede::sim
