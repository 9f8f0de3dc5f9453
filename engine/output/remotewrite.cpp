#include "remotewrite.h"

#include "core/url.h"
#include "net/httpexchange.h"

#include "stampede/v1/remotewrite.pb.h"

#include <snappy.h>

#include <algorithm>
#include <chrono>

namespace stampede {

namespace {

constexpr int kTries = 3;
constexpr auto kFinishWait = std::chrono::seconds(10);

void series(v1::RemoteWriteRequest& rq, std::vector<std::pair<std::string, std::string>> labels, double value,
            std::int64_t at)
{
    std::sort(labels.begin(), labels.end()); // the receiver wants them by name
    auto* s = rq.add_timeseries();
    for (auto& [name, v] : labels) {
        auto* l = s->add_labels();
        l->set_name(name);
        l->set_value(v);
    }
    auto* sample = s->add_samples();
    sample->set_value(value);
    sample->set_timestamp(at);
}

} // namespace

RemoteWriteOutput::~RemoteWriteOutput()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

bool RemoteWriteOutput::open(const ScenarioPlan& plan, std::string& error)
{
    std::string why;
    const auto url = Url::parse(m_url, why);
    if (!url) {
        error = "--out prometheus-rw=" + m_url + ": " + why;
        return false;
    }
    beginSeries(m_series, plan);
    m_thread = std::thread([this] { loop(); });
    return true;
}

std::string RemoteWriteOutput::encode(std::uint32_t second, std::int64_t at, const PreparedSecond& merged)
{
    SecondSummary summary;
    summary.second = second;
    addSecond(m_series, summary, merged);
    v1::RemoteWriteRequest rq;
    for (const RunSeries::Family& f : m_series.families())
        for (const RunSeries::Sample& s : f.samples) {
            std::vector<std::pair<std::string, std::string>> labels = s.labels;
            labels.emplace_back("__name__", s.name);
            series(rq, std::move(labels), s.value, at);
        }
    return rq.SerializeAsString();
}

void RemoteWriteOutput::second(const SecondSummary& summary, const PreparedSecond& merged)
{
    const std::string body = encode(summary.second, m_stamps.stamp(summary.second, wallMillis()), merged);
    std::string compressed;
    snappy::Compress(body.data(), body.size(), &compressed);
    {
        std::lock_guard lock(m_mutex);
        m_queue.push_back(std::move(compressed));
    }
    m_wake.notify_all();
}

bool RemoteWriteOutput::post(const std::string& body, std::string& error) const
{
    HttpExchangeRequest rq;
    rq.method = "POST";
    rq.url = m_url;
    rq.headers = {{"Content-Type", "application/x-protobuf"},
                  {"Content-Encoding", "snappy"},
                  {"X-Prometheus-Remote-Write-Version", "0.1.0"},
                  {"User-Agent", "stampede/" STAMPEDE_VERSION}};
    rq.body = body;
    rq.timeout = 5 * kNanosPerSecond;
    const HttpExchangeResult r = exchange(rq);
    if (r.ok && r.status >= 200 && r.status < 300)
        return true;
    error = r.ok ? "HTTP " + std::to_string(r.status) + " " + r.reason +
                       (r.body.empty() ? "" : ": " + r.body.substr(0, r.body.find('\n')).substr(0, 200))
                 : r.error;
    return false;
}

// One request at a time, in order: a second is retried (on a connection
// failure or a 5xx) before the next goes, so the receiver sees time move forward.
void RemoteWriteOutput::loop()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [this] { return m_stop || !m_queue.empty(); });
        if (m_queue.empty())
            return;
        const std::string body = m_queue.front();
        m_busy = true;
        lock.unlock();
        std::string error;
        bool ok = false;
        for (int t = 0; t < kTries && !ok; ++t) {
            ok = post(body, error);
            if (!ok && (error.rfind("HTTP 4", 0) == 0 || t + 1 == kTries))
                break; // refused: sending it again cannot help
            if (!ok)
                std::this_thread::sleep_for(std::chrono::milliseconds(200 << t));
        }
        lock.lock();
        m_queue.pop_front();
        m_busy = false;
        ++(ok ? m_pushed : m_failed);
        if (!ok)
            m_error = error;
        m_wake.notify_all();
    }
}

bool RemoteWriteOutput::finish(const RunSummary&, std::string& error)
{
    std::unique_lock lock(m_mutex);
    const bool drained = m_wake.wait_for(lock, kFinishWait, [this] { return m_queue.empty() && !m_busy; });
    if (!drained) {
        error = "--out prometheus-rw=" + m_url + ": " + std::to_string(m_queue.size()) +
                " seconds not accepted within 10 s of the run's end";
        return false;
    }
    if (m_failed) {
        error = "--out prometheus-rw=" + m_url + ": " + std::to_string(m_failed) + " of " +
                std::to_string(m_failed + m_pushed) + " seconds not accepted (" + m_error + ")";
        return false;
    }
    return true;
}

} // namespace stampede
