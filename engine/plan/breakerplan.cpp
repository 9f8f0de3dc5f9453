#include "breakerplan.h"

#include "core/url.h"
#include "stampede/v1/scenario.pb.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace stampede {

namespace {

bool action(const google::protobuf::Value& v, const std::string& field, StepContext& ctx, BreakerRule& r)
{
    if (v.has_string_value() &&
        (v.string_value() == "warn" || v.string_value() == "stop" || v.string_value() == "rollback")) {
        r.action = v.string_value() == "warn"   ? BreakerRule::Action::Warn
                   : v.string_value() == "stop" ? BreakerRule::Action::Stop
                                                : BreakerRule::Action::Rollback;
        return true;
    }
    if (v.has_struct_value() && v.struct_value().fields().count("degrade") && v.struct_value().fields_size() == 1) {
        const auto& d = v.struct_value().fields().at("degrade");
        if (!d.has_number_value() || !(d.number_value() >= 1 && d.number_value() <= 90)) {
            ctx.error(field + ".degrade", "a percentage from 1 to 90");
            return false;
        }
        r.action = BreakerRule::Action::Degrade;
        r.degradePercent = d.number_value();
        return true;
    }
    ctx.error(field, "give \"warn\", \"stop\", \"rollback\" or {\"degrade\": PERCENT}");
    return false;
}

bool rule(const v1::BreakerRule& in, const std::string& field, const ScenarioPlan& plan, StepContext& ctx,
          BreakerRule& r)
{
    std::string error;
    auto when = Threshold::parse(in.when(), error);
    if (!when) {
        ctx.error(field + ".when", in.when().empty() ? "a rule needs a condition, e.g. \"p99 > 300ms\"" : error);
        return false;
    }
    r.when = *when;
    if (!knownServerMetric(r.when, plan, field + ".when", ctx))
        return false;
    if (!in.step().empty()) {
        if (!r.when.step.empty() && r.when.step != in.step()) {
            ctx.error(field + ".step", "the condition names another step (\"" + r.when.step + "\")");
            return false;
        }
        r.when.step = in.step();
    }
    const std::vector<std::string> names = plan.measuredNames(); // steps, and "group NAME"s
    if (!r.when.step.empty() && std::find(names.begin(), names.end(), r.when.step) == names.end()) {
        ctx.error(field + ".step", "no step is named \"" + r.when.step + "\"");
        return false;
    }
    r.name = in.name().empty() ? in.when() : in.name();
    if (in.has_window()) {
        const Nanos w = toNanos(in.window());
        if (w < kNanosPerSecond || w % kNanosPerSecond != 0 || w > Nanos(BreakerRule::kMaxWindow) * kNanosPerSecond) {
            ctx.error(field + ".window",
                      "a window is whole seconds, from 1s to " + std::to_string(BreakerRule::kMaxWindow) + "s");
            return false;
        }
        r.window = std::uint32_t(w / kNanosPerSecond);
    }
    if (in.consecutive() > BreakerRule::kMaxConsecutive) {
        ctx.error(field + ".consecutive", "at most " + std::to_string(BreakerRule::kMaxConsecutive));
        return false;
    }
    r.consecutive = std::max(1u, in.consecutive());
    return action(in.action(), field + ".action", ctx, r);
}

} // namespace

bool knownServerMetric(const Threshold& t, const ScenarioPlan& plan, const std::string& field, StepContext& ctx)
{
    if (t.metric != Threshold::Metric::Server ||
        std::any_of(plan.serverMetrics.begin(), plan.serverMetrics.end(),
                    [&](const ServerMetricPlan& m) { return m.name == t.server; }))
        return true;
    ctx.error(field, "no server metric is named \"" + t.server + "\" (the scenario's serverMetrics name them)");
    return false;
}

void compileServerMetrics(const v1::Scenario& s, ScenarioPlan& plan, StepContext& ctx)
{
    for (int i = 0; i < s.server_metrics_size(); ++i) {
        const auto& in = s.server_metrics(i);
        const std::string field = "serverMetrics[" + std::to_string(i) + "]";
        ServerMetricPlan m;
        m.name = in.name();
        const bool named = !m.name.empty() && std::all_of(m.name.begin(), m.name.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
        });
        if (!named) {
            ctx.error(field + ".name", "a server metric needs a name of letters, digits, _ and -");
            continue;
        }
        if (std::any_of(plan.serverMetrics.begin(), plan.serverMetrics.end(),
                        [&](const ServerMetricPlan& o) { return o.name == m.name; })) {
            ctx.error(field + ".name", "\"" + m.name + "\" is named twice");
            continue;
        }
        if (in.prometheus().empty() == in.scrape().empty()) {
            ctx.error(field, "give one of \"prometheus\" (with \"query\") or \"scrape\" (with \"series\")");
            continue;
        }
        m.prometheus = !in.prometheus().empty();
        m.url = m.prometheus ? in.prometheus() : in.scrape();
        std::string why;
        if (!Url::parse(m.url, why)) {
            ctx.error(field + (m.prometheus ? ".prometheus" : ".scrape"), why);
            continue;
        }
        m.query = in.query();
        m.series = in.series();
        if (m.prometheus ? m.query.empty() : m.series.empty()) {
            ctx.error(field + (m.prometheus ? ".query" : ".series"),
                      m.prometheus ? "a PromQL query giving one number" : "the series to read");
            continue;
        }
        for (const auto& [k, v] : in.labels())
            m.labels.emplace_back(k, v);
        std::sort(m.labels.begin(), m.labels.end());
        m.rate = in.rate();
        plan.serverMetrics.push_back(std::move(m));
    }
}

void compileBreaker(const v1::Scenario& s, ScenarioPlan& plan, StepContext& ctx)
{
    if (!s.has_breaker())
        return;
    const auto& b = s.breaker();
    if (b.rules_size() > 100) {
        ctx.error("breaker.rules", "at most 100 rules");
        return;
    }
    for (int i = 0; i < b.rules_size(); ++i) {
        BreakerRule r;
        if (rule(b.rules(i), "breaker.rules[" + std::to_string(i) + "]", plan, ctx, r))
            plan.breaker.push_back(std::move(r));
    }
    if (b.has_cooldown()) {
        plan.breakerCooldown = toNanos(b.cooldown());
        if (plan.breakerCooldown < kNanosPerSecond || plan.breakerCooldown > 3600 * kNanosPerSecond)
            ctx.error("breaker.cooldown", "from 1s to 1h");
    }
    plan.breakerRecover = b.recover();
    plan.breakerEscalate = b.escalate();
    if (b.escalate_degrade() && (b.escalate_degrade() < 1 || b.escalate_degrade() > 90))
        ctx.error("breaker.escalateDegrade", "a percentage from 1 to 90");
    plan.breakerEscalateDegrade = b.escalate_degrade() ? double(b.escalate_degrade()) : 50;
    if (b.escalate() && plan.breaker.size() < 2)
        ctx.error("breaker.escalate", "levels count the rules violated together: give at least two rules");
}

} // namespace stampede
