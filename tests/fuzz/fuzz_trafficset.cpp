// libFuzzer target: a traffic set as a scenario or bundle carries it (the
// engines decode what the controller sends). Whatever the input: no crash,
// no allocation beyond what the bytes can hold, and what decodes encodes to a
// set that decodes to the same requests.
#include "traffic/trafficcodec.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    std::vector<stampede::TrafficRecord> records;
    if (!stampede::decodeTrafficSet(input, records))
        return 0;
    std::vector<stampede::TrafficRecord> again;
    if (!stampede::decodeTrafficSet(stampede::encodeTrafficSet(records, 3), again) || again.size() != records.size())
        __builtin_trap();
    for (std::size_t i = 0; i < records.size(); ++i)
        if (again[i].atNanos != records[i].atNanos || again[i].target != records[i].target ||
            again[i].headers != records[i].headers || again[i].body != records[i].body)
            __builtin_trap();
    return 0;
}
