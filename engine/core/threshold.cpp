#include "threshold.h"

#include <cctype>

#include "durationtext.h"
#include "text.h"

#include <charconv>
#include <cmath>

namespace stampede {

namespace {
std::string_view trim(std::string_view s)
{
    return trimSpaces(s);
}
} // namespace

namespace {

// "baseline[(N)] [(+|-) K sigma] [(= VALUE ...)]" after the operator.
std::optional<Threshold> parseBaseline(Threshold t, std::string_view value, std::string& error)
{
    const auto bad = [&](const std::string& why) {
        error = "\"" + t.expr + "\": " + why;
        return std::nullopt;
    };
    if (t.metric == Threshold::Metric::Server || t.metric == Threshold::Metric::AgentCpu ||
        t.metric == Threshold::Metric::Checks || t.metric == Threshold::Metric::MessagesReceived)
        return bad("a baseline judges latencies, rate, message_rate and error_rate");
    Threshold::Baseline b;
    std::string_view rest = trim(value.substr(8));
    if (!rest.empty() && rest.front() == '(' && rest.find(')') != std::string_view::npos &&
        (rest.size() < 2 || rest[1] != '=')) {
        const std::string_view n = trim(rest.substr(1, rest.find(')') - 1));
        std::uint32_t runs = 0;
        const auto r = std::from_chars(n.data(), n.data() + n.size(), runs);
        if (r.ec != std::errc() || r.ptr != n.data() + n.size() || runs < kMinBaselineRuns || runs > kMaxBaselineRuns)
            return bad("baseline(N): N is the runs it is made of, " + std::to_string(kMinBaselineRuns) + " to " +
                       std::to_string(kMaxBaselineRuns));
        b.runs = runs;
        rest = trim(rest.substr(rest.find(')') + 1));
    }
    if (!rest.empty() && (rest.front() == '+' || rest.front() == '-')) {
        const double sign = rest.front() == '-' ? -1 : 1;
        rest = trim(rest.substr(1));
        std::size_t end = 0;
        while (end < rest.size() && (std::isdigit(static_cast<unsigned char>(rest[end])) || rest[end] == '.'))
            ++end;
        double k = 0;
        const auto r = std::from_chars(rest.data(), rest.data() + end, k);
        std::string_view unit = trim(rest.substr(end));
        const std::size_t unitEnd = std::min(unit.find(' '), unit.find('('));
        const std::string_view word = unit.substr(0, unitEnd);
        if (end == 0 || r.ec != std::errc() || r.ptr != rest.data() + end || !(k >= 0) || k > 100 ||
            (word != "sigma" && word != "\xcf\x83"))
            return bad("expected baseline + K sigma, e.g. \"p99 < baseline + 3 sigma\"");
        b.sigmas = sign * k;
        rest = trim(unit.substr(word.size()));
    }
    if (!rest.empty()) { // a resolved one: "(= 47.52ms: ...)" or "(= 0.0012: ...)", its limit in the threshold's units
        if (rest.substr(0, 2) != "(=" || rest.back() != ')')
            return bad("expected baseline + K sigma, e.g. \"p99 < baseline + 3 sigma\"");
        std::string_view num = trim(rest.substr(2, rest.size() - 3));
        num = num.substr(0, std::min(num.find(':'), num.size()));
        num = trim(num);
        double v = 0;
        const bool ms = num.size() > 2 && num.substr(num.size() - 2) == "ms";
        const bool perSecond = num.size() > 2 && num.substr(num.size() - 2) == "/s";
        const std::string_view digits = ms || perSecond ? num.substr(0, num.size() - 2) : num;
        const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v);
        if (r.ec != std::errc() || r.ptr != digits.data() + digits.size())
            return bad("\"" + std::string(num) + "\" is not the baseline's value");
        t.limit = v;
        b.resolved = true;
    }
    t.baseline = b;
    return t;
}

} // namespace

std::optional<Threshold> Threshold::parse(std::string_view text, std::string& error)
{
    Threshold t;
    t.expr = std::string(trim(text));
    // check "NAME": the name is quoted (it may hold a colon, < or >)
    std::size_t searchFrom = 0, checkAt = text.find("check \"");
    if (checkAt != std::string_view::npos) {
        const std::size_t close = text.find('"', checkAt + 7);
        if (close == std::string_view::npos || close == checkAt + 7) {
            error = "\"" + t.expr + "\": name the check in quotes, e.g. check \"code is 0\" > 99.9%";
            return std::nullopt;
        }
        t.check = std::string(text.substr(checkAt + 7, close - checkAt - 7));
        searchFrom = close + 1;
    }
    const std::size_t opPos = text.find_first_of("<>", searchFrom);
    if (opPos == std::string_view::npos) {
        error = "\"" + t.expr + "\": expected METRIC < VALUE, e.g. \"p99 < 200ms\"";
        return std::nullopt;
    }
    const bool orEqual = opPos + 1 < text.size() && text[opPos + 1] == '=';
    t.op = text[opPos] == '<' ? (orEqual ? Op::LessEqual : Op::Less) : (orEqual ? Op::GreaterEqual : Op::Greater);
    std::string_view metric = trim(text.substr(0, opPos));
    const std::string_view value = trim(text.substr(opPos + (orEqual ? 2 : 1)));
    if (metric.substr(0, 7) == "server:") { // the target's own metric, as read: a plain number
        t.metric = Metric::Server;
        t.server = std::string(trim(metric.substr(7)));
        const std::string_view num = value;
        const auto r = std::from_chars(num.data(), num.data() + num.size(), t.limit);
        if (t.server.empty() || r.ec != std::errc() || r.ptr != num.data() + num.size()) {
            error = "\"" + t.expr + "\": " +
                    (t.server.empty() ? std::string("name the server metric, e.g. server:db_cpu > 80")
                                      : "\"" + std::string(value) + "\" is not a number");
            return std::nullopt;
        }
        return t;
    }
    if (!t.check.empty()) { // [STEP:] check "NAME"
        std::string_view before = trim(text.substr(0, checkAt));
        if (!before.empty() && before.back() != ':') {
            error = "\"" + t.expr + "\": expected [STEP:] check \"NAME\" > SHARE, e.g. check \"code is 0\" > 99.9%";
            return std::nullopt;
        }
        if (!before.empty())
            before = trim(before.substr(0, before.size() - 1));
        if (!before.empty() || checkAt > 0)
            t.step = std::string(before);
        if (t.step.empty() && checkAt > 0 && !trim(text.substr(0, checkAt)).empty()) {
            error = "\"" + t.expr + "\": name a step before the colon, e.g. \"login: p99 < 300ms\"";
            return std::nullopt;
        }
        metric = "checks";
    } else if (const std::size_t colon = metric.rfind(':'); colon != std::string_view::npos) {
        t.step = std::string(trim(metric.substr(0, colon)));
        metric = trim(metric.substr(colon + 1));
        if (t.step.empty()) {
            error = "\"" + t.expr + "\": name a step before the colon, e.g. \"login: p99 < 300ms\"";
            return std::nullopt;
        }
    }
    struct Name
    {
        std::string_view name;
        Metric metric;
    };
    static const Name names[] = {{"p50", Metric::P50},
                                 {"p90", Metric::P90},
                                 {"p95", Metric::P95},
                                 {"p99", Metric::P99},
                                 {"p999", Metric::P999},
                                 {"p99.9", Metric::P999},
                                 {"max", Metric::Max},
                                 {"error_rate", Metric::ErrorRate},
                                 {"rate", Metric::Rate},
                                 {"min", Metric::Min},
                                 {"mean", Metric::Mean},
                                 {"checks", Metric::Checks},
                                 {"agent_cpu", Metric::AgentCpu},
                                 {"messages_received", Metric::MessagesReceived},
                                 {"message_rate", Metric::MessageRate},
                                 {"message_p50", Metric::MessageP50},
                                 {"message_p90", Metric::MessageP90},
                                 {"message_p95", Metric::MessageP95},
                                 {"message_p99", Metric::MessageP99},
                                 {"message_max", Metric::MessageMax}};
    bool found = false;
    for (const auto& n : names) {
        if (n.name == metric) {
            t.metric = n.metric;
            found = true;
        }
    }
    if (!found) {
        error = "\"" + t.expr + "\": unknown metric \"" + std::string(metric) +
                "\" (p50, p90, p95, p99, p999, max, min, mean, error_rate, rate, checks, agent_cpu, messages_received, "
                "message_rate, message_p50 ... message_p99, message_max)";
        return std::nullopt;
    }
    if (trim(value).substr(0, 8) == "baseline")
        return parseBaseline(t, trim(value), error);
    if (t.isFraction()) {
        double v = 0;
        const bool percent = !value.empty() && value.back() == '%';
        const std::string_view num = percent ? trim(value.substr(0, value.size() - 1)) : value;
        const auto r = std::from_chars(num.data(), num.data() + num.size(), v);
        if (r.ec != std::errc() || r.ptr != num.data() + num.size() || v < 0 || (percent ? v > 100 : v > 1)) {
            error = "\"" + t.expr + "\": \"" + std::string(value) + "\" is not a share such as " +
                    (t.metric == Metric::Checks     ? "99%"
                     : t.metric == Metric::AgentCpu ? "90%"
                                                    : "0.1%");
            return std::nullopt;
        }
        t.limit = percent ? v / 100.0 : v;
    } else if (t.metric == Metric::MessagesReceived) {
        std::uint64_t v = 0;
        const auto r = std::from_chars(value.data(), value.data() + value.size(), v);
        if (r.ec != std::errc() || r.ptr != value.data() + value.size()) {
            error = "\"" + t.expr + "\": \"" + std::string(value) + "\" is not a count such as 1000";
            return std::nullopt;
        }
        t.limit = double(v);
    } else if (t.metric == Metric::Rate || t.metric == Metric::MessageRate) {
        double v = 0;
        std::string_view num = value;
        if (num.size() > 2 && num.substr(num.size() - 2) == "/s")
            num = trim(num.substr(0, num.size() - 2));
        const auto r = std::from_chars(num.data(), num.data() + num.size(), v);
        if (r.ec != std::errc() || r.ptr != num.data() + num.size() || v < 0) {
            error = "\"" + t.expr + "\": \"" + std::string(value) + "\" is not a rate such as 1000/s";
            return std::nullopt;
        }
        t.limit = v;
    } else {
        const auto d = parseDuration(value);
        if (!d || *d < 0 || value.find_first_not_of("0123456789.") == std::string_view::npos) {
            error = "\"" + t.expr + "\": \"" + std::string(value) + "\" is not a duration such as 200ms";
            return std::nullopt;
        }
        t.limit = double(*d) / 1e6;
    }
    return t;
}

bool Threshold::holds(double value) const
{
    switch (op) {
    case Op::Less:
        return value < limit;
    case Op::LessEqual:
        return value <= limit;
    case Op::Greater:
        return value > limit;
    case Op::GreaterEqual:
        return value >= limit;
    }
    return false;
}

} // namespace stampede
