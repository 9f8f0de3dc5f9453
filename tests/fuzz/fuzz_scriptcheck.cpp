// libFuzzer target: the scan of a script's text for what is not run here.
// Whatever the text (unterminated strings and comments too), it ends, and
// every note has a line within the text and names one of the three kinds.
#include "script/scriptcheck.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const unsigned lines = 1 + unsigned(std::count(text.begin(), text.end(), '\n'));
    for (const auto& note : stampede::script::unsupportedCalls(text)) {
        if (note.line < 1 || note.line > lines)
            std::abort();
        if (note.what != "pm.sendRequest" && note.what != "postman.setNextRequest" &&
            note.what.rfind("require(", 0) != 0)
            std::abort();
    }
    return 0;
}
