#include "replayplan.h"

#include "core/number.h"
#include "core/parametersource.h"
#include "core/random.h"
#include "core/text.h"

#include "jsonscan.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <random>

namespace stampede {

namespace {

// A generator's fresh value (${$guid}, ${$randomInt}...): drawn apart for each copy.
std::string generated(std::string_view name)
{
    thread_local std::uint64_t seed = std::random_device{}() * 0x9E3779B97F4A7C15ULL;
    const ParameterSourcePtr source = dynamicVariable(name);
    if (!source)
        return {};
    const SourceCursorPtr cursor = source->cursor(0, 1, ++seed);
    return cursor && cursor->next(0) ? std::string(cursor->value(-1)) : std::string();
}

// The suffix of copy k: ${copy} is k, ${$stressTag} the run's tag, a generator its fresh value.
std::string withCopy(const ReplayOffset& o, std::uint32_t k)
{
    const std::string& suffix = o.suffix;
    std::string out;
    for (std::size_t at = 0;;) {
        const std::size_t open = suffix.find("${", at);
        const std::size_t close = open == std::string::npos ? open : suffix.find('}', open);
        if (close == std::string::npos) {
            out.append(suffix, at);
            return out;
        }
        out.append(suffix, at, open - at);
        const std::string_view name = std::string_view(suffix).substr(open + 2, close - open - 2);
        out += name == "copy" ? std::to_string(k) : name == "$stressTag" ? o.stressTag : generated(name);
        at = close + 1;
    }
}

std::optional<std::int64_t> integer(std::string_view s)
{
    std::int64_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
        return std::nullopt;
    return v;
}

// The value of copy k: a number plus k * add, or the value with the suffix.
std::string offsetValue(std::string_view value, const ReplayOffset& o, std::uint32_t k)
{
    if (o.suffix.empty())
        if (const auto n = integer(value))
            return std::to_string(*n + std::int64_t(k) * o.add);
    return std::string(value) + (o.suffix.empty() ? "-" + std::to_string(k) : withCopy(o, k));
}

bool hasQuery(const std::string& target, const std::string& key)
{
    const std::size_t q = target.find('?');
    if (q == std::string::npos)
        return false;
    for (std::size_t at = q; at != std::string::npos; at = target.find('&', at + 1)) {
        const std::string_view rest = std::string_view(target).substr(at + 1);
        if (rest.substr(0, key.size()) == key &&
            (rest.size() == key.size() || rest[key.size()] == '=' || rest[key.size()] == '&'))
            return true;
    }
    return false;
}

bool hasJsonKey(std::string body, const std::string& key)
{
    bool found = false;
    jsonscan::eachMember(body, [&](std::size_t keyAt, std::size_t valueAt, std::size_t) {
        found = found || std::string_view(body).substr(keyAt + 1, key.size() + 1) == key + "\"";
        return found ? body.size() : valueAt - 1;
    });
    return found;
}

void offsetQuery(std::string& target, const ReplayOffset& o, std::uint32_t k)
{
    const std::size_t q = target.find('?');
    if (q == std::string::npos)
        return;
    std::string out = target.substr(0, q + 1);
    std::size_t pos = q + 1;
    while (pos <= target.size()) {
        std::size_t amp = target.find('&', pos);
        if (amp == std::string::npos)
            amp = target.size();
        const std::string_view pair = std::string_view(target).substr(pos, amp - pos);
        const std::size_t eq = pair.find('=');
        if (pair.substr(0, eq) == o.key && eq != std::string_view::npos)
            out += o.key + "=" + offsetValue(pair.substr(eq + 1), o, k);
        else
            out += pair;
        if (amp < target.size())
            out += '&';
        pos = amp + 1;
    }
    target = std::move(out);
}

void offsetJson(std::string& body, const ReplayOffset& o, std::uint32_t k)
{
    jsonscan::eachMember(body, [&](std::size_t keyAt, std::size_t valueAt, std::size_t end) {
        if (std::string_view(body).substr(keyAt + 1, o.key.size() + 1) != o.key + "\"")
            return valueAt - 1; // nested members are looked at too
        const std::string_view raw = std::string_view(body).substr(valueAt, end - valueAt);
        std::string replacement;
        if (!raw.empty() && raw.front() == '"')
            replacement = "\"" + offsetValue(raw.substr(1, raw.size() - 2), o, k) + "\"";
        else if (integer(raw) && o.suffix.empty())
            replacement = offsetValue(raw, o, k);
        else
            return end - 1; // an object, array or literal: left as it is
        body.replace(valueAt, end - valueAt, replacement);
        return valueAt + replacement.size() - 1;
    });
}

} // namespace

std::string ReplayOffset::suffixProblem(const std::string& suffix)
{
    for (std::size_t at = 0; (at = suffix.find("${", at)) != std::string::npos;) {
        const std::size_t close = suffix.find('}', at);
        if (close == std::string::npos)
            return "an unclosed ${";
        const std::string name = suffix.substr(at + 2, close - at - 2);
        if (name != "copy" && name != "$stressTag" && !dynamicVariable(name))
            return "${" + name + "} is not ${copy}, ${$stressTag} or a generator such as ${$guid} or ${$randomInt}";
        at = close + 1;
    }
    return {};
}

std::optional<ReplayOffset> ReplayOffset::parse(const std::string& text, std::string& error)
{
    ReplayOffset o;
    o.text = text;
    const std::size_t colon = text.find(':');
    const std::string field = text.substr(0, colon);
    if (field == "query")
        o.field = Field::Query;
    else if (field == "json")
        o.field = Field::JsonKey;
    else if (field == "header")
        o.field = Field::Header;
    else {
        error = "--offset \"" + text + "\": expected query:KEY+N, json:KEY+N or header:KEY~SUFFIX";
        return std::nullopt;
    }
    const std::string rest = colon == std::string::npos ? std::string() : text.substr(colon + 1);
    const std::size_t plus = rest.find('+'), tilde = rest.find('~');
    if (tilde != std::string::npos && (plus == std::string::npos || tilde < plus)) {
        o.key = rest.substr(0, tilde);
        o.suffix = rest.substr(tilde + 1);
        if (o.suffix.empty()) {
            error = "--offset \"" + text + "\": no suffix after \"~\"";
            return std::nullopt;
        }
        if (const std::string why = suffixProblem(o.suffix); !why.empty()) {
            error = "--offset \"" + text + "\": " + why;
            return std::nullopt;
        }
    } else if (plus != std::string::npos) {
        o.key = rest.substr(0, plus);
        const auto n = integer(rest.substr(plus + 1));
        if (!n || *n == 0 || std::llabs(*n) > 1000000000000000LL) {
            error = "--offset \"" + text + "\": \"" + rest.substr(plus + 1) + "\" is not a whole number (not 0)";
            return std::nullopt;
        }
        o.add = *n;
    } else {
        error = "--offset \"" + text + "\": add a number (+N) or a suffix (~TEXT, ${copy} is the copy's number)";
        return std::nullopt;
    }
    if (o.key.empty()) {
        error = "--offset \"" + text + "\": no key";
        return std::nullopt;
    }
    if (o.field == Field::Header)
        std::transform(o.key.begin(), o.key.end(), o.key.begin(), [](char c) { return char(std::tolower(c)); });
    return o;
}

std::string checkReplay(const std::vector<TrafficRecord>& records, const ReplayOptions& o)
{
    if (!(o.speed > 0) || o.speed > kMaxReplaySpeed)
        return "--speed: must be above 0 and at most 1000";
    if (o.amplify < 1 || o.amplify > kMaxAmplify)
        return "--amplify: must be between 1 and 100";
    if (records.empty())
        return "the traffic has no request";
    for (const ReplayOffset& off : o.offsets) {
        const bool some = std::any_of(records.begin(), records.end(), [&](const TrafficRecord& r) {
            if (off.field == ReplayOffset::Field::Query)
                return hasQuery(r.target, off.key);
            if (off.field == ReplayOffset::Field::JsonKey)
                return hasJsonKey(r.body, off.key);
            return std::any_of(r.headers.begin(), r.headers.end(), [&](const auto& h) { return h.first == off.key; });
        });
        if (!some)
            return "--offset \"" + off.text + "\": no request of the traffic has " +
                   (off.field == ReplayOffset::Field::Query     ? "the query parameter \""
                    : off.field == ReplayOffset::Field::JsonKey ? "the JSON key \""
                                                                : "the header \"") +
                   off.key + "\"";
    }
    return {};
}

bool spreadWholeSeconds(std::vector<TrafficRecord>& records)
{
    constexpr std::int64_t kSecond = 1000000000;
    if (records.empty() ||
        std::any_of(records.begin(), records.end(), [](const TrafficRecord& r) { return r.atNanos % kSecond != 0; }))
        return false;
    for (std::size_t i = 0; i < records.size();) {
        std::size_t j = i;
        while (j < records.size() && records[j].atNanos == records[i].atNanos)
            ++j;
        const auto n = std::int64_t(j - i);
        for (std::int64_t k = 0; k < n; ++k)
            records[i + std::size_t(k)].atNanos += k * kSecond / n;
        i = j;
    }
    return true;
}

bool clientsByKey(std::vector<TrafficRecord>& records, const std::string& key, std::string& error)
{
    const std::size_t colon = key.find(':');
    const std::string field = key.substr(0, colon);
    std::string name = colon == std::string::npos ? std::string() : key.substr(colon + 1);
    if ((field != "query" && field != "header") || name.empty()) {
        error = "\"" + key + "\" is not query:NAME or header:NAME";
        return false;
    }
    if (field == "header")
        name = asciiLower(name);
    for (TrafficRecord& r : records) {
        if (field == "header") {
            for (const auto& [n, v] : r.headers)
                if (n == name && !v.empty())
                    r.client = v;
            continue;
        }
        const std::size_t q = r.target.find('?');
        for (std::size_t at = q; q != std::string::npos && at != std::string::npos; at = r.target.find('&', at + 1)) {
            const std::string_view rest = std::string_view(r.target).substr(at + 1);
            if (rest.substr(0, name.size() + 1) == name + "=") {
                const std::string_view value = rest.substr(name.size() + 1, rest.find('&') - name.size() - 1);
                if (!value.empty())
                    r.client = std::string(value);
                break;
            }
        }
    }
    return true;
}

TrafficRecord replayCopy(const TrafficRecord& r, std::uint32_t k, const std::vector<ReplayOffset>& offsets)
{
    TrafficRecord c = r;
    if (k == 0)
        return c;
    for (const ReplayOffset& o : offsets) {
        if (o.field == ReplayOffset::Field::Query)
            offsetQuery(c.target, o, k);
        else if (o.field == ReplayOffset::Field::JsonKey)
            offsetJson(c.body, o, k);
        else
            for (auto& [name, value] : c.headers)
                if (name == o.key)
                    value = offsetValue(value, o, k);
    }
    return c;
}

std::uint32_t replayPart(const std::string& client, std::uint32_t parts)
{
    std::uint64_t h = 1469598103934665603ULL; // FNV-1a
    for (const unsigned char c : client)
        h = (h ^ c) * 1099511628211ULL;
    return parts ? std::uint32_t(h % parts) : 0;
}

ReplaySchedule::ReplaySchedule(const std::vector<TrafficRecord>& records, const ReplayOptions& o, std::uint32_t part,
                               std::uint32_t parts)
    : m_amplify(std::max(1u, o.amplify)), m_loop(o.loop)
{
    if (records.empty())
        return;
    const std::int64_t t0 = records.front().atNanos; // every engine's origin: the whole traffic's first request
    for (std::size_t i = 0; i < records.size(); ++i) {
        // a client's requests stay together; without a client, requests spread one by one
        const std::uint32_t p =
            records[i].client.empty() ? std::uint32_t(i % std::max(1u, parts)) : replayPart(records[i].client, parts);
        if (p != part)
            continue;
        m_mine.push_back(i);
        m_at.push_back(std::llround(double(records[i].atNanos - t0) / o.speed));
    }
    const std::int64_t span = std::llround(double(records.back().atNanos - t0) / o.speed);
    // a loop starts again one mean interval after the last request
    m_length = span + std::max<std::int64_t>(1000000, span / std::int64_t(records.size()));
}

std::optional<ReplaySchedule::Due> ReplaySchedule::next(std::int64_t now)
{
    if (m_cursor == m_mine.size()) {
        if (!m_loop || m_mine.empty())
            return std::nullopt;
        m_cursor = 0;
        ++m_pass;
    }
    const std::int64_t at = m_at[m_cursor] + m_pass * m_length;
    if (at > now)
        return std::nullopt;
    Due d{m_mine[m_cursor], m_copy, at};
    if (++m_copy == m_amplify) {
        m_copy = 0;
        ++m_cursor;
    }
    return d;
}

std::optional<std::int64_t> ReplaySchedule::nextAt() const
{
    if (m_mine.empty() || (m_cursor == m_mine.size() && !m_loop))
        return std::nullopt;
    if (m_cursor == m_mine.size())
        return m_at.front() + (m_pass + 1) * m_length;
    return m_at[m_cursor] + m_pass * m_length;
}

std::uint64_t ReplaySchedule::plannedIn(std::uint32_t s) const
{
    if (m_mine.empty() || s == 0)
        return 0;
    const std::int64_t from = std::int64_t(s - 1) * 1000000000, to = std::int64_t(s) * 1000000000;
    std::uint64_t n = 0;
    const std::int64_t lastPass = m_loop ? to / m_length : 0;
    for (std::int64_t pass = m_loop ? std::max<std::int64_t>(0, from / m_length - 1) : 0; pass <= lastPass; ++pass) {
        const std::int64_t shift = pass * m_length;
        n += std::uint64_t(std::lower_bound(m_at.begin(), m_at.end(), to - shift) -
                           std::lower_bound(m_at.begin(), m_at.end(), from - shift));
    }
    return n * m_amplify;
}

bool ReplaySelection::parseStatus(std::string_view text, std::pair<int, int>& out, std::string& error)
{
    std::uint64_t a = 0, b = 0;
    std::string why;
    if (text.size() == 3 && (text[1] == 'x' || text[1] == 'X') && (text[2] == 'x' || text[2] == 'X') &&
        text[0] >= '1' && text[0] <= '5') {
        out = {(text[0] - '0') * 100, (text[0] - '0') * 100 + 99};
        return true;
    }
    const std::size_t dash = text.find('-');
    if (!parseWhole(text.substr(0, dash), "status", 0, 999, a, why) ||
        (dash != std::string_view::npos && !parseWhole(text.substr(dash + 1), "status", 0, 999, b, why))) {
        error = "status \"" + std::string(text) + "\": expected a code (200), a class (5xx) or a range (500-599)";
        return false;
    }
    if (dash == std::string_view::npos)
        b = a;
    if (b < a) {
        error = "status \"" + std::string(text) + "\": the range ends before it starts";
        return false;
    }
    out = {int(a), int(b)};
    return true;
}

bool ReplaySelection::selects() const
{
    return include || exclude || !methods.empty() || !statuses.empty() || samplePercent < 100;
}

std::size_t ReplaySelection::select(std::vector<TrafficRecord>& records) const
{
    if (!selects())
        return 0;
    const std::size_t before = records.size();
    std::size_t out = 0;
    for (std::size_t i = 0; i < records.size(); ++i) {
        const TrafficRecord& r = records[i];
        const std::string_view path = std::string_view(r.target).substr(0, r.target.find('?'));
        bool keep = (!include || include->search(path)) && (!exclude || !exclude->search(path));
        keep = keep && (methods.empty() || std::find(methods.begin(), methods.end(), r.method) != methods.end());
        keep = keep && (statuses.empty() || std::any_of(statuses.begin(), statuses.end(), [&](const auto& range) {
                            return r.status >= range.first && r.status <= range.second;
                        }));
        if (keep && samplePercent < 100) {
            // stable: the same requests on every engine and in every run of this set
            FastRandom rng(0x5A3D1E5ull + i);
            keep = double(rng.next() >> 11) * 0x1.0p-53 * 100 < samplePercent;
        }
        if (keep) {
            if (out != i)
                records[out] = std::move(records[i]);
            ++out;
        }
    }
    records.resize(out);
    return before - out;
}

void ReplaySelection::rewrite(std::vector<TrafficRecord>& records) const
{
    if (setHeaders.empty() && removeHeaders.empty() && host.empty())
        return;
    for (TrafficRecord& r : records) {
        std::erase_if(r.headers, [&](const auto& h) {
            return std::find(removeHeaders.begin(), removeHeaders.end(), h.first) != removeHeaders.end() ||
                   std::any_of(setHeaders.begin(), setHeaders.end(), [&](const auto& s) { return s.first == h.first; });
        });
        r.headers.insert(r.headers.end(), setHeaders.begin(), setHeaders.end());
        if (!host.empty())
            r.host = host;
    }
}

} // namespace stampede
