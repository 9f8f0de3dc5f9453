#pragma once
// http:// and https:// URLs split into what a client needs.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace stampede {

struct Url
{
    std::string scheme; // "http" or "https"
    std::string host;   // without brackets for IPv6
    std::uint16_t port = 0;
    std::string target;             // path and query, at least "/"
    std::string hostHeader() const; // host[:port] as the Host header wants it

    // Returns nullopt and sets `error` for anything that is not an absolute http(s) URL.
    static std::optional<Url> parse(std::string_view text, std::string& error);
    // Splits text into (scheme://authority, target) without validating; for templates.
    static std::size_t targetOffset(std::string_view text);
};

} // namespace stampede
