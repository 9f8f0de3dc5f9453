#pragma once
// Small text helpers shared by the protocol code.
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace stampede {

// `s` without the spaces around it.
inline std::string_view trimSpaces(std::string_view s)
{
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ')
        s.remove_suffix(1);
    return s;
}

// ASCII case-insensitive equality, as HTTP header names compare.
inline bool equalsNoCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if ((a[i] | 0x20) != (b[i] | 0x20))
            return false;
    return true;
}

// An HTTP token (RFC 9110 5.6.2): a method or a header name.
inline bool isHttpToken(std::string_view s)
{
    if (s.empty())
        return false;
    for (char c : s) {
        const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (!alnum && std::string_view("!#$%&'*+-.^_`|~").find(c) == std::string_view::npos)
            return false;
    }
    return true;
}

// ASCII lower case, as HTTP/2 writes header names.
inline std::string asciiLower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = char(c + ('a' - 'A'));
    return out;
}

// The connection-specific header fields HTTP/2 forbids (RFC 9113 8.2.2), by
// their lower-case names.
inline std::string asciiUpper(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        if (c >= 'a' && c <= 'z')
            c = char(c - 'a' + 'A');
    return out;
}

inline bool isConnectionHeader(std::string_view lowerName)
{
    return lowerName == "connection" || lowerName == "keep-alive" || lowerName == "proxy-connection" ||
           lowerName == "transfer-encoding" || lowerName == "upgrade";
}

// A number as printf's %g writes it (6 significant digits, no trailing zeros): for messages.
inline std::string shortNumber(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

// A hexadecimal digit's value; -1 when `c` is not one.
inline int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// Appends the base64 (RFC 4648, with padding) of `in` to `out`.
inline void appendBase64(std::string& out, std::string_view in)
{
    static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::size_t i = 0;
    for (; i + 3 <= in.size(); i += 3) {
        const auto n = std::uint32_t(std::uint8_t(in[i])) << 16 | std::uint32_t(std::uint8_t(in[i + 1])) << 8 |
                       std::uint8_t(in[i + 2]);
        out += kAlphabet[n >> 18];
        out += kAlphabet[(n >> 12) & 63];
        out += kAlphabet[(n >> 6) & 63];
        out += kAlphabet[n & 63];
    }
    if (const std::size_t left = in.size() - i; left > 0) {
        auto n = std::uint32_t(std::uint8_t(in[i])) << 16;
        if (left == 2)
            n |= std::uint32_t(std::uint8_t(in[i + 1])) << 8;
        out += kAlphabet[n >> 18];
        out += kAlphabet[(n >> 12) & 63];
        out += left == 2 ? kAlphabet[(n >> 6) & 63] : '=';
        out += '=';
    }
}

// `bytes` as lower-case hex, two digits a byte.
inline std::string hexLower(std::string_view bytes)
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (const char ch : bytes) {
        out += kHex[std::uint8_t(ch) >> 4];
        out += kHex[std::uint8_t(ch) & 15];
    }
    return out;
}

// Percent-encoding (RFC 3986): letters, digits and `keep` stay, every other byte is %XX.
inline std::string percentEncode(std::string_view s, std::string_view keep = "-_.~")
{
    static const char* kHex = "0123456789ABCDEF";
    std::string out;
    out.reserve(s.size());
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (alnum || keep.find(ch) != std::string_view::npos) {
            out += ch;
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
    return out;
}

// Days from 1970-01-01 to a civil date of the proleptic Gregorian calendar
// (Howard Hinnant's algorithm).
inline std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = unsigned(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + std::int64_t(doe) - 719468;
}

// `s` as a JSON string literal, quotes included (control bytes as \uXXXX).
inline std::string jsonString(std::string_view s)
{
    static const char* kHex = "0123456789abcdef";
    std::string out = "\"";
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (c < 0x20) {
                out += "\\u00";
                out += kHex[c >> 4];
                out += kHex[c & 15];
            } else {
                out += ch;
            }
        }
    }
    return out + "\"";
}

} // namespace stampede
