#include "runseries.h"

#include <cmath>
#include <cstdio>

namespace stampede {

namespace {

std::string labelValue(const std::string& v)
{
    std::string out;
    for (char c : v) {
        if (c == '\\' || c == '"')
            out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out;
}

std::string number(double v)
{
    if (std::isinf(v))
        return v > 0 ? "+Inf" : "-Inf";
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", v);
    return text;
}

} // namespace

const std::vector<double>& RunSeries::bucketBounds()
{
    static const std::vector<double> bounds{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                            0.1,    0.25,    0.5,    1,     2.5,    5,     10,   30,    60};
    return bounds;
}

void RunSeries::setRun(std::string runId, std::string scenario, std::vector<Step> steps)
{
    m_runId = std::move(runId);
    m_scenario = std::move(scenario);
    m_steps.clear();
    for (Step& s : steps)
        m_steps.push_back({std::move(s), {}, {}, {}});
    m_active = false;
    m_seconds = m_connections = m_users = 0;
}

void RunSeries::addCounters(std::size_t step, const StepCounters& counters, const std::vector<CheckCount>& checks)
{
    if (step >= m_steps.size())
        return;
    StepState& s = m_steps[step];
    s.counters.merge(counters);
    if (s.checks.size() < checks.size())
        s.checks.resize(checks.size());
    for (std::size_t k = 0; k < checks.size(); ++k) {
        s.checks[k].passed += checks[k].passed;
        s.checks[k].failed += checks[k].failed;
    }
}

void RunSeries::addLatency(std::size_t step, const LatencyHistogram& second)
{
    if (step < m_steps.size())
        m_steps[step].latency.merge(second);
}

bool RunSeries::addLatency(std::size_t step, const std::string& serialized)
{
    return step >= m_steps.size() || serialized.empty() || m_steps[step].latency.mergeSerialized(serialized);
}

void RunSeries::setGauges(std::uint32_t seconds, std::uint32_t connections, std::uint32_t users)
{
    m_seconds = seconds;
    m_connections = connections;
    m_users = users;
}

std::vector<RunSeries::Family> RunSeries::families() const
{
    const Labels run{{"run_id", m_runId}, {"scenario", m_scenario}};
    const auto with = [&](Labels more) {
        Labels l = run;
        l.insert(l.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
        return l;
    };
    std::vector<Family> out;
    const auto one = [&](const char* name, const char* type, const char* help, double value, Labels more = {}) {
        out.push_back({name, type, help, {{name, with(std::move(more)), value}}});
    };
    one("stampede_run_info", "gauge", "The run: its id (the stress tag) and scenario, and the version that ran it.", 1,
        {{"version", STAMPEDE_VERSION_TEXT}});
    one("stampede_run_active", "gauge", "1 while the run goes on.", m_active ? 1 : 0);
    one("stampede_run_elapsed_seconds", "gauge", "Seconds of the run completed.", m_seconds);
    one("stampede_open_connections", "gauge", "Connections open at the end of the last second.", m_connections);
    one("stampede_active_users", "gauge", "Virtual users active in the last second (closed model).", m_users);
    const auto perStep = [&](const char* name, const char* help, std::uint64_t StepCounters::*field) {
        Family f{name, "counter", help, {}};
        for (const StepState& s : m_steps)
            f.samples.push_back({name, with({{"step", s.step.name}}), double(s.counters.*field)});
        out.push_back(std::move(f));
    };
    perStep("stampede_requests_total", "Requests completed (answered or failed).", &StepCounters::requests);
    perStep("stampede_sent_total", "Requests written to a connection.", &StepCounters::sent);
    perStep("stampede_late_total", "Arrivals that waited for a free connection.", &StepCounters::late);
    perStep("stampede_dropped_total", "Arrivals refused: the backlog was full.", &StepCounters::dropped);
    perStep("stampede_received_bytes_total", "Bytes received.", &StepCounters::bytesIn);
    perStep("stampede_sent_bytes_total", "Bytes sent.", &StepCounters::bytesOut);
    Family errors{"stampede_errors_total", "counter", "Requests failed, by class.", {}};
    for (const StepState& s : m_steps)
        for (std::size_t c = 0; c < kErrorClassCount; ++c)
            errors.samples.push_back(
                {errors.name, with({{"step", s.step.name}, {"class", std::string(errorClassName(ErrorClass(c)))}}),
                 double(s.counters.errorsByClass[c])});
    out.push_back(std::move(errors));
    Family checks{"stampede_checks_total", "counter", "Check judgements, by result.", {}};
    for (const StepState& s : m_steps)
        for (std::size_t k = 0; k < s.step.checks.size(); ++k) {
            const CheckCount c = k < s.checks.size() ? s.checks[k] : CheckCount{};
            for (const auto& [result, n] : {std::pair{"passed", c.passed}, {"failed", c.failed}})
                checks.samples.push_back(
                    {checks.name, with({{"step", s.step.name}, {"check", s.step.checks[k]}, {"result", result}}),
                     double(n)});
        }
    out.push_back(std::move(checks));
    Family latency{"stampede_latency_seconds",
                   "histogram",
                   "Latency from the intended start, over the run (the exact histogram's counts).",
                   {}};
    std::vector<std::uint64_t> bounds, counts;
    for (double b : bucketBounds())
        bounds.push_back(std::uint64_t(std::llround(b * 1e6)));
    for (const StepState& s : m_steps) {
        s.latency.countsAtOrBelow(bounds, counts);
        for (std::size_t b = 0; b < bounds.size(); ++b)
            latency.samples.push_back({"stampede_latency_seconds_bucket",
                                       with({{"step", s.step.name}, {"le", number(bucketBounds()[b])}}),
                                       double(counts[b])});
        latency.samples.push_back({"stampede_latency_seconds_bucket", with({{"step", s.step.name}, {"le", "+Inf"}}),
                                   double(s.latency.count())});
        latency.samples.push_back(
            {"stampede_latency_seconds_sum", with({{"step", s.step.name}}), double(s.latency.sum()) / 1e6});
        latency.samples.push_back(
            {"stampede_latency_seconds_count", with({{"step", s.step.name}}), double(s.latency.count())});
    }
    out.push_back(std::move(latency));
    return out;
}

std::string RunSeries::exposition() const
{
    std::string out;
    for (const Family& f : families()) {
        out += std::string("# HELP ") + f.name + " " + f.help + "\n# TYPE " + f.name + " " + f.type + "\n";
        for (const Sample& s : f.samples) {
            out += s.name;
            out += '{';
            for (std::size_t i = 0; i < s.labels.size(); ++i)
                out += (i ? "," : "") + s.labels[i].first + "=\"" + labelValue(s.labels[i].second) + "\"";
            out += "} ";
            out += number(s.value);
            out += '\n';
        }
    }
    return out;
}

} // namespace stampede
