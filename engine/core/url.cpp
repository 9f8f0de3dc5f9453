#include "url.h"

#include "wiretext.h"

#include <charconv>

namespace stampede {

std::string Url::hostHeader() const
{
    const bool v6 = host.find(':') != std::string::npos;
    std::string h = v6 ? "[" + host + "]" : host;
    const bool defaultPort = (scheme == "http" && port == 80) || (scheme == "https" && port == 443);
    if (!defaultPort)
        h += ":" + std::to_string(port);
    return h;
}

std::size_t Url::targetOffset(std::string_view text)
{
    const std::size_t schemeEnd = text.find("://");
    const std::size_t from = schemeEnd == std::string_view::npos ? 0 : schemeEnd + 3;
    const std::size_t slash = text.find_first_of("/?", from);
    return slash == std::string_view::npos ? text.size() : slash;
}

std::optional<Url> Url::parse(std::string_view text, std::string& error)
{
    Url u;
    const std::size_t schemeEnd = text.find("://");
    if (schemeEnd == std::string_view::npos) {
        error = "not an absolute URL (expected http://host/path): \"" + std::string(text) + "\"";
        return std::nullopt;
    }
    u.scheme = std::string(text.substr(0, schemeEnd));
    for (char& c : u.scheme)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    if (u.scheme != "http" && u.scheme != "https") {
        error = "unsupported scheme \"" + u.scheme + "\" (http and https are supported)";
        return std::nullopt;
    }
    const std::size_t authStart = schemeEnd + 3;
    const std::size_t targetStart = targetOffset(text);
    std::string_view authority = text.substr(authStart, targetStart - authStart);
    if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos)
        authority.remove_prefix(at + 1); // user info is not sent in the request line
    std::string_view portText;
    if (!authority.empty() && authority.front() == '[') {
        const std::size_t close = authority.find(']');
        if (close == std::string_view::npos) {
            error = "unclosed [ in the host of \"" + std::string(text) + "\"";
            return std::nullopt;
        }
        u.host = std::string(authority.substr(1, close - 1));
        if (close + 1 < authority.size()) {
            if (authority[close + 1] != ':') {
                error = "unexpected text after ] in \"" + std::string(text) + "\"";
                return std::nullopt;
            }
            portText = authority.substr(close + 2);
        }
    } else {
        const std::size_t colon = authority.rfind(':');
        u.host = std::string(authority.substr(0, colon));
        if (colon != std::string_view::npos)
            portText = authority.substr(colon + 1);
    }
    if (const std::size_t at = forbiddenByte(text.substr(0, targetStart)); at != std::string_view::npos) {
        error = "the URL holds " + std::string(forbiddenByteName(text[at])) + " at byte " + std::to_string(at);
        return std::nullopt;
    }
    if (u.host.empty()) {
        error = "no host in \"" + std::string(text) + "\"";
        return std::nullopt;
    }
    u.port = u.scheme == "https" ? 443 : 80;
    if (!portText.empty()) {
        unsigned port = 0;
        const auto r = std::from_chars(portText.data(), portText.data() + portText.size(), port);
        if (r.ec != std::errc() || r.ptr != portText.data() + portText.size() || port == 0 || port > 65535) {
            error = "bad port \"" + std::string(portText) + "\" in \"" + std::string(text) + "\"";
            return std::nullopt;
        }
        u.port = std::uint16_t(port);
    }
    // the target as it goes on the wire: without the fragment, percent-encoded (wiretext.h)
    std::string_view target = text.substr(targetStart);
    target = target.substr(0, target.find('#'));
    if (target.empty() || target.front() == '?')
        u.target = "/";
    if (!appendTarget(u.target, target)) {
        const std::size_t at = forbiddenByte(text);
        error = "the URL holds " + std::string(forbiddenByteName(text[at])) + " at byte " + std::to_string(at) +
                ": it would end the request line";
        return std::nullopt;
    }
    return u;
}

} // namespace stampede
