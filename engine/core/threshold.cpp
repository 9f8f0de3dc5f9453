#include "threshold.h"

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
