// libFuzzer target: the HAR reader. Whatever the input: no crash, every
// entry is a record or a problem, and a record has an http(s) URL.
#include "traffic/har.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    stampede::HarRead out;
    std::string error;
    if (!stampede::readHar(input, out, error)) {
        if (error.empty())
            __builtin_trap();
        return 0;
    }
    if (out.records.size() + out.bad != out.entries)
        __builtin_trap();
    for (const auto& r : out.records)
        if (r.target.rfind("http", 0) != 0 || r.method.empty())
            __builtin_trap();
    return 0;
}
