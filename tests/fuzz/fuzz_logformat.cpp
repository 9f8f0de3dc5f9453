// libFuzzer target: the log_format compiler and the line parser it builds.
// The input's first line is a format (a directive or a bare string), the rest
// lines read with it; and every line is also read by the combined format.
// Whatever the input: no crash, and a line read has a target.
#include "traffic/trafficimport.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::size_t nl = input.find('\n');
    std::string error;
    const auto format = stampede::LogFormat::compile(input.substr(0, nl), error);
    if (!format && error.empty())
        __builtin_trap();
    const std::string_view lines = nl == std::string_view::npos ? std::string_view() : input.substr(nl + 1);
    for (const stampede::LogFormat* f : {format ? &*format : nullptr, &stampede::LogFormat::combined()}) {
        if (!f)
            continue;
        stampede::TrafficImport out;
        stampede::importLogText(lines, *f, out);
        if (out.records.size() + out.bad != out.lines || out.problems.size() > out.bad)
            __builtin_trap();
        for (const auto& r : out.records)
            if (r.target.empty() || r.method.empty())
                __builtin_trap();
    }
    (void)stampede::unescapeLogValue(input);
    (void)stampede::parseIso8601(input);
    (void)stampede::parseTimeLocal(input);
    return 0;
}
