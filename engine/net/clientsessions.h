#pragma once
// A worker's connections for one protocol, behind one interface, so that the
// worker's loop never asks which protocol it speaks (a new protocol is a new
// implementation here). A request is sent for a slot (a user, or an
// iteration's place in the open model); its outcome comes back to the
// SessionListener with the slot as the tag.
//
// - HTTP/1.1: a connection per slot, one request at a time; the requests
//   started while a batch of answers is handled are written after it.
// - HTTP/2: per server the steps go to, ceil(slots / streams) connections;
//   slot k uses connection k / streams of the step's server. Requests started
//   while answers are read are written after the event batch (afterEvents()).
// - gRPC rides the HTTP/2 sessions: a request sent as a call has its
//   grpc-status in its answer.
// The sessions own the encoding: a request goes as rendered, or with the
// Outgoing's cookie and redirect hop applied (outgoing.h), kept per slot
// until its answer.
#include "core/clock.h"
#include "eventloop.h"
#include "outgoing.h"
#include "sessionlistener.h"

#include <memory>

namespace stampede {

class ClientSessions
{
public:
    virtual ~ClientSessions() = default;
    // Sends `o` on behalf of `slot`; its rendered request must stay unchanged
    // until the listener hears of its outcome. Returns the bytes it sends.
    virtual std::size_t send(std::uint32_t slot, const Outgoing& o, Nanos now) = 0;
    // Fails requests (and connects) past their deadline, as timeouts.
    virtual void checkDeadlines(Nanos now) = 0;
    // Around a batch of events: requests sent while answers are handled are
    // written after the whole batch.
    virtual void beforeEvents() {}
    virtual void afterEvents(Nanos /*now*/) {}
    // The loop must wake by this time (the earlier of `limit` and the session's own).
    // Earlier than `limit`: writes are held back (HTTP/2) for answers due any
    // moment, and the worker naps (EventLoop::nap) rather than waits, for at
    // least kHeldNap: the answers of 20 us are read and answered together.
    // Against nginx over TLS, HTTP/2 10 x 10: 1.2x the requests per CPU-second
    // of a nap up to the hold's end only (often a few microseconds), 1.09x of
    // a nap of 10 us (A/B, 3 pairs each).
    virtual Nanos wakeBy(Nanos limit) const { return limit; }
    // Streaming calls' paced messages: when the next is due (GrpcStreamCall::kNever: none), and sending those due.
    virtual Nanos dueAt() const { return GrpcStreamCall::kNever; }
    virtual void onDue(Nanos now) { (void)now; }
    static constexpr Nanos kHeldNap = 20 * kNanosPerMicro;
    virtual std::uint32_t openConnections() const = 0;
    // The most connections these sessions hold open at once.
    virtual std::uint32_t maxConnections() const { return 0; }
    virtual std::uint64_t goaways() const { return 0; }
    virtual void close() = 0;
};
using ClientSessionsPtr = std::unique_ptr<ClientSessions>;

struct SessionsConfig
{
    bool http2 = false;
    std::uint32_t slots = 1;   // the tags requests are sent with: 0 .. slots-1
    std::uint32_t streams = 1; // HTTP/2: requests at once per connection
    std::uint32_t servers = 1; // HTTP/2: the servers requests go to (Outgoing::server)
    Nanos connectTimeout = 10 * kNanosPerSecond;
    bool websocket = false;    // HTTP/1.1: some requests are WebSocket conversations (wssessions.h)
    bool eventStream = false;  // HTTP/1.1: some requests are event streams read event by event (ssesessions.h)
    bool pacedStreams = false; // HTTP/2: some gRPC streaming calls send their messages paced (grpcstream.h)
};
// The sessions of the protocol. `readBuffer` is the worker's, shared.
ClientSessionsPtr makeClientSessions(const SessionsConfig& config, EventLoop& loop, SessionListener& listener,
                                     char* readBuffer, std::size_t readBufferSize);

} // namespace stampede
