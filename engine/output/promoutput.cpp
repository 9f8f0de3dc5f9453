#include "promoutput.h"

#include "net/metricsendpoint.h"

#include <chrono>
#include <cstdio>
#include <thread>

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
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", v);
    return text;
}

// One family: its HELP and TYPE lines, then its samples.
struct Family
{
    std::string& out;
    std::string name;
    std::string stamp; // " 1764606005000" or empty
    Family(std::string& o, const char* n, const char* type, const char* help, std::string s)
        : out(o), name(n), stamp(std::move(s))
    {
        out += std::string("# HELP ") + n + " " + help + "\n# TYPE " + n + " " + type + "\n";
    }
    void sample(const std::string& labels, const std::string& value)
    {
        out += name + (labels.empty() ? "" : "{" + labels + "}") + " " + value + stamp + "\n";
    }
};

constexpr const char* kQuantiles[] = {"0.5", "0.9", "0.95", "0.99", "0.999", "1"};

} // namespace

PrometheusOutput::PrometheusOutput(std::string address, Nanos linger) : m_address(std::move(address)), m_linger(linger)
{
}

PrometheusOutput::~PrometheusOutput()
{
    if (m_endpoint)
        m_endpoint->stop();
}

bool PrometheusOutput::open(const ScenarioPlan& plan, std::string& error)
{
    m_runId = plan.runId;
    m_scenario = plan.name;
    for (const auto& st : plan.steps) {
        Step s;
        s.name = st.name;
        for (const auto& c : st.checks)
            s.checks.push_back(c.name);
        m_steps.push_back(std::move(s));
    }
    m_text = render(false);
    m_endpoint = std::make_unique<MetricsEndpoint>([this] { return text(); });
    if (!m_endpoint->start(m_address, error, "--out prometheus")) {
        m_endpoint.reset();
        return false;
    }
    return true;
}

int PrometheusOutput::port() const
{
    return m_endpoint ? m_endpoint->port() : 0;
}

std::string PrometheusOutput::text() const
{
    std::lock_guard lock(m_mutex);
    ++m_scrapes;
    return m_text;
}

void PrometheusOutput::second(const SecondSummary& summary, const PreparedSecond& merged)
{
    m_stamps.stamp(summary.second, wallMillis());
    m_seconds = summary.second; // second N is [N-1 s, N s) of the run
    m_connections = merged.openConnections;
    m_users = merged.activeUsers;
    for (Step& s : m_steps) {
        s.lastRequests = 0;
        s.lastPercentilesMs = {};
    }
    for (const auto& row : merged.rows) {
        if (row.step < 0 || std::size_t(row.step) >= m_steps.size())
            continue;
        Step& s = m_steps[std::size_t(row.step)];
        s.counters.merge(row.counters);
        if (s.checkCounts.size() < row.checks.size())
            s.checkCounts.resize(row.checks.size());
        for (std::size_t k = 0; k < row.checks.size(); ++k) {
            s.checkCounts[k].passed += row.checks[k].passed;
            s.checkCounts[k].failed += row.checks[k].failed;
        }
        s.lastRequests = row.counters.requests;
        s.lastPercentilesMs = row.percentilesMs;
    }
    std::string text = render(true);
    std::lock_guard lock(m_mutex);
    m_text = std::move(text);
}

bool PrometheusOutput::finish(const RunSummary&, std::string&)
{
    std::string text = render(false);
    std::uint64_t before = 0;
    {
        std::lock_guard lock(m_mutex);
        m_text = std::move(text);
        before = m_scrapes.load();
    }
    // the last second is served until a scrape has read it, or for `linger`
    const auto until = std::chrono::steady_clock::now() + std::chrono::nanoseconds(m_linger);
    while (m_endpoint && m_scrapes.load() == before && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return true;
}

std::string PrometheusOutput::render(bool active) const
{
    std::string out;
    Family(out, "stampede_run_info", "gauge", "The run: its id (the stress tag) and scenario.", {})
        .sample("run_id=\"" + labelValue(m_runId) + "\",scenario=\"" + labelValue(m_scenario) + "\"", "1");
    Family(out, "stampede_run_active", "gauge", "1 while the run goes on.", {}).sample({}, active ? "1" : "0");
    if (!m_stamps.last())
        return out; // no second has completed: no figure yet
    const std::string stamp = " " + std::to_string(m_stamps.last());
    Family(out, "stampede_run_seconds", "gauge", "Seconds of the run completed.", stamp)
        .sample({}, std::to_string(m_seconds));
    Family(out, "stampede_open_connections", "gauge", "Connections open at the end of the last second.", stamp)
        .sample({}, std::to_string(m_connections));
    Family(out, "stampede_active_users", "gauge", "Virtual users active in the last second (closed model).", stamp)
        .sample({}, std::to_string(m_users));
    auto perStep = [&](const char* name, const char* type, const char* help, auto value) {
        Family f(out, name, type, help, stamp);
        for (const Step& s : m_steps)
            f.sample("step=\"" + labelValue(s.name) + "\"", value(s));
    };
    auto count = [](std::uint64_t StepCounters::*field) {
        return [field](const Step& s) { return std::to_string(s.counters.*field); };
    };
    perStep("stampede_requests_total", "counter", "Requests completed (answered or failed).",
            count(&StepCounters::requests));
    perStep("stampede_sent_total", "counter", "Requests written to a connection.", count(&StepCounters::sent));
    perStep("stampede_late_total", "counter", "Arrivals that waited for a free connection.",
            count(&StepCounters::late));
    perStep("stampede_dropped_total", "counter", "Arrivals refused: the backlog was full.",
            count(&StepCounters::dropped));
    perStep("stampede_received_bytes_total", "counter", "Bytes received.", count(&StepCounters::bytesIn));
    perStep("stampede_sent_bytes_total", "counter", "Bytes sent.", count(&StepCounters::bytesOut));
    perStep("stampede_requests_per_second", "gauge", "Requests completed in the last second.",
            [](const Step& s) { return std::to_string(s.lastRequests); });
    {
        Family f(out, "stampede_errors_total", "counter", "Requests failed, by class.", stamp);
        for (const Step& s : m_steps)
            for (std::size_t c = 0; c < kErrorClassCount; ++c)
                f.sample("step=\"" + labelValue(s.name) + "\",class=\"" + std::string(errorClassName(ErrorClass(c))) +
                             "\"",
                         std::to_string(s.counters.errorsByClass[c]));
    }
    {
        // a summary (quantiles with their count), as promtool wants a quantile label
        Family f(out, "stampede_latency_seconds", "summary",
                 "Latency quantiles of the last second, from the intended start.", stamp);
        for (const Step& s : m_steps) {
            for (std::size_t q = 0; q < 6; ++q)
                f.sample("step=\"" + labelValue(s.name) + "\",quantile=\"" + kQuantiles[q] + "\"",
                         number(s.lastPercentilesMs[q] / 1000.0));
            out += "stampede_latency_seconds_count{step=\"" + labelValue(s.name) + "\"} " +
                   std::to_string(s.lastRequests) + stamp + "\n";
        }
    }
    Family f(out, "stampede_checks_total", "counter", "Check judgements, by result.", stamp);
    for (const Step& s : m_steps)
        for (std::size_t k = 0; k < s.checks.size(); ++k) {
            const CheckCount c = k < s.checkCounts.size() ? s.checkCounts[k] : CheckCount{};
            const std::string labels = "step=\"" + labelValue(s.name) + "\",check=\"" + labelValue(s.checks[k]) + "\"";
            f.sample(labels + ",result=\"passed\"", std::to_string(c.passed));
            f.sample(labels + ",result=\"failed\"", std::to_string(c.failed));
        }
    return out;
}

} // namespace stampede
