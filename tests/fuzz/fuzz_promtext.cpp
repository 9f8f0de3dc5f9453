// libFuzzer target: the Prometheus text exposition parser. Whatever the
// input, every line is a sample, a comment, blank, or counted as bad.
#include "metrics/promtext.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const stampede::PromParse p = stampede::parsePromText(input);
    std::size_t lines = 1;
    for (const char c : input)
        lines += c == '\n';
    if (p.samples.size() + p.badLines > lines || (p.badLines && !p.firstBadLine))
        __builtin_trap();
    for (const auto& s : p.samples)
        if (s.name.empty())
            __builtin_trap();
    (void)stampede::promValue(p, "up", {{"job", "app"}});
    return 0;
}
