#include "timeline.h"

namespace stampede {

SecondSummary summarizeSecond(const IntervalMetrics& m)
{
    SecondSummary s;
    s.second = m.second;
    LatencyHistogram all;
    for (const auto& st : m.steps) {
        s.sent += st.counters.sent;
        s.requests += st.counters.requests;
        s.errors += st.counters.errors;
        s.late += st.counters.late;
        s.dropped += st.counters.dropped;
        for (const CheckCount& c : st.checks) {
            s.checksPassed += c.passed;
            s.checksFailed += c.failed;
        }
        all.merge(st.latency);
    }
    s.minMs = double(all.min()) / 1000.0;
    s.meanMs = all.mean() / 1000.0;
    s.cpu = m.health.cpu;
    s.loopLagMs = double(m.health.loopLag) / 1e6;
    s.p50Ms = all.percentile(50) / 1000.0;
    s.p99Ms = all.percentile(99) / 1000.0;
    s.maxMs = double(all.max()) / 1000.0;
    return s;
}

} // namespace stampede
