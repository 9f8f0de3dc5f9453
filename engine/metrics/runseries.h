#pragma once
// A run's figures as Prometheus series, one set for every place that shows
// them (the controller's /metrics, remote write, an agent's --metrics), in
// Prometheus' exposition format and naming guide: counters cumulative since
// the run began, the latency a histogram (_bucket by `le`, _sum, _count) read
// from the exact histograms, gauges for what is a level now; every series
// labelled with the run (run_id, scenario), per step with `step`, errors with
// `class`, checks with `check` and `result`. No sample carries a timestamp:
// a scrape reads the figures as they stand, whenever it comes.
//
// The families (units in their names):
//   stampede_run_info{version}                  1
//   stampede_run_active                         1 while the run goes on
//   stampede_run_elapsed_seconds                seconds of the run completed
//   stampede_open_connections, stampede_active_users
//   stampede_requests_total{step}               completed (answered or failed)
//   stampede_sent_total{step}                   written to a connection
//   stampede_errors_total{step,class}
//   stampede_late_total{step}, stampede_dropped_total{step}
//   stampede_received_bytes_total{step}, stampede_sent_bytes_total{step}
//   stampede_checks_total{step,check,result}
//   stampede_latency_seconds{step,le}           histogram, from the intended start
#include "latencyhistogram.h"
#include "runmetrics.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace stampede {

class RunSeries
{
public:
    using Labels = std::vector<std::pair<std::string, std::string>>;
    struct Step
    {
        std::string name;
        std::vector<std::string> checks;
    };
    struct Sample
    {
        std::string name; // the family's, with _bucket, _sum or _count for a histogram's
        Labels labels;    // run_id and scenario first
        double value = 0;
    };
    struct Family
    {
        const char* name;
        const char* type; // counter, gauge, histogram
        const char* help;
        std::vector<Sample> samples;
    };

    // The histogram's upper bounds, in seconds (+Inf follows).
    static const std::vector<double>& bucketBounds();

    void setRun(std::string runId, std::string scenario, std::vector<Step> steps);
    void setActive(bool active) { m_active = active; }
    // One second's figures of `step` (added to the run's).
    void addCounters(std::size_t step, const StepCounters& counters, const std::vector<CheckCount>& checks);
    void addLatency(std::size_t step, const LatencyHistogram& second);
    bool addLatency(std::size_t step, const std::string& serialized);
    // Where the run stands at the end of second `seconds`.
    void setGauges(std::uint32_t seconds, std::uint32_t connections, std::uint32_t users);
    bool started() const { return m_seconds > 0; }

    std::vector<Family> families() const;
    // The text exposition (version 0.0.4) of families().
    std::string exposition() const;

private:
    struct StepState
    {
        Step step;
        StepCounters counters;
        std::vector<CheckCount> checks;
        LatencyHistogram latency;
    };
    std::string m_runId, m_scenario;
    std::vector<StepState> m_steps;
    bool m_active = false;
    std::uint32_t m_seconds = 0, m_connections = 0, m_users = 0;
};

} // namespace stampede
