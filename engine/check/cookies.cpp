#include "cookies.h"

#include "core/text.h"

#include <algorithm>
#include <cctype>

namespace stampede {

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool isDelimiter(unsigned char c)
{
    return c == 0x09 || (c >= 0x20 && c <= 0x2F) || (c >= 0x3B && c <= 0x40) || (c >= 0x5B && c <= 0x60) ||
           (c >= 0x7B && c <= 0x7E);
}

// Leading digits (at least `min`, at most `max`) followed by anything that is
// not a digit, as RFC 6265 5.1.1 reads the parts of a date.
std::optional<int> digits(std::string_view t, std::size_t min, std::size_t max)
{
    std::size_t n = 0;
    while (n < t.size() && std::isdigit(static_cast<unsigned char>(t[n])))
        ++n;
    if (n < min || n > max)
        return std::nullopt;
    int v = 0;
    for (std::size_t i = 0; i < n; ++i)
        v = v * 10 + (t[i] - '0');
    return v;
}

bool domainMatch(std::string_view host, std::string_view domain)
{
    if (host == domain)
        return true;
    return host.size() > domain.size() && host.substr(host.size() - domain.size()) == domain &&
           host[host.size() - domain.size() - 1] == '.';
}

bool pathMatch(std::string_view requestPath, std::string_view cookiePath)
{
    if (requestPath == cookiePath)
        return true;
    if (requestPath.size() <= cookiePath.size() || requestPath.substr(0, cookiePath.size()) != cookiePath)
        return false;
    return cookiePath.back() == '/' || requestPath[cookiePath.size()] == '/';
}

std::string defaultPath(std::string_view requestPath)
{
    requestPath = requestPath.substr(0, requestPath.find('?'));
    if (requestPath.empty() || requestPath[0] != '/')
        return "/";
    const std::size_t last = requestPath.rfind('/');
    return last == 0 ? "/" : std::string(requestPath.substr(0, last));
}

} // namespace

std::optional<std::int64_t> parseCookieDate(std::string_view text)
{
    static const char* const kMonths[] = {"jan", "feb", "mar", "apr", "may", "jun",
                                          "jul", "aug", "sep", "oct", "nov", "dec"};
    std::optional<int> hour, minute, second, day, month, year;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && isDelimiter(static_cast<unsigned char>(text[i])))
            ++i;
        std::size_t j = i;
        while (j < text.size() && !isDelimiter(static_cast<unsigned char>(text[j])))
            ++j;
        // a time token holds ':', which is a delimiter: take it whole
        std::size_t k = j;
        while (k < text.size() && (text[k] == ':' || std::isdigit(static_cast<unsigned char>(text[k]))))
            ++k;
        const std::string_view token = text.substr(i, j - i);
        const std::string_view timeToken = text.substr(i, k - i);
        if (token.empty())
            break;
        if (!hour && timeToken.find(':') != std::string_view::npos) {
            const std::size_t c1 = timeToken.find(':'), c2 = timeToken.find(':', c1 + 1);
            const auto h = digits(timeToken.substr(0, c1), 1, 2);
            const auto m = c2 == std::string_view::npos ? std::nullopt : digits(timeToken.substr(c1 + 1), 1, 2);
            const auto s = c2 == std::string_view::npos ? std::nullopt : digits(timeToken.substr(c2 + 1), 1, 2);
            if (h && m && s) {
                hour = h, minute = m, second = s;
                i = k;
                continue;
            }
        }
        if (!day && token.size() <= 2 && digits(token, 1, 2))
            day = digits(token, 1, 2);
        else if (!month && token.size() >= 3 && std::isalpha(static_cast<unsigned char>(token[0]))) {
            const std::string prefix = lower(token.substr(0, 3));
            for (int m = 0; m < 12; ++m)
                if (prefix == kMonths[m])
                    month = m + 1;
        } else if (!year && digits(token, 2, 4))
            year = digits(token, 2, 4);
        i = j;
    }
    if (!hour || !day || !month || !year)
        return std::nullopt;
    int y = *year;
    if (y >= 70 && y <= 99)
        y += 1900;
    else if (y >= 0 && y <= 69)
        y += 2000;
    if (*day < 1 || *day > 31 || y < 1601 || *hour > 23 || *minute > 59 || *second > 59)
        return std::nullopt;
    return daysFromCivil(y, unsigned(*month), unsigned(*day)) * 86400 + *hour * 3600 + *minute * 60 + *second;
}

std::optional<SetCookie> parseSetCookie(std::string_view header, std::int64_t now)
{
    if (header.size() > 8192)
        return std::nullopt;
    const std::size_t semi = header.find(';');
    const std::string_view pair = header.substr(0, semi);
    const std::size_t eq = pair.find('=');
    if (eq == std::string_view::npos)
        return std::nullopt;
    SetCookie c;
    c.name = std::string(trim(pair.substr(0, eq)));
    c.value = std::string(trim(pair.substr(eq + 1)));
    if (c.name.empty())
        return std::nullopt;
    bool maxAge = false;
    std::string_view rest = semi == std::string_view::npos ? std::string_view() : header.substr(semi + 1);
    while (!rest.empty()) {
        const std::size_t end = rest.find(';');
        const std::string_view attr = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        const std::size_t aeq = attr.find('=');
        const std::string key = lower(trim(attr.substr(0, aeq)));
        const std::string_view val = aeq == std::string_view::npos ? std::string_view() : trim(attr.substr(aeq + 1));
        if (key == "expires" && !maxAge) {
            if (const auto t = parseCookieDate(val))
                c.expires = *t;
        } else if (key == "max-age") {
            const bool negative = !val.empty() && val[0] == '-';
            const std::string_view number = negative ? val.substr(1) : val;
            if (number.empty() || number.size() > 12 ||
                !std::all_of(number.begin(), number.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
                continue;
            const std::int64_t seconds = std::stoll(std::string(number));
            c.expires = negative || seconds == 0 ? now - 1 : now + seconds;
            maxAge = true;
        } else if (key == "domain" && !val.empty()) {
            std::string_view d = val;
            if (d.front() == '.')
                d.remove_prefix(1);
            c.domain = lower(d);
        } else if (key == "path" && !val.empty() && val.front() == '/') {
            c.path = std::string(val);
        } else if (key == "secure") {
            c.secure = true;
        } else if (key == "httponly") {
            c.httpOnly = true;
        }
    }
    return c;
}

void CookieJar::receive(const SetCookie& in, std::string_view hostIn, std::string_view requestPath, std::int64_t now)
{
    const std::string host = lower(hostIn);
    Cookie c;
    c.c = in;
    if (!in.domain.empty()) {
        // a cookie for the host's own domain or a parent of it; never for a bare name like "com"
        if (!domainMatch(host, in.domain) || (in.domain.find('.') == std::string::npos && in.domain != host))
            return;
        c.hostOnly = false;
        c.domain = in.domain;
    } else {
        c.domain = host;
    }
    if (c.c.path.empty())
        c.c.path = defaultPath(requestPath);
    const auto same = std::find_if(m_cookies.begin(), m_cookies.end(), [&](const Cookie& o) {
        return o.c.name == c.c.name && o.domain == c.domain && o.c.path == c.c.path;
    });
    const bool expired = c.c.expires && *c.c.expires <= now;
    if (same != m_cookies.end()) {
        if (expired) {
            m_cookies.erase(same);
            return;
        }
        c.created = same->created; // a replaced cookie keeps its place
        *same = std::move(c);
        return;
    }
    if (expired)
        return;
    c.created = ++m_sequence;
    m_cookies.push_back(std::move(c));
    if (m_cookies.size() > kMaxCookies)
        m_cookies.erase(std::min_element(m_cookies.begin(), m_cookies.end(),
                                         [](const Cookie& a, const Cookie& b) { return a.created < b.created; }));
}

std::string CookieJar::header(std::string_view hostIn, std::string_view pathIn, bool secure, std::int64_t now)
{
    const std::string host = lower(hostIn);
    const std::string_view path = pathIn.substr(0, pathIn.find('?'));
    std::erase_if(m_cookies, [now](const Cookie& c) { return c.c.expires && *c.c.expires <= now; });
    std::vector<const Cookie*> sent;
    for (const auto& c : m_cookies) {
        const bool domainOk = c.hostOnly ? host == c.domain : domainMatch(host, c.domain);
        if (domainOk && pathMatch(path.empty() ? "/" : path, c.c.path) && (secure || !c.c.secure))
            sent.push_back(&c);
    }
    std::sort(sent.begin(), sent.end(), [](const Cookie* a, const Cookie* b) {
        return a->c.path.size() != b->c.path.size() ? a->c.path.size() > b->c.path.size() : a->created < b->created;
    });
    std::string out;
    for (const Cookie* c : sent) {
        if (!out.empty())
            out += "; ";
        out += c->c.name + "=" + c->c.value;
    }
    return out;
}

} // namespace stampede
