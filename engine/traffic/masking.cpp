#include "masking.h"

#include "core/text.h"
#include "jsonscan.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace stampede {

using jsonscan::skipSpace;
using jsonscan::stringEnd;
using jsonscan::valueEnd;

namespace {

struct Preset
{
    const char* name;
    std::vector<const char*> rules;
};

// The names of secrets in queries, forms and JSON bodies.
#define STAMPEDE_SECRET_NAMES                                                                                          \
    "token|access_token|refresh_token|id_token|password|passwd|secret|client_secret|api_key|apikey|sign|signature"

// In this order: an ID card number is hashed before the bank-card pattern could take it.
const Preset kPresets[] = {
    {"cn-id",
     {"regex:(?<![0-9])[1-9][0-9]{5}(?:19|20)[0-9]{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01])[0-9]{3}"
      "[0-9Xx](?![0-9A-Za-z])=hash"}},
    {"bank-card", {"regex:(?<![0-9])(?:62|4[0-9]|5[1-5])[0-9]{14,17}(?![0-9])=hash"}},
    {"cn-mobile", {"regex:(?<![0-9])(?:\\+?86[- ]?)?1[3-9][0-9]{9}(?![0-9])=hash"}},
    {"email", {"regex:[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}=hash"}},
    {"bearer", {"regex:(?i)bearer\\s+([A-Za-z0-9._~+/=-]+)=hash"}},
    {"secrets",
     {"query:" STAMPEDE_SECRET_NAMES "=hash", "form:" STAMPEDE_SECRET_NAMES "=hash",
      "json:" STAMPEDE_SECRET_NAMES "=hash"}},
    {"cookies", {"cookie:*=hash"}},
    // credentials sent as headers, whatever their scheme (Basic, Digest, a key): the whole value
    {"credentials",
     {"header:authorization|proxy-authorization|x-api-key|api-key|apikey|*token*|*secret*|*password*=hash"}},
};
#undef STAMPEDE_SECRET_NAMES

std::string percentDecode(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && hexDigit(s[i + 1]) >= 0 && hexDigit(s[i + 2]) >= 0) {
            out += char(hexDigit(s[i + 1]) * 16 + hexDigit(s[i + 2]));
            i += 2;
        } else
            out += s[i] == '+' ? ' ' : s[i];
    }
    return out;
}

bool allDigits(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace

const std::vector<std::string>& defaultMasks()
{
    static const std::vector<std::string> rules = [] {
        std::vector<std::string> r;
        for (const Preset& p : kPresets)
            r.push_back(std::string("preset:") + p.name);
        return r;
    }();
    return rules;
}

bool parseMasks(const std::vector<std::string>& texts, std::vector<MaskRule>& out, std::string& error,
                std::size_t* failed)
{
    for (std::size_t i = 0; i < texts.size(); ++i) {
        auto parsed = MaskRule::parse(texts[i], error);
        if (parsed.empty()) {
            if (failed)
                *failed = i;
            return false;
        }
        out.insert(out.end(), parsed.begin(), parsed.end());
    }
    return true;
}

std::vector<std::string> masksToUse(const std::vector<std::string>& given, bool noMask)
{
    return noMask ? std::vector<std::string>{} : given.empty() ? defaultMasks() : given;
}

bool MaskRule::named(std::string_view n) const
{
    // "*part*": any name holding `part` (a header's, as written lower-case)
    const auto matches = [n](std::string_view p) {
        if (p.size() > 2 && p.front() == '*' && p.back() == '*')
            return n.find(p.substr(1, p.size() - 2)) != std::string_view::npos;
        return n == p;
    };
    if (names.empty())
        return matches(name);
    return std::any_of(names.begin(), names.end(), matches);
}

const std::vector<std::string>& maskPresets()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> n;
        for (const Preset& p : kPresets)
            n.emplace_back(p.name);
        return n;
    }();
    return names;
}

std::vector<MaskRule> MaskRule::parse(std::string_view text, std::string& error)
{
    if (text.rfind("preset:", 0) == 0) {
        const std::string_view name = text.substr(7);
        for (const Preset& p : kPresets) {
            if (name != p.name)
                continue;
            std::vector<MaskRule> rules;
            for (const char* rule : p.rules) {
                auto one = parse(rule, error);
                for (MaskRule& r : one)
                    r.text.assign(text); // the preview counts a preset's changes under its name
                rules.insert(rules.end(), one.begin(), one.end());
            }
            return rules;
        }
        std::string known;
        for (const auto& n : maskPresets())
            known += (known.empty() ? "" : ", ") + n;
        error = "--mask \"" + std::string(text) + "\": no preset \"" + std::string(name) + "\" (" + known + ")";
        return {};
    }
    MaskRule r;
    r.text.assign(text);
    const std::size_t colon = text.find(':');
    const std::string_view field = text.substr(0, colon);
    static const std::pair<const char*, Field> kFields[] = {{"query", Field::Query},   {"header", Field::Header},
                                                            {"json", Field::JsonKey},  {"form", Field::Form},
                                                            {"cookie", Field::Cookie}, {"regex", Field::Regex}};
    bool known = false;
    for (const auto& [n, f] : kFields)
        if (field == n) {
            r.field = f;
            known = true;
        }
    if (colon == std::string_view::npos || !known) {
        error = "--mask \"" + std::string(text) +
                "\": expected FIELD:NAME=ACTION with FIELD query, header, json, form, cookie or regex "
                "(or preset:NAME)";
        return {};
    }
    std::string_view rest = text.substr(colon + 1);
    std::size_t eq;
    if ((eq = rest.rfind("=replace:")) != std::string_view::npos) {
        r.action = Action::Replace;
        r.replacement.assign(rest.substr(eq + 9));
    } else if (rest.size() >= 5 && rest.substr(rest.size() - 5) == "=hash") {
        eq = rest.size() - 5;
        r.action = Action::Hash;
    } else if (rest.size() >= 5 && rest.substr(rest.size() - 5) == "=drop") {
        eq = rest.size() - 5;
        r.action = Action::Drop;
    } else {
        error = "--mask \"" + std::string(text) + "\": the action is hash, drop or replace:TEXT (after \"=\")";
        return {};
    }
    r.name.assign(rest.substr(0, eq));
    if (r.name.empty()) {
        error = "--mask \"" + std::string(text) + "\": no name before \"=\"";
        return {};
    }
    if (r.field == Field::Header)
        std::transform(r.name.begin(), r.name.end(), r.name.begin(), [](char c) { return char(std::tolower(c)); });
    if (r.field != Field::Regex && r.name.find('|') != std::string::npos) {
        for (std::size_t from = 0; from <= r.name.size();) {
            const std::size_t bar = std::min(r.name.find('|', from), r.name.size());
            if (bar > from)
                r.names.push_back(r.name.substr(from, bar - from));
            from = bar + 1;
        }
    }
    if (r.field == Field::Regex) {
        std::string why;
        r.regex = Regex::compile(r.name, why);
        if (!r.regex) {
            error = "--mask \"" + std::string(text) + "\": " + why;
            return {};
        }
    }
    return {r};
}

Masker::Masker(std::vector<MaskRule> rules, std::string key) : m_rules(std::move(rules)), m_key(std::move(key)) {}

std::string Masker::hash(std::string_view value) const
{
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    HMAC(EVP_sha256(), m_key.data(), int(m_key.size()), reinterpret_cast<const unsigned char*>(value.data()),
         value.size(), mac, &length);
    // digits stay digits of the same length (a first digit that was not 0 is not 0)
    const bool idLike = value.size() > 1 && allDigits(value.substr(0, value.size() - 1)) &&
                        (value.back() == 'X' || value.back() == 'x');
    if (allDigits(value) || idLike) {
        std::string out(value.size(), '0');
        const std::size_t n = idLike ? value.size() - 1 : value.size();
        for (std::size_t i = 0; i < n; ++i)
            out[i] = char('0' + (mac[i % length] + i / length * 7) % 10);
        if (value[0] != '0' && out[0] == '0')
            out[0] = char('1' + mac[0] % 9);
        if (idLike)
            out.back() = value.back();
        if (value.size() == 11 && value[0] == '1') // a mobile number keeps its network prefix: still a valid number
            out.replace(0, 3, value.substr(0, 3));
        return out;
    }
    static const char* kHex = "0123456789abcdef";
    std::string hex = "h_";
    for (int i = 0; i < 8; ++i) {
        hex += kHex[mac[i] >> 4];
        hex += kHex[mac[i] & 15];
    }
    if (value.find('@') != std::string_view::npos) // an e-mail address stays one
        hex += "@masked.invalid";
    return hex;
}

std::string Masker::act(const MaskRule& rule, std::string_view value) const
{
    return rule.action == MaskRule::Action::Hash      ? hash(value)
           : rule.action == MaskRule::Action::Replace ? rule.replacement
                                                      : std::string();
}

// name=value pairs separated by '&' (a query string or a form body).
std::size_t Masker::query(const MaskRule& rule, std::string& text) const
{
    std::string out;
    std::size_t changed = 0;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        std::size_t amp = text.find('&', pos);
        if (amp == std::string::npos)
            amp = text.size();
        const std::string_view pair(text.data() + pos, amp - pos);
        const std::size_t eq = pair.find('=');
        const std::string_view name = pair.substr(0, eq);
        std::string piece(pair);
        if (!pair.empty() && (rule.named(name) || rule.named(percentDecode(name)))) {
            ++changed;
            if (rule.action == MaskRule::Action::Drop)
                piece.clear();
            else
                piece = std::string(name) + "=" +
                        percentEncode(act(rule, eq == std::string_view::npos ? "" : percentDecode(pair.substr(eq + 1))),
                                      "-_.~*@");
        }
        if (!piece.empty())
            out += (out.empty() ? "" : "&") + piece;
        pos = amp + 1;
    }
    if (changed)
        text = std::move(out);
    return changed;
}

std::size_t Masker::form(const MaskRule& rule, std::string& body) const
{
    return query(rule, body);
}

// Every member named rule.name, at any depth.
std::size_t Masker::json(const MaskRule& rule, std::string& body) const
{
    std::size_t changed = 0;
    for (std::size_t i = 0; i < body.size(); ++i) {
        if (body[i] != '"')
            continue;
        const std::size_t keyEnd = stringEnd(body, i);
        if (keyEnd == std::string::npos)
            break;
        const std::size_t colon = skipSpace(body, keyEnd);
        if (colon >= body.size() || body[colon] != ':') {
            i = keyEnd - 1; // a string value, not a key
            continue;
        }
        const std::string_view key(body.data() + i + 1, keyEnd - i - 2);
        const std::size_t valueAt = skipSpace(body, colon + 1);
        const std::size_t end = valueEnd(body, valueAt);
        if (end == std::string::npos)
            break;
        if (!rule.named(key)) {
            i = colon; // into the value: nested keys are members too
            continue;
        }
        ++changed;
        if (rule.action == MaskRule::Action::Drop) {
            // the member and one comma beside it
            std::size_t from = i, to = skipSpace(body, end);
            if (to < body.size() && body[to] == ',') {
                to = skipSpace(body, to + 1);
            } else {
                std::size_t back = from;
                while (back > 0 && (body[back - 1] == ' ' || body[back - 1] == '\n' || body[back - 1] == '\t' ||
                                    body[back - 1] == '\r'))
                    --back;
                if (back > 0 && body[back - 1] == ',')
                    from = back - 1;
                to = end;
            }
            body.erase(from, to - from);
            i = from - 1; // the loop's ++ comes back to `from` (from npos when it is 0)
            continue;
        }
        const std::string_view raw(body.data() + valueAt, end - valueAt);
        std::string replacement;
        if (rule.action == MaskRule::Action::Hash && !raw.empty() && raw.front() == '"')
            replacement = jsonString(hash(raw.substr(1, raw.size() - 2)));
        else if (rule.action == MaskRule::Action::Hash && allDigits(raw))
            replacement = hash(raw); // a number stays a number
        else
            replacement = jsonString(act(rule, raw));
        body.replace(valueAt, end - valueAt, replacement);
        i = valueAt + replacement.size() - 1;
    }
    return changed;
}

std::size_t Masker::cookies(const MaskRule& rule, TrafficRecord& r) const
{
    std::size_t changed = 0;
    for (auto& [name, value] : r.headers) {
        if (name != "cookie")
            continue;
        std::string out;
        std::size_t pos = 0;
        while (pos < value.size()) {
            std::size_t semi = value.find(';', pos);
            if (semi == std::string::npos)
                semi = value.size();
            std::string_view pair(value.data() + pos, semi - pos);
            while (!pair.empty() && pair.front() == ' ')
                pair.remove_prefix(1);
            const std::size_t eq = pair.find('=');
            const std::string_view cookie = pair.substr(0, eq);
            std::string piece(pair);
            if (!pair.empty() && (rule.name == "*" || rule.named(cookie))) {
                ++changed;
                piece = rule.action == MaskRule::Action::Drop
                            ? std::string()
                            : std::string(cookie) + "=" +
                                  act(rule, eq == std::string_view::npos ? "" : pair.substr(eq + 1));
            }
            if (!piece.empty())
                out += (out.empty() ? "" : "; ") + piece;
            pos = semi + 1;
        }
        value = std::move(out);
    }
    return changed;
}

std::size_t Masker::regex(const MaskRule& rule, std::string& text) const
{
    std::size_t changed = 0, from = 0, start = 0, end = 0;
    while (from <= text.size() && rule.regex->find(text, from, 1, start, end)) {
        const std::string replacement = act(rule, std::string_view(text).substr(start, end - start));
        text.replace(start, end - start, replacement);
        ++changed;
        from = std::max(start + replacement.size(), start + 1);
    }
    return changed;
}

std::size_t Masker::apply(TrafficRecord& r, std::vector<std::size_t>* perRule) const
{
    std::size_t total = 0;
    if (perRule)
        perRule->assign(m_rules.size(), 0);
    for (std::size_t i = 0; i < m_rules.size(); ++i) {
        const MaskRule& rule = m_rules[i];
        std::size_t changed = 0;
        switch (rule.field) {
        case MaskRule::Field::Query: {
            const std::size_t q = r.target.find('?');
            if (q == std::string::npos)
                break;
            std::string qs = r.target.substr(q + 1);
            const std::size_t n = query(rule, qs);
            if (n)
                r.target = r.target.substr(0, qs.empty() ? q : q + 1) + qs;
            changed += n;
            break;
        }
        case MaskRule::Field::Header:
            for (auto it = r.headers.begin(); it != r.headers.end();) {
                if (!rule.named(asciiLower(it->first))) {
                    ++it;
                    continue;
                }
                ++changed;
                if (rule.action == MaskRule::Action::Drop) {
                    it = r.headers.erase(it);
                    continue;
                }
                it->second = act(rule, it->second);
                ++it;
            }
            if (rule.name == "host" && rule.action != MaskRule::Action::Drop && !r.host.empty())
                r.host = act(rule, r.host);
            break;
        case MaskRule::Field::JsonKey:
            changed += json(rule, r.body);
            break;
        case MaskRule::Field::Form:
            changed += form(rule, r.body);
            break;
        case MaskRule::Field::Cookie:
            changed += cookies(rule, r);
            break;
        case MaskRule::Field::Regex:
            changed += regex(rule, r.target);
            for (auto& [name, value] : r.headers)
                changed += regex(rule, value);
            changed += regex(rule, r.body);
            break;
        }
        if (perRule)
            (*perRule)[i] = changed;
        total += changed;
    }
    return total;
}

} // namespace stampede
