// libFuzzer target: the one checked parser of numbers from a user. Whatever
// the text, a number it accepts is within its bounds, and a refusal says why.
#include "core/number.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::string error;
    std::uint64_t whole = 0;
    if (stampede::parseWhole(text, "-c", 1, stampede::RunLimits::kConnections, whole, error)) {
        if (whole < 1 || whole > stampede::RunLimits::kConnections)
            std::abort();
    } else if (error.empty()) {
        std::abort(); // a refusal always says why
    }
    double decimal = 0;
    error.clear();
    if (stampede::parseDecimal(text, "--rate", 0.001, stampede::RunLimits::kRate, decimal, error)) {
        if (!(decimal >= 0.001 && decimal <= stampede::RunLimits::kRate))
            std::abort();
    } else if (error.empty()) {
        std::abort();
    }
    return 0;
}
