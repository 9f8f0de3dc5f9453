#include "curlcommand.h"

#include "curloptions.h"
#include "text.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

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

namespace {

const curloptions::Option* findOption(std::string_view name)
{
    for (const auto& o : curloptions::kAll)
        if (name == o.longName || name == o.shortName)
            return &o;
    return nullptr;
}

// The long form of a short option ("-X" -> "--request"); the name itself otherwise.
std::string_view longForm(std::string_view name)
{
    const curloptions::Option* o = findOption(name);
    return o ? std::string_view(o->longName) : name;
}

bool sendsElsewhere(std::string_view opt)
{
    return opt == "--proxy" || opt == "--preproxy" || opt.rfind("--socks", 0) == 0 || opt == "--unix-socket" ||
           opt == "--abstract-unix-socket" || opt == "--connect-to" || opt == "--resolve" || opt == "--doh-url" ||
           opt == "--interface" || opt == "--proxy1.0";
}

void addHeader(CurlRequest& r, std::string name, std::string value)
{
    r.headers.emplace_back(std::move(name), std::move(value));
}

bool hasHeader(const CurlRequest& r, std::string_view lower)
{
    for (const auto& h : r.headers) {
        std::string n = h.first;
        for (char& c : n)
            c = char(std::tolower(static_cast<unsigned char>(c)));
        if (n == lower)
            return true;
    }
    return false;
}

// --data-urlencode's forms: content, =content, name=content (@file ones are not read).
std::optional<std::string> urlencodedData(const std::string& v)
{
    const std::size_t eq = v.find('=');
    const std::size_t at = v.find('@');
    if (at != std::string::npos && (eq == std::string::npos || at < eq))
        return std::nullopt;
    if (eq == std::string::npos)
        return percentEncode(v);
    return (eq ? v.substr(0, eq) + "=" : std::string()) + percentEncode(v.substr(eq + 1));
}

// One option and its value (when it takes one) applied to `r`; false with `error`.
bool apply(std::string_view opt, const std::string& written, const std::string& v, CurlRequest& r, bool& head,
           bool& get, std::string& error)
{
    if (opt == "--request")
        r.method = v;
    else if (opt == "--header") {
        const std::size_t colon = v.find(':');
        if (colon == std::string::npos) {
            if (!v.empty() && v.back() == ';') { // -H 'X;': an empty header
                addHeader(r, v.substr(0, v.size() - 1), "");
                return true;
            }
            if (!v.empty() && v[0] == '@') {
                r.notTaken.push_back(written + " " + v + " (a file is not read)");
                return true;
            }
            error = "header \"" + v + "\" has no colon";
            return false;
        }
        std::string value = v.substr(colon + 1);
        value.erase(0, std::min(value.size(), value.find_first_not_of(' ')));
        addHeader(r, v.substr(0, colon), value);
    } else if (opt == "--user-agent")
        addHeader(r, "User-Agent", v);
    else if (opt == "--referer")
        addHeader(r, "Referer", v);
    else if (opt == "--cookie") {
        if (v.find('=') == std::string::npos)
            r.notTaken.push_back(written + " " + v + " (a cookie file is not read)");
        else
            addHeader(r, "Cookie", v);
    } else if (opt == "--data" || opt == "--data-ascii" || opt == "--data-binary" || opt == "--data-raw" ||
               opt == "--json" || opt == "--data-urlencode") {
        std::string part = v;
        if (opt == "--data-urlencode") {
            const auto enc = urlencodedData(v);
            if (!enc) {
                r.notTaken.push_back(written + " " + v + " (a file is not read)");
                return true;
            }
            part = *enc;
        } else if (opt != "--data-raw" && !v.empty() && v[0] == '@') {
            r.notTaken.push_back(written + " " + v + " (a file is not read)");
            return true;
        }
        r.body += (r.body.empty() ? "" : "&") + part;
        if (opt == "--json") {
            if (!hasHeader(r, "content-type"))
                addHeader(r, "Content-Type", "application/json");
            if (!hasHeader(r, "accept"))
                addHeader(r, "Accept", "application/json");
        }
    } else if (opt == "--form" || opt == "--form-string") {
        const std::size_t eq = v.find('=');
        if (eq == std::string::npos) {
            error = written + " \"" + v + "\": a form field is name=value";
            return false;
        }
        const std::string value = v.substr(eq + 1);
        if (opt == "--form" && !value.empty() && value[0] == '@') { // a file part: its path, its options not taken
            const std::size_t semi = value.find(';');
            if (semi != std::string::npos)
                r.notTaken.push_back(written + " " + v + " (" + value.substr(semi + 1) + " is not taken)");
            r.form.emplace_back(v.substr(0, eq), std::string());
            r.formFiles.emplace_back(r.form.size() - 1, value.substr(1, semi == std::string::npos ? semi : semi - 1));
        } else if (opt == "--form" && !value.empty() && value[0] == '<') {
            r.notTaken.push_back(written + " " + v + " (a value read from a file is not taken)");
        } else {
            r.form.emplace_back(v.substr(0, eq), value);
        }
    } else if (opt == "--user") {
        const std::size_t colon = v.find(':');
        r.basic = true;
        r.user = v.substr(0, colon);
        r.password = colon == std::string::npos ? "" : v.substr(colon + 1);
    } else if (opt == "--digest") {
        r.digest = true;
    } else if (opt == "--basic") {
        r.digest = false;
    } else if (opt == "--head")
        head = true;
    else if (opt == "--get")
        get = true;
    else if (opt == "--url")
        r.url = v;
    else if (opt == "--insecure")
        r.insecure = true;
    else if (opt == "--max-time") {
        char* end = nullptr;
        const double s = std::strtod(v.c_str(), &end);
        if (end == v.c_str() || *end || !(s > 0) || s > 3600) {
            error = written + " \"" + v + "\": seconds, above 0 and at most 3600";
            return false;
        }
        r.maxTimeSeconds = s;
    } else if (opt == "--http1.1")
        r.http = 1;
    else if (opt == "--http2" || opt == "--http2-prior-knowledge")
        r.http = 2;
    else if (sendsElsewhere(opt)) {
        error = written + ": the request would go through " +
                (opt == "--proxy" || opt == "--preproxy" || opt.rfind("--socks", 0) == 0 ? "a proxy" : "another way") +
                ", which Stampede does not send; remove it to import";
        return false;
    } else
        r.notTaken.push_back(v.empty() ? written : written + " " + v);
    return true;
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
    bool head = false, get = false;
    for (std::size_t i = 1; i < t.size(); ++i) {
        const std::string& a = t[i];
        if (a.size() < 2 || a[0] != '-') {
            if (!r.url.empty()) {
                error = "a second URL \"" + a + "\": import one request at a time";
                return std::nullopt;
            }
            r.url = a;
            continue;
        }
        // -abc: short options joined; one that takes a value takes the rest of the word (-XPOST)
        std::vector<std::pair<std::string, std::string>> opts; // (written, value)
        if (a[1] == '-') {
            opts.push_back({a, {}});
        } else {
            for (std::size_t k = 1; k < a.size(); ++k) {
                const std::string name = std::string("-") + a[k];
                const curloptions::Option* o = findOption(name);
                if (o && o->takesValue && k + 1 < a.size()) {
                    opts.push_back({name, a.substr(k + 1)});
                    opts.back().second.insert(0, 1, '\0'); // marks a value given in the word
                    break;
                }
                opts.push_back({name, {}});
            }
        }
        for (auto& [written, inWord] : opts) {
            const curloptions::Option* o = findOption(written);
            if (!o) {
                error = "\"" + written + "\" is not a curl option";
                return std::nullopt;
            }
            std::string value;
            if (!inWord.empty())
                value = inWord.substr(1);
            else if (o->takesValue) {
                if (i + 1 >= t.size()) {
                    error = written + " needs a value";
                    return std::nullopt;
                }
                value = t[++i];
            }
            if (!apply(longForm(written), written, value, r, head, get, error))
                return std::nullopt;
        }
    }
    if (r.url.empty()) {
        error = "the curl command has no URL";
        return std::nullopt;
    }
    if (r.url.find("://") == std::string::npos)
        r.url = "http://" + r.url;
    if (!r.form.empty() && !r.body.empty()) {
        error = "-F and -d together: curl refuses them too";
        return std::nullopt;
    }
    if (get && !r.body.empty()) { // -G: the data goes into the query
        r.url += (r.url.find('?') == std::string::npos ? "?" : "&") + r.body;
        r.body.clear();
    }
    if (!r.body.empty() && !hasHeader(r, "content-type"))
        addHeader(r, "Content-Type", "application/x-www-form-urlencoded");
    if (r.method.empty())
        r.method = head ? "HEAD" : get ? "GET" : (r.body.empty() && r.form.empty() ? "GET" : "POST");
    return r;
}

std::string toCurl(const CurlRequest& r)
{
    std::string out = "curl";
    const bool sendsBody = !r.body.empty() || !r.form.empty() || !r.bodyFile.empty(); // curl then POSTs
    if (r.method != "GET" && !(r.method == "POST" && sendsBody))
        out += " -X " + (std::all_of(r.method.begin(), r.method.end(),
                                     [](unsigned char c) { return std::isalnum(c) || c == '-' || c == '_'; }) &&
                                 !r.method.empty()
                             ? r.method
                             : quote(r.method));
    out += " " + quote(r.url);
    for (const auto& [n, v] : r.headers)
        out += " -H " + quote(n + ": " + v);
    if (!r.body.empty())
        out += " --data-raw " + quote(r.body);
    if (!r.bodyFile.empty())
        out += " --data-binary " + quote("@" + r.bodyFile);
    for (std::size_t k = 0; k < r.form.size(); ++k) {
        bool file = false;
        for (const auto& [field, path] : r.formFiles)
            if (field == k) {
                out += " -F " + quote(r.form[k].first + "=@" + path);
                file = true;
            }
        if (!file)
            out += " -F " + quote(r.form[k].first + "=" + r.form[k].second);
    }
    return out;
}

} // namespace stampede
