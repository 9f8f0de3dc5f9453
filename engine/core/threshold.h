#pragma once
// Pass/fail conditions on a run's summary: "p99 < 200ms", "error_rate < 0.1%",
// "rate >= 1000", "p50 <= 20ms", "checks > 99%". Metrics: p50 p90 p95 p99
// p999 max min mean (latency, from the intended start), error_rate, rate,
// agent_cpu (the busiest load generator's CPU, a share of its cores)
// (completed requests per second), messages_received and message_rate (a
// stream step's messages or events received: a count, per second), checks (the share of check judgements
// that passed; `check "NAME"` those of the checks of that name alone, a
// step's own or a script's pm.test: "check \"code is 0\" > 99.9%"). A step's
// name and a colon first judge that step alone: "login: p99 < 300ms".
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace stampede {

constexpr std::uint32_t kMinBaselineRuns = 5;
constexpr std::uint32_t kMaxBaselineRuns = 1000;

struct Threshold
{
    enum class Metric
    {
        P50,
        P90,
        P95,
        P99,
        P999,
        Max,
        ErrorRate,
        Rate,
        Min,
        Mean,
        Checks,
        Server,           // a server metric (server:NAME), its value as read
        AgentCpu,         // the busiest agent's CPU, a share of its cores (agent_cpu > 90%)
        MessagesReceived, // stream steps' messages (WebSocket) and events (SSE) received, a count
        MessageRate,      // the same per second (message_rate >= 100/s)
        MessageP50,       // stream steps: a message's send to its reply (message_p99 < 50ms)
        MessageP90,
        MessageP95,
        MessageP99,
        MessageMax
    };
    enum class Op
    {
        Less,
        LessEqual,
        Greater,
        GreaterEqual
    };
    std::string expr;
    std::string step;   // empty: the run's total
    std::string server; // Metric::Server: the source's name
    std::string check;  // Metric::Checks: only the checks of this name ("" every check)
    Metric metric = Metric::P99;
    Op op = Op::Less;
    // milliseconds for latency, a fraction (0..1) for error_rate and checks, per second for rate and message_rate,
    // a count for messages_received
    double limit = 0;
    // "p99 < baseline + 3 sigma" (or "baseline(20) - 2.5 sigma", "baseline"): the limit is the mean of this
    // figure over the scenario's last `runs` completed runs in its project, plus (or minus) `sigmas` of their
    // standard deviation (report/baseline.h resolves it before the run; at least kMinBaselineRuns runs). A
    // resolved one is written "p99 < baseline + 3 sigma (= 47.52ms ...)": its limit that number.
    struct Baseline
    {
        std::uint32_t runs = 10;
        double sigmas = 0;
        bool resolved = false;
    };
    std::optional<Baseline> baseline;
    bool isLatency() const
    {
        return metric != Metric::ErrorRate && metric != Metric::Rate && metric != Metric::Checks &&
               metric != Metric::Server && metric != Metric::AgentCpu && metric != Metric::MessagesReceived &&
               metric != Metric::MessageRate;
    }
    bool isFraction() const
    {
        return metric == Metric::ErrorRate || metric == Metric::Checks || metric == Metric::AgentCpu;
    }

    static std::optional<Threshold> parse(std::string_view text, std::string& error);
    bool holds(double value) const;
};

} // namespace stampede
