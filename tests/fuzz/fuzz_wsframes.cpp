// libFuzzer target: a WebSocket server's frames (stream/wsframes.h), and a client's as the mock reads them (masked:
// the last byte's low bit chooses the side; its second bit, permessage-deflate agreed: compressed messages
// expanded). Whatever the bytes, read whole or split at any point, the same messages and the same end come out;
// a message (expanded too) is within the bound, a text one UTF-8; a fault has one of the RFC's codes for it.
#include "core/utf8.h"
#include "stream/wsframes.h"

#include <cstdint>
#include <string>

namespace {
std::string read(std::string_view bytes, std::size_t split, bool fromClient, bool deflate,
                 stampede::WsReader::Result& r, std::uint16_t& code)
{
    using stampede::WsOpcode;
    stampede::WsReader reader(stampede::WsReader::Limits{4096, fromClient});
    if (deflate)
        reader.inflateMessages();
    std::string out;
    stampede::WsReader::Events ev;
    ev.message = [&](WsOpcode t, std::string_view d) {
        if (d.size() > 4096 || (t == WsOpcode::Text && !stampede::isUtf8(d)))
            __builtin_trap();
        out += char(t);
        out.append(d);
        out += '\x02';
        return true;
    };
    ev.ping = [&](std::string_view p) {
        if (p.size() > 125)
            __builtin_trap();
        out += "p";
    };
    r = reader.feed(bytes.substr(0, split), ev);
    if (r == stampede::WsReader::Result::More)
        r = reader.feed(bytes.substr(split), ev);
    code = r == stampede::WsReader::Result::Fault    ? reader.faultCode()
           : r == stampede::WsReader::Result::Closed ? reader.closeCode()
                                                     : 0;
    if (r == stampede::WsReader::Result::Fault && code != 1002 && code != 1007 && code != 1009)
        __builtin_trap();
    return out;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    stampede::WsReader::Result whole, split;
    std::uint16_t a = 0, b = 0;
    const bool fromClient = size && (data[size - 1] & 1);
    const bool deflate = size && (data[size - 1] & 2);
    const std::string x = read(bytes, bytes.size(), fromClient, deflate, whole, a);
    const std::string y = read(bytes, size ? data[0] % (size + 1) : 0, fromClient, deflate, split, b);
    if (whole != split || a != b || x != y)
        __builtin_trap();
    return 0;
}
