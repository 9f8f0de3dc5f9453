#include "wsframes.h"

#include "core/utf8.h"

namespace stampede {

void appendWsFrame(std::string& out, WsOpcode op, std::string_view payload, const std::uint8_t mask[4], bool fin,
                   bool compressed)
{
    out.push_back(char((fin ? 0x80 : 0) | (compressed ? 0x40 : 0) | std::uint8_t(op)));
    const std::uint64_t n = payload.size();
    const std::uint8_t masked = mask ? 0x80 : 0;
    if (n < 126) {
        out.push_back(char(masked | n));
    } else if (n <= 0xFFFF) {
        out.push_back(char(masked | 126));
        out.push_back(char(n >> 8));
        out.push_back(char(n & 0xFF));
    } else {
        out.push_back(char(masked | 127));
        for (int shift = 56; shift >= 0; shift -= 8)
            out.push_back(char((n >> shift) & 0xFF));
    }
    if (!mask) {
        out.append(payload);
        return;
    }
    out.append(reinterpret_cast<const char*>(mask), 4);
    const std::size_t at = out.size();
    out.append(payload);
    for (std::size_t i = 0; i < n; ++i)
        out[at + i] = char(std::uint8_t(out[at + i]) ^ mask[i & 3]);
}

std::string wsClosePayload(std::uint16_t code, std::string_view reason)
{
    if (code == 0)
        return {};
    std::string p;
    p.push_back(char(code >> 8));
    p.push_back(char(code & 0xFF));
    p.append(utf8Prefix(reason, 123));
    return p;
}

bool wsCloseCodeAllowed(std::uint16_t code)
{
    if (code >= 3000 && code <= 4999)
        return true; // libraries' and applications' own
    return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014);
}

WsReader::Result WsReader::fault(std::uint16_t code, std::string why)
{
    m_done = true;
    m_faultCode = code;
    m_error = std::move(why);
    m_pending.clear();
    m_message.clear();
    return Result::Fault;
}

WsReader::Result WsReader::feed(std::string_view bytes, const Events& events)
{
    if (m_done)
        return m_faultCode ? Result::Fault : Result::Closed;
    m_pending.append(bytes);
    std::size_t at = 0;
    Result r = Result::More;
    while (true) {
        const std::string_view p = std::string_view(m_pending).substr(at);
        if (p.size() < 2)
            break;
        const auto b0 = std::uint8_t(p[0]), b1 = std::uint8_t(p[1]);
        const bool fin = b0 & 0x80;
        const auto op = WsOpcode(b0 & 0x0F);
        const bool control = std::uint8_t(op) & 0x08;
        const bool rsv1 = b0 & 0x40;
        if (b0 & 0x30)
            return fault(1002, "a frame with RSV2 or RSV3 set (no extension uses them)");
        if (rsv1 && !m_deflate)
            return fault(1002, "a frame with reserved bits set (no extension was agreed)");
        if (rsv1 && (control || op == WsOpcode::Continuation))
            return fault(1002, control ? "a control frame with RSV1 set (permessage-deflate compresses messages only)"
                                       : "a continuation frame with RSV1 set (only a message's first frame has it)");
        if (!(op == WsOpcode::Continuation || op == WsOpcode::Text || op == WsOpcode::Binary || op == WsOpcode::Close ||
              op == WsOpcode::Ping || op == WsOpcode::Pong))
            return fault(1002, "a frame with the reserved opcode " + std::to_string(int(op)));
        const bool masked = b1 & 0x80;
        if (masked != m_limits.fromClient)
            return fault(1002, masked ? "a masked frame from the server (a server's frames are never masked)"
                                      : "an unmasked frame from the client (a client masks every frame)");
        std::uint64_t length = b1 & 0x7F;
        std::size_t header = 2;
        if (length == 126) {
            if (p.size() < 4)
                break;
            length = (std::uint64_t(std::uint8_t(p[2])) << 8) | std::uint8_t(p[3]);
            header = 4;
            if (length < 126)
                return fault(1002, "a frame length not in its shortest form");
        } else if (length == 127) {
            if (p.size() < 10)
                break;
            length = 0;
            for (int i = 2; i < 10; ++i)
                length = (length << 8) | std::uint8_t(p[std::size_t(i)]);
            header = 10;
            if (length >> 63)
                return fault(1002, "a frame length with its top bit set");
            if (length <= 0xFFFF)
                return fault(1002, "a frame length not in its shortest form");
        }
        const std::size_t key = header;
        if (masked)
            header += 4;
        if (control && (length > 125 || !fin))
            return fault(1002, length > 125 ? "a control frame of more than 125 bytes" : "a fragmented control frame");
        if (!control && length > m_limits.message - std::min(m_limits.message, m_message.size()))
            return fault(1009, "a message of more than " + std::to_string(m_limits.message) + " bytes");
        if (p.size() < header || p.size() - header < length)
            break;    // the frame is not whole yet (bounded: its length passed the check above)
        if (masked) { // unmasked where it lies (the payload is this reader's own copy)
            char* payload = m_pending.data() + at + header;
            const auto* k = reinterpret_cast<const std::uint8_t*>(p.data() + key);
            for (std::size_t i = 0; i < length; ++i)
                payload[i] = char(std::uint8_t(payload[i]) ^ k[i & 3]);
        }
        at += header + std::size_t(length);
        ++m_frames;
        if (rsv1 && m_messageType == WsOpcode::Continuation)
            m_compressed = true; // this frame begins a compressed message (a new one inside another faults below)
        if (!frame(op, fin, p.substr(header, std::size_t(length)), events, r))
            break;
    }
    if (m_done)
        return r;
    m_pending.erase(0, at);
    return r;
}

bool WsReader::frame(WsOpcode op, bool fin, std::string_view payload, const Events& events, Result& r)
{
    switch (op) {
    case WsOpcode::Ping:
        if (events.ping)
            events.ping(payload);
        return true;
    case WsOpcode::Pong:
        if (events.pong)
            events.pong(payload);
        return true;
    case WsOpcode::Close: {
        if (payload.size() == 1) {
            r = fault(1002, "a close frame of one byte");
            return false;
        }
        m_closeCode =
            payload.empty() ? 1005 : std::uint16_t((std::uint8_t(payload[0]) << 8) | std::uint8_t(payload[1]));
        if (!payload.empty() && !wsCloseCodeAllowed(m_closeCode)) {
            r = fault(1002, "a close with the code " + std::to_string(m_closeCode) + ", which no endpoint may send");
            return false;
        }
        const std::string_view reason = payload.size() > 2 ? payload.substr(2) : std::string_view();
        if (!isUtf8(reason)) {
            r = fault(1007, "a close reason that is not UTF-8");
            return false;
        }
        m_closeReason.assign(reason);
        m_done = true;
        m_pending.clear();
        r = Result::Closed;
        return false;
    }
    case WsOpcode::Continuation:
        if (m_messageType == WsOpcode::Continuation) {
            r = fault(1002, "a continuation frame with no message begun");
            return false;
        }
        break;
    default: // Text, Binary
        if (m_messageType != WsOpcode::Continuation) {
            r = fault(1002, "a new message before the last one's final frame");
            return false;
        }
        m_messageType = op;
        break;
    }
    m_message.append(payload);
    if (!fin)
        return true;
    const WsOpcode type = m_messageType;
    m_messageType = WsOpcode::Continuation;
    std::string_view whole = m_message;
    if (m_compressed) {
        m_compressed = false;
        std::string why;
        if (const int code = m_deflate->expand(m_message, m_expanded, m_limits.message, why); code != 0) {
            r = fault(std::uint16_t(code), why);
            return false;
        }
        whole = m_expanded;
    }
    if (type == WsOpcode::Text && !isUtf8(whole)) {
        r = fault(1007, "a text message that is not UTF-8");
        return false;
    }
    ++m_messages;
    const bool goOn = !events.message || events.message(type, whole);
    m_message.clear();
    if (!goOn) {
        r = Result::Stopped;
        return false;
    }
    return true;
}

} // namespace stampede
