#include "runlog.h"

#include "projectstore.h"
#include "sqlstatement.h"

#include <sqlite3.h>

#include <map>

namespace stampede {

namespace {

std::string jsonStrings(const std::vector<std::string>& v)
{
    std::string out = "[";
    for (std::size_t i = 0; i < v.size(); ++i) {
        out += i ? ", \"" : "\"";
        for (char c : v[i])
            out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
        out += "\"";
    }
    return out + "]";
}

std::vector<std::string> parseStrings(const std::string& json)
{
    std::vector<std::string> out;
    std::string cur;
    bool in = false;
    for (std::size_t i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (!in) {
            if (c == '"')
                in = true, cur.clear();
            continue;
        }
        if (c == '\\' && i + 1 < json.size())
            cur += json[++i];
        else if (c == '"')
            in = false, out.push_back(cur);
        else
            cur += c;
    }
    return out;
}

// "[1,2,3]" -> {1, 2, 3}
std::vector<std::uint64_t> parseNumbers(const std::string& text)
{
    std::vector<std::uint64_t> out;
    std::size_t pos = text.find('[');
    while (pos != std::string::npos && pos + 1 < text.size()) {
        out.push_back(std::strtoull(text.c_str() + pos + 1, nullptr, 10));
        pos = text.find(',', pos + 1);
    }
    return out;
}

} // namespace

std::int64_t RunLog::begin(const std::string& runId, const std::string& name, const std::string& scenarioJson,
                           const std::string& environmentJson, const std::vector<std::string>& agents,
                           const std::vector<std::string>& stepNames)
{
    sqlite3* db = m_store.handle();
    sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
    SqlStatement s(db, "INSERT INTO runs(run_id, name, scenario, environment, agents, started, status) "
                       "VALUES (?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'running')");
    s.bind(1, runId).bind(2, name).bind(3, scenarioJson).bind(4, environmentJson).bind(5, jsonStrings(agents));
    if (!s.run()) {
        m_error = sqlite3_errmsg(db);
        sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
        return 0;
    }
    const std::int64_t id = sqlite3_last_insert_rowid(db);
    SqlStatement st(db, "INSERT INTO run_steps(run, step, name) VALUES (?, ?, ?)");
    for (std::size_t i = 0; i < stepNames.size(); ++i) {
        st.bind(1, id).bind(2, std::int64_t(i)).bind(3, stepNames[i]).run();
        st.reset();
    }
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    return id;
}

PreparedSecond RunLog::prepare(const IntervalMetrics& m, const std::string& agent)
{
    PreparedSecond p;
    p.second = m.second;
    p.agent = agent;
    p.openConnections = m.openConnections;
    p.activeUsers = m.activeUsers;
    p.samples = m.samples;
    auto add = [&](int step, const StepMetrics& sm) {
        PreparedSecond::Row r;
        r.step = step;
        r.counters = sm.counters;
        const auto& h = sm.latency;
        r.percentilesMs = {h.percentile(50) / 1000, h.percentile(90) / 1000,   h.percentile(95) / 1000,
                           h.percentile(99) / 1000, h.percentile(99.9) / 1000, double(h.max()) / 1000};
        r.latency = h.serialize();
        r.service = sm.serviceTime.serialize();
        p.rows.push_back(std::move(r));
    };
    for (std::size_t i = 0; i < m.steps.size(); ++i)
        add(int(i), m.steps[i]);
    add(-1, m.total());
    return p;
}

bool RunLog::appendSecond(std::int64_t run, const IntervalMetrics& m, const std::string& agent)
{
    return write(run, {prepare(m, agent)});
}

bool RunLog::write(std::int64_t run, const std::vector<PreparedSecond>& parts)
{
    sqlite3* db = m_store.handle();
    sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
    SqlStatement s(
        db, "INSERT OR REPLACE INTO run_seconds(run, second, step, agent, sent, requests, errors, errors_by_class, "
            "late, dropped, bytes_in, bytes_out, p50_ms, p90_ms, p95_ms, p99_ms, p999_ms, max_ms, latency, service, "
            "open_connections, active_users, connections, grpc_codes) VALUES "
            "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
            "?)");
    SqlStatement count(db, "SELECT count(*) FROM run_samples WHERE run = ? AND step = ? AND error_class = ? "
                           "AND agent = ?");
    SqlStatement add(db, "INSERT INTO run_samples(run, second, step, agent, error_class, status, head, body, "
                         "detail) VALUES (?,?,?,?,?,?,?,?,?)");
    SqlStatement last(db, "UPDATE runs SET last_second = max(last_second, ?) WHERE id = ?");
    bool ok = true;
    for (const auto& p : parts) {
        for (const auto& r : p.rows) {
            const auto& c = r.counters;
            std::string byClass = "[";
            for (std::size_t k = 0; k < kErrorClassCount; ++k)
                byClass += (k ? "," : "") + std::to_string(c.errorsByClass[k]);
            byClass += "]";
            s.bind(1, run).bind(2, std::int64_t(p.second)).bind(3, std::int64_t(r.step)).bind(4, p.agent);
            s.bind(5, std::int64_t(c.sent)).bind(6, std::int64_t(c.requests)).bind(7, std::int64_t(c.errors));
            s.bind(8, byClass).bind(9, std::int64_t(c.late)).bind(10, std::int64_t(c.dropped));
            s.bind(11, std::int64_t(c.bytesIn)).bind(12, std::int64_t(c.bytesOut));
            for (int k = 0; k < 6; ++k)
                s.bind(13 + k, r.percentilesMs[std::size_t(k)]);
            s.blob(19, r.latency).blob(20, r.service);
            s.bind(21, std::int64_t(r.step < 0 ? p.openConnections : 0));
            s.bind(22, std::int64_t(r.step < 0 ? p.activeUsers : 0));
            s.bind(23, "[" + std::to_string(c.connects) + "," + std::to_string(c.connectNanos) + "," +
                           std::to_string(c.handshakes) + "," + std::to_string(c.handshakesResumed) + "," +
                           std::to_string(c.handshakeNanos) + "," + std::to_string(c.handshakeMaxNanos) + "," +
                           std::to_string(c.goaways) + "]");
            std::string grpc = "[";
            if (c.errorsByClass[std::size_t(ErrorClass::Grpc)])
                for (std::size_t k = 0; k < kGrpcCodeCount; ++k)
                    grpc += (k ? "," : "") + std::to_string(c.grpcCodes[k]);
            s.bind(24, grpc + "]");
            ok &= s.run();
            s.reset();
        }
        for (const auto& e : p.samples) {
            count.bind(1, run).bind(2, std::int64_t(e.step)).bind(3, std::int64_t(e.errorClass)).bind(4, p.agent);
            const bool room = count.step() && count.integer(0) < kRunSamplesPerClass;
            count.reset();
            if (!room)
                continue;
            add.bind(1, run).bind(2, std::int64_t(p.second)).bind(3, std::int64_t(e.step)).bind(4, p.agent);
            add.bind(5, std::int64_t(e.errorClass)).bind(6, std::int64_t(e.status)).blob(7, e.head).blob(8, e.body);
            add.bind(9, e.detail);
            ok &= add.run();
            add.reset();
        }
        last.bind(1, std::int64_t(p.second)).bind(2, run);
        ok &= last.run();
        last.reset();
    }
    if (!ok) {
        m_error = sqlite3_errmsg(db);
        sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
        return false;
    }
    return sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) == SQLITE_OK;
}

bool RunLog::setAgents(std::int64_t run, const std::vector<std::string>& agents)
{
    SqlStatement s(m_store.handle(), "UPDATE runs SET agents = ? WHERE id = ?");
    s.bind(1, jsonStrings(agents)).bind(2, run);
    return s.run();
}

bool RunLog::addEvent(std::int64_t run, const RunEvent& e)
{
    SqlStatement s(m_store.handle(), "INSERT INTO run_events(run, at_s, kind, agent, detail, from_second, to_second) "
                                     "VALUES (?, ?, ?, ?, ?, ?, ?)");
    s.bind(1, run).bind(2, e.atS).bind(3, e.kind).bind(4, e.agent).bind(5, e.detail);
    s.bind(6, std::int64_t(e.fromSecond)).bind(7, std::int64_t(e.toSecond));
    return s.run();
}

bool RunLog::finish(std::int64_t run, const std::string& status, const std::string& summaryJson)
{
    SqlStatement s(m_store.handle(),
                   "UPDATE runs SET status = ?, summary = ?, ended = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') "
                   "WHERE id = ?");
    s.bind(1, status).bind(2, summaryJson).bind(3, run);
    return s.run();
}

std::vector<RunInfo> RunLog::runs() const
{
    std::vector<RunInfo> out;
    SqlStatement s(m_store.handle(),
                   "SELECT id, run_id, name, started, coalesce(ended, ''), status, last_second FROM runs "
                   "ORDER BY id");
    while (s.step())
        out.push_back(
            {s.integer(0), s.text(1), s.text(2), s.text(3), s.text(4), s.text(5), std::uint32_t(s.integer(6))});
    return out;
}

std::optional<std::int64_t> RunLog::find(const std::string& runId) const
{
    SqlStatement s(m_store.handle(), runId.empty() ? "SELECT id FROM runs ORDER BY id DESC LIMIT 1"
                                                   : "SELECT id FROM runs WHERE run_id = ? OR CAST(id AS TEXT) = ?");
    if (!runId.empty())
        s.bind(1, runId).bind(2, runId);
    if (!s.step())
        return std::nullopt;
    return s.integer(0);
}

std::optional<SavedRun> RunLog::load(std::int64_t run) const
{
    sqlite3* db = m_store.handle();
    SavedRun r;
    // A statement that fails (a damaged or foreign file) is reported, not read as an empty run.
    auto failed = [&](const SqlStatement& s, const char* what) {
        if (!s.failed())
            return false;
        m_error = "cannot read the " + std::string(what) + " of run " + std::to_string(run) + ": " + s.error();
        return true;
    };
    {
        SqlStatement s(
            db, "SELECT id, run_id, name, started, coalesce(ended, ''), status, last_second, scenario, environment, "
                "agents, summary FROM runs WHERE id = ?");
        s.bind(1, run);
        if (!s.step()) {
            if (!failed(s, "record"))
                m_error = "no run " + std::to_string(run);
            return std::nullopt;
        }
        r.info = {s.integer(0), s.text(1), s.text(2), s.text(3), s.text(4), s.text(5), std::uint32_t(s.integer(6))};
        r.scenarioJson = s.text(7);
        r.environmentJson = s.text(8);
        r.agents = parseStrings(s.text(9));
        r.summaryJson = s.text(10);
    }
    {
        SqlStatement s(db, "SELECT name FROM run_steps WHERE run = ? ORDER BY step");
        s.bind(1, run);
        while (s.step())
            r.stepNames.push_back(s.text(0));
        if (failed(s, "steps"))
            return std::nullopt;
    }
    {
        // Rows of the same second and step from several agents add up; the
        // whole-run histograms are merged from the sparse per-second ones.
        SqlStatement s(
            db, "SELECT second, step, sent, requests, errors, errors_by_class, late, dropped, bytes_in, bytes_out, "
                "p50_ms, p90_ms, p95_ms, p99_ms, p999_ms, max_ms, latency, service, agent, open_connections, "
                "active_users, connections, grpc_codes FROM run_seconds WHERE run = ? ORDER BY second, step");
        s.bind(1, run);
        r.total.steps.resize(r.stepNames.size());
        while (s.step()) {
            SecondRow row;
            row.second = std::uint32_t(s.integer(0));
            row.step = int(s.integer(1));
            auto& c = row.counters;
            c.sent = std::uint64_t(s.integer(2));
            c.requests = std::uint64_t(s.integer(3));
            c.errors = std::uint64_t(s.integer(4));
            const auto byClass = parseNumbers(s.text(5));
            for (std::size_t k = 0; k < byClass.size() && k < kErrorClassCount; ++k)
                c.errorsByClass[k] = byClass[k];
            const auto conn = parseNumbers(s.text(21));
            if (conn.size() >= 6) {
                c.connects = conn[0], c.connectNanos = conn[1], c.handshakes = conn[2];
                c.handshakesResumed = conn[3], c.handshakeNanos = conn[4], c.handshakeMaxNanos = conn[5];
            }
            if (conn.size() >= 7)
                c.goaways = conn[6];
            const auto grpc = parseNumbers(s.text(22));
            for (std::size_t k = 0; k < grpc.size() && k < kGrpcCodeCount; ++k)
                c.grpcCodes[k] = grpc[k];
            c.late = std::uint64_t(s.integer(6));
            c.dropped = std::uint64_t(s.integer(7));
            c.bytesIn = std::uint64_t(s.integer(8));
            c.bytesOut = std::uint64_t(s.integer(9));
            row.p50Ms = s.real(10);
            row.p90Ms = s.real(11);
            row.p95Ms = s.real(12);
            row.p99Ms = s.real(13);
            row.p999Ms = s.real(14);
            row.maxMs = s.real(15);
            row.agent = s.text(18);
            row.openConnections = std::uint32_t(s.integer(19));
            row.activeUsers = std::uint32_t(s.integer(20));
            if (!row.agent.empty()) {
                r.agentRows.push_back(std::move(row));
                continue;
            }
            if (row.step >= 0) {
                if (r.total.steps.size() <= std::size_t(row.step))
                    r.total.steps.resize(std::size_t(row.step) + 1);
                StepMetrics& t = r.total.steps[std::size_t(row.step)];
                t.counters.merge(c);
                t.latency.mergeSerialized(s.text(16));
                t.serviceTime.mergeSerialized(s.text(17));
            }
            r.rows.push_back(row);
        }
        if (failed(s, "seconds"))
            return std::nullopt;
    }
    {
        SqlStatement s(db, "SELECT step, second, error_class, status, head, body, detail FROM run_samples "
                           "WHERE run = ? AND agent = '' ORDER BY step, error_class, second");
        s.bind(1, run);
        while (s.step()) {
            const auto c = std::size_t(s.integer(2));
            if (c >= kErrorClassCount)
                continue;
            r.samples.push_back({std::uint32_t(s.integer(0)), std::uint32_t(s.integer(1)), ErrorClass(c),
                                 int(s.integer(3)), s.text(4), s.text(5), s.text(6)});
        }
        if (failed(s, "error samples"))
            return std::nullopt;
    }
    {
        SqlStatement s(
            db, "SELECT at_s, kind, agent, detail, from_second, to_second FROM run_events WHERE run = ? ORDER BY at_s");
        s.bind(1, run);
        while (s.step())
            r.events.push_back(
                {s.real(0), s.text(1), s.text(2), s.text(3), std::uint32_t(s.integer(4)), std::uint32_t(s.integer(5))});
        if (failed(s, "events"))
            return std::nullopt;
    }
    return r;
}

} // namespace stampede
