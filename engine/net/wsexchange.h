#pragma once
// One WebSocket conversation for the request builder's Send: blocking (call
// it off the GUI thread), on the load path's own WsSession (TCP or TLS, the
// fuzzed frame reader) on an event loop of its own: the upgrade as rendered
// (a fresh key added), the messages in order (or each after the reply to the
// one before), the awaited messages, then the closing handshake; every
// message both ways kept with its time, for a person to read.
#include "core/clock.h"
#include "endpoint.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stampede {

struct WsExchangeRequest
{
    const Endpoint* endpoint = nullptr;
    std::string upgrade; // the rendered upgrade request, without its Sec-WebSocket-Key
    std::vector<std::string> messages;
    std::vector<bool> binary; // per message
    std::vector<std::string> protocols;
    std::uint32_t receive = 0; // messages awaited before the close
    bool requestReply = false;
    bool deflate = false;                 // permessage-deflate offered (its header is in `upgrade`)
    Nanos timeout = 10 * kNanosPerSecond; // from the connect to the last awaited message
};

struct WsLogEntry
{
    Nanos at = 0;     // since the connect began
    bool out = false; // sent (else received)
    bool binary = false;
    std::string data; // the first kDataCap bytes
    std::uint64_t size = 0;
    static constexpr std::size_t kDataCap = 64 * 1024;
};

struct WsExchangeResult
{
    bool opened = false;  // the handshake passed
    std::string error;    // set: what went wrong (the handshake refused, a fault, the timeout)
    std::string protocol; // the subprotocol the server chose
    bool deflate = false; // permessage-deflate agreed
    std::vector<WsLogEntry> log;
    std::uint32_t received = 0;
    std::uint16_t closeCode = 0; // the server's close (1006: none came)
    std::string closeReason;
    Nanos connectTime = 0, openTime = 0, totalTime = 0; // since the connect began
    static constexpr std::size_t kLogCap = 10000;       // messages kept (the rest counted)
};

WsExchangeResult wsExchange(const WsExchangeRequest& request);

} // namespace stampede
