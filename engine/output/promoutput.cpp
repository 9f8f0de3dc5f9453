#include "promoutput.h"

#include "net/metricsendpoint.h"

#include <chrono>
#include <cstdio>
#include <thread>

namespace stampede {

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
    beginSeries(m_series, plan);
    m_text = m_series.exposition();
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
    return m_text;
}

void PrometheusOutput::second(const SecondSummary& summary, const PreparedSecond& merged)
{
    addSecond(m_series, summary, merged);
    std::string text = m_series.exposition();
    std::lock_guard lock(m_mutex);
    m_text = std::move(text);
}

bool PrometheusOutput::finish(const RunSummary&, std::string&)
{
    m_series.setActive(false);
    std::string text = m_series.exposition();
    {
        std::lock_guard lock(m_mutex);
        m_text = std::move(text);
    }
    m_ended = std::chrono::steady_clock::now();
    return true;
}

// the final figures stay for every scraper to read: its next scrape comes within its interval
void PrometheusOutput::linger()
{
    if (m_endpoint && m_ended != std::chrono::steady_clock::time_point{})
        std::this_thread::sleep_until(m_ended + std::chrono::nanoseconds(m_linger));
}

} // namespace stampede
