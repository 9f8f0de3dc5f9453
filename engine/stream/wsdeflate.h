#pragma once
// permessage-deflate (RFC 7692) for a WebSocket client: the extension offered
// and the server's answer to it read, and messages compressed and expanded.
// The client offers it plainly (no parameter); the server may answer with
// server_no_context_takeover, client_no_context_takeover and
// server_max_window_bits (8 to 15), each once, and nothing else (a
// client_max_window_bits that was not offered fails the handshake). The
// client compresses each message on its own (no context kept: allowed
// whatever the server said) with a 15-bit window; it expands with a 15-bit
// window and keeps the server's context between messages (right whether or
// not the server keeps it). What a message expands to is bounded: a deflate
// bomb stops at the bound.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace stampede {

// The Sec-WebSocket-Extensions value a client offers.
inline constexpr std::string_view kWsDeflateOffer = "permessage-deflate";

// The server's Sec-WebSocket-Extensions answer to that offer: "" when it agreed to permessage-deflate (`agreed`
// true) or named nothing (false), else why the answer cannot be taken.
std::string wsDeflateAnswer(std::string_view value, bool& agreed);

class WsDeflate
{
public:
    WsDeflate();
    ~WsDeflate();
    WsDeflate(const WsDeflate&) = delete;
    WsDeflate& operator=(const WsDeflate&) = delete;

    // `payload` compressed as one message into `out` (cleared first).
    void compress(std::string_view payload, std::string& out);
    // A compressed message's payload expanded into `out` (cleared first), at most `limit` bytes: 0 when it
    // expanded, 1009 when it would pass the limit, 1007 when it is no deflate data (`why` says).
    int expand(std::string_view payload, std::string& out, std::size_t limit, std::string& why);

private:
    struct Streams;
    std::unique_ptr<Streams> m_z;
};

} // namespace stampede
