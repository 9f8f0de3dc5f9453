// libFuzzer target: the JSON path compiler and reader. The first line of the
// input is a path, the rest a body; a path that compiles is read from it.
#include "check/jsonpath.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string input(reinterpret_cast<const char*>(data), size);
    const std::size_t nl = input.find('\n');
    const std::string path = input.substr(0, nl);
    const std::string body = nl == std::string::npos ? std::string() : input.substr(nl + 1);
    std::string error;
    const auto p = stampede::JsonPath::compile(path, error);
    if (!p) {
        if (error.empty())
            __builtin_trap(); // a refusal always says why
        return 0;
    }
    static stampede::JsonReader reader; // as on a worker: one reader, many bodies
    reader.load(body);
    std::string value;
    const auto outcome = reader.read(*p, value);
    if (outcome == stampede::JsonReader::Outcome::Found && value.size() > body.size() + 1)
        __builtin_trap(); // a value is never longer than the body it came from
    return 0;
}
