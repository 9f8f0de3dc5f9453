#pragma once
// A worker's Server-Sent Events streams, a connection per slot: an event
// stream step's request (Protocol::EventStream) is its GET as rendered; the
// answer must be 200 and text/event-stream (else its status's class, or a
// protocol error naming what came); its body (Content-Length, chunked or to
// the close) is read event by event (stream/sseparser.h, whose bounds make a
// stream that never ends a line a protocol error). The step is answered when
// the awaited events have come (its answer the last of them: checks and
// extractions read its data; the stream's headers are its headers), or fails:
// the stream ended first with no reconnect left (a protocol error naming how
// many came), the connection's faults, the step's timeout from the send. A
// stream that ends early is connected again (as many times as the step
// allows) after the retry it asked for, with Last-Event-ID. The connection is
// closed once the step is answered: a stream is never reused.
#include "outgoing.h"
#include "sessionlistener.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace stampede {

class EventLoop;
struct SseEvent;

class SseConversations
{
public:
    SseConversations(std::uint32_t slots, EventLoop& loop, SessionListener& listener, char* readBuffer,
                     std::size_t readBufferSize, Nanos connectTimeout);
    ~SseConversations();
    // Starts `slot`'s stream `o` (its request stays unchanged until answered); the bytes its request takes.
    std::size_t send(std::uint32_t slot, const Outgoing& o, Nanos now);
    void checkDeadlines(Nanos now);
    std::uint32_t openConnections() const;
    void close();
    // Every event `slot`'s streams read, as it comes (the builder's Send lists them): of any type.
    using EventObserver = std::function<void(const SseEvent& event, Nanos now)>;
    void observe(std::uint32_t slot, EventObserver observer);

    // The longest wait before a reconnect, whatever retry the stream asked for.
    static constexpr Nanos kMaxRetry = 60 * kNanosPerSecond;

private:
    class Stream;
    std::vector<std::unique_ptr<Stream>> m_slots;
    Nanos m_connectTimeout;
};

} // namespace stampede
