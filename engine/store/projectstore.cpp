#include "projectstore.h"

#include "metrics/runmetrics.h"
#include "sqlstatement.h"

#include <sqlite3.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace stampede {

namespace {

struct KindName
{
    ItemKind kind;
    const char* name;
};
constexpr KindName kKinds[] = {{ItemKind::Collection, "collection"}, {ItemKind::Folder, "folder"},
                               {ItemKind::Request, "request"},       {ItemKind::Scenario, "scenario"},
                               {ItemKind::DataSet, "dataset"},       {ItemKind::Environment, "environment"},
                               {ItemKind::Traffic, "traffic"}};

// Version 1: the first layout. Kept to build fixtures and to document the migration.
const char* kSchemaV2 = R"sql(
CREATE TABLE items(
    id INTEGER PRIMARY KEY,
    parent_id INTEGER NOT NULL DEFAULT 0,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    payload TEXT NOT NULL DEFAULT '{}',
    position INTEGER NOT NULL DEFAULT 0,
    modified TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')));
CREATE INDEX items_by_parent ON items(parent_id, position);
CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs(
    id INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL,
    scenario_id INTEGER,
    started TEXT NOT NULL,
    status TEXT NOT NULL,
    summary TEXT NOT NULL DEFAULT '{}');
)sql";

// 2 -> 3: runs as they happen: per-second rows per step (and agent), steps, events.
const char* kMigrate2to3 = R"sql(
ALTER TABLE runs ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN scenario TEXT NOT NULL DEFAULT '{}';
ALTER TABLE runs ADD COLUMN environment TEXT NOT NULL DEFAULT '{}';
ALTER TABLE runs ADD COLUMN agents TEXT NOT NULL DEFAULT '[]';
ALTER TABLE runs ADD COLUMN ended TEXT;
ALTER TABLE runs ADD COLUMN last_second INTEGER NOT NULL DEFAULT 0;
CREATE TABLE run_steps(run INTEGER NOT NULL, step INTEGER NOT NULL, name TEXT NOT NULL, PRIMARY KEY(run, step));
CREATE TABLE run_seconds(
    run INTEGER NOT NULL, second INTEGER NOT NULL, step INTEGER NOT NULL, agent TEXT NOT NULL DEFAULT '',
    sent INTEGER NOT NULL, requests INTEGER NOT NULL, errors INTEGER NOT NULL, errors_by_class TEXT NOT NULL,
    late INTEGER NOT NULL, dropped INTEGER NOT NULL, bytes_in INTEGER NOT NULL, bytes_out INTEGER NOT NULL,
    p50_ms REAL NOT NULL, p90_ms REAL NOT NULL, p95_ms REAL NOT NULL, p99_ms REAL NOT NULL, p999_ms REAL NOT NULL,
    max_ms REAL NOT NULL, latency BLOB NOT NULL, service BLOB NOT NULL,
    PRIMARY KEY(run, second, step, agent));
CREATE TABLE run_events(run INTEGER NOT NULL, at_s REAL NOT NULL, kind TEXT NOT NULL, agent TEXT NOT NULL,
    detail TEXT NOT NULL, from_second INTEGER NOT NULL, to_second INTEGER NOT NULL);
)sql";

// 3 -> 4: open connections and active users per second; connections set up
// and TLS handshakes ([connects, connect ns, handshakes, resumed, handshake ns,
// handshake max ns, HTTP/2 GOAWAYs]); gRPC calls not OK by status code;
// error samples.
const char* kMigrate3to4 = R"sql(
ALTER TABLE run_seconds ADD COLUMN open_connections INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_seconds ADD COLUMN active_users INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_seconds ADD COLUMN connections TEXT NOT NULL DEFAULT '[0,0,0,0,0,0]';
ALTER TABLE run_seconds ADD COLUMN grpc_codes TEXT NOT NULL DEFAULT '[]';
CREATE TABLE run_samples(run INTEGER NOT NULL, second INTEGER NOT NULL, step INTEGER NOT NULL,
    agent TEXT NOT NULL, error_class INTEGER NOT NULL, status INTEGER NOT NULL, head BLOB NOT NULL,
    body BLOB NOT NULL, detail TEXT NOT NULL);
)sql";

// 4 -> 5: per-second counters stored by name: one column per counter (from
// the `connections` array), error classes and gRPC codes as objects by name
// ({"timeout":3}) instead of positional arrays. Made from the names the code
// uses, so that the SQL and kCounterFields cannot disagree.
std::string migrate4to5()
{
    // the positional fields of version 4's `connections` column
    const char* const connections[] = {"connects",        "connect_nanos",       "handshakes", "handshakes_resumed",
                                       "handshake_nanos", "handshake_max_nanos", "goaways"};
    std::string sql;
    for (const char* c : connections)
        sql += std::string("ALTER TABLE run_seconds ADD COLUMN ") + c + " INTEGER NOT NULL DEFAULT 0;\n";
    sql += "UPDATE run_seconds SET ";
    for (std::size_t i = 0; i < std::size(connections); ++i)
        sql += std::string(i ? ", " : "") + connections[i] + " = coalesce(json_extract(connections, '$[" +
               std::to_string(i) + "]'), 0)";
    sql += ";\nALTER TABLE run_seconds DROP COLUMN connections;\n";
    // an object of the non-zero counts at the positions of a version 4 array
    auto object = [](const char* column, std::size_t count, auto name) {
        std::string parts;
        for (std::size_t k = 0; k < count; ++k)
            parts += std::string(k ? ", " : "") + "'" + std::string(name(k)) + "', coalesce(json_extract(" + column +
                     ", '$[" + std::to_string(k) + "]'), 0)";
        return std::string("UPDATE run_seconds SET ") + column + " = (SELECT coalesce(json_group_object(key, value), " +
               "'{}') FROM json_each(json_object(" + parts + ")) WHERE value > 0);\n";
    };
    sql += object("errors_by_class", kErrorClassCount, [](std::size_t k) { return errorClassName(ErrorClass(k)); });
    sql += object("grpc_codes", kGrpcCodeCount, [](std::size_t k) { return grpcCodeName(int(k)); });
    return sql;
}

// 1 -> 2: sibling order, modification time, settings, runs.
const char* kMigrate1to2 = R"sql(
ALTER TABLE items ADD COLUMN position INTEGER NOT NULL DEFAULT 0;
ALTER TABLE items ADD COLUMN modified TEXT NOT NULL DEFAULT '1970-01-01T00:00:00.000Z';
UPDATE items SET position = id;
CREATE INDEX items_by_parent ON items(parent_id, position);
CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs(
    id INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL,
    scenario_id INTEGER,
    started TEXT NOT NULL,
    status TEXT NOT NULL,
    summary TEXT NOT NULL DEFAULT '{}');
)sql";

// 5 -> 6: business flows: redirects followed, and per-check counts per
// second ([[passed, failed], ...] by check index) with the checks' names per step.
const char* kMigrate5to6 = R"sql(
ALTER TABLE run_seconds ADD COLUMN redirects INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_seconds ADD COLUMN checks TEXT NOT NULL DEFAULT '[]';
ALTER TABLE run_steps ADD COLUMN checks TEXT NOT NULL DEFAULT '[]';
)sql";

// 6 -> 7: the target's own metrics read in each second (the merged row), {"name": value}.
const char* kMigrate6to7 = R"sql(
ALTER TABLE run_seconds ADD COLUMN server TEXT NOT NULL DEFAULT '{}';
)sql";

// 7 -> 8: recorded traffic sets, their requests in compressed chunks beside the item (gone with it).
const char* kMigrate7to8 = R"sql(
CREATE TABLE traffic_chunks(item INTEGER NOT NULL, seq INTEGER NOT NULL, first_ns INTEGER NOT NULL,
    records INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY(item, seq));
CREATE TRIGGER traffic_chunks_gone AFTER DELETE ON items WHEN old.kind = 'traffic'
    BEGIN DELETE FROM traffic_chunks WHERE item = old.id; END;
)sql";

// 8 -> 9: requests sent again after a server closed an idle connection under them, and answers nobody
// asked for.
const char* kMigrate8to9 = R"sql(
ALTER TABLE run_seconds ADD COLUMN retried_on_idle_close INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_seconds ADD COLUMN stray_answers INTEGER NOT NULL DEFAULT 0;
)sql";

// 9 -> 10: test plans: tries a step's retry sent again, and a run's groups (transactions) beside its
// steps in run_steps (kind 'group', indexed after the steps; their seconds are rows of those indices),
// and a plan's scenarios (kind 'scenario', after the groups: their steps, when their load started and
// for how long).
const char* kMigrate9to10 = R"sql(
ALTER TABLE run_seconds ADD COLUMN retries INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_seconds ADD COLUMN rendezvous INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_seconds ADD COLUMN rendezvous_timeouts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_steps ADD COLUMN kind TEXT NOT NULL DEFAULT 'step';
ALTER TABLE run_steps ADD COLUMN first_step INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_steps ADD COLUMN step_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_steps ADD COLUMN start_after_s REAL NOT NULL DEFAULT 0;
ALTER TABLE run_steps ADD COLUMN duration_s REAL NOT NULL DEFAULT 0;
)sql";

// 10 -> 11: an error sample's W3C trace id (a run with trace on), to look the request up in the tracing system.
const char* kMigrate10to11 = R"sql(
ALTER TABLE run_samples ADD COLUMN trace TEXT NOT NULL DEFAULT '';
)sql";

// 11 -> 12: each second's fastest answer and mean beside the percentiles,
// and the engines' health (on a second's total rows: the agent's own, or on
// the merged row the busiest): CPU share of its cores, resident memory, the
// longest event-loop lag.
const char* kMigrate11to12 = R"sql(
ALTER TABLE run_seconds ADD COLUMN min_ms REAL NOT NULL DEFAULT 0;
ALTER TABLE run_seconds ADD COLUMN mean_ms REAL NOT NULL DEFAULT 0;
ALTER TABLE run_seconds ADD COLUMN cpu REAL NOT NULL DEFAULT 0;
ALTER TABLE run_seconds ADD COLUMN rss_bytes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_seconds ADD COLUMN loop_lag_ms REAL NOT NULL DEFAULT 0;
)sql";

// 12 -> 13: requests sent again because the server said it had not processed them (HTTP/2: a stream
// refused with REFUSED_STREAM, or past a GOAWAY's last stream).
const char* kMigrate12to13 = R"sql(
ALTER TABLE run_seconds ADD COLUMN resent_unprocessed INTEGER NOT NULL DEFAULT 0;
)sql";

// 13 -> 14: why each check of a step failed, the first time (["expected 404 to equal 200", "", ...] by
// check index), as newman's JUnit gives a failed case.
const char* kMigrate13to14 = R"sql(
ALTER TABLE run_steps ADD COLUMN messages TEXT NOT NULL DEFAULT '[]';
)sql";

// 14 -> 15: Digest challenges answered (the step sent again with the answer); the requests a step's scripts
// sent with pm.sendRequest, and of them those without an answer.
const char* kMigrate14to15 = R"sql(
ALTER TABLE run_seconds ADD COLUMN auth_challenges INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_seconds ADD COLUMN script_requests INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_seconds ADD COLUMN script_request_errors INTEGER NOT NULL DEFAULT 0;
)sql";

// 15 -> 16: a WebSocket step's messages sent and received.
const char* kMigrate15to16 = R"sql(
ALTER TABLE run_seconds ADD COLUMN messages_sent INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_seconds ADD COLUMN messages_received INTEGER NOT NULL DEFAULT 0;
)sql";

// 16 -> 17: a few trace ids of each step and second of a run with trace (stampede-cli verify-tag asks the
// tracing system about them).
const char* kMigrate16to17 = R"sql(
CREATE TABLE run_traces(run INTEGER NOT NULL, second INTEGER NOT NULL, step INTEGER NOT NULL, trace TEXT NOT NULL);
CREATE INDEX run_traces_run ON run_traces(run, step);
)sql";

// Columns added to version 4 after it was first written: files from then lack them.
std::string missingVersion4Columns(sqlite3* db)
{
    std::string sql;
    auto missing = [&](const char* column) {
        SqlStatement q(db, "SELECT count(*) FROM pragma_table_info('run_seconds') WHERE name = ?");
        q.bind(1, std::string(column));
        return q.step() && q.integer(0) == 0;
    };
    if (missing("connections"))
        sql += "ALTER TABLE run_seconds ADD COLUMN connections TEXT NOT NULL DEFAULT '[0,0,0,0,0,0]';\n";
    if (missing("grpc_codes"))
        sql += "ALTER TABLE run_seconds ADD COLUMN grpc_codes TEXT NOT NULL DEFAULT '[]';\n";
    return sql;
}

ProjectItem readItem(const SqlStatement& s)
{
    ProjectItem it;
    it.id = s.integer(0);
    it.parentId = s.integer(1);
    it.kind = itemKindFromName(s.text(2)).value_or(ItemKind::Request);
    it.name = s.text(3);
    it.payload = s.text(4);
    it.position = s.integer(5);
    return it;
}

constexpr const char* kItemColumns = "id, parent_id, kind, name, payload, position";

bool copyFile(const std::string& from, const std::string& to)
{
    std::ifstream in(from, std::ios::binary);
    std::ofstream out(to, std::ios::binary | std::ios::trunc);
    out << in.rdbuf();
    return bool(in) && bool(out);
}

} // namespace

const char* itemKindName(ItemKind k)
{
    for (const auto& kn : kKinds)
        if (kn.kind == k)
            return kn.name;
    return "request";
}

std::optional<ItemKind> itemKindFromName(const std::string& name)
{
    for (const auto& kn : kKinds)
        if (name == kn.name)
            return kn.kind;
    return std::nullopt;
}

bool mayContain(std::optional<ItemKind> parent, ItemKind child)
{
    if (!parent)
        return child != ItemKind::Folder && child != ItemKind::Request;
    if (*parent == ItemKind::Collection || *parent == ItemKind::Folder)
        return child == ItemKind::Folder || child == ItemKind::Request;
    return false;
}

ProjectStore::~ProjectStore()
{
    if (m_db)
        sqlite3_close(m_db);
    if (m_lockFd >= 0)
        ::close(m_lockFd); // releases the lock
}

bool ProjectStore::exec(const char* sql)
{
    char* msg = nullptr;
    if (sqlite3_exec(m_db, sql, nullptr, nullptr, &msg) != SQLITE_OK) {
        m_error = msg ? msg : "SQLite error";
        sqlite3_free(msg);
        return false;
    }
    return true;
}

bool ProjectStore::fail(const std::string& what)
{
    m_error = what;
    return false;
}

std::unique_ptr<ProjectStore> ProjectStore::openOrCreate(const std::string& path, std::string& error)
{
    return ::access(path.c_str(), F_OK) == 0 ? open(path, error) : create(path, error);
}

std::unique_ptr<ProjectStore> ProjectStore::create(const std::string& path, std::string& error)
{
    struct stat st;
    if (::stat(path.c_str(), &st) == 0) {
        error = "\"" + path + "\" already exists";
        return nullptr;
    }
    std::unique_ptr<ProjectStore> p(new ProjectStore());
    p->m_path = path;
    if (sqlite3_open_v2(path.c_str(), &p->m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
        error = "cannot create \"" + path + "\": " + sqlite3_errmsg(p->m_db);
        return nullptr;
    }
    p->m_lockFd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    ::flock(p->m_lockFd, LOCK_EX | LOCK_NB);
    const std::string init = "PRAGMA journal_mode=WAL; PRAGMA application_id=" + std::to_string(kApplicationId) +
                             "; BEGIN; " + kSchemaV2 + kMigrate2to3 + kMigrate3to4 + migrate4to5() + kMigrate5to6 +
                             kMigrate6to7 + kMigrate7to8 + kMigrate8to9 + kMigrate9to10 + kMigrate10to11 +
                             kMigrate11to12 + kMigrate12to13 + kMigrate13to14 + kMigrate14to15 + kMigrate15to16 +
                             kMigrate16to17 + " PRAGMA user_version=" + std::to_string(kSchemaVersion) + "; COMMIT;";
    if (!p->exec(init.c_str())) {
        error = "cannot create \"" + path + "\": " + p->m_error;
        return nullptr;
    }
    p->exec("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;");
    return p;
}

std::unique_ptr<ProjectStore> ProjectStore::open(const std::string& path, std::string& error, OpenError* why)
{
    return openWith(path, false, error, why);
}

std::unique_ptr<ProjectStore> ProjectStore::openReadOnly(const std::string& path, std::string& error)
{
    return openWith(path, true, error, nullptr);
}

std::unique_ptr<ProjectStore> ProjectStore::openForReading(const std::string& path, std::string& error, bool& readOnly)
{
    OpenError why = OpenError::None;
    auto p = openWith(path, false, error, &why);
    readOnly = !p && why == OpenError::Locked;
    return readOnly ? openWith(path, true, error, nullptr) : std::move(p);
}

std::unique_ptr<ProjectStore> ProjectStore::openWith(const std::string& path, bool readOnly, std::string& error,
                                                     OpenError* why)
{
    auto refuse = [&](OpenError e, std::string msg) -> std::unique_ptr<ProjectStore> {
        error = std::move(msg);
        if (why)
            *why = e;
        return nullptr;
    };
    std::ifstream probe(path, std::ios::binary);
    if (!probe)
        return refuse(OpenError::NotFound, "cannot open \"" + path + "\": " + std::strerror(errno));
    char header[16] = {};
    probe.read(header, sizeof header);
    if (probe.gcount() < 16 || std::memcmp(header, "SQLite format 3", 16) != 0)
        return refuse(OpenError::NotAProject, "\"" + path + "\" is not a Stampede project (not an SQLite file)");
    probe.close();

    std::unique_ptr<ProjectStore> p(new ProjectStore());
    p->m_path = path;
    // The lock first: a second window (or process) must not even read half a migration.
    if (!readOnly) {
        p->m_lockFd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (p->m_lockFd < 0 || ::flock(p->m_lockFd, LOCK_EX | LOCK_NB) != 0)
            return refuse(OpenError::Locked, "\"" + path + "\" is already open in another Stampede window");
    }

    // Checks on a read-only connection: nothing is written until they pass.
    {
        sqlite3* ro = nullptr;
        if (sqlite3_open_v2(path.c_str(), &ro, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
            sqlite3_close(ro);
            return refuse(OpenError::Io, "cannot open \"" + path + "\"");
        }
        auto scalar = [&](const char* sql, std::string& out) {
            SqlStatement s(ro, sql);
            if (!s.ok() || !s.step())
                return false;
            out = s.text(0);
            return true;
        };
        std::string appId, version, integrity;
        const bool read = scalar("PRAGMA application_id", appId) && scalar("PRAGMA user_version", version);
        if (!read) {
            sqlite3_close(ro);
            return refuse(OpenError::Corrupt, "\"" + path + "\" is damaged: it cannot be read as a database");
        }
        if (std::stoll(appId) != kApplicationId) {
            sqlite3_close(ro);
            return refuse(OpenError::NotAProject, "\"" + path + "\" is an SQLite database, but not a Stampede project");
        }
        if (std::stoi(version) > kSchemaVersion) {
            sqlite3_close(ro);
            return refuse(OpenError::NewerVersion,
                          "\"" + path + "\" was written by a newer Stampede (project version " + version +
                              ", this one reads up to " + std::to_string(kSchemaVersion) + "): upgrade Stampede");
        }
        if (!scalar("PRAGMA integrity_check", integrity) || integrity != "ok") {
            sqlite3_close(ro);
            return refuse(OpenError::Corrupt, "\"" + path + "\" is damaged (" +
                                                  (integrity.empty() ? std::string("unreadable") : integrity) + ")");
        }
        sqlite3_close(ro);
    }

    if (readOnly) { // beside the writer that holds it: read as it is (WAL), never upgraded
        if (sqlite3_open_v2(path.c_str(), &p->m_db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK)
            return refuse(OpenError::Io, "cannot open \"" + path + "\" to read: " + sqlite3_errmsg(p->m_db));
        sqlite3_busy_timeout(p->m_db, 2000);
        if (const int version = p->schemaVersion(); version != kSchemaVersion)
            return refuse(OpenError::Locked,
                          "\"" + path + "\" is open in another Stampede window and of project version " +
                              std::to_string(version) + ": it can be read once it is upgraded there");
        p->m_readOnly = true;
        return p;
    }
    if (sqlite3_open_v2(path.c_str(), &p->m_db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK)
        return refuse(OpenError::Io, "cannot open \"" + path + "\" for writing: " + sqlite3_errmsg(p->m_db));
    const int version = p->schemaVersion();
    if (version < 0)
        return refuse(OpenError::Corrupt,
                      "\"" + path + "\" is damaged: its project version is " + std::to_string(version));
    if (version < kSchemaVersion) {
        const std::string backup = path + ".v" + std::to_string(version) + ".bak";
        p->exec("PRAGMA wal_checkpoint(TRUNCATE)");
        if (!copyFile(path, backup))
            return refuse(OpenError::Io, "cannot write the backup \"" + backup + "\" before upgrading the project");
        std::string sql = "BEGIN;";
        if (version < 2)
            sql += kMigrate1to2;
        if (version < 3)
            sql += kMigrate2to3;
        if (version < 4)
            sql += kMigrate3to4;
        if (version == 4)
            sql += missingVersion4Columns(p->m_db);
        if (version < 5)
            sql += migrate4to5();
        if (version < 6)
            sql += kMigrate5to6;
        if (version < 7)
            sql += kMigrate6to7;
        if (version < 8)
            sql += kMigrate7to8;
        if (version < 9)
            sql += kMigrate8to9;
        if (version < 10)
            sql += kMigrate9to10;
        if (version < 11)
            sql += kMigrate10to11;
        if (version < 12)
            sql += kMigrate11to12;
        if (version < 13)
            sql += kMigrate12to13;
        if (version < 14)
            sql += kMigrate13to14;
        if (version < 15)
            sql += kMigrate14to15;
        if (version < 16)
            sql += kMigrate15to16;
        if (version < 17)
            sql += kMigrate16to17;
        sql += " PRAGMA user_version=" + std::to_string(kSchemaVersion) + "; COMMIT;";
        if (!p->exec(sql.c_str())) {
            const std::string why2 = p->m_error;
            p->exec("ROLLBACK");
            return refuse(OpenError::Corrupt, "cannot upgrade \"" + path + "\": " + why2);
        }
    }
    p->exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;");
    // We hold the lock: a run still marked running was cut short by a crash.
    p->exec("UPDATE runs SET status = 'interrupted' WHERE status = 'running'");
    return p;
}

int ProjectStore::schemaVersion() const
{
    SqlStatement s(m_db, "PRAGMA user_version");
    return s.step() ? int(s.integer(0)) : 0;
}

std::vector<ProjectItem> ProjectStore::children(std::int64_t parentId) const
{
    std::vector<ProjectItem> out;
    SqlStatement s(
        m_db,
        (std::string("SELECT ") + kItemColumns + " FROM items WHERE parent_id = ? ORDER BY position, id").c_str());
    s.bind(1, parentId);
    while (s.step())
        out.push_back(readItem(s));
    return out;
}

std::optional<ProjectItem> ProjectStore::item(std::int64_t id) const
{
    SqlStatement s(m_db, (std::string("SELECT ") + kItemColumns + " FROM items WHERE id = ?").c_str());
    s.bind(1, id);
    if (!s.step())
        return std::nullopt;
    return readItem(s);
}

std::vector<ProjectItem> ProjectStore::search(const std::string& text) const
{
    std::vector<ProjectItem> out;
    SqlStatement s(m_db, (std::string("SELECT ") + kItemColumns +
                          " FROM items WHERE instr(lower(name), lower(?)) > 0 ORDER BY parent_id, position")
                             .c_str());
    s.bind(1, text);
    while (s.step())
        out.push_back(readItem(s));
    return out;
}

std::int64_t ProjectStore::count() const
{
    SqlStatement s(m_db, "SELECT count(*) FROM items");
    return s.step() ? s.integer(0) : 0;
}

void ProjectStore::shiftSiblings(std::int64_t parentId, std::int64_t from, std::int64_t by)
{
    SqlStatement s(m_db, "UPDATE items SET position = position + ? WHERE parent_id = ? AND position >= ?");
    s.bind(1, by).bind(2, parentId).bind(3, from).run();
}

bool ProjectStore::parentKind(std::int64_t parentId, std::optional<ItemKind>& kind)
{
    kind.reset();
    if (!parentId)
        return true;
    const auto parent = item(parentId);
    if (!parent)
        return fail("no item " + std::to_string(parentId));
    kind = parent->kind;
    return true;
}

bool ProjectStore::placeable(std::optional<ItemKind> parentKind, ItemKind kind, const std::string& name)
{
    if (!mayContain(parentKind, kind))
        return fail(std::string("a ") + itemKindName(kind) + " cannot be placed in " +
                    (parentKind ? std::string("a ") + itemKindName(*parentKind) : std::string("the project root")));
    return !name.empty() || fail("a name is needed");
}

std::int64_t ProjectStore::addItem(std::int64_t parentId, ItemKind kind, const std::string& name,
                                   const std::string& payload, std::int64_t position,
                                   const std::function<bool(std::int64_t, std::string&)>& alongside)
{
    std::optional<ItemKind> parent;
    if (!parentKind(parentId, parent) || !placeable(parent, kind, name))
        return 0;
    if (!exec("BEGIN IMMEDIATE"))
        return 0;
    const auto siblings = std::int64_t(children(parentId).size());
    if (position < 0 || position > siblings)
        position = siblings;
    shiftSiblings(parentId, position, 1);
    SqlStatement s(m_db, "INSERT INTO items(parent_id, kind, name, payload, position) VALUES (?, ?, ?, ?, ?)");
    s.bind(1, parentId).bind(2, std::string(itemKindName(kind))).bind(3, name).bind(4, payload).bind(5, position);
    if (!s.run()) {
        m_error = sqlite3_errmsg(m_db);
        exec("ROLLBACK");
        return 0;
    }
    const std::int64_t id = sqlite3_last_insert_rowid(m_db);
    if (alongside) {
        std::string why;
        if (!alongside(id, why)) {
            m_error = why.empty() ? "could not be saved" : why;
            exec("ROLLBACK");
            return 0;
        }
    }
    if (!exec("COMMIT")) {
        const std::string why = m_error;
        exec("ROLLBACK");
        m_error = why;
        return 0;
    }
    return id;
}

std::int64_t ProjectStore::insertTree(std::int64_t parentId, std::optional<ItemKind> parentKind, const NewItem& item,
                                      std::int64_t position)
{
    if (!placeable(parentKind, item.kind, item.name))
        return 0;
    SqlStatement s(m_db, "INSERT INTO items(parent_id, kind, name, payload, position) VALUES (?, ?, ?, ?, ?)");
    s.bind(1, parentId)
        .bind(2, std::string(itemKindName(item.kind)))
        .bind(3, item.name)
        .bind(4, item.payload)
        .bind(5, position);
    if (!s.run())
        return fail(sqlite3_errmsg(m_db)), 0;
    const std::int64_t id = sqlite3_last_insert_rowid(m_db);
    for (std::size_t i = 0; i < item.children.size(); ++i)
        if (!insertTree(id, item.kind, item.children[i], std::int64_t(i)))
            return 0;
    return id;
}

std::int64_t ProjectStore::addTree(std::int64_t parentId, const std::vector<NewItem>& roots)
{
    std::optional<ItemKind> parent;
    if (!parentKind(parentId, parent) || !exec("BEGIN IMMEDIATE"))
        return 0;
    const auto first = std::int64_t(children(parentId).size());
    std::int64_t id = 0;
    bool ok = !roots.empty();
    for (std::size_t i = 0; ok && i < roots.size(); ++i) {
        const std::int64_t made = insertTree(parentId, parent, roots[i], first + std::int64_t(i));
        ok = made != 0;
        id = id ? id : made;
    }
    if (!ok || !exec("COMMIT")) {
        const std::string why = m_error;
        exec("ROLLBACK");
        m_error = why;
        return 0;
    }
    return id;
}

bool ProjectStore::rename(std::int64_t id, const std::string& name)
{
    if (name.empty())
        return fail("a name is needed");
    SqlStatement s(m_db, "UPDATE items SET name = ?, modified = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?");
    s.bind(1, name).bind(2, id);
    return s.run() && sqlite3_changes(m_db) == 1 ? true : fail("no item " + std::to_string(id));
}

bool ProjectStore::setPayload(std::int64_t id, const std::string& payload)
{
    SqlStatement s(m_db, "UPDATE items SET payload = ?, modified = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?");
    s.bind(1, payload).bind(2, id);
    return s.run() && sqlite3_changes(m_db) == 1 ? true : fail("no item " + std::to_string(id));
}

bool ProjectStore::move(std::int64_t id, std::int64_t newParentId, std::int64_t position)
{
    const auto it = item(id);
    if (!it)
        return fail("no item " + std::to_string(id));
    std::optional<ItemKind> parentKind;
    // an item cannot move below itself
    for (std::int64_t p = newParentId; p;) {
        if (p == id)
            return fail("an item cannot be moved into itself");
        const auto parent = item(p);
        if (!parent)
            return fail("no item " + std::to_string(p));
        if (p == newParentId)
            parentKind = parent->kind;
        p = parent->parentId;
    }
    if (!mayContain(parentKind, it->kind))
        return fail(std::string("a ") + itemKindName(it->kind) + " cannot be placed there");
    exec("BEGIN IMMEDIATE");
    // close the gap it leaves, then open one where it goes
    SqlStatement out(m_db, "UPDATE items SET position = position - 1 WHERE parent_id = ? AND position > ?");
    out.bind(1, it->parentId).bind(2, it->position).run();
    SqlStatement park(m_db, "UPDATE items SET parent_id = -1 WHERE id = ?");
    park.bind(1, id).run();
    const auto siblings = std::int64_t(children(newParentId).size());
    if (position < 0 || position > siblings)
        position = siblings;
    shiftSiblings(newParentId, position, 1);
    SqlStatement in(m_db, "UPDATE items SET parent_id = ?, position = ? WHERE id = ?");
    in.bind(1, newParentId).bind(2, position).bind(3, id);
    const bool ok = in.run();
    exec(ok ? "COMMIT" : "ROLLBACK");
    return ok;
}

bool ProjectStore::remove(std::int64_t id)
{
    const auto it = item(id);
    if (!it)
        return fail("no item " + std::to_string(id));
    exec("BEGIN IMMEDIATE");
    SqlStatement s(m_db, "WITH RECURSIVE sub(id) AS (SELECT ? UNION ALL SELECT items.id FROM items JOIN sub "
                         "ON items.parent_id = sub.id) DELETE FROM items WHERE id IN sub");
    s.bind(1, id).run();
    SqlStatement gap(m_db, "UPDATE items SET position = position - 1 WHERE parent_id = ? AND position > ?");
    gap.bind(1, it->parentId).bind(2, it->position).run();
    return exec("COMMIT");
}

std::int64_t ProjectStore::copyTree(std::int64_t id, std::int64_t parentId, std::int64_t position)
{
    const auto it = item(id);
    if (!it)
        return 0;
    SqlStatement s(m_db, "INSERT INTO items(parent_id, kind, name, payload, position) VALUES (?, ?, ?, ?, ?)");
    s.bind(1, parentId)
        .bind(2, std::string(itemKindName(it->kind)))
        .bind(3, it->name)
        .bind(4, it->payload)
        .bind(5, position);
    if (!s.run())
        return 0;
    const std::int64_t copy = sqlite3_last_insert_rowid(m_db);
    if (it->kind == ItemKind::Traffic) { // its requests come along
        SqlStatement chunks(m_db, "INSERT INTO traffic_chunks(item, seq, first_ns, records, data) "
                                  "SELECT ?, seq, first_ns, records, data FROM traffic_chunks WHERE item = ?");
        chunks.bind(1, copy).bind(2, id);
        if (!chunks.run())
            return 0;
    }
    for (const auto& child : children(id))
        copyTree(child.id, copy, child.position);
    return copy;
}

std::int64_t ProjectStore::duplicate(std::int64_t id)
{
    const auto it = item(id);
    if (!it)
        return fail("no item " + std::to_string(id)), 0;
    exec("BEGIN IMMEDIATE");
    shiftSiblings(it->parentId, it->position + 1, 1);
    const std::int64_t copy = copyTree(id, it->parentId, it->position + 1);
    if (copy) {
        SqlStatement s(m_db, "UPDATE items SET name = ? WHERE id = ?");
        s.bind(1, it->name + " copy").bind(2, copy).run();
    }
    exec(copy ? "COMMIT" : "ROLLBACK");
    return copy;
}

std::string ProjectStore::setting(const std::string& key) const
{
    SqlStatement s(m_db, "SELECT value FROM settings WHERE key = ?");
    s.bind(1, key);
    return s.step() ? s.text(0) : std::string();
}

bool ProjectStore::setSetting(const std::string& key, const std::string& value)
{
    SqlStatement s(
        m_db, "INSERT INTO settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value");
    s.bind(1, key).bind(2, value);
    return s.run();
}

void ProjectStore::setAutoCheckpoint(bool on)
{
    sqlite3_wal_autocheckpoint(m_db, on ? 1000 : 0);
}

bool ProjectStore::checkpoint(const std::string& path, std::string& error)
{
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
        error = sqlite3_errmsg(db);
        sqlite3_close(db);
        return false;
    }
    sqlite3_busy_timeout(db, 100);
    const int rc = sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    if (rc != SQLITE_OK && rc != SQLITE_BUSY)
        error = sqlite3_errmsg(db);
    sqlite3_close(db);
    return rc == SQLITE_OK || rc == SQLITE_BUSY;
}

ProjectStore::LastRun ProjectStore::peekLastRun(const std::string& path)
{
    LastRun out;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return out;
    }
    sqlite3_busy_timeout(db, 100);
    {
        SqlStatement id(db, "PRAGMA application_id");
        out.project = id.step() && id.integer(0) == kApplicationId;
    }
    if (out.project) {
        SqlStatement run(db, "SELECT name, started, status, coalesce(CASE WHEN json_valid(summary) THEN "
                             "json_extract(summary, '$.passed') END, -1) FROM runs ORDER BY id DESC LIMIT 1");
        if (run.step()) {
            out.any = true;
            out.name = run.text(0);
            out.started = run.text(1);
            out.status = run.text(2);
            out.passed = int(run.integer(3));
        }
    }
    sqlite3_close(db);
    return out;
}

} // namespace stampede
