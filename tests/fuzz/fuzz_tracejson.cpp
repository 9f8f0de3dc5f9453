// verify-tag's reading of a tracing system's answer (Jaeger's or Tempo's
// JSON): any bytes are read or refused, never a fault; every service's tagged
// spans are at most its spans, and the table is valid UTF-8.
#include "core/utf8.h"
#include "report/tagcheck.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string in(reinterpret_cast<const char*>(data), size);
    stampede::TagCheck check;
    std::string error;
    stampede::addTraceAnswer(in, "st-0123456789abcdef", check, error);
    for (const auto& [name, t] : check.services)
        if (t.tagged > t.spans || !stampede::isUtf8(name))
            std::abort();
    if (!stampede::isUtf8(stampede::tagCheckTable(check)) || check.asked != 1)
        std::abort();
    return 0;
}
