#pragma once
// A worker's seconds, out of its loop: the metrics of the second that a time
// falls in, each handed to the sink once it is over, in order of seconds and
// none skipped (a second nothing happened in is one too), with the gauges
// read as it ends (connections open, users active, GOAWAYs received in it);
// the worker's last (possibly partial) second marked as such. Its steps and
// groups are the run's places: in a plan of several scenarios, this
// scenario's at their offsets.
#include "core/clock.h"
#include "metrics/runmetrics.h"
#include "plan/scenarioplan.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

namespace stampede {

class SecondSink
{
public:
    virtual ~SecondSink() = default;
    // Called by worker `worker` with its metrics of one second, in order of
    // seconds; `last` marks the worker's final (possibly partial) second.
    virtual void deliver(std::uint32_t worker, IntervalMetricsPtr second, bool last) = 0;
};

class WorkerSeconds
{
public:
    // What is read as a second ends.
    struct Gauges
    {
        std::uint32_t openConnections = 0;
        std::uint32_t activeUsers = 0;
        std::uint64_t goaways = 0; // received so far (the second counts those since the last)
    };
    using ReadGauges = std::function<Gauges()>;
    // Where: the run's `steps` and `groups` in all (0: the plan's own), the plan's at `stepOffset` and
    // `groupOffset` among them.
    struct Places
    {
        std::size_t steps = 0, groups = 0;
        std::uint32_t stepOffset = 0, groupOffset = 0;
    };
    WorkerSeconds(const ScenarioPlan& plan, const Places& places, std::uint32_t worker, SecondSink& sink,
                  ReadGauges gauges);

    // The first second (numbered from 1) and when it ends; `last`: the plan's last second, which takes what
    // comes after the plan's end too (answers still on their way): a run of N seconds has N.
    void begin(std::uint32_t first, Nanos end, std::uint32_t last = UINT32_MAX);
    bool begun() const { return m_current != nullptr; }
    // When the current second ends.
    Nanos end() const { return m_end; }
    // The second `now` falls in (the ones before it handed on first).
    IntervalMetrics& at(Nanos now)
    {
        if (now >= m_end)
            roll(now);
        return *m_current;
    }
    // The plan's step `step`, group `group` there.
    StepMetrics& step(std::size_t step, Nanos now) { return at(now).steps[m_places.stepOffset + step]; }
    StepMetrics& group(std::size_t group, Nanos now) { return at(now).groups[m_places.groupOffset + group]; }
    // The current second, whatever the time (what the loop measures of itself).
    IntervalMetrics& current() { return *m_current; }
    // Hands on every second that ended by `now`.
    void roll(Nanos now);
    // The plan's step `step` handed to its connection at `now`, meant for `intended`: counted as sent, with how far
    // behind its time it went out when the load is paced (iterations at planned times).
    void sent(std::size_t step, Nanos intended, Nanos now)
    {
        StepMetrics& m = this->step(step, now);
        if (m_paced)
            m.sendLag.record(std::uint64_t((now > intended ? now - intended : 0) / kNanosPerMicro));
        ++m.counters.sent;
    }
    // What a session tells of a connection, counted on the plan's step `step` its slot carries or last carried:
    // a connection set up (its connect and handshake, in the current second); bytes nobody asked for, which
    // closed it (a protocol error of the connection, not of a request: no request counted, a sample kept).
    void connected(std::size_t step, Nanos connect, Nanos handshake, bool tls, bool resumed);
    void stray(std::size_t step, std::string_view bytes, Nanos now);
    // Reads the gauges into the current second (as each second ends; the last, before the sessions close).
    void readGauges();
    // Hands on the current second as the worker's last (its gauges as last read).
    void finish();

private:
    IntervalMetricsPtr fresh(std::uint32_t second) const;

    const ScenarioPlan& m_plan;
    const Places m_places;
    const std::uint32_t m_worker;
    const bool m_paced; // the plan's load is paced: a send's lag is measured
    SecondSink& m_sink;
    ReadGauges m_gauges;
    std::uint64_t m_goawaysSeen = 0;
    std::uint32_t m_last = UINT32_MAX;
    IntervalMetricsPtr m_current;
    Nanos m_end = 0;
};

} // namespace stampede
