// libFuzzer target: the ${var} template compiler and expander.
#include "core/template.h"

#include <cstdint>
#include <string>

namespace {
struct Values : stampede::ValueLookup
{
    std::string_view value(stampede::VarRef) const override { return "v"; }
};
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    stampede::Template t;
    std::string error;
    const bool ok = t.compile(
        text,
        [](std::string_view name) {
            stampede::Resolution r;
            if (name.size() % 3 == 0) {
                r.kind = stampede::Resolution::Reference;
                r.ref = {1, -1};
            } else if (name.size() % 3 == 1) {
                r.kind = stampede::Resolution::Constant;
                r.constant = std::string(name);
            }
            return r;
        },
        error);
    if (ok) {
        std::string out;
        t.appendTo(out, Values());
        if (t.isConstant() && out != t.constantText())
            __builtin_trap();
    } else if (error.empty()) {
        __builtin_trap();
    }
    (void)stampede::Template::names(text);
    return 0;
}
