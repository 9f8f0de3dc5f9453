#pragma once
// `--out prometheus=HOST:PORT`: the run's live figures on a /metrics endpoint
// (text exposition 0.0.4) for an existing Prometheus to scrape, in
// Prometheus' naming: counters since the run began, per step
//   stampede_requests_total{step}, stampede_sent_total{step},
//   stampede_errors_total{step,class}, stampede_late_total{step},
//   stampede_dropped_total{step}, stampede_received_bytes_total{step},
//   stampede_sent_bytes_total{step}, stampede_checks_total{step,check,result}
// and gauges of the last completed second
//   stampede_requests_per_second{step}, and the summary
//   stampede_latency_seconds{step,quantile} with its _count (from the
//   intended start; quantile 0.5 0.9 0.95 0.99 0.999 1),
//   stampede_open_connections, stampede_active_users, stampede_run_seconds
// with stampede_run_info{run_id,scenario} and stampede_run_active.
// The per-second figures carry the time their second ended, so that a
// scrape's timing does not move a second's requests into the next one:
// rate() over them is the run's own rate. After the run the final figures
// are served until they have been scraped once more, or `linger` (15 s)
// has passed, so that the last second is never lost. Names, labels and
// types pass `promtool check metrics`.
#include "runoutput.h"

#include "metrics/runmetrics.h"

#include <atomic>
#include <memory>
#include <mutex>

namespace stampede {

class MetricsEndpoint;

class PrometheusOutput final : public RunOutput
{
public:
    explicit PrometheusOutput(std::string address, Nanos linger = 15 * kNanosPerSecond);
    ~PrometheusOutput() override;
    bool open(const ScenarioPlan& plan, std::string& error) override;
    void second(const SecondSummary& summary, const PreparedSecond& merged) override;
    bool finish(const RunSummary& summary, std::string& error) override;
    int port() const;
    // What /metrics answers now.
    std::string text() const;

private:
    struct Step
    {
        std::string name;
        std::vector<std::string> checks;
        StepCounters counters;
        std::vector<CheckCount> checkCounts;
        std::uint64_t lastRequests = 0;
        std::array<double, 6> lastPercentilesMs{};
    };
    std::string render(bool active) const;
    std::string m_address;
    std::unique_ptr<MetricsEndpoint> m_endpoint;
    std::string m_runId, m_scenario;
    std::vector<Step> m_steps;
    SecondStamps m_stamps; // the last second's stamp: its end on the wall clock
    std::uint32_t m_seconds = 0;
    std::uint32_t m_connections = 0, m_users = 0;
    mutable std::mutex m_mutex; // guards m_text (read by the endpoint's thread)
    std::string m_text;
    Nanos m_linger;
    mutable std::atomic<std::uint64_t> m_scrapes{0};
};

} // namespace stampede
