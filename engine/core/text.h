#pragma once
// Small text helpers shared by the protocol code.
#include <string>
#include <string_view>

namespace stampede {

// ASCII case-insensitive equality, as HTTP header names compare.
// `s` without the spaces around it.
inline std::string_view trimSpaces(std::string_view s)
{
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ')
        s.remove_suffix(1);
    return s;
}

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
inline bool isConnectionHeader(std::string_view lowerName)
{
    return lowerName == "connection" || lowerName == "keep-alive" || lowerName == "proxy-connection" ||
           lowerName == "transfer-encoding" || lowerName == "upgrade";
}

} // namespace stampede
