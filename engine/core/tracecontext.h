#pragma once
// W3C Trace Context (https://www.w3.org/TR/trace-context/): a traceparent's
// grammar, random ids, and trace ids derived stably from another (a
// replay's amplified copies keep a trace of their own per recorded one).
#include "random.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace stampede {

// Whether `hex` is `digits` lower-case hex digits, not all zero.
inline bool traceHex(std::string_view hex, std::size_t digits)
{
    if (hex.size() != digits)
        return false;
    bool zero = true;
    for (const char c : hex) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
        zero &= c == '0';
    }
    return !zero;
}

// A traceparent's trace id ("" when the value is not one): version 00
// exactly as W3C writes it, a later version by its first four fields.
inline std::string_view traceIdOf(std::string_view traceparent)
{
    const auto v = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
    if (traceparent.size() < 55 || !v(traceparent[0]) || !v(traceparent[1]) || traceparent.substr(0, 2) == "ff" ||
        traceparent[2] != '-' || traceparent[35] != '-' || traceparent[52] != '-' || !v(traceparent[53]) ||
        !v(traceparent[54]) || (traceparent.substr(0, 2) == "00" && traceparent.size() != 55) ||
        (traceparent.size() > 55 && traceparent[55] != '-'))
        return {};
    const std::string_view id = traceparent.substr(3, 32);
    return traceHex(id, 32) && traceHex(traceparent.substr(36, 16), 16) ? id : std::string_view();
}

// `digits` random hex digits (a multiple of 16), not all zero, appended to `out`.
inline void appendTraceHex(std::string& out, FastRandom& rng, std::size_t digits)
{
    static const char* kHex = "0123456789abcdef";
    const std::size_t at = out.size();
    do {
        out.resize(at);
        for (std::size_t i = 0; i < digits; i += 16)
            for (std::uint64_t v = rng.next(), j = 0; j < 16; ++j, v >>= 4)
                out += kHex[v & 15];
    } while (!traceHex(std::string_view(out).substr(at), digits));
}

// A trace id of its own for copy `copy` of a request whose trace is `traceId`: stable, so
// a copy's requests stay together in the tracing system run after run.
inline std::string derivedTraceId(std::string_view traceId, std::uint32_t copy)
{
    std::uint64_t h = 0xcbf29ce484222325ull; // FNV-1a, then the generator's own mixing
    for (const char c : traceId)
        h = (h ^ std::uint8_t(c)) * 0x100000001b3ull;
    FastRandom rng(h ^ (0x9E3779B97F4A7C15ull * copy));
    std::string out;
    appendTraceHex(out, rng, 32);
    return out;
}

} // namespace stampede
