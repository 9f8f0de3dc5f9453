// libFuzzer target: an answer's body in gzip or deflate, decoded for scripts
// and checks. Whatever the bytes: no crash, never more than the limit, and a
// refusal says why and leaves nothing decoded.
#include "check/contentcoding.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    for (const auto coding : {stampede::ContentCoding::Gzip, stampede::ContentCoding::Deflate}) {
        std::string out, why;
        bool truncated = false;
        const std::size_t limit = 1 << 16;
        if (stampede::decodeContent(coding, input, limit, out, truncated, why)) {
            if (out.size() > limit || (truncated && out.size() != limit))
                __builtin_trap();
        } else if (why.empty() || !out.empty()) {
            __builtin_trap();
        }
    }
    return 0;
}
