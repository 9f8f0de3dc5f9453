// libFuzzer target: a Server-Sent Events stream (stream/sseparser.h). Whatever the bytes, read whole or split at
// any point, the same events come out, each within the bounds (four times the data bound once bytes that are not
// UTF-8 are written as \xHH) and valid UTF-8, and a fault is said.
#include "core/utf8.h"
#include "stream/sseparser.h"

#include <cstdint>
#include <string>

namespace {
std::string read(std::string_view bytes, std::size_t split, stampede::SseParser::Result& r)
{
    stampede::SseParser p(stampede::SseParser::Limits{256, 1024});
    std::string out;
    const auto on = [&](const stampede::SseEvent& e) {
        if (e.data.size() > 4 * 1024 || !stampede::isUtf8(e.data) || !stampede::isUtf8(e.type) ||
            !stampede::isUtf8(e.id))
            __builtin_trap();
        out += e.type + '\x01' + e.data + '\x01' + e.id + '\x02';
        return true;
    };
    r = p.feed(bytes.substr(0, split), on);
    if (r == stampede::SseParser::Result::More)
        r = p.feed(bytes.substr(split), on);
    if (r == stampede::SseParser::Result::Fault && p.error().empty())
        __builtin_trap();
    return out;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    stampede::SseParser::Result whole, split;
    const std::string a = read(bytes, bytes.size(), whole);
    const std::string b = read(bytes, size ? data[0] % (size + 1) : 0, split);
    if (whole != split || a != b)
        __builtin_trap();
    return 0;
}
