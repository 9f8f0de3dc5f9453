#pragma once
// `--out prometheus=HOST:PORT`: the run's live figures on a /metrics endpoint
// (text exposition 0.0.4) for an existing Prometheus to scrape: the series of
// metrics/runseries.h (cumulative counters, the latency a histogram, gauges),
// without timestamps. After the run the final figures are served to any
// number of scrapers until the process exits, and the command line waits
// `linger` for them (15 s by default; `prometheus=ADDR,linger=30s`) once the
// summary is out. Names, labels and types pass `promtool
// check metrics`.
#include "runoutput.h"

#include "metrics/runseries.h"

#include <chrono>
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
    void linger() override; // until `linger` has passed since finish()
    int port() const;
    // What /metrics answers now.
    std::string text() const;

private:
    std::string m_address;
    std::unique_ptr<MetricsEndpoint> m_endpoint;
    RunSeries m_series;
    mutable std::mutex m_mutex; // guards m_text (read by the endpoint's thread)
    std::string m_text;
    Nanos m_linger;
    std::chrono::steady_clock::time_point m_ended{};
};

} // namespace stampede
