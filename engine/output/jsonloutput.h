#pragma once
// `--out jsonl=FILE`: the run as JSON lines, one object per line, written as
// they happen (as k6's JSON output):
//   {"type":"start", "time", "run_id", "scenario", "steps", "engines"}
//   {"type":"second", "t", "time", "open_connections", "active_users",
//    "total": {...}, "steps": [{"step", ...}], "server": {...}}
//   {"type":"event", "at_s", "kind", "agent", "detail"}
//   {"type":"end", "time", "status", "passed", "reason", "summary": {...}}
// where each figure set is sent, requests, errors, errors_by_class, late,
// dropped, bytes_in, bytes_out, p50_ms, p90_ms, p95_ms, p99_ms, p999_ms,
// max_ms and checks {"name": {"passed", "failed"}}. "time" is UTC, the end
// of the second. Lines go to FILE.part as they come (follow it with tail -f),
// which becomes FILE when the run ends: FILE is always a whole run.
#include "runoutput.h"

#include <cstdio>

namespace stampede {

class JsonlOutput final : public RunOutput
{
public:
    explicit JsonlOutput(std::string path) : m_path(std::move(path)) {}
    ~JsonlOutput() override;
    bool open(const ScenarioPlan& plan, std::string& error) override;
    void started(const std::vector<std::string>& agents) override;
    void second(const SecondSummary& summary, const PreparedSecond& merged) override;
    void event(const RunEvent& event) override;
    bool finish(const RunSummary& summary, std::string& error) override;
    std::string partPath() const { return m_path + ".part"; }

private:
    void line(const std::string& json);
    bool keepPlan(const ScenarioPlan& plan);
    std::string m_path;
    bool m_through = false; // standard output, a FIFO or a device: written through, no FILE.part
    int m_fd = -1;
    std::string m_error; // the first write that failed
    SecondStamps m_stamps;
    std::vector<std::string> m_steps;
    std::vector<std::vector<std::string>> m_checks;
    std::string m_runId, m_scenario;
};

} // namespace stampede
