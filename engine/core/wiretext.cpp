#include "wiretext.h"

#include "text.h"

#include <array>

namespace stampede {

namespace {

enum : std::uint8_t
{
    Keep,
    Encode,
    Forbidden
};

// Per byte, what a request target does with it.
constexpr std::array<std::uint8_t, 256> targetTable()
{
    std::array<std::uint8_t, 256> t{};
    for (int c = 0; c < 256; ++c) {
        if (c == '\r' || c == '\n' || c == 0)
            t[std::size_t(c)] = Forbidden;
        else if (c <= 0x20 || c >= 0x7f)
            t[std::size_t(c)] = Encode; // controls, the space, DEL and every byte of a non-ASCII letter
        else
            switch (c) {
            case '"':
            case '#': // a fragment is cut where the URL is written; one that arrives in a value is data
            case '<':
            case '>':
            case '\\':
            case '^':
            case '`':
            case '{':
            case '|':
            case '}':
                t[std::size_t(c)] = Encode;
                break;
            default:
                t[std::size_t(c)] = Keep;
            }
    }
    return t;
}
constexpr auto kTarget = targetTable();

} // namespace

std::size_t forbiddenByte(std::string_view s)
{
    for (std::size_t i = 0; i < s.size(); ++i)
        if (s[i] == '\r' || s[i] == '\n' || s[i] == '\0')
            return i;
    return std::string_view::npos;
}

std::string_view forbiddenByteName(char c)
{
    return c == '\r' ? "a line break (CR)" : c == '\n' ? "a line break (LF)" : "a NUL byte";
}

bool appendTarget(std::string& out, std::string_view text)
{
    // most targets need nothing: one pass to know, a second only to encode
    bool encode = false;
    for (const char c : text) {
        const std::uint8_t k = kTarget[static_cast<unsigned char>(c)];
        if (k == Forbidden)
            return false;
        encode |= k == Encode;
    }
    if (!encode) {
        out.append(text);
        return true;
    }
    static constexpr char kHex[] = "0123456789ABCDEF";
    out.reserve(out.size() + text.size() + 16);
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (kTarget[u] == Keep) {
            out.push_back(c);
        } else {
            out.push_back('%');
            out.push_back(kHex[u >> 4]);
            out.push_back(kHex[u & 15]);
        }
    }
    return true;
}

void appendFormComponent(std::string& out, std::string_view text)
{
    static constexpr char kHex[] = "0123456789ABCDEF";
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if ((u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || u == '-' || u == '.' ||
            u == '_' || u == '~') {
            out.push_back(c);
        } else {
            out.push_back('%');
            out.push_back(kHex[u >> 4]);
            out.push_back(kHex[u & 15]);
        }
    }
}

std::string fieldFault(std::string_view value, WireField field)
{
    if (field == WireField::Body || field == WireField::FormComponent)
        return {};
    const std::size_t at = forbiddenByte(value);
    if (at == std::string_view::npos)
        return {};
    return "holds " + std::string(forbiddenByteName(value[at])) + " at byte " + std::to_string(at);
}

std::string headerFault(std::string_view name, std::string_view value)
{
    if (!isHttpToken(name))
        return "\"" + std::string(name) + "\" is not a header name";
    if (std::string fault = fieldFault(value, WireField::HeaderValue); !fault.empty())
        return "the value of header " + std::string(name) + " " + fault + ": it would end the line";
    return {};
}

} // namespace stampede
