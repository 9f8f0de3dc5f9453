#pragma once
// A worker's WebSocket conversations, a connection per slot (wssession.h):
// a WebSocket step's request (Protocol::WebSocket) is its upgrade as rendered,
// sent with a fresh Sec-WebSocket-Key; once open, its messages go in order;
// the step is answered when the awaited messages have come (its answer the
// last of them: checks and extractions read it, status 101), or fails: the
// handshake refused (its status's class), the connection's faults, a close
// before the awaited messages (a protocol error naming the close), the step's
// timeout from the send (a timeout naming how many came). A connection is
// closed with 1000 once answered; its closing handshake ends on its own.
#include "outgoing.h"
#include "sessionlistener.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace stampede {

class EventLoop;

class WsConversations
{
public:
    WsConversations(std::uint32_t slots, EventLoop& loop, SessionListener& listener, char* readBuffer,
                    std::size_t readBufferSize, Nanos connectTimeout);
    ~WsConversations();
    // Starts `slot`'s conversation `o` (its request stays unchanged until answered); the bytes its upgrade and
    // messages take.
    std::size_t send(std::uint32_t slot, const Outgoing& o, Nanos now);
    void checkDeadlines(Nanos now);
    std::uint32_t openConnections() const;
    void close();

    // How long a connection's closing handshake may take once its step is answered.
    static constexpr Nanos kCloseTimeout = kNanosPerSecond;

private:
    class Conversation;
    std::vector<std::unique_ptr<Conversation>> m_slots;
    Nanos m_connectTimeout;
};

} // namespace stampede
