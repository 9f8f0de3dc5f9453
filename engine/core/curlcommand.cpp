#include "curlcommand.h"

#include <cctype>

namespace stampede {

namespace {

// Splits like a POSIX shell would (quotes, escapes, line continuations).
bool tokenize(const std::string& text, std::vector<std::string>& out, std::string& error)
{
    std::string cur;
    bool inToken = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\\' && i + 1 < text.size() && (text[i + 1] == '\n' || text[i + 1] == '\r')) {
            ++i;
            if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n')
                ++i;
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(c))) {
            if (inToken)
                out.push_back(std::move(cur)), cur.clear(), inToken = false;
            continue;
        }
        inToken = true;
        if (c == '\'') {
            const std::size_t end = text.find('\'', i + 1);
            if (end == std::string::npos)
                return error = "unclosed ' quote", false;
            cur += text.substr(i + 1, end - i - 1);
            i = end;
        } else if (c == '$' && i + 1 < text.size() && text[i + 1] == '\'') {
            std::size_t j = i + 2;
            for (; j < text.size() && text[j] != '\''; ++j) {
                if (text[j] == '\\' && j + 1 < text.size()) {
                    const char e = text[++j];
                    cur += e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;
                } else {
                    cur += text[j];
                }
            }
            if (j >= text.size())
                return error = "unclosed $' quote", false;
            i = j;
        } else if (c == '"') {
            std::size_t j = i + 1;
            for (; j < text.size() && text[j] != '"'; ++j) {
                if (text[j] == '\\' && j + 1 < text.size() &&
                    std::string("\"\\$`").find(text[j + 1]) != std::string::npos)
                    ++j;
                cur += text[j];
            }
            if (j >= text.size())
                return error = "unclosed \" quote", false;
            i = j;
        } else if (c == '\\' && i + 1 < text.size()) {
            cur += text[++i];
        } else {
            cur += c;
        }
    }
    if (inToken)
        out.push_back(std::move(cur));
    return true;
}

std::string quote(const std::string& s)
{
    std::string out = "'";
    for (char c : s) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    return out + "'";
}

} // namespace

std::optional<CurlRequest> parseCurl(const std::string& text, std::string& error)
{
    std::vector<std::string> t;
    if (!tokenize(text, t, error))
        return std::nullopt;
    if (t.empty() || t[0] != "curl") {
        error = "not a curl command (it must start with \"curl\")";
        return std::nullopt;
    }
    CurlRequest r;
    bool head = false;
    for (std::size_t i = 1; i < t.size(); ++i) {
        const std::string& a = t[i];
        auto next = [&](std::string& out) {
            if (i + 1 >= t.size()) {
                error = a + " needs a value";
                return false;
            }
            out = t[++i];
            return true;
        };
        std::string v;
        if (a == "-X" || a == "--request") {
            if (!next(r.method))
                return std::nullopt;
        } else if (a.rfind("-X", 0) == 0 && a.size() > 2) {
            r.method = a.substr(2);
        } else if (a == "-H" || a == "--header") {
            if (!next(v))
                return std::nullopt;
            const std::size_t colon = v.find(':');
            if (colon == std::string::npos) {
                error = "header \"" + v + "\" has no colon";
                return std::nullopt;
            }
            std::string value = v.substr(colon + 1);
            while (!value.empty() && value.front() == ' ')
                value.erase(0, 1);
            r.headers.emplace_back(v.substr(0, colon), value);
        } else if (a == "-d" || a == "--data" || a == "--data-raw" || a == "--data-binary" || a == "--data-ascii" ||
                   a == "--json") {
            if (!next(v))
                return std::nullopt;
            r.body += (r.body.empty() ? "" : "&") + v;
            if (a == "--json") {
                r.headers.emplace_back("Content-Type", "application/json");
                r.headers.emplace_back("Accept", "application/json");
            } else if (a != "--data-binary" && a != "--data-raw") {
                bool typed = false;
                for (const auto& h : r.headers)
                    typed |= h.first.size() == 12 && (h.first[0] | 0x20) == 'c' && (h.first[8] | 0x20) == 't';
                if (!typed)
                    r.headers.emplace_back("Content-Type", "application/x-www-form-urlencoded");
            }
        } else if (a == "-u" || a == "--user") {
            if (!next(v))
                return std::nullopt;
            static const char* b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
            std::string enc;
            for (std::size_t k = 0; k < v.size(); k += 3) {
                const unsigned n = (unsigned(std::uint8_t(v[k])) << 16) |
                                   (k + 1 < v.size() ? unsigned(std::uint8_t(v[k + 1])) << 8 : 0) |
                                   (k + 2 < v.size() ? unsigned(std::uint8_t(v[k + 2])) : 0);
                enc += b64[(n >> 18) & 63];
                enc += b64[(n >> 12) & 63];
                enc += k + 1 < v.size() ? b64[(n >> 6) & 63] : '=';
                enc += k + 2 < v.size() ? b64[n & 63] : '=';
            }
            r.headers.emplace_back("Authorization", "Basic " + enc);
        } else if (a == "-I" || a == "--head") {
            head = true;
        } else if (a == "--url") {
            if (!next(r.url))
                return std::nullopt;
        } else if (a == "-A" || a == "--user-agent") {
            if (!next(v))
                return std::nullopt;
            r.headers.emplace_back("User-Agent", v);
        } else if (a == "-b" || a == "--cookie") {
            if (!next(v))
                return std::nullopt;
            r.headers.emplace_back("Cookie", v);
        } else if (a == "-e" || a == "--referer") {
            if (!next(v))
                return std::nullopt;
            r.headers.emplace_back("Referer", v);
        } else if (a == "-o" || a == "--output" || a == "-m" || a == "--max-time" || a == "--connect-timeout" ||
                   a == "-w" || a == "--write-out") {
            if (!next(v)) // options with a value that do not change the request
                return std::nullopt;
        } else if (!a.empty() && a[0] == '-') {
            // flags such as --compressed, -s, -k, -L, -v: no effect on the request itself
        } else if (r.url.empty()) {
            r.url = a;
        } else {
            error = "unexpected argument \"" + a + "\"";
            return std::nullopt;
        }
    }
    if (r.url.empty()) {
        error = "the curl command has no URL";
        return std::nullopt;
    }
    if (r.url.find("://") == std::string::npos)
        r.url = "http://" + r.url;
    if (r.method.empty())
        r.method = head ? "HEAD" : (r.body.empty() ? "GET" : "POST");
    return r;
}

std::string toCurl(const CurlRequest& r)
{
    std::string out = "curl";
    if (r.method != "GET" && !(r.method == "POST" && !r.body.empty()))
        out += " -X " + r.method;
    out += " " + quote(r.url);
    for (const auto& [n, v] : r.headers)
        out += " -H " + quote(n + ": " + v);
    if (!r.body.empty())
        out += " --data-raw " + quote(r.body);
    return out;
}

} // namespace stampede
