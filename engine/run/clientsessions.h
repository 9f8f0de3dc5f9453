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
// - gRPC rides the HTTP/2 sessions: a step with a gRPC method is submitted as
//   a call and its outcome comes back through onGrpcResponse.
#include "core/clock.h"
#include "net/eventloop.h"
#include "net/sessionlistener.h"
#include "plan/scenarioplan.h"
#include "requestrenderer.h"

#include <memory>

namespace stampede {

class ClientSessions
{
public:
    virtual ~ClientSessions() = default;
    // Sends `request` (for `step`) on behalf of `slot`; `request` must stay
    // unchanged until the listener hears of its outcome.
    virtual void send(std::uint32_t slot, const PlannedStep& step, const RenderedRequest& request, Nanos now) = 0;
    // Fails requests (and connects) past their deadline, as timeouts.
    virtual void checkDeadlines(Nanos now) = 0;
    // Around a batch of events: requests sent while answers are handled are
    // written after the whole batch.
    virtual void beforeEvents() {}
    virtual void afterEvents(Nanos /*now*/) {}
    // The loop must wake by this time (the earlier of `limit` and the session's own).
    virtual Nanos wakeBy(Nanos limit) const { return limit; }
    virtual std::uint32_t openConnections() const = 0;
    virtual std::uint64_t goaways() const { return 0; }
    virtual void close() = 0;
};
using ClientSessionsPtr = std::unique_ptr<ClientSessions>;

// How many slots a worker with `slots` connections (open model) or users
// (closed) keeps: with HTTP/2 in the open model every connection carries
// `streams` requests at once.
std::uint32_t slotCount(const ScenarioPlan& plan, std::uint32_t slots);
// The sessions for the plan's protocol. `readBuffer` is the worker's, shared.
ClientSessionsPtr makeClientSessions(const ScenarioPlan& plan, std::uint32_t slots, EventLoop& loop,
                                     SessionListener& listener, char* readBuffer, std::size_t readBufferSize);

} // namespace stampede
