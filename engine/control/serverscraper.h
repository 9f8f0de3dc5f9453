#pragma once
// Reads the target's own metrics once a second during a run, on a thread of
// the controller (never on an engine's hot loop): a Prometheus server's
// query API, or a text exposition endpoint read directly. Each read has a
// deadline (800 ms); a source that fails is told once per failing streak
// (an event), never a failed run.
#include "plan/scenarioplan.h"

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace stampede {

class ServerScraper
{
public:
    explicit ServerScraper(std::vector<ServerMetricPlan> sources);
    ~ServerScraper();
    void start();
    void stop();
    // The latest value of each source that has one (a rate needs two reads).
    std::map<std::string, double> latest() const;
    // What failed (or recovered) since the last call: "app_rss: connection refused".
    std::vector<std::string> takeProblems();

    // One reading of a source: its value, or why there is none; `badQuery`
    // set when a Prometheus server refused the query itself (bad_data: a
    // PromQL error), which no later reading would cure.
    static std::optional<double> read(const ServerMetricPlan& source, std::string& error, bool* badQuery = nullptr);
    // Before a run: each Prometheus source asked once. A query the server
    // refuses is an error ("serverMetrics[1] db_cpu: Prometheus says: ..."),
    // any other problem a warning (the source may come up during the run).
    static void preflight(const std::vector<ServerMetricPlan>& sources, std::vector<std::string>& errors,
                          std::vector<std::string>& warnings);

private:
    void loop();

    std::vector<ServerMetricPlan> m_sources;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stop = false;
    std::map<std::string, double> m_latest;
    std::vector<std::string> m_problems;
    std::thread m_thread;
};

} // namespace stampede
