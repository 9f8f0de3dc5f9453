// A threshold's metric read from a summary (the run's, a step's, or a breaker window's): the one reading that
// the run's thresholds and the live breaker's rules share.
#include "runsummary.h"

#include <algorithm>

namespace stampede {

double checkRate(const Threshold& t, const MetricsSummary& m)
{
    if (t.check.empty())
        return m.checkPassRate();
    std::uint64_t passed = 0, judged = 0;
    for (const auto& c : m.checks) {
        const bool named =
            c.name == t.check || (c.name.size() > t.check.size() &&
                                  c.name.compare(c.name.size() - t.check.size(), t.check.size(), t.check) == 0 &&
                                  c.name[c.name.size() - t.check.size() - 1] == '/');
        if (named) {
            passed += c.passed;
            judged += c.passed + c.failed;
        }
    }
    return judged ? double(passed) / double(judged) : -1.0;
}

double thresholdValue(const Threshold& t, const MetricsSummary& s)
{
    switch (t.metric) {
    case Threshold::Metric::P50:
        return s.latency.p50;
    case Threshold::Metric::P90:
        return s.latency.p90;
    case Threshold::Metric::P95:
        return s.latency.p95;
    case Threshold::Metric::P99:
        return s.latency.p99;
    case Threshold::Metric::P999:
        return s.latency.p999;
    case Threshold::Metric::Max:
        return s.latency.max;
    case Threshold::Metric::Min:
        return s.latency.min;
    case Threshold::Metric::Mean:
        return s.latency.mean;
    case Threshold::Metric::Checks:
        return std::max(0.0, checkRate(t, s));
    case Threshold::Metric::Server: {
        const auto it = s.server.find(t.server);
        return it == s.server.end() ? 0.0 : it->second;
    }
    case Threshold::Metric::ErrorRate:
        return s.errorRate();
    case Threshold::Metric::Rate:
        return s.rate;
    case Threshold::Metric::AgentCpu:
        return std::max(0.0, s.agentCpu);
    case Threshold::Metric::MessagesReceived:
        return double(s.messagesReceived);
    case Threshold::Metric::MessageRate:
        return s.messageRate;
    case Threshold::Metric::MessageP50:
        return s.messageLatency.p50;
    case Threshold::Metric::MessageP90:
        return s.messageLatency.p90;
    case Threshold::Metric::MessageP95:
        return s.messageLatency.p95;
    case Threshold::Metric::MessageP99:
        return s.messageLatency.p99;
    case Threshold::Metric::MessageMax:
        return s.messageLatency.max;
    }
    return 0;
}

} // namespace stampede
