#pragma once
// A project is one SQLite file (*.stampede): a tree of items (collections,
// folders, requests, scenarios, data sets, environments), each with a JSON
// payload, and later the runs. Every edit is its own transaction, in WAL mode,
// so a crash loses nothing that was committed. The schema is versioned with
// PRAGMA user_version; migrations run in one transaction after a backup copy.
// A file that is not a project, is corrupt or is newer is refused and never
// modified. One process holds a project at a time (an advisory lock).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace stampede {

enum class ItemKind
{
    Collection,
    Folder,
    Request,
    Scenario,
    DataSet,
    Environment,
    Traffic // a recorded traffic set (engine/traffic): its requests kept compressed beside the item
};
const char* itemKindName(ItemKind k); // "collection", "folder", ...
std::optional<ItemKind> itemKindFromName(const std::string& name);
// Whether an item of `child` kind may live under `parent` (nullopt: the root).
bool mayContain(std::optional<ItemKind> parent, ItemKind child);

struct ProjectItem
{
    std::int64_t id = 0;
    std::int64_t parentId = 0; // 0: the root
    ItemKind kind = ItemKind::Request;
    std::string name;
    std::int64_t position = 0; // order among siblings
    std::string payload;       // JSON, by kind
};

class ProjectStore
{
public:
    static constexpr int kSchemaVersion = 17;
    static constexpr std::int32_t kApplicationId = 0x53544D50; // "STMP"

    enum class OpenError
    {
        None,
        NotFound,
        NotAProject,
        Corrupt,
        NewerVersion,
        Locked,
        Io
    };

    // Creates a new, empty project; refuses to overwrite an existing file.
    static std::unique_ptr<ProjectStore> create(const std::string& path, std::string& error);
    // open() when `path` exists, else create(): the command line's --project.
    static std::unique_ptr<ProjectStore> openOrCreate(const std::string& path, std::string& error);
    // Opens an existing project, migrating an older schema (after a backup
    // copy at PATH.v<N>.bak). On failure returns nullptr, sets `error` to a
    // message for the user and `why` to the reason; the file is not modified.
    static std::unique_ptr<ProjectStore> open(const std::string& path, std::string& error, OpenError* why = nullptr);
    // For reading what another window holds (reports): no lock, a read-only
    // connection (SQLite's WAL lets it read beside the writer), never upgraded.
    static std::unique_ptr<ProjectStore> openReadOnly(const std::string& path, std::string& error);
    // For writing when it can, else read-only when a window holds it (`readOnly` says which).
    static std::unique_ptr<ProjectStore> openForReading(const std::string& path, std::string& error, bool& readOnly);
    bool readOnly() const { return m_readOnly; }
    // A project's newest run, read without opening the project (read-only,
    // no lock, no migration: a welcome page lists recent projects with it).
    struct LastRun
    {
        bool project = false; // the file is a Stampede project
        bool any = false;     // it has a run
        std::string name, started, status;
        int passed = -1; // its stored verdict: 1 passed, 0 did not, -1 none (it never finished)
    };
    static LastRun peekLastRun(const std::string& path);
    ~ProjectStore();

    const std::string& path() const { return m_path; }
    int schemaVersion() const;

    std::vector<ProjectItem> children(std::int64_t parentId) const;
    std::optional<ProjectItem> item(std::int64_t id) const;
    // Items whose name contains `text` (case-insensitive), any depth.
    std::vector<ProjectItem> search(const std::string& text) const;
    std::int64_t count() const;

    // Edits: each is one committed transaction. They return false (or 0) with
    // lastError() set when refused (a kind that cannot live there, no such item).
    // `alongside`, when given, runs in the same transaction with the new
    // item's id: false from it undoes the whole addition.
    std::int64_t addItem(std::int64_t parentId, ItemKind kind, const std::string& name, const std::string& payload,
                         std::int64_t position = -1,
                         const std::function<bool(std::int64_t id, std::string& error)>& alongside = {});
    // Whole trees (an imported collection with its folders and requests, and
    // its environment) at the end of `parentId`'s children, in one
    // transaction: all of it or nothing. Returns the first root's id.
    struct NewItem
    {
        ItemKind kind = ItemKind::Request;
        std::string name;
        std::string payload = "{}";
        std::vector<NewItem> children;
    };
    std::int64_t addTree(std::int64_t parentId, const std::vector<NewItem>& roots);
    bool rename(std::int64_t id, const std::string& name);
    bool setPayload(std::int64_t id, const std::string& payload);
    bool move(std::int64_t id, std::int64_t newParentId, std::int64_t position);
    bool remove(std::int64_t id); // with everything below it
    // A copy of the item and everything below it, next to it; returns the copy's id.
    std::int64_t duplicate(std::int64_t id);
    // Key/value settings of the project (the current environment, say).
    std::string setting(const std::string& key) const;
    bool setSetting(const std::string& key, const std::string& value);

    const std::string& lastError() const { return m_error; }

    // Off: commits never copy the write-ahead log back into the file (a
    // checkpoint, with its fsync), so that a thread that must stay responsive
    // can write; checkpoint() from another thread does it meanwhile.
    void setAutoCheckpoint(bool on);
    // A passive checkpoint of the project at `path` on a connection of its own
    // (any thread): it waits for no writer, and no writer waits for it.
    static bool checkpoint(const std::string& path, std::string& error);

    // For the run log, which shares this connection (and its lock).
    sqlite3* handle() const { return m_db; }

private:
    ProjectStore() = default;
    static std::unique_ptr<ProjectStore> openWith(const std::string& path, bool readOnly, std::string& error,
                                                  OpenError* why);
    bool m_readOnly = false;
    bool exec(const char* sql);
    bool fail(const std::string& what);
    std::int64_t copyTree(std::int64_t id, std::int64_t parentId, std::int64_t position);
    bool parentKind(std::int64_t parentId, std::optional<ItemKind>& kind);
    bool placeable(std::optional<ItemKind> parentKind, ItemKind kind, const std::string& name);
    std::int64_t insertTree(std::int64_t parentId, std::optional<ItemKind> parentKind, const NewItem& item,
                            std::int64_t position);
    void shiftSiblings(std::int64_t parentId, std::int64_t from, std::int64_t by);

    sqlite3* m_db = nullptr;
    int m_lockFd = -1;
    std::string m_path;
    mutable std::string m_error;
};

} // namespace stampede
