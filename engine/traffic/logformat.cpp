#include "logformat.h"

#include "core/text.h"
#include "core/utf8.h"
#include "jsonscan.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cstring>

namespace stampede {

enum class LogFormat::Var : std::uint8_t
{
    RemoteAddr,
    TimeLocal,
    TimeIso8601,
    Msec,
    Request,
    RequestMethod,
    RequestUri,
    Uri,
    Args,
    RequestBody,
    Http,
    Host,
    Status,
    RequestTime,
    DurationMs,
    DurationNs,
    TimeHaproxy,
    Skip
};

namespace {

using Var = LogFormat::Var;

struct Known
{
    const char* name;
    Var var;
};

constexpr Known kKnown[] = {
    {"remote_addr", Var::RemoteAddr},
    {"time_local", Var::TimeLocal},
    {"time_iso8601", Var::TimeIso8601},
    {"msec", Var::Msec},
    {"request", Var::Request},
    {"request_method", Var::RequestMethod},
    {"request_uri", Var::RequestUri},
    {"uri", Var::Uri},
    {"document_uri", Var::Uri},
    {"args", Var::Args},
    {"query_string", Var::Args},
    {"request_body", Var::RequestBody},
    {"host", Var::Host},
    {"status", Var::Status},
    {"request_time", Var::RequestTime},
    // not nginx's: what other servers log, for their presets (and formats written after them)
    {"duration_ms", Var::DurationMs},
    {"duration_ns", Var::DurationNs},
    {"haproxy_time", Var::TimeHaproxy},
};

// Logged by nginx, not needed to replay a request: matched and skipped.
constexpr const char* kSkipped[] = {
    "remote_user",
    "remote_port",
    "body_bytes_sent",
    "bytes_sent",
    "connection",
    "connection_requests",
    "pipe",
    "server_name",
    "server_addr",
    "server_port",
    "server_protocol",
    "scheme",
    "request_length",
    "gzip_ratio",
    "ssl_protocol",
    "ssl_cipher",
    "hostname",
    "pid",
    "request_id",
    "binary_remote_addr",
    "realip_remote_addr",
    "proxy_protocol_addr",
    "time_local_ms",
    "content_length",
    "content_type",
    "nginx_version",
    "https",
    "request_completion",
    "limit_rate",
    "proxy_host",
};
// Prefixes of variable families that are skipped the same way.
constexpr const char* kSkippedPrefixes[] = {"upstream_", "sent_http_", "sent_trailer_", "cookie_",
                                            "arg_",      "ssl_",       "geoip_",        "proxy_"};

bool nameChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// The directive's quoted parts joined: 'a' "b" -> ab; escapes as nginx's configuration reads them.
bool readQuoted(std::string_view text, std::string& out, std::string& error)
{
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            ++i;
            continue;
        }
        if (c == ';')
            return true;
        if (c != '\'' && c != '"') {
            error = "the log format's parts must be quoted ('...' or \"...\"), at \"" +
                    std::string(text.substr(i, 20)) + "\"";
            return false;
        }
        const char quote = c;
        ++i;
        bool closed = false;
        while (i < text.size()) {
            const char d = text[i++];
            if (d == quote) {
                closed = true;
                break;
            }
            if (d == '\\' && i < text.size()) {
                const char e = text[i++];
                out += e == 't' ? '\t' : e == 'n' ? '\n' : e == 'r' ? '\r' : e;
                continue;
            }
            out += d;
        }
        if (!closed) {
            error = "a quote of the log format is not closed";
            return false;
        }
    }
    return true;
}

bool digits(std::string_view s, std::size_t at, std::size_t n, int& out)
{
    if (at + n > s.size())
        return false;
    out = 0;
    for (std::size_t i = at; i < at + n; ++i) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        out = out * 10 + (s[i] - '0');
    }
    return true;
}

std::optional<std::int64_t> toNanos(int y, int mo, int d, int h, int mi, int s, std::int64_t offsetS)
{
    // nanoseconds since the epoch in 64 bits reach from 1677 to 2262
    if (y < 1700 || y > 2200 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60)
        return std::nullopt;
    const std::int64_t days = daysFromCivil(y, unsigned(mo), unsigned(d));
    return ((days * 86400 + h * 3600 + mi * 60 + s) - offsetS) * 1000000000;
}

// The text of a value that runs up to `literal` from `pos`: an occurrence of a
// literal that opens with a quote does not count when the quote is escaped.
// A request method as logs write it: an HTTP token, not too long.
bool isMethod(std::string_view s)
{
    return s.size() <= 32 && isHttpToken(s);
}

// "GET /a?b=1 HTTP/1.1" into the method and the target (the protocol is optional).
bool splitRequest(std::string_view value, TrafficRecord& out, std::string& why)
{
    const std::size_t sp1 = value.find(' ');
    const std::size_t sp2 = value.rfind(' ');
    const std::string_view method = value.substr(0, sp1);
    if (sp1 == std::string_view::npos || !isMethod(method)) {
        why = "the request \"" + std::string(value.substr(0, 80)) + "\" is not METHOD TARGET PROTOCOL";
        return false;
    }
    const bool protocol = sp2 > sp1 && value.substr(sp2 + 1).rfind("HTTP/", 0) == 0;
    out.method.assign(method);
    out.target = unescapeLogValue(value.substr(sp1 + 1, protocol ? sp2 - sp1 - 1 : std::string_view::npos));
    return true;
}

std::size_t findEnd(std::string_view line, std::size_t pos, const std::string& literal)
{
    std::size_t at = line.find(literal, pos);
    if (literal.front() != '"')
        return at;
    while (at != std::string_view::npos) {
        std::size_t slashes = 0;
        while (at - slashes > pos && line[at - slashes - 1] == '\\')
            ++slashes;
        if (slashes % 2 == 0)
            return at;
        at = line.find(literal, at + 1);
    }
    return at;
}

} // namespace

std::string unescapeLogValue(std::string_view v)
{
    if (v.find('\\') == std::string_view::npos)
        return std::string(v);
    std::string out;
    out.reserve(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        const char c = v[i];
        if (c != '\\' || i + 1 >= v.size()) {
            out += c;
            continue;
        }
        const char e = v[i + 1];
        if (e == 'x' && i + 3 < v.size() && hexDigit(v[i + 2]) >= 0 && hexDigit(v[i + 3]) >= 0) {
            out += char(hexDigit(v[i + 2]) * 16 + hexDigit(v[i + 3]));
            i += 3;
        } else if (e == 'u' && i + 5 < v.size() &&
                   std::all_of(v.begin() + std::ptrdiff_t(i) + 2, v.begin() + std::ptrdiff_t(i) + 6,
                               [](char h) { return hexDigit(h) >= 0; })) {
            unsigned cp = 0;
            for (std::size_t k = i + 2; k < i + 6; ++k)
                cp = cp * 16 + unsigned(hexDigit(v[k]));
            appendUtf8(out, cp);
            i += 5;
        } else if (e == '"' || e == '\\' || e == '/') {
            out += e;
            ++i;
        } else if (e == 'n' || e == 'r' || e == 't' || e == 'b' || e == 'f') {
            out += e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e == 'b' ? '\b' : '\f';
            ++i;
        } else {
            out += c;
        }
    }
    return out;
}

std::optional<std::int64_t> parseTimeLocal(std::string_view t)
{
    static const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    int d, y, h, mi, s, oh, om;
    if (t.size() != 26 || t[2] != '/' || t[6] != '/' || t[11] != ':' || t[14] != ':' || t[17] != ':' || t[20] != ' ' ||
        (t[21] != '+' && t[21] != '-') || !digits(t, 0, 2, d) || !digits(t, 7, 4, y) || !digits(t, 12, 2, h) ||
        !digits(t, 15, 2, mi) || !digits(t, 18, 2, s) || !digits(t, 22, 2, oh) || !digits(t, 24, 2, om))
        return std::nullopt;
    int mo = 0;
    for (int k = 0; k < 12; ++k)
        if (t.substr(3, 3) == kMonths[k])
            mo = k + 1;
    const std::int64_t offset = (t[21] == '-' ? -1 : 1) * (oh * 3600 + om * 60);
    return toNanos(y, mo, d, h, mi, s, offset);
}

std::optional<std::int64_t> parseIso8601(std::string_view t)
{
    int y, mo, d, h, mi, s;
    if (t.size() < 19 || t[4] != '-' || t[7] != '-' || (t[10] != 'T' && t[10] != ' ') || t[13] != ':' || t[16] != ':' ||
        !digits(t, 0, 4, y) || !digits(t, 5, 2, mo) || !digits(t, 8, 2, d) || !digits(t, 11, 2, h) ||
        !digits(t, 14, 2, mi) || !digits(t, 17, 2, s))
        return std::nullopt;
    std::size_t i = 19;
    std::int64_t fraction = 0; // nanoseconds
    if (i < t.size() && t[i] == '.') {
        std::int64_t scale = 100000000;
        ++i;
        const std::size_t first = i;
        for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) {
            fraction += (t[i] - '0') * scale;
            scale /= 10;
        }
        if (i == first)
            return std::nullopt;
    }
    std::int64_t offset = 0;
    if (i < t.size() && t[i] == 'Z') {
        ++i;
    } else if (i < t.size() && (t[i] == '+' || t[i] == '-')) {
        int oh, om;
        const bool colon = i + 3 < t.size() && t[i + 3] == ':';
        if (!digits(t, i + 1, 2, oh) || !digits(t, i + (colon ? 4 : 3), 2, om))
            return std::nullopt;
        offset = (t[i] == '-' ? -1 : 1) * (oh * 3600 + om * 60);
        i += colon ? 6 : 5;
    }
    if (i != t.size())
        return std::nullopt;
    const auto at = toNanos(y, mo, d, h, mi, s, offset);
    if (!at)
        return std::nullopt;
    return *at + fraction;
}

std::optional<LogFormat> LogFormat::compile(std::string_view text, std::string& error)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\n'))
        text.remove_prefix(1);
    if (auto p = preset(text))
        return p;
    std::string format;
    if (text.rfind("log_format", 0) == 0) {
        std::size_t i = 10;
        auto word = [&] {
            while (i < text.size() && (text[i] == ' ' || text[i] == '\t'))
                ++i;
            const std::size_t start = i;
            while (i < text.size() && text[i] != ' ' && text[i] != '\t' && text[i] != '\'' && text[i] != '"')
                ++i;
            return text.substr(start, i - start);
        };
        if (word().empty()) {
            error = "log_format needs a name and a format";
            return std::nullopt;
        }
        const std::size_t before = i;
        if (word().rfind("escape=", 0) != 0)
            i = before;
        if (!readQuoted(text.substr(i), format, error))
            return std::nullopt;
    } else if (!text.empty() && (text.front() == '\'' || text.front() == '"')) {
        if (!readQuoted(text, format, error))
            return std::nullopt;
    } else {
        format.assign(text);
        while (!format.empty() && (format.back() == '\n' || format.back() == '\r'))
            format.pop_back();
    }
    if (format.empty()) {
        error = "the log format is empty";
        return std::nullopt;
    }
    if (trimSpaces(format).front() == '{')
        return compileJson(format, error);
    LogFormat f;
    if (!compileParts(format, f.m_parts, f, error))
        return std::nullopt;
    if (!f.m_hasTarget) {
        error = "the log format has no $request, $request_uri or $uri: there is no request to replay";
        return std::nullopt;
    }
    return f;
}

bool LogFormat::compileParts(const std::string& format, std::vector<Part>& parts, LogFormat& f, std::string& error)
{
    for (std::size_t i = 0; i < format.size();) {
        if (format[i] != '$') {
            const std::size_t next = format.find('$', i);
            const std::string literal = format.substr(i, next == std::string::npos ? std::string::npos : next - i);
            if (!parts.empty() && parts.back().literal)
                parts.back().text += literal;
            else
                parts.push_back({true, literal, Var::Skip, {}});
            i = next == std::string::npos ? format.size() : next;
            continue;
        }
        std::string name;
        std::size_t end = i + 1;
        if (end < format.size() && format[end] == '{') {
            const std::size_t close = format.find('}', end);
            if (close == std::string::npos) {
                error = "\"${\" is not closed in the log format";
                return false;
            }
            name = format.substr(end + 1, close - end - 1);
            end = close + 1;
        } else {
            while (end < format.size() && nameChar(format[end]))
                ++end;
            name = format.substr(i + 1, end - i - 1);
        }
        if (name.empty() || !std::all_of(name.begin(), name.end(), nameChar)) {
            error = "a \"$\" in the log format names no variable";
            return false;
        }
        if (!parts.empty() && !parts.back().literal) {
            error = "$" + name + " follows another variable with nothing between them: the line cannot be split";
            return false;
        }
        Part p{false, {}, Var::Skip, name};
        bool known = false;
        for (const Known& k : kKnown)
            if (name == k.name) {
                p.var = k.var;
                known = true;
            }
        if (!known && name.rfind("http_", 0) == 0 && name.size() > 5) {
            p.var = Var::Http;
            p.text = name.substr(5);
            std::replace(p.text.begin(), p.text.end(), '_', '-');
            std::transform(p.text.begin(), p.text.end(), p.text.begin(), [](char c) { return char(std::tolower(c)); });
            known = true;
        }
        for (const char* sk : kSkipped)
            known = known || name == sk;
        for (const char* sk : kSkippedPrefixes)
            known = known || name.rfind(sk, 0) == 0;
        if (!known) {
            error = "unknown variable $" + name + " in the log format";
            return false;
        }
        f.m_hasTime |=
            p.var == Var::TimeLocal || p.var == Var::TimeIso8601 || p.var == Var::Msec || p.var == Var::TimeHaproxy;
        f.m_hasTarget |= p.var == Var::Request || p.var == Var::RequestUri || p.var == Var::Uri;
        parts.push_back(std::move(p));
        i = end;
    }
    return true;
}

namespace {

// A JSON log_format's template: each key (dotted when nested) and its value's text.
bool templateFields(std::string_view s, std::size_t& i, const std::string& prefix,
                    std::vector<std::pair<std::string, std::string>>& out, std::string& error)
{
    const auto space = [&] {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
            ++i;
    };
    space();
    if (i >= s.size() || s[i] != '{') {
        error = "the JSON log format is not an object at offset " + std::to_string(i);
        return false;
    }
    ++i;
    for (space(); i < s.size() && s[i] != '}'; space()) {
        if (s[i] != '"') {
            error = "a key of the JSON log format is not quoted, at offset " + std::to_string(i);
            return false;
        }
        const std::size_t keyEnd = jsonscan::stringEnd(s, i);
        if (keyEnd == std::string_view::npos) {
            error = "a key of the JSON log format is not closed";
            return false;
        }
        const std::string key = prefix + std::string(s.substr(i + 1, keyEnd - i - 2));
        i = keyEnd;
        space();
        if (i >= s.size() || s[i] != ':') {
            error = "\"" + key + "\" has no \":\" after it in the JSON log format";
            return false;
        }
        ++i;
        space();
        if (i < s.size() && s[i] == '{') {
            if (!templateFields(s, i, key + ".", out, error))
                return false;
        } else if (i < s.size() && s[i] == '"') {
            const std::size_t end = jsonscan::stringEnd(s, i);
            if (end == std::string_view::npos) {
                error = "the value of \"" + key + "\" is not closed in the JSON log format";
                return false;
            }
            out.emplace_back(key, std::string(s.substr(i + 1, end - i - 2)));
            i = end;
        } else {
            const std::size_t start = i;
            while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ' ' && s[i] != '\n')
                ++i;
            out.emplace_back(key, std::string(s.substr(start, i - start)));
        }
        space();
        if (i < s.size() && s[i] == ',')
            ++i;
    }
    if (i >= s.size()) {
        error = "the JSON log format's object is not closed";
        return false;
    }
    ++i;
    return true;
}

} // namespace

std::optional<LogFormat> LogFormat::compileJson(const std::string& format, std::string& error)
{
    std::vector<std::pair<std::string, std::string>> keys;
    std::size_t i = 0;
    if (!templateFields(format, i, {}, keys, error))
        return std::nullopt;
    LogFormat f;
    f.m_json = true;
    f.m_name = "json";
    for (const auto& [key, value] : keys) {
        if (value.find('$') == std::string::npos)
            continue; // a constant: nothing to read
        Field field{key, {}, false};
        if (!compileParts(value, field.parts, f, error)) {
            error = "\"" + key + "\": " + error;
            return std::nullopt;
        }
        f.m_fields.push_back(std::move(field));
    }
    if (!f.m_hasTarget) {
        error = "the JSON log format has no key with $request, $request_uri or $uri: there is no request to replay";
        return std::nullopt;
    }
    return f;
}

const std::vector<std::string>& LogFormat::presets()
{
    static const std::vector<std::string> names = {"caddy", "traefik", "envoy", "haproxy"};
    return names;
}

std::optional<LogFormat> LogFormat::preset(std::string_view name)
{
    std::string error;
    if (name == "caddy" || name == "traefik") {
        const bool caddy = name == "caddy";
        // Caddy's access log (http.log.access) and Traefik's JSON access log, by their keys
        static const std::vector<std::pair<const char*, const char*>> kCaddy = {{"ts", "$msec"},
                                                                                {"request.remote_ip", "$remote_addr"},
                                                                                {"request.client_ip", "$remote_addr"},
                                                                                {"request.method", "$request_method"},
                                                                                {"request.host", "$host"},
                                                                                {"request.uri", "$request_uri"},
                                                                                {"status", "$status"},
                                                                                {"duration", "$request_time"}};
        static const std::vector<std::pair<const char*, const char*>> kTraefik = {
            {"StartUTC", "$time_iso8601"}, {"ClientHost", "$remote_addr"},  {"RequestMethod", "$request_method"},
            {"RequestHost", "$host"},      {"RequestPath", "$request_uri"}, {"DownstreamStatus", "$status"},
            {"Duration", "$duration_ns"}};
        LogFormat f;
        f.m_json = true;
        f.m_name.assign(name);
        for (const auto& [key, value] : caddy ? kCaddy : kTraefik) {
            Field field{key, {}, false};
            compileParts(value, field.parts, f, error);
            f.m_fields.push_back(std::move(field));
        }
        // headers: Caddy's request.headers.NAME (lists), Traefik's request_NAME
        f.m_fields.push_back({caddy ? "request.headers." : "request_", {{false, {}, Var::Http, "http_*"}}, true});
        return f;
    }
    if (name == "envoy") {
        auto f = compile("[$time_iso8601] \"$request\" $status $upstream_flags $upstream_received $upstream_sent "
                         "$duration_ms $upstream_service_time \"$http_x_forwarded_for\" \"$http_user_agent\" "
                         "\"$http_x_request_id\" \"$host\" \"$upstream_host\"",
                         error);
        f->m_name = "envoy";
        return f;
    }
    if (name == "haproxy") {
        auto f = compile("$remote_addr:$remote_port [$haproxy_time] $upstream_frontend $upstream_backend "
                         "$upstream_tr/$upstream_tw/$upstream_tc/$upstream_tr2/$duration_ms $status $upstream_rest "
                         "\"$request\"",
                         error);
        f->m_name = "haproxy";
        f->m_stripSyslog = true;
        return f;
    }
    return std::nullopt;
}

const LogFormat& LogFormat::combined()
{
    static const LogFormat f = [] {
        std::string error;
        LogFormat c = *compile("$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
                               "\"$http_referer\" \"$http_user_agent\"",
                               error);
        c.m_name = "combined";
        return c;
    }();
    return f;
}

struct LogFormat::Pending
{
    std::string uri, args;
};

bool LogFormat::parse(std::string_view line, TrafficRecord& out, std::string& why) const
{
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n'))
        line.remove_suffix(1);
    if (m_stripSyslog) { // "Feb  6 12:14:14 localhost haproxy[14389]: " before HAProxy's own line
        const std::size_t tag = line.substr(0, 200).find("]: ");
        if (tag != std::string_view::npos && line.substr(0, tag).find('[') != std::string_view::npos)
            line.remove_prefix(tag + 3);
    }
    out = TrafficRecord{};
    Pending pending;
    const bool ok = m_json ? parseJson(line, out, pending, why) : match(m_parts, line, out, pending, why);
    if (ok && out.target.empty() && !pending.uri.empty())
        out.target = unescapeLogValue(pending.uri) + (pending.args.empty() ? "" : "?" + unescapeLogValue(pending.args));
    if (ok && out.target.empty())
        why = "the line has no request target";
    if (!ok || out.target.empty()) {
        why = "format " + m_name + ": " + why;
        return false;
    }
    return true; // at the time logged (nginx logs a request when it ends), as the log's own seconds count it
}

bool LogFormat::match(const std::vector<Part>& parts, std::string_view line, TrafficRecord& out, Pending& pending,
                      std::string& why) const
{
    std::size_t pos = 0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const Part& p = parts[i];
        if (p.literal) {
            if (line.compare(pos, p.text.size(), p.text) != 0) {
                why = "expected \"" + p.text + "\" at column " + std::to_string(pos + 1) +
                      (i > 0 ? " (after $" + parts[i - 1].name + ")" : std::string(" (the line's start)"));
                return false;
            }
            pos += p.text.size();
            continue;
        }
        std::size_t end = line.size();
        if (i + 1 < parts.size()) {
            end = findEnd(line, pos, parts[i + 1].text);
            if (end == std::string_view::npos) {
                why = "the line ends before \"" + parts[i + 1].text + "\" (after $" + p.name + ")";
                return false;
            }
        }
        const std::string_view value = line.substr(pos, end - pos);
        pos = end;
        if (value == "-" || value.empty() || p.var == Var::Skip)
            continue;
        if (p.var == Var::Uri)
            pending.uri.assign(value);
        else if (p.var == Var::Args)
            pending.args.assign(value);
        else if (!assign(p, value, out, why)) {
            why = "$" + p.name + ": " + why;
            return false;
        }
    }
    if (pos != line.size()) {
        why = "unexpected text after the format at column " + std::to_string(pos + 1);
        return false;
    }
    return true;
}

namespace {

// A scalar (or a list of strings, as headers are) as text; false for an object or another list.
bool scalarText(simdjson::dom::element v, std::string& out)
{
    out.clear();
    switch (v.type()) {
    case simdjson::dom::element_type::STRING: {
        std::string_view text;
        if (v.get_string().get(text))
            return false;
        out.assign(text);
        return true;
    }
    case simdjson::dom::element_type::INT64:
    case simdjson::dom::element_type::UINT64:
    case simdjson::dom::element_type::DOUBLE:
    case simdjson::dom::element_type::BOOL:
        out = simdjson::minify(v);
        return true;
    case simdjson::dom::element_type::NULL_VALUE:
        out = "-";
        return true;
    case simdjson::dom::element_type::ARRAY: {
        simdjson::dom::array list;
        if (v.get_array().get(list))
            return false;
        for (simdjson::dom::element e : list) {
            std::string_view text;
            if (e.get_string().get(text))
                return false;
            out.append(out.empty() ? "" : ", ").append(text);
        }
        return true;
    }
    default:
        return false;
    }
}

} // namespace

bool LogFormat::parseJson(std::string_view line, TrafficRecord& out, Pending& pending, std::string& why) const
{
    thread_local simdjson::dom::parser parser;
    simdjson::dom::object root;
    if (line.empty() || parser.parse(line.data(), line.size(), true).get_object().get(root)) {
        why = "not a JSON object";
        return false;
    }
    std::string text;
    // depth-first over the object's members, each leaf's key dotted from its parents'
    std::vector<std::pair<std::string, simdjson::dom::object>> stack{{std::string(), root}};
    while (!stack.empty()) {
        auto [prefix, object] = std::move(stack.back());
        stack.pop_back();
        for (const auto member : object) {
            std::string path = prefix + std::string(member.key);
            if (simdjson::dom::object inner; !member.value.get_object().get(inner)) {
                if (std::count(path.begin(), path.end(), '.') < 16) // deeper than any log nests: not read
                    stack.emplace_back(path + ".", inner);
                continue;
            }
            for (const Field& f : m_fields) {
                const bool hit = f.prefix ? path.size() > f.path.size() && path.rfind(f.path, 0) == 0 : path == f.path;
                if (!hit || !scalarText(member.value, text))
                    continue;
                if (f.prefix) { // a header: its name is the rest of the key
                    Part header = f.parts.front();
                    header.text = asciiLower(std::string_view(path).substr(f.path.size()));
                    if (!assign(header, text, out, why)) {
                        why = "\"" + path + "\": " + why;
                        return false;
                    }
                } else if (!match(f.parts, text, out, pending, why)) {
                    why = "\"" + path + "\": " + why;
                    return false;
                }
            }
        }
    }
    return true;
}

bool LogFormat::assign(const Part& p, std::string_view value, TrafficRecord& out, std::string& why) const
{
    switch (p.var) {
    case Var::RemoteAddr:
        out.client.assign(value);
        return true;
    case Var::TimeLocal:
    case Var::TimeIso8601: {
        const auto at = p.var == Var::TimeLocal ? parseTimeLocal(value) : parseIso8601(value);
        if (!at) {
            why = "the time \"" + std::string(value) + "\" is not " +
                  (p.var == Var::TimeLocal ? "dd/Mon/yyyy:hh:mm:ss +zzzz" : "ISO 8601");
            return false;
        }
        out.atNanos = *at;
        return true;
    }
    case Var::Msec: {
        double s = 0;
        const auto r = std::from_chars(value.data(), value.data() + value.size(), s);
        if (r.ec != std::errc() || r.ptr != value.data() + value.size() || !(s >= 0) || s > 9e9) { // to 2255
            why = "the time \"" + std::string(value) + "\" is not seconds since the epoch";
            return false;
        }
        out.atNanos = std::int64_t(s * 1e3 + 0.5) * 1000000;
        return true;
    }
    case Var::Request:
        return splitRequest(value, out, why);
    case Var::RequestMethod:
        if (!isMethod(value)) {
            why = "the method \"" + std::string(value.substr(0, 40)) + "\" is not a method";
            return false;
        }
        out.method.assign(value);
        return true;
    case Var::RequestUri:
        out.target = unescapeLogValue(value);
        return true;
    case Var::RequestBody:
        out.body = unescapeLogValue(value);
        return true;
    case Var::Http:
        if (p.text == "host")
            out.host = unescapeLogValue(value);
        out.headers.emplace_back(p.text, unescapeLogValue(value));
        return true;
    case Var::Host:
        out.host.assign(value);
        return true;
    case Var::Status: {
        int s = 0;
        const auto r = std::from_chars(value.data(), value.data() + value.size(), s);
        if (r.ec != std::errc() || r.ptr != value.data() + value.size() || s < 100 || s > 999) {
            why = "the status \"" + std::string(value.substr(0, 20)) + "\" is not an HTTP status";
            return false;
        }
        out.status = s;
        return true;
    }
    case Var::RequestTime: {
        double s = 0;
        const auto r = std::from_chars(value.data(), value.data() + value.size(), s);
        if (r.ec != std::errc() || r.ptr != value.data() + value.size() || s < 0 || s > 86400) {
            why = "the request time \"" + std::string(value.substr(0, 20)) + "\" is not seconds";
            return false;
        }
        out.durationS = s;
        return true;
    }
    case Var::DurationMs:
    case Var::DurationNs: {
        double n = 0;
        const auto r = std::from_chars(value.data(), value.data() + value.size(), n);
        const double s = n / (p.var == Var::DurationMs ? 1e3 : 1e9);
        if (r.ec != std::errc() || r.ptr != value.data() + value.size() || !(s >= 0) || s > 86400) {
            why = "the duration \"" + std::string(value.substr(0, 20)) + "\" is not " +
                  (p.var == Var::DurationMs ? "milliseconds" : "nanoseconds");
            return false;
        }
        out.durationS = s;
        return true;
    }
    case Var::TimeHaproxy: { // 06/Feb/2009:12:14:14.655, the log's clock (taken as UTC)
        const std::size_t dot = value.find('.');
        const auto at = parseTimeLocal(std::string(value.substr(0, dot)) + " +0000");
        int ms = 0;
        if (!at || (dot != std::string_view::npos && (value.size() - dot - 1 != 3 || !digits(value, dot + 1, 3, ms)))) {
            why = "the time \"" + std::string(value.substr(0, 40)) + "\" is not dd/Mon/yyyy:hh:mm:ss.mmm";
            return false;
        }
        out.atNanos = *at + std::int64_t(ms) * 1000000;
        return true;
    }
    default:
        return true;
    }
}

} // namespace stampede
