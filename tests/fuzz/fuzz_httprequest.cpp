// libFuzzer target: the recorder's HTTP/1.x request reader (a gateway's
// mirror: a peer's bytes). Whatever the input, fed whole and in pieces: no
// crash, the same requests either way, each within the limits, and the
// bytes consumed never past what was given.
#include "traffic/requestreader.h"

#include <cstdint>
#include <string>
#include <vector>

namespace {

std::vector<stampede::HttpRequest> readAll(std::string_view input, std::size_t step, bool& failed)
{
    stampede::HttpRequestReader reader;
    std::vector<stampede::HttpRequest> out;
    std::size_t start = 0, have = 0;
    failed = false;
    while (have < input.size()) {
        have = std::min(input.size(), have + step);
        for (;;) {
            stampede::HttpRequest r;
            std::size_t used = 0;
            const auto res = reader.read(input.substr(start, have - start), r, used);
            if (res == stampede::HttpRequestReader::Result::Error) {
                if (reader.error().empty())
                    __builtin_trap();
                failed = true;
                return out;
            }
            if (res == stampede::HttpRequestReader::Result::NeedMore)
                break;
            if (used == 0 || used > have - start || r.body.size() > stampede::HttpRequestReader::kBodyLimit ||
                r.method.empty() || r.target.empty())
                __builtin_trap();
            start += used;
            out.push_back(std::move(r));
        }
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 1)
        return 0;
    const std::size_t step = 1 + data[0] % 64;
    const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
    bool failedWhole = false, failedSplit = false;
    const auto whole = readAll(input, input.size() ? input.size() : 1, failedWhole);
    const auto split = readAll(input, step, failedSplit);
    if (whole.size() != split.size() || failedWhole != failedSplit)
        __builtin_trap();
    for (std::size_t i = 0; i < whole.size(); ++i)
        if (whole[i].target != split[i].target || whole[i].body != split[i].body ||
            whole[i].headers != split[i].headers)
            __builtin_trap();
    return 0;
}
