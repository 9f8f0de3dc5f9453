#pragma once
// Cookies as a browser keeps them (RFC 6265), for one virtual user: the
// Set-Cookie header's parser and a jar that answers the Cookie header for a
// request. Time is passed in (seconds since the Unix epoch), so expiry is
// tested without waiting. Not thread-safe: one jar per user, on its worker.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stampede {

struct SetCookie
{
    std::string name, value;
    std::string domain;                  // as given, without a leading dot; empty: host-only
    std::string path;                    // empty: the default path of the request
    std::optional<std::int64_t> expires; // seconds since the epoch (Max-Age wins over Expires)
    bool secure = false;
    bool httpOnly = false;
};

// One Set-Cookie header value; nothing when it has no name=value pair.
std::optional<SetCookie> parseSetCookie(std::string_view header, std::int64_t now);
// An HTTP date (IMF-fixdate, RFC 850 or asctime, as RFC 6265 5.1.1 reads
// them) as seconds since the epoch; nothing when it is not one.
std::optional<std::int64_t> parseCookieDate(std::string_view text);

class CookieJar
{
public:
    // The cookies a response to a request for (host, path) sets. A cookie for
    // another domain than the host's (or a public suffix-like bare name) is
    // refused, as a browser would.
    void receive(const SetCookie& c, std::string_view host, std::string_view requestPath, std::int64_t now);
    // The Cookie header for a request ("" when none): longer paths first,
    // then older cookies first; expired ones are dropped.
    std::string header(std::string_view host, std::string_view path, bool secure, std::int64_t now);
    std::size_t size() const { return m_cookies.size(); }
    void clear() { m_cookies.clear(); }

    static constexpr std::size_t kMaxCookies = 300; // per jar: the oldest goes

private:
    struct Cookie
    {
        SetCookie c;
        std::string domain; // where it goes: the host (host-only) or the Domain attribute
        bool hostOnly = true;
        std::uint64_t created = 0;
    };
    std::vector<Cookie> m_cookies;
    std::uint64_t m_sequence = 0;
};

} // namespace stampede
