#include "runlog.h"

#include "projectstore.h"
#include "sqlstatement.h"

#include <sqlite3.h>

#include <cstdio>
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

// Counts by name, the non-zero ones: {"timeout":3,"http_5xx":1}.
template <std::size_t N, typename NameOf>
std::string countsJson(const std::array<std::uint64_t, N>& counts, NameOf name)
{
    std::string out = "{";
    for (std::size_t k = 0; k < N; ++k)
        if (counts[k])
            out += (out.size() > 1 ? ",\"" : "\"") + std::string(name(k)) + "\":" + std::to_string(counts[k]);
    return out + "}";
}

// The reverse, for names this version knows (others are left out).
template <std::size_t N, typename NameOf>
void readCounts(const std::string& json, std::array<std::uint64_t, N>& counts, NameOf name)
{
    for (std::size_t k = 0; k < N; ++k) {
        const std::string key = "\"" + std::string(name(k)) + "\":";
        const std::size_t at = json.find(key);
        if (at != std::string::npos)
            counts[k] = std::strtoull(json.c_str() + at + key.size(), nullptr, 10);
    }
}

// Per-check counts as [[passed, failed], ...] by check index, and back.
std::string checksJson(const std::vector<CheckCount>& checks)
{
    std::string out = "[";
    for (std::size_t k = 0; k < checks.size(); ++k)
        out += (k ? ",[" : "[") + std::to_string(checks[k].passed) + "," + std::to_string(checks[k].failed) + "]";
    return out + "]";
}

std::vector<CheckCount> readChecks(const std::string& json)
{
    std::vector<std::uint64_t> numbers;
    for (const char* p = json.c_str(); *p;) {
        if (*p >= '0' && *p <= '9') {
            char* end = nullptr;
            numbers.push_back(std::strtoull(p, &end, 10));
            p = end;
        } else {
            ++p;
        }
    }
    std::vector<CheckCount> out(std::min(numbers.size() / 2, kMaxChecksPerStep));
    for (std::size_t k = 0; k < out.size(); ++k)
        out[k] = {numbers[2 * k], numbers[2 * k + 1]};
    return out;
}

// Server metrics as {"name": value, ...} (names are letters, digits, _ and -), and back.
std::string serverJson(const std::map<std::string, double>& server)
{
    std::string out = "{";
    char value[64];
    for (const auto& [name, v] : server) {
        std::snprintf(value, sizeof value, "%.17g", v);
        out += (out.size() > 1 ? ",\"" : "\"") + name + "\":" + value;
    }
    return out + "}";
}

std::map<std::string, double> readServer(const std::string& json)
{
    std::map<std::string, double> out;
    for (std::size_t at = json.find('"'); at != std::string::npos; at = json.find('"', at)) {
        const std::size_t end = json.find('"', at + 1);
        if (end == std::string::npos || end + 1 >= json.size() || json[end + 1] != ':')
            break;
        char* stop = nullptr;
        const double v = std::strtod(json.c_str() + end + 2, &stop);
        if (stop == json.c_str() + end + 2)
            break;
        out[json.substr(at + 1, end - at - 1)] = v;
        at = std::size_t(stop - json.c_str());
    }
    return out;
}

std::string_view className(std::size_t k)
{
    return errorClassName(ErrorClass(k));
}

std::string codeName(std::size_t k)
{
    return grpcCodeName(int(k));
}

// The per-second row's insert, its columns named from kCounterFields.
std::string insertSecondSql()
{
    std::string columns = "run, second, step, agent, errors_by_class, grpc_codes, p50_ms, p90_ms, p95_ms, p99_ms, "
                          "p999_ms, max_ms, latency, service, open_connections, active_users, checks, server, "
                          "min_ms, mean_ms, cpu, rss_bytes, loop_lag_ms";
    std::string values = ":run, :second, :step, :agent, :errors_by_class, :grpc_codes, :p50_ms, :p90_ms, :p95_ms, "
                         ":p99_ms, :p999_ms, :max_ms, :latency, :service, :open_connections, :active_users, :checks, "
                         ":server, :min_ms, :mean_ms, :cpu, :rss_bytes, :loop_lag_ms";
    for (const CounterField& f : kCounterFields) {
        columns += std::string(", ") + f.name;
        values += std::string(", :") + f.name;
    }
    return "INSERT OR REPLACE INTO run_seconds(" + columns + ") VALUES (" + values + ")";
}

const char* const kPercentileColumns[] = {"p50_ms", "p90_ms", "p95_ms", "p99_ms", "p999_ms", "max_ms"};

} // namespace

// Every statement a run will need, prepared once: a damaged project (a table
// or a column gone) is found before any load is sent, not a second into it.
bool RunLog::writable()
{
    sqlite3* db = m_store.handle();
    static const std::string insert = insertSecondSql();
    const char* const statements[] = {
        insert.c_str(),
        "SELECT count(*) FROM run_samples WHERE run = ? AND step = ? AND error_class = ? AND agent = ?",
        "INSERT INTO run_samples(run, second, step, agent, error_class, status, head, body, detail, trace) "
        "VALUES (?,?,?,?,?,?,?,?,?,?)",
        "UPDATE runs SET last_second = max(last_second, ?) WHERE id = ?",
        "INSERT INTO run_events(run, at_s, kind, agent, detail, from_second, to_second) VALUES (?, ?, ?, ?, ?, ?, ?)",
        "UPDATE runs SET status = ?, summary = ?, ended = ?, agents = ? WHERE id = ?"};
    for (const char* sql : statements) {
        SqlStatement s(db, sql);
        if (!s.ok()) {
            m_error = "the project is damaged: " + s.error();
            return false;
        }
    }
    return true;
}

std::int64_t RunLog::begin(const std::string& runId, const std::string& name, const std::string& scenarioJson,
                           const std::string& environmentJson, const std::vector<std::string>& agents,
                           const std::vector<std::string>& stepNames,
                           const std::vector<std::vector<std::string>>& checkNames,
                           const std::vector<std::string>& groupNames, const std::vector<RunScenario>& scenarios,
                           const std::vector<std::uint32_t>& groupFirstSteps)
{
    sqlite3* db = m_store.handle();
    if (!writable())
        return 0;
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK) {
        m_error = sqlite3_errmsg(db);
        return 0;
    }
    SqlStatement s(db, "INSERT INTO runs(run_id, name, scenario, environment, agents, started, status) "
                       "VALUES (?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'running')");
    s.bind(1, runId).bind(2, name).bind(3, scenarioJson).bind(4, environmentJson).bind(5, jsonStrings(agents));
    bool ok = s.run();
    const std::int64_t id = sqlite3_last_insert_rowid(db);
    SqlStatement st(db, "INSERT INTO run_steps(run, step, name, checks) VALUES (?, ?, ?, ?)");
    for (std::size_t i = 0; ok && i < stepNames.size(); ++i) {
        ok = st.bind(1, id)
                 .bind(2, std::int64_t(i))
                 .bind(3, stepNames[i])
                 .bind(4, jsonStrings(i < checkNames.size() ? checkNames[i] : std::vector<std::string>{}))
                 .run();
        st.reset();
    }
    SqlStatement g(db, "INSERT INTO run_steps(run, step, name, kind, first_step) VALUES (?, ?, ?, 'group', ?)");
    for (std::size_t i = 0; ok && i < groupNames.size(); ++i) {
        const std::int64_t first = i < groupFirstSteps.size() ? std::int64_t(groupFirstSteps[i]) : 0;
        ok = g.bind(1, id).bind(2, std::int64_t(stepNames.size() + i)).bind(3, groupNames[i]).bind(4, first).run();
        g.reset();
    }
    SqlStatement sc(db, "INSERT INTO run_steps(run, step, name, kind, first_step, step_count, start_after_s, "
                        "duration_s) VALUES (?, ?, ?, 'scenario', ?, ?, ?, ?)");
    for (std::size_t i = 0; ok && i < scenarios.size(); ++i) {
        const RunScenario& x = scenarios[i];
        ok = sc.bind(1, id)
                 .bind(2, std::int64_t(stepNames.size() + groupNames.size() + i))
                 .bind(3, x.name)
                 .bind(4, std::int64_t(x.firstStep))
                 .bind(5, std::int64_t(x.steps))
                 .bind(6, x.startAfterS)
                 .bind(7, x.durationS)
                 .run();
        sc.reset();
    }
    if (!ok || sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) {
        m_error = sqlite3_errmsg(db);
        sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
        return 0;
    }
    return id;
}

// A second's trace ids, each step's until the run holds kRunTracesPerStep of it.
bool RunLog::writeTraces(sqlite3* db, std::int64_t run, const PreparedSecond& p)
{
    if (p.traces.empty())
        return true;
    SqlStatement count(db, "SELECT count(*) FROM run_traces WHERE run = ? AND step = ?");
    SqlStatement add(db, "INSERT INTO run_traces(run, second, step, trace) VALUES (?,?,?,?)");
    bool ok = count.ok() && add.ok();
    for (const TraceSample& t : p.traces) {
        if (!ok)
            break;
        count.bind(1, run).bind(2, std::int64_t(t.step));
        const bool room = count.step() && count.integer(0) < kRunTracesPerStep;
        ok = !count.failed();
        count.reset();
        if (!room)
            continue;
        ok = add.bind(1, run).bind(2, std::int64_t(p.second)).bind(3, std::int64_t(t.step)).bind(4, t.trace).run();
        add.reset();
    }
    return ok;
}

PreparedSecond RunLog::prepare(const IntervalMetrics& m, const std::string& agent,
                               const std::vector<RunScenario>& scenarios)
{
    PreparedSecond p;
    p.second = m.second;
    p.agent = agent;
    p.openConnections = m.openConnections;
    p.activeUsers = m.activeUsers;
    p.health = m.health;
    p.samples = m.samples;
    if (agent.empty())
        p.traces = m.traces;
    auto add = [&](int step, const StepMetrics& sm) {
        PreparedSecond::Row r;
        r.step = step;
        r.counters = sm.counters;
        r.checks = sm.checks;
        const auto& h = sm.latency;
        r.percentilesMs = {h.percentile(50) / 1000, h.percentile(90) / 1000,   h.percentile(95) / 1000,
                           h.percentile(99) / 1000, h.percentile(99.9) / 1000, double(h.max()) / 1000};
        r.minMs = double(h.min()) / 1000;
        r.meanMs = h.mean() / 1000;
        r.latency = h.serialize();
        r.service = sm.serviceTime.serialize();
        p.rows.push_back(std::move(r));
    };
    for (std::size_t i = 0; i < m.steps.size(); ++i)
        add(int(i), m.steps[i]);
    for (std::size_t i = 0; i < m.groups.size(); ++i) // after the steps: not part of the total
        add(int(m.steps.size() + i), m.groups[i]);
    for (std::size_t k = 0; k < scenarios.size(); ++k) { // then a plan's scenarios: their steps together
        StepMetrics merged;
        for (std::uint32_t i = scenarios[k].firstStep;
             i < scenarios[k].firstStep + scenarios[k].steps && i < m.steps.size(); ++i)
            merged.merge(m.steps[i]);
        merged.checks.clear();
        add(int(m.steps.size() + m.groups.size() + k), merged);
    }
    add(-1, m.total());
    return p;
}

bool RunLog::appendSecond(std::int64_t run, const IntervalMetrics& m, const std::string& agent)
{
    return write(run, {prepare(m, agent)});
}

bool RunLog::writeRow(SqlStatement& s, std::int64_t run, const PreparedSecond& p, const PreparedSecond::Row& r)
{
    const StepCounters& c = r.counters;
    s.bind(":run", run).bind(":second", std::int64_t(p.second)).bind(":step", std::int64_t(r.step));
    s.bind(":agent", p.agent);
    for (const CounterField& f : kCounterFields)
        s.bind((std::string(":") + f.name).c_str(), std::int64_t(c.*f.field));
    s.bind(":errors_by_class", countsJson(c.errorsByClass, className));
    s.bind(":grpc_codes", countsJson(c.grpcCodes, codeName));
    s.bind(":checks", checksJson(r.checks));
    for (std::size_t k = 0; k < 6; ++k)
        s.bind((std::string(":") + kPercentileColumns[k]).c_str(), r.percentilesMs[k]);
    s.blob(":latency", r.latency).blob(":service", r.service);
    s.bind(":open_connections", std::int64_t(r.step < 0 ? p.openConnections : 0));
    s.bind(":active_users", std::int64_t(r.step < 0 ? p.activeUsers : 0));
    s.bind(":server", r.step < 0 && p.agent.empty() ? serverJson(p.server) : std::string("{}"));
    s.bind(":min_ms", r.minMs);
    s.bind(":mean_ms", r.meanMs);
    s.bind(":cpu", r.step < 0 ? p.health.cpu : 0.0);
    s.bind(":rss_bytes", std::int64_t(r.step < 0 ? p.health.rssBytes : 0));
    s.bind(":loop_lag_ms", r.step < 0 ? double(p.health.loopLag) / 1e6 : 0.0);
    const bool ok = s.run();
    s.reset();
    return ok;
}

bool RunLog::write(std::int64_t run, const std::vector<PreparedSecond>& parts)
{
    sqlite3* db = m_store.handle();
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK) {
        m_error = sqlite3_errmsg(db);
        return false;
    }
    static const std::string insert = insertSecondSql();
    SqlStatement s(db, insert.c_str());
    SqlStatement count(db, "SELECT count(*) FROM run_samples WHERE run = ? AND step = ? AND error_class = ? "
                           "AND agent = ?");
    SqlStatement add(db, "INSERT INTO run_samples(run, second, step, agent, error_class, status, head, body, "
                         "detail, trace) VALUES (?,?,?,?,?,?,?,?,?,?)");
    SqlStatement last(db, "UPDATE runs SET last_second = max(last_second, ?) WHERE id = ?");
    bool ok = s.ok() && count.ok() && add.ok() && last.ok();
    for (const auto& p : parts) {
        for (const auto& r : p.rows)
            ok = ok && writeRow(s, run, p, r);
        for (const auto& e : p.samples) {
            if (!ok)
                break;
            count.bind(1, run).bind(2, std::int64_t(e.step)).bind(3, std::int64_t(e.errorClass)).bind(4, p.agent);
            const bool room = count.step() && count.integer(0) < kRunSamplesPerClass;
            ok = !count.failed();
            count.reset();
            if (!room)
                continue;
            add.bind(1, run).bind(2, std::int64_t(p.second)).bind(3, std::int64_t(e.step)).bind(4, p.agent);
            add.bind(5, std::int64_t(e.errorClass)).bind(6, std::int64_t(e.status)).blob(7, e.head).blob(8, e.body);
            add.bind(9, e.detail).bind(10, e.trace);
            ok = add.run();
            add.reset();
        }
        ok = ok && writeTraces(db, run, p);
        ok = ok && last.bind(1, std::int64_t(p.second)).bind(2, run).run();
        last.reset();
    }
    if (!ok || sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) {
        m_error = sqlite3_errmsg(db);
        sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
        return false;
    }
    return true;
}

bool RunLog::setAgents(std::int64_t run, const std::vector<std::string>& agents)
{
    SqlStatement s(m_store.handle(), "UPDATE runs SET agents = ? WHERE id = ?");
    s.bind(1, jsonStrings(agents)).bind(2, run);
    if (s.run())
        return true;
    m_error = s.error();
    return false;
}

bool RunLog::addEvent(std::int64_t run, const RunEvent& e)
{
    SqlStatement s(m_store.handle(), "INSERT INTO run_events(run, at_s, kind, agent, detail, from_second, to_second) "
                                     "VALUES (?, ?, ?, ?, ?, ?, ?)");
    s.bind(1, run).bind(2, e.atS).bind(3, e.kind).bind(4, e.agent).bind(5, e.detail);
    s.bind(6, std::int64_t(e.fromSecond)).bind(7, std::int64_t(e.toSecond));
    if (s.run())
        return true;
    m_error = s.error();
    return false;
}

bool RunLog::setCheckNames(std::int64_t run, std::size_t step, const std::vector<std::string>& names)
{
    SqlStatement s(m_store.handle(), "UPDATE run_steps SET checks = ? WHERE run = ? AND step = ?");
    s.bind(1, jsonStrings(names)).bind(2, run).bind(3, std::int64_t(step));
    if (s.run())
        return true;
    m_error = s.error();
    return false;
}

bool RunLog::setCheckMessages(std::int64_t run, std::size_t step, const std::vector<std::string>& messages)
{
    SqlStatement s(m_store.handle(), "UPDATE run_steps SET messages = ? WHERE run = ? AND step = ?");
    s.bind(1, jsonStrings(messages)).bind(2, run).bind(3, std::int64_t(step));
    if (s.run())
        return true;
    m_error = s.error();
    return false;
}

bool RunLog::finish(std::int64_t run, const std::string& status, const std::string& summaryJson)
{
    SqlStatement s(m_store.handle(),
                   "UPDATE runs SET status = ?, summary = ?, ended = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') "
                   "WHERE id = ?");
    s.bind(1, status).bind(2, summaryJson).bind(3, run);
    if (s.run())
        return true;
    m_error = s.error();
    return false;
}

namespace {
// A run's listing: how long it ran is its summary's duration once it
// finished (the timeline's last second may hold the tail of answers after
// its end), else the last second recorded.
const char* const kRunInfoColumns =
    "id, run_id, name, started, coalesce(ended, ''), status, last_second, "
    "coalesce(CASE WHEN json_valid(summary) THEN json_extract(summary, '$.duration_s') END, last_second), "
    "coalesce(CASE WHEN json_valid(summary) THEN json_extract(summary, '$.passed') END, -1), "
    "coalesce(CASE WHEN json_valid(summary) THEN json_extract(summary, '$.reason') END, ''), "
    "coalesce(CASE WHEN json_valid(summary) THEN json_extract(summary, '$.unjudged') END, ''), "
    "coalesce(CASE WHEN json_valid(summary) THEN json_extract(summary, '$.verdict') END, '')";

constexpr int kRunInfoColumnCount = 12;

// The verdict of a run stored before summaries carried theirs (the same words as verdictText).
std::string olderVerdict(const RunInfo& i)
{
    if (i.passed < 0)
        return i.status;
    if (i.status != "completed")
        return i.reason.empty() ? "the run ended as " + i.status : i.reason;
    if (i.passed == 1)
        return "completed and passed";
    return i.reason.empty() ? "completed and failed" : "completed and failed: " + i.reason;
}

RunInfo runInfo(const SqlStatement& s)
{
    RunInfo i{s.integer(0), s.text(1),         s.text(2), s.text(3),  s.text(4), s.text(5), std::uint32_t(s.integer(6)),
              s.real(7),    int(s.integer(8)), s.text(9), s.text(10), s.text(11)};
    if (i.verdict.empty())
        i.verdict = olderVerdict(i);
    return i;
}
} // namespace

std::vector<RunInfo> RunLog::runs() const
{
    std::vector<RunInfo> out;
    SqlStatement s(m_store.handle(), (std::string("SELECT ") + kRunInfoColumns + " FROM runs ORDER BY id").c_str());
    while (s.step())
        out.push_back(runInfo(s));
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

// One row of run_seconds, read by column name.
// run_seconds' columns by name, looked up once for all its rows (an hour of ten steps is 40,000 rows).
struct RunLog::SecondColumns
{
    explicit SecondColumns(const SqlStatement& s)
    {
        for (std::size_t k = 0; k < std::size(kCounterFields); ++k)
            counters[k] = s.column(kCounterFields[k].name);
        for (std::size_t k = 0; k < 6; ++k)
            percentiles[k] = s.column(kPercentileColumns[k]);
    }
    std::array<int, std::size(kCounterFields)> counters{};
    std::array<int, 6> percentiles{};
    int second, step, errorsByClass, grpcCodes, checks, agent, openConnections, activeUsers, minMs, meanMs, cpu,
        rssBytes, loopLagMs, server, latency, service;
    void named(const SqlStatement& s)
    {
        second = s.column("second");
        step = s.column("step");
        errorsByClass = s.column("errors_by_class");
        grpcCodes = s.column("grpc_codes");
        checks = s.column("checks");
        agent = s.column("agent");
        openConnections = s.column("open_connections");
        activeUsers = s.column("active_users");
        minMs = s.column("min_ms");
        meanMs = s.column("mean_ms");
        cpu = s.column("cpu");
        rssBytes = s.column("rss_bytes");
        loopLagMs = s.column("loop_lag_ms");
        server = s.column("server");
        latency = s.column("latency");
        service = s.column("service");
    }
};

void RunLog::addSecondRow(const SqlStatement& s, const SecondColumns& col, SavedRun& r)
{
    SecondRow row;
    row.second = std::uint32_t(s.integer(col.second));
    row.step = int(s.integer(col.step));
    StepCounters& c = row.counters;
    for (std::size_t k = 0; k < std::size(kCounterFields); ++k)
        c.*kCounterFields[k].field = std::uint64_t(s.integer(col.counters[k]));
    readCounts(s.text(col.errorsByClass), c.errorsByClass, className);
    readCounts(s.text(col.grpcCodes), c.grpcCodes, codeName);
    row.checks = readChecks(s.text(col.checks));
    double* percentiles[] = {&row.p50Ms, &row.p90Ms, &row.p95Ms, &row.p99Ms, &row.p999Ms, &row.maxMs};
    for (std::size_t k = 0; k < 6; ++k)
        *percentiles[k] = s.real(col.percentiles[k]);
    row.agent = s.text(col.agent);
    row.openConnections = std::uint32_t(s.integer(col.openConnections));
    row.activeUsers = std::uint32_t(s.integer(col.activeUsers));
    row.minMs = s.real(col.minMs);
    row.meanMs = s.real(col.meanMs);
    row.cpu = s.real(col.cpu);
    row.rssBytes = std::uint64_t(s.integer(col.rssBytes));
    row.loopLagMs = s.real(col.loopLagMs);
    if (row.step < 0)
        row.server = readServer(s.text(col.server));
    const std::size_t steps = r.stepNames.size();
    if (row.step >= 0 && std::size_t(row.step) >= steps + r.groupNames.size()) { // a plan's scenario
        if (!row.agent.empty() || std::size_t(row.step) >= steps + r.groupNames.size() + r.scenarios.size())
            return;
        row.step -= int(steps + r.groupNames.size());
        r.scenarioRows.push_back(std::move(row));
        return;
    }
    if (row.step >= 0 && std::size_t(row.step) >= steps && std::size_t(row.step) < steps + r.groupNames.size()) {
        if (!row.agent.empty())
            return; // a group per agent: the merged one is the run's
        row.step -= int(steps);
        StepMetrics& t = r.total.groups[std::size_t(row.step)];
        t.counters.merge(c);
        t.latency.mergeSerialized(s.text(col.latency));
        r.groupRows.push_back(std::move(row));
        return;
    }
    if (!row.agent.empty()) {
        r.agentRows.push_back(std::move(row));
        return;
    }
    if (row.step >= 0) {
        if (r.total.steps.size() <= std::size_t(row.step))
            r.total.steps.resize(std::size_t(row.step) + 1);
        StepMetrics& t = r.total.steps[std::size_t(row.step)];
        t.counters.merge(c);
        t.mergeChecks(row.checks);
        t.latency.mergeSerialized(s.text(col.latency));
        t.serviceTime.mergeSerialized(s.text(col.service));
    }
    r.rows.push_back(row);
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
        SqlStatement s(db, (std::string("SELECT ") + kRunInfoColumns +
                            ", scenario, environment, agents, summary FROM runs WHERE id = ?")
                               .c_str());
        s.bind(1, run);
        if (!s.step()) {
            if (!failed(s, "record"))
                m_error = "no run " + std::to_string(run);
            return std::nullopt;
        }
        r.info = runInfo(s);
        const int after = kRunInfoColumnCount; // the columns asked for after RunInfo's
        r.scenarioJson = s.text(after);
        r.environmentJson = s.text(after + 1);
        r.agents = parseStrings(s.text(after + 2));
        r.summaryJson = s.text(after + 3);
    }
    {
        SqlStatement s(db, "SELECT name, checks, kind, first_step, step_count, start_after_s, duration_s, messages "
                           "FROM run_steps WHERE run = ? ORDER BY step");
        s.bind(1, run);
        while (s.step()) {
            if (s.text(2) == "group") {
                r.groupNames.push_back(s.text(0));
                r.groupFirstSteps.push_back(std::uint32_t(s.integer(3)));
                continue;
            }
            if (s.text(2) == "scenario") {
                r.scenarios.push_back(
                    {s.text(0), std::uint32_t(s.integer(3)), std::uint32_t(s.integer(4)), s.real(5), s.real(6)});
                continue;
            }
            r.stepNames.push_back(s.text(0));
            r.checkNames.push_back(parseStrings(s.text(1)));
            r.checkMessages.push_back(parseStrings(s.text(7)));
        }
        if (failed(s, "steps"))
            return std::nullopt;
    }
    {
        // Rows of the same second and step from several agents add up; the
        // whole-run histograms are merged from the sparse per-second ones.
        SqlStatement s(db, "SELECT * FROM run_seconds WHERE run = ? ORDER BY second, step");
        s.bind(1, run);
        r.total.steps.resize(r.stepNames.size());
        r.total.groups.resize(r.groupNames.size());
        SecondColumns columns(s);
        columns.named(s);
        while (s.step())
            addSecondRow(s, columns, r);
        if (failed(s, "seconds"))
            return std::nullopt;
        for (std::size_t i = 0; i < r.checkMessages.size() && i < r.total.steps.size(); ++i)
            for (std::size_t k = 0; k < r.checkMessages[i].size(); ++k)
                r.total.steps[i].noteMessage(k, r.checkMessages[i][k]);
    }
    {
        SqlStatement t(db, "SELECT step, trace FROM run_traces WHERE run = ? ORDER BY step, second");
        t.bind(1, run);
        while (t.step())
            r.traces.push_back({std::uint32_t(t.integer(0)), t.text(1)});
        if (failed(t, "trace ids"))
            return std::nullopt;
    }
    {
        SqlStatement s(db, "SELECT step, second, error_class, status, head, body, detail, trace FROM run_samples "
                           "WHERE run = ? AND agent = '' ORDER BY step, error_class, second");
        s.bind(1, run);
        while (s.step()) {
            const auto c = std::size_t(s.integer(2));
            if (c >= kErrorClassCount)
                continue;
            r.samples.push_back({std::uint32_t(s.integer(0)), std::uint32_t(s.integer(1)), ErrorClass(c),
                                 int(s.integer(3)), s.text(4), s.text(5), s.text(6), s.text(7)});
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
