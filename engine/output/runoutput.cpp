#include "runoutput.h"

#include "core/durationtext.h"

#include "jsonloutput.h"
#include "promoutput.h"
#include "remotewrite.h"

#include <algorithm>
#include <chrono>
#include <ctime>

namespace stampede {

std::int64_t SecondStamps::stamp(std::uint32_t second, std::int64_t nowMs)
{
    if (!m_origin)
        m_origin = nowMs - std::int64_t(second) * 1000;
    m_last = std::max(m_last + 1, std::min(nowMs, m_origin + std::int64_t(second) * 1000));
    return m_last;
}

bool parseOutputSpec(const std::string& text, OutputSpec& out, std::string& error)
{
    const std::size_t eq = text.find('=');
    const std::string kind = text.substr(0, eq);
    out.text = text;
    out.target = eq == std::string::npos ? std::string() : text.substr(eq + 1);
    if (kind == "prometheus")
        out.kind = OutputSpec::Kind::Prometheus;
    else if (kind == "prometheus-rw")
        out.kind = OutputSpec::Kind::RemoteWrite;
    else if (kind == "jsonl")
        out.kind = OutputSpec::Kind::Jsonl;
    else {
        error = "--out \"" + text + "\": give prometheus=HOST:PORT, prometheus-rw=URL or jsonl=FILE";
        return false;
    }
    if (const std::size_t comma = out.target.find(',');
        out.kind == OutputSpec::Kind::Prometheus && comma != std::string::npos) {
        const std::string option = out.target.substr(comma + 1);
        out.target.resize(comma);
        const auto linger = option.rfind("linger=", 0) == 0 ? parseDuration(option.substr(7)) : std::nullopt;
        if (!linger || *linger < 0 || *linger > 600 * kNanosPerSecond) {
            error =
                "--out \"" + text + "\": the option after the address is linger=DURATION, 0 to 10m (e.g. linger=15s)";
            return false;
        }
        out.linger = *linger;
    }
    if (out.target.empty()) {
        error =
            "--out \"" + text + "\": " +
            (out.kind == OutputSpec::Kind::Prometheus    ? "give the address to listen on, as prometheus=127.0.0.1:9465"
             : out.kind == OutputSpec::Kind::RemoteWrite ? "give the receiver's URL, as "
                                                           "prometheus-rw=http://127.0.0.1:9090/api/v1/write"
                                                         : "give the file to write, as jsonl=run.jsonl");
        return false;
    }
    if (out.kind == OutputSpec::Kind::RemoteWrite && out.target.rfind("http://", 0) != 0 &&
        out.target.rfind("https://", 0) != 0) {
        error = "--out \"" + text + "\": the receiver's URL starts with http:// or https://";
        return false;
    }
    return true;
}

std::unique_ptr<RunOutput> makeOutput(const OutputSpec& spec)
{
    if (spec.kind == OutputSpec::Kind::Prometheus)
        return std::make_unique<PrometheusOutput>(spec.target, spec.linger);
    if (spec.kind == OutputSpec::Kind::RemoteWrite)
        return std::make_unique<RemoteWriteOutput>(spec.target);
    return std::make_unique<JsonlOutput>(spec.target);
}

void beginSeries(RunSeries& series, const ScenarioPlan& plan)
{
    std::vector<RunSeries::Step> steps;
    for (const auto& st : plan.steps) {
        RunSeries::Step s{st.name, {}};
        for (const auto& c : st.checks)
            s.checks.push_back(c.name);
        steps.push_back(std::move(s));
    }
    series.setRun(plan.runId, plan.name, std::move(steps));
}

void addSecond(RunSeries& series, const SecondSummary& summary, const PreparedSecond& merged)
{
    series.setActive(true);
    series.setGauges(summary.second, merged.openConnections, merged.activeUsers);
    for (const auto& row : merged.rows) {
        if (row.step < 0)
            continue; // (the totals; groups' and scenarios' rows come after the steps: not series)
        series.addCounters(std::size_t(row.step), row.counters, row.checks);
        series.addLatency(std::size_t(row.step), row.latency);
    }
}

} // namespace stampede
