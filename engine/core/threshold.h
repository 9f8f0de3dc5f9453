#pragma once
// Pass/fail conditions on a run's summary: "p99 < 200ms", "error_rate < 0.1%",
// "rate >= 1000", "p50 <= 20ms". Metrics: p50 p90 p95 p99 p999 max (latency,
// from the intended start), error_rate, rate (completed requests per second).
#include <optional>
#include <string>
#include <string_view>

namespace stampede {

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
        Rate
    };
    enum class Op
    {
        Less,
        LessEqual,
        Greater,
        GreaterEqual
    };
    std::string expr;
    Metric metric = Metric::P99;
    Op op = Op::Less;
    double limit = 0; // milliseconds for latency, a fraction (0..1) for error_rate, per second for rate

    static std::optional<Threshold> parse(std::string_view text, std::string& error);
    bool holds(double value) const;
};

} // namespace stampede
