#include "jsonloutput.h"

#include "core/text.h"
#include "core/textfile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace stampede {

namespace {

std::string figures(const PreparedSecond::Row& r, const std::vector<std::string>& checks)
{
    const StepCounters& c = r.counters;
    std::string out = "\"sent\": " + std::to_string(c.sent) + ", \"requests\": " + std::to_string(c.requests) +
                      ", \"errors\": " + std::to_string(c.errors) + ", \"errors_by_class\": {";
    for (std::size_t k = 0; k < kErrorClassCount; ++k)
        out += (k ? ", " : "") + jsonString(errorClassName(ErrorClass(k))) + ": " + std::to_string(c.errorsByClass[k]);
    out += "}, \"late\": " + std::to_string(c.late) + ", \"dropped\": " + std::to_string(c.dropped) +
           ", \"bytes_in\": " + std::to_string(c.bytesIn) + ", \"bytes_out\": " + std::to_string(c.bytesOut);
    out += ", \"min_ms\": " + jsonNumber(r.minMs) + ", \"mean_ms\": " + jsonNumber(r.meanMs);
    constexpr const char* kNames[] = {"p50_ms", "p90_ms", "p95_ms", "p99_ms", "p999_ms", "max_ms"};
    for (std::size_t q = 0; q < 6; ++q)
        out += std::string(", \"") + kNames[q] + "\": " + jsonNumber(r.percentilesMs[q]);
    if (!checks.empty()) {
        out += ", \"checks\": {";
        for (std::size_t k = 0; k < checks.size(); ++k) {
            const CheckCount n = k < r.checks.size() ? r.checks[k] : CheckCount{};
            out += (k ? ", " : "") + jsonString(checks[k]) + ": {\"passed\": " + std::to_string(n.passed) +
                   ", \"failed\": " + std::to_string(n.failed) + "}";
        }
        out += "}";
    }
    return out;
}

// The summary's JSON on one line: its line breaks are whitespace between
// tokens (a line break inside a string is written \n).
std::string oneLine(std::string json)
{
    std::erase(json, '\n');
    return json;
}

} // namespace

JsonlOutput::~JsonlOutput()
{
    if (m_fd >= 0)
        ::close(m_fd); // a run that never finished leaves FILE.part, whole up to its last line
}

bool JsonlOutput::open(const ScenarioPlan& plan, std::string& error)
{
    // the one output rule (core/textfile.h): a stream is written through, a link followed
    OutputPath where;
    if (!resolveOutput(m_path, where, error)) {
        error = "--out jsonl: " + error;
        return false;
    }
    m_through = where.kind != OutputPath::Kind::File;
    if (where.kind == OutputPath::Kind::Fd)
        m_fd = ::dup(where.fd);
    else if (where.kind == OutputPath::Kind::Stream)
        m_fd = ::open(where.path.c_str(), O_WRONLY | O_CLOEXEC);
    if (m_through) {
        if (m_fd < 0) {
            error = "--out jsonl: cannot write \"" + m_path + "\": " + std::strerror(errno);
            return false;
        }
        return keepPlan(plan);
    }
    m_path = where.path;
    const std::string part = partPath();
    m_fd = ::open(part.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (m_fd < 0) {
        error = "--out jsonl: cannot write \"" + part + "\": " + std::strerror(errno);
        return false;
    }
    if (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
        error = "--out jsonl: another run is writing \"" + part + "\"";
        ::close(m_fd);
        m_fd = -1;
        return false;
    }
    if (::ftruncate(m_fd, 0) != 0) {
        error = "--out jsonl: cannot write \"" + part + "\": " + std::strerror(errno);
        ::close(m_fd);
        m_fd = -1;
        return false;
    }
    return keepPlan(plan);
}

bool JsonlOutput::keepPlan(const ScenarioPlan& plan)
{
    m_runId = plan.runId;
    m_scenario = plan.name;
    for (const auto& st : plan.steps) {
        m_steps.push_back(st.name);
        m_checks.emplace_back();
        for (const auto& c : st.checks)
            m_checks.back().push_back(c.name);
    }
    return true;
}

void JsonlOutput::line(const std::string& json)
{
    if (m_fd < 0 || !m_error.empty())
        return;
    const std::string text = json + "\n";
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(m_fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            m_error = "--out jsonl: cannot write \"" + partPath() + "\": " + std::strerror(errno);
            return;
        }
        done += std::size_t(n);
    }
}

void JsonlOutput::started(const std::vector<std::string>& agents)
{
    std::string json = "{\"type\": \"start\", \"time\": " + jsonString(isoMillis(wallMillis())) +
                       ", \"run_id\": " + jsonString(m_runId) + ", \"scenario\": " + jsonString(m_scenario) +
                       ", \"steps\": [";
    for (std::size_t i = 0; i < m_steps.size(); ++i)
        json += (i ? ", " : "") + jsonString(m_steps[i]);
    json += "], \"engines\": [";
    for (std::size_t i = 0; i < agents.size(); ++i)
        json += (i ? ", " : "") + jsonString(agents[i]);
    line(json + "]}");
}

void JsonlOutput::second(const SecondSummary& summary, const PreparedSecond& merged)
{
    std::string json = "{\"type\": \"second\", \"t\": " + std::to_string(summary.second) +
                       ", \"time\": " + jsonString(isoMillis(m_stamps.stamp(summary.second, wallMillis()))) +
                       ", \"open_connections\": " + std::to_string(merged.openConnections) +
                       ", \"active_users\": " + std::to_string(merged.activeUsers);
    std::string steps;
    for (const auto& row : merged.rows) {
        if (row.step < 0)
            json += ", \"total\": {" + figures(row, {}) + "}";
        else if (std::size_t(row.step) < m_steps.size())
            steps += std::string(steps.empty() ? "" : ", ") + "{\"step\": " + jsonString(m_steps[row.step]) + ", " +
                     figures(row, m_checks[row.step]) + "}";
    }
    json += ", \"steps\": [" + steps + "]";
    if (!summary.server.empty())
        json += ", \"server\": " + jsonNumbers(summary.server);
    line(json + "}");
}

void JsonlOutput::event(const RunEvent& e)
{
    line("{\"type\": \"event\", \"at_s\": " + jsonNumber(e.atS) + ", \"kind\": " + jsonString(e.kind) +
         ", \"agent\": " + jsonString(e.agent) + ", \"detail\": " + jsonString(e.detail) + "}");
}

bool JsonlOutput::finish(const RunSummary& summary, std::string& error)
{
    line("{\"type\": \"end\", \"time\": " + jsonString(isoMillis(wallMillis())) +
         ", \"status\": " + jsonString(summary.status) + ", \"passed\": " + (summary.passed ? "true" : "false") +
         ", \"reason\": " + jsonString(summary.reason) + ", \"summary\": " + oneLine(summaryToJson(summary)) + "}");
    if (m_fd < 0)
        return true;
    if (m_through) { // nothing to rename: the lines went where they were asked to
        ::close(m_fd);
        m_fd = -1;
        error = m_error;
        return m_error.empty();
    }
    if (m_error.empty() && ::fsync(m_fd) != 0)
        m_error = "--out jsonl: cannot write \"" + partPath() + "\": " + std::strerror(errno);
    if (m_error.empty() && ::rename(partPath().c_str(), m_path.c_str()) != 0)
        m_error = "--out jsonl: cannot rename \"" + partPath() + "\" to \"" + m_path + "\": " + std::strerror(errno);
    ::close(m_fd);
    m_fd = -1;
    error = m_error;
    return m_error.empty();
}

} // namespace stampede
