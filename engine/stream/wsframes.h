#pragma once
// WebSocket framing (RFC 6455, section 5), a client's side: frames written
// masked with a key per frame (the caller's random source), and the server's
// frames read as the bytes come, a message at a time. The server's side too
// (the mock's): frames written unmasked (no key), a client's frames read,
// which must be masked. The peer is not trusted; each fault is a protocol
// error with the close code the RFC names for it, and nothing more is read:
// - 1002: reserved bits set (RSV1 only on a message's first frame, and only
//   once permessage-deflate was agreed: wsdeflate.h), a reserved opcode, a masked
//   frame, a length not in its shortest form or with its top bit set, a
//   control frame over 125 bytes or fragmented, a continuation with no
//   message begun, a new message before the last one ended, a close of one
//   byte or with a code no endpoint may send (read as a server: an unmasked
//   frame);
// - 1007: a text message or a close reason that is not UTF-8, a compressed
//   message that does not expand;
// - 1009: a message over the bound (what is held never passes it; a compressed
//   one's expansion neither).
#include "wsdeflate.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace stampede {

enum class WsOpcode : std::uint8_t
{
    Continuation = 0x0,
    Text = 0x1,
    Binary = 0x2,
    Close = 0x8,
    Ping = 0x9,
    Pong = 0xA
};

// One frame of `payload` into `out`: FIN as given, masked with `mask` (a client's), or unmasked when it is null
// (a server's); `compressed`: RSV1 set (a message's first frame, compressed by permessage-deflate).
void appendWsFrame(std::string& out, WsOpcode op, std::string_view payload, const std::uint8_t mask[4], bool fin = true,
                   bool compressed = false);
// A close frame's payload: the code (none for 0) and at most 123 bytes of reason, cut before a character.
std::string wsClosePayload(std::uint16_t code, std::string_view reason);
// Whether an endpoint may send `code` in a close frame (RFC 6455 7.4; 1005, 1006 and 1015 only name states).
bool wsCloseCodeAllowed(std::uint16_t code);

class WsReader
{
public:
    struct Limits
    {
        std::size_t message = 16 * 1024 * 1024; // the most one message (all its frames) may hold
        bool fromClient = false;                // read as a server: every frame masked, and unmasked here
    };
    struct Events
    {
        // A whole message (its frames joined); false: read no further (the step has what it waited for).
        std::function<bool(WsOpcode type, std::string_view data)> message;
        std::function<void(std::string_view payload)> ping; // answer it with a pong of the same payload
        std::function<void(std::string_view payload)> pong;
    };
    WsReader() = default;
    explicit WsReader(Limits limits) : m_limits(limits) {}
    // permessage-deflate was agreed: a message whose first frame has RSV1 set is expanded (wsdeflate.h).
    void inflateMessages() { m_deflate = std::make_unique<WsDeflate>(); }

    enum class Result
    {
        More,    // all of it read
        Stopped, // a message handler asked to stop; what came after it is kept for the next feed
        Closed,  // the server's close frame came (closeCode(), closeReason()); nothing after it is read
        Fault    // a protocol error: faultCode() (1002, 1007, 1009) and error()
    };
    Result feed(std::string_view bytes, const Events& events);

    // The peer's close: its code (1005 when it gave none) and reason.
    std::uint16_t closeCode() const { return m_closeCode; }
    const std::string& closeReason() const { return m_closeReason; }
    std::uint16_t faultCode() const { return m_faultCode; }
    const std::string& error() const { return m_error; }
    std::uint64_t messages() const { return m_messages; }
    std::uint64_t frames() const { return m_frames; }

private:
    Result fault(std::uint16_t code, std::string why);
    // A whole frame: false with `r` when reading ends with it (a stop, the close, a fault).
    bool frame(WsOpcode op, bool fin, std::string_view payload, const Events& events, Result& r);

    Limits m_limits;
    std::string m_pending; // bytes not yet read as a frame (a frame not yet whole: at most the bound and a header)
    std::string m_message; // the message being gathered from its frames
    WsOpcode m_messageType = WsOpcode::Continuation; // Continuation: no message begun
    bool m_compressed = false;                       // the message being gathered came with RSV1
    std::unique_ptr<WsDeflate> m_deflate;            // set once permessage-deflate was agreed
    std::string m_expanded;                          // a compressed message, expanded
    bool m_done = false;                             // closed or faulted: nothing more is read
    std::uint16_t m_closeCode = 0, m_faultCode = 0;
    std::string m_closeReason, m_error;
    std::uint64_t m_messages = 0, m_frames = 0;
};

} // namespace stampede
