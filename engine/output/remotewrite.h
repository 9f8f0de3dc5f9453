#pragma once
// `--out prometheus-rw=URL`: every second of the run pushed to a Prometheus
// remote write receiver (tested: Prometheus with --web.enable-remote-write-receiver),
// as k6's output does: remote write 1.0
// (protobuf, snappy), the series of `--out prometheus` (metrics/runseries.h:
// the same names and labels), stamped with the end of their second. Requests go out
// on a thread of their own (the run's thread never waits for the network),
// retried on a 5xx or a connection failure; the run's end waits (at most
// 10 s) until every second, the last one included, was accepted, and says
// so when one was not.
#include "runoutput.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace stampede {

class RemoteWriteOutput final : public RunOutput
{
public:
    explicit RemoteWriteOutput(std::string url) : m_url(std::move(url)) {}
    ~RemoteWriteOutput() override;
    bool open(const ScenarioPlan& plan, std::string& error) override;
    void second(const SecondSummary& summary, const PreparedSecond& merged) override;
    bool finish(const RunSummary& summary, std::string& error) override;

    // A second's series as a remote write request (protobuf, before snappy), for tests.
    std::string encode(std::uint32_t second, std::int64_t endMillis, const PreparedSecond& merged);

private:
    void loop();
    bool post(const std::string& body, std::string& error) const;

    std::string m_url;
    RunSeries m_series;
    SecondStamps m_stamps;

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::string> m_queue; // compressed requests not yet accepted
    bool m_stop = false;
    bool m_busy = false; // a request is on its way
    std::uint64_t m_pushed = 0, m_failed = 0;
    std::string m_error; // the last failure
    std::thread m_thread;
};

} // namespace stampede
