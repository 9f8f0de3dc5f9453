#pragma once
// A closed loop of HTTP/2 requests on one connection, driven as a worker
// drives its sessions (tst_http2batching): every answer to a fast slot sends
// its request again at once; the slow slot's request is sent once.
#include "net/clientsessions.h"
#include "net/endpoint.h"

#include <string>
#include <vector>

class Http2Loop final : public stampede::SessionListener
{
public:
    using Nanos = stampede::Nanos;
    Http2Loop(std::uint16_t port, std::uint32_t streams, std::uint32_t slowSlot);
    void send(std::uint32_t slot, Nanos now);
    // Sends every slot's request; returns when.
    Nanos sendAll();
    // The first failed answer's reason ("" when none failed).
    const char* firstFailure() const { return failures.empty() ? "" : failures.front().c_str(); }
    // Runs the loop until `until` (monotonic) or until `done()`.
    template <typename Done> void run(Nanos until, Done done)
    {
        for (Nanos now = stampede::SteadyClock::monotonicNow(); now < until && !done();
             now = stampede::SteadyClock::monotonicNow())
            turn(now, until);
    }
    void onAnswer(std::uint32_t tag, const stampede::Answer& a, Nanos now) override;

    std::uint64_t fastAnswers = 0;
    Nanos slowAnswered = 0;
    bool resend = true;
    std::vector<std::string> failures;

private:
    void turn(Nanos now, Nanos until);
    stampede::RenderedRequest rendered(const char* path) const;

    std::uint32_t m_streams;
    std::uint32_t m_slowSlot;
    std::string m_authority;
    stampede::Endpoint m_endpoint;
    stampede::RenderedRequest m_fast, m_slow;
    stampede::EventLoop m_loop;
    std::vector<char> m_buffer = std::vector<char>(64 * 1024);
    stampede::ClientSessionsPtr m_sessions;
};
