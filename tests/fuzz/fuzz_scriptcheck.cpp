// libFuzzer target: the scans of a script's text, for what is not run here
// and for the names it gives (its pm.test checks, the variables it sets).
// Whatever the text (unterminated strings and comments too), they end, every
// note has a line within the text and names one of the three kinds, and
// every name is a non-empty part of the text, given once.
#include "script/scriptcheck.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const unsigned lines = 1 + unsigned(std::count(text.begin(), text.end(), '\n'));
    for (const auto& note : stampede::script::unsupportedCalls(text)) {
        if (note.line < 1 || note.line > lines)
            std::abort();
        if (note.what.rfind("require(", 0) != 0)
            std::abort();
    }
    const auto names = stampede::script::scriptNames(text);
    for (const auto* list : {&names.tests, &names.sets})
        for (const std::string& name : *list) {
            if (name.empty() || text.find(name) == std::string_view::npos ||
                std::count(list->begin(), list->end(), name) != 1)
                std::abort();
        }
    return 0;
}
