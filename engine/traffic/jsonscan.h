#pragma once
// A small scanner over JSON text, enough to find members by key and the span
// of their values without parsing the document (masking and replay offsets
// rewrite values in place and leave the rest of the body byte for byte).
#include <string_view>

namespace stampede::jsonscan {

// The index after the closing quote of the string opening at `at`; npos when unterminated.
inline std::size_t stringEnd(std::string_view s, std::size_t at)
{
    for (std::size_t i = at + 1; i < s.size(); ++i) {
        if (s[i] == '\\')
            ++i;
        else if (s[i] == '"')
            return i + 1;
    }
    return std::string_view::npos;
}

// The end of the value starting at `at`: a string, a number or literal, an object or array.
inline std::size_t valueEnd(std::string_view s, std::size_t at)
{
    if (at >= s.size())
        return std::string_view::npos;
    if (s[at] == '"')
        return stringEnd(s, at);
    if (s[at] == '{' || s[at] == '[') {
        int depth = 0;
        for (std::size_t i = at; i < s.size(); ++i) {
            if (s[i] == '"') {
                i = stringEnd(s, i);
                if (i == std::string_view::npos)
                    return i;
                --i;
            } else if (s[i] == '{' || s[i] == '[') {
                ++depth;
            } else if ((s[i] == '}' || s[i] == ']') && --depth == 0) {
                return i + 1;
            }
        }
        return std::string_view::npos;
    }
    std::size_t i = at;
    while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ' && s[i] != '\n' && s[i] != '\r' &&
           s[i] != '\t')
        ++i;
    return i;
}

inline std::size_t skipSpace(std::string_view s, std::size_t i)
{
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t'))
        ++i;
    return i;
}

// Calls f(keyStart, valueStart, valueEnd) for each member at any depth, in
// order; f returns the index to go on from (it may have changed the text).
template <typename F> void eachMember(std::string& body, F f)
{
    for (std::size_t i = 0; i < body.size(); ++i) {
        if (body[i] != '"')
            continue;
        const std::size_t keyEnd = stringEnd(body, i);
        if (keyEnd == std::string_view::npos)
            return;
        const std::size_t colon = skipSpace(body, keyEnd);
        if (colon >= body.size() || body[colon] != ':') {
            i = keyEnd - 1; // a string value, not a key
            continue;
        }
        const std::size_t valueAt = skipSpace(body, colon + 1);
        const std::size_t end = valueEnd(body, valueAt);
        if (end == std::string_view::npos)
            return;
        i = f(i, valueAt, end);
    }
}

} // namespace stampede::jsonscan
