// libFuzzer target: the HTTP/1.1 response parser, fed in random-sized pieces.
#include "net/http1responseparser.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 1)
        return 0;
    stampede::Http1ResponseParser p;
    p.reset(data[0] & 1);
    const std::size_t step = 1 + data[0] % 64;
    const char* text = reinterpret_cast<const char*>(data + 1);
    std::size_t left = size - 1;
    while (left) {
        const std::size_t n = left < step ? left : step;
        std::size_t consumed = 0;
        const auto r = p.feed(text, n, consumed);
        if (consumed > n)
            __builtin_trap();
        if (r != stampede::Http1ResponseParser::Result::NeedMore) {
            if (r == stampede::Http1ResponseParser::Result::Complete)
                p.reset();
            else
                return 0;
            text += consumed;
            left -= consumed;
            if (!consumed)
                break;
            continue;
        }
        text += n;
        left -= n;
    }
    p.finish();
    return 0;
}
