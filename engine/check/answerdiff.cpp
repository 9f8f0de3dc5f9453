#include "answerdiff.h"

#include "core/text.h"
#include "core/utf8.h"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace stampede {

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

const std::set<std::string>& volatileHeaders()
{
    static const std::set<std::string> h{
        "date",          "server", "connection", "keep-alive", "content-length", "transfer-encoding", "etag",
        "last-modified", "age",    "expires",    "set-cookie", "x-request-id",   "x-stress-tag"};
    return h;
}

// A path split into its steps: "$.a[0].b" -> a, [0], b ("[*]" and "*" match any).
std::vector<std::string> steps(const std::string& path)
{
    std::vector<std::string> out;
    std::size_t i = path.rfind('$', 0) == 0 ? 1 : 0;
    while (i < path.size()) {
        if (path[i] == '.') {
            const std::size_t end = path.find_first_of(".[", i + 1);
            out.push_back(path.substr(i + 1, end == std::string::npos ? std::string::npos : end - i - 1));
            i = end == std::string::npos ? path.size() : end;
        } else if (path[i] == '[') {
            const std::size_t end = path.find(']', i);
            if (end == std::string::npos)
                return {};
            out.push_back(path.substr(i, end - i + 1));
            i = end + 1;
        } else {
            return {};
        }
    }
    return out;
}

bool ignored(const std::vector<std::vector<std::string>>& ignore, const std::vector<std::string>& at)
{
    for (const auto& p : ignore) {
        if (p.size() != at.size())
            continue;
        bool all = true;
        for (std::size_t k = 0; k < p.size() && all; ++k)
            all = p[k] == at[k] || p[k] == "*" || (p[k] == "[*]" && !at[k].empty() && at[k][0] == '[');
        if (all)
            return true;
    }
    return false;
}

std::string pathText(const std::vector<std::string>& at)
{
    std::string s = "$";
    for (const std::string& step : at)
        s += step.empty() || step[0] != '[' ? "." + step : step;
    return s;
}

std::string shownValue(element e)
{
    std::string s = simdjson::minify(e);
    if (s.size() > 60)
        s = std::string(utf8Prefix(s, 57)) + "...";
    return s;
}

bool isNumber(element_type t)
{
    return t == element_type::INT64 || t == element_type::UINT64 || t == element_type::DOUBLE;
}

double number(element e)
{
    switch (e.type()) {
    case element_type::INT64:
        return double(int64_t(e));
    case element_type::UINT64:
        return double(uint64_t(e));
    default:
        return double(e);
    }
}

struct Walk
{
    const AnswerDiffRules& rules;
    std::vector<std::vector<std::string>> ignore;
    std::vector<std::string> at;
    std::string said;

    bool differ(const std::string& what)
    {
        said = pathText(at) + ": " + what;
        return true;
    }

    // True (with `said`) where `b` first differs from `a` (a: the first answer's).
    bool compare(element a, element b)
    {
        if (ignored(ignore, at))
            return false;
        const element_type ta = a.type(), tb = b.type();
        if (isNumber(ta) && isNumber(tb)) {
            const double x = number(a), y = number(b);
            if (x == y || std::fabs(x - y) <= rules.tolerance * std::max(std::fabs(x), std::fabs(y)))
                return false;
            return differ(shownValue(b) + ", first " + shownValue(a));
        }
        if (ta != tb)
            return differ(shownValue(b) + ", first " + shownValue(a));
        if (ta == element_type::ARRAY) {
            const auto xa = simdjson::dom::array(a), xb = simdjson::dom::array(b);
            if (xa.size() != xb.size())
                return differ(std::to_string(xb.size()) + " items, first " + std::to_string(xa.size()));
            std::size_t k = 0;
            for (auto ia = xa.begin(), ib = xb.begin(); ia != xa.end(); ++ia, ++ib, ++k) {
                at.push_back("[" + std::to_string(k) + "]");
                if (compare(*ia, *ib))
                    return true;
                at.pop_back();
            }
            return false;
        }
        if (ta == element_type::OBJECT) {
            const auto oa = simdjson::dom::object(a), ob = simdjson::dom::object(b);
            for (const auto field : oa) {
                at.emplace_back(field.key);
                element other;
                if (ob.at_key(field.key).get(other) != simdjson::SUCCESS) {
                    if (!ignored(ignore, at))
                        return differ("absent, first " + shownValue(field.value));
                } else if (compare(field.value, other)) {
                    return true;
                }
                at.pop_back();
            }
            for (const auto field : ob) {
                at.emplace_back(field.key);
                element other;
                if (oa.at_key(field.key).get(other) != simdjson::SUCCESS && !ignored(ignore, at))
                    return differ(shownValue(field.value) + ", absent in the first");
                at.pop_back();
            }
            return false;
        }
        if (simdjson::minify(a) == simdjson::minify(b))
            return false;
        return differ(shownValue(b) + ", first " + shownValue(a));
    }
};

const std::string* headerOf(const HeaderPairs& headers, const std::string& lowerName)
{
    for (const auto& [n, v] : headers)
        if (asciiLower(n) == lowerName)
            return &v;
    return nullptr;
}

std::string quotedShort(const std::string& s)
{
    return "\"" + utf8Escaped(utf8Prefix(s, 60)) + "\"";
}

std::string headerDifference(const AnswerDiffRules& rules, const HeaderPairs& a, const HeaderPairs& b)
{
    std::set<std::string> names;
    for (const auto& [n, v] : a)
        names.insert(asciiLower(n));
    for (const auto& [n, v] : b)
        names.insert(asciiLower(n));
    for (const std::string& n : names) {
        if (volatileHeaders().count(n) || rules.ignoreHeaders.count(n))
            continue;
        const std::string* x = headerOf(a, n);
        const std::string* y = headerOf(b, n);
        if (x && y && *x == *y)
            continue;
        return "header " + n + ": " + (y ? quotedShort(*y) : std::string("absent")) + ", first " +
               (x ? quotedShort(*x) : std::string("absent"));
    }
    return {};
}

std::string bodyDifference(const AnswerDiffRules& rules, const std::string& a, std::string_view b)
{
    if (a == b)
        return {};
    simdjson::dom::parser pa, pb;
    element ea, eb;
    if (pa.parse(a).get(ea) == simdjson::SUCCESS && pb.parse(b.data(), b.size()).get(eb) == simdjson::SUCCESS) {
        Walk w{rules, {}, {}, {}};
        for (const std::string& p : rules.ignorePaths)
            w.ignore.push_back(steps(p));
        return w.compare(ea, eb) ? w.said : std::string();
    }
    std::size_t from = 0;
    while (from < a.size() && from < b.size() && a[from] == b[from])
        ++from;
    return "body: " + std::to_string(b.size()) + " bytes, first " + std::to_string(a.size()) +
           ", differing from byte " + std::to_string(from);
}

} // namespace

bool parseDiffPath(const std::string& text, std::string& error)
{
    if (text.rfind("$", 0) != 0 || (text.size() > 1 && text[1] != '.' && text[1] != '[') || text.size() > 256) {
        error = "\"" + utf8Escaped(utf8Prefix(text, 60)) + "\" is not a JSON path ($.ts, $.items[*].id)";
        return false;
    }
    const std::vector<std::string> s = steps(text);
    const bool bad =
        (s.empty() && text != "$") || std::any_of(s.begin(), s.end(), [](const std::string& step) {
            if (step.empty())
                return true;
            if (step[0] != '[')
                return false;
            const std::string inner = step.substr(1, step.size() - 2);
            return inner != "*" && (inner.empty() || inner.find_first_not_of("0123456789") != std::string::npos);
        });
    if (bad) {
        error = "\"" + utf8Escaped(utf8Prefix(text, 60)) + "\" is not a JSON path ($.ts, $.items[*].id)";
        return false;
    }
    return true;
}

std::string answerDifference(const AnswerDiffRules& rules, const KeptAnswer& first, const AnswerView& second)
{
    std::string said;
    if (first.status != second.status)
        said = "status " + std::to_string(second.status) + ", first " + std::to_string(first.status);
    if (said.empty() && second.headers)
        said = headerDifference(rules, first.headers, *second.headers);
    if (said.empty())
        said = bodyDifference(rules, first.body, second.body);
    return std::string(utf8Prefix(utf8Escaped(said), 300));
}

} // namespace stampede
