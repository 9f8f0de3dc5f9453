#pragma once
// The one boundary for text from outside (a server's status line, a gRPC
// message, a header, a script's output): whatever crosses the control
// protocol, goes into a report or an export is valid UTF-8, made so here.
// Bytes that do not belong to well-formed UTF-8 (RFC 3629: no overlong forms,
// no surrogates, nothing past U+10FFFF) are written as `\xHH`, so a GBK or
// Latin-1 text stays readable as what was received (its bytes can be told).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace stampede {

// The offset of the first byte that does not belong to well-formed UTF-8, or npos.
std::size_t invalidUtf8(std::string_view s);
inline bool isUtf8(std::string_view s)
{
    return invalidUtf8(s) == std::string_view::npos;
}
// `s` with every byte outside well-formed UTF-8 written as `\xHH` (upper-case hex).
std::string utf8Escaped(std::string_view s);
// Makes `s` valid UTF-8 in place (utf8Escaped) when it is not; true when it was already.
bool makeUtf8(std::string& s);
// At most `max` bytes of `s`, cut before a character, not inside one (`s` being UTF-8).
inline std::string_view utf8Prefix(std::string_view s, std::size_t max)
{
    if (s.size() <= max)
        return s;
    while (max > 0 && (static_cast<unsigned char>(s[max]) & 0xC0) == 0x80)
        --max;
    return s.substr(0, max);
}
// Appends code point `c` (at most U+10FFFF) as UTF-8.
void appendUtf8(std::string& out, std::uint32_t c);

} // namespace stampede
