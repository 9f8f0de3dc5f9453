#pragma once
// The mock's stream endpoints (a rule's `websocket` or `events`): what a rule
// asks for, compiled, and one connection of each, as the server's loop drives
// it (bytes in, bytes out, a timer's turn). A WebSocket connection reads the
// client's frames with WsReader (masked, as a client must send them; 1 MiB a
// message), echoes, pushes, answers pings, echoes a close, and closes with
// the fault's code on a protocol error. An event stream writes its events one
// per turn and ends after its count.
#include "core/clock.h"
#include "stream/wsframes.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace stampede::v1 {
class MockRule;
}

namespace stampede {

struct MockStreamRule
{
    bool websocket = false; // else an event stream
    bool echo = true;
    std::string text; // a push's or an event's data (${n}: its number)
    std::string event;
    std::uint32_t count = 0;       // pushes or events (0: no end)
    Nanos every = kNanosPerSecond; // between pushes or events
    std::uint32_t closeAfter = 0;  // WebSocket: the server's messages before it closes (0: never)
    std::uint32_t retryMs = 0;     // events: sent first when set
    std::string subprotocol;
};

// The rule's stream, if it asks for one (null when not); false with `error` naming the field.
bool compileMockStream(const v1::MockRule& r, const std::string& field, std::shared_ptr<const MockStreamRule>& out,
                       std::string& error);

// The answer to a WebSocket upgrade: 101 with the accept for `key` (and the subprotocol when offered), or an
// error answer (400 when it is no upgrade); `ok` tells which.
std::string mockWsUpgradeAnswer(const MockStreamRule& rule, std::string_view upgrade, std::string_view key,
                                std::string_view version, std::string_view offered, bool& ok);

class MockWsConnection
{
public:
    explicit MockWsConnection(const MockStreamRule& rule);
    // The client's bytes: the answers (echoes, pongs, a close) appended to `out`; false: close once it is out.
    bool feed(std::string_view bytes, std::string& out);
    // A push's turn: appended to `out`; false: no more pushes (`closing()` says whether to close).
    bool push(std::string& out);
    bool closing() const { return m_closing; }

private:
    // One server message out; closes after the rule's count.
    void send(WsOpcode op, std::string_view data, std::string& out);

    const MockStreamRule& m_rule;
    WsReader m_reader;
    std::uint32_t m_sent = 0, m_pushed = 0;
    bool m_closing = false;
};

class MockEventStream
{
public:
    // `lastEventId`: the request's Last-Event-ID ("" none): the ids go on after it.
    MockEventStream(const MockStreamRule& rule, std::string_view lastEventId);
    // The answer's head and the retry field.
    std::string start() const;
    // The next event appended to `out`; false when the stream has ended (close once it is out).
    bool next(std::string& out);

private:
    const MockStreamRule& m_rule;
    std::uint64_t m_next = 1;
    std::uint32_t m_sent = 0;
};

} // namespace stampede
