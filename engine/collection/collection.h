#pragma once
// Collections from other tools made into a project's requests, for the
// workbench (File → Import Collection) and the command line (stampede-cli
// import FILE --project P) alike: Postman Collection v2.0/v2.1 (folders,
// requests, variables, auth inherited, bodies), OpenAPI 3 (JSON or YAML: one
// request per operation, example bodies from schemas), HAR 1.2 (one request
// per entry) and curl commands. Each import says what it could not take
// (scripts, file uploads, OAuth…), each note naming where, as a code with its
// arguments (the workbench translates it); writing it into a project is one
// transaction: all of it or nothing. A collection also goes out as Postman
// v2.1, its environment as the collection's variables.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace stampede {

class ProjectStore;

// Something an import could not take, or why a file is refused: a stable
// code, its arguments (where, what), and the English text they make.
struct ImportNote
{
    std::string code; // e.g. "test-script": args {where}
    std::vector<std::string> args;
    std::string text() const;
};

struct ImportedItem
{
    std::string name;
    bool folder = false;
    std::string payload; // a request: its stored payload (bundle/storedrequest.h's form)
    std::vector<ImportedItem> children;
};

struct CollectionImport
{
    std::string format; // "Postman Collection v2.1", "OpenAPI 3.0.3", "HAR 1.2", "curl"
    std::string name;   // the collection's
    std::vector<ImportedItem> items;
    // Values its requests use (Postman's collection variables, OpenAPI's
    // server and credentials): an environment named after the collection.
    std::vector<std::pair<std::string, std::string>> variables;
    std::vector<ImportNote> notImported; // what could not be taken, each naming where
    std::optional<ImportNote> error;     // set: the file is refused, nothing is written
    int requestCount() const;
};

// The largest file imported (a collection, a specification, a HAR file).
constexpr std::int64_t kMaxCollectionBytes = 64 * 1024 * 1024;
// The most requests one import makes.
constexpr int kMaxImportedRequests = 10000;
// YAML's bounds: nesting, and values with its aliases expanded.
constexpr int kMaxYamlDepth = 200;
constexpr int kMaxYamlNodes = 2000000;

// Reads a file that an imported file names (an OpenAPI document's external $ref "pets.yaml#/Pet"), by its
// path relative to the imported file's folder; false with `why` when it may not or cannot.
using BesideReader = std::function<bool(const std::string& relative, std::string& text, std::string& why)>;
// The files beside `file` and in folders below its own, and no other: an absolute path, a "..", a URL, a
// backslash or a NUL is refused without being opened; a file past kMaxCollectionBytes is not read.
BesideReader filesBeside(const std::string& file);
// The most files an import reads beside the one imported.
constexpr int kMaxFilesBeside = 64;

// Finds a file that an imported request sends (a Postman form's file field, a file body, curl's -F name=@path):
// the path to keep (relative to the project's folder when it is in it, else absolute), or "" with `why`.
using FileLocator = std::function<std::string(const std::string& src, std::string& why)>;
// Files in `workingDir` and the folders below it (newman's --working-dir; the collection's own folder is the
// import's default), a relative path taken from there; with `anywhere` (newman's insecure file read), any.
// A file in `projectDir` (the project's folder) or below it is given relative to it, as the project reads it.
FileLocator filesUnder(const std::string& workingDir, bool anywhere, const std::string& projectDir = {});

// Reads `data` as whichever of the formats it is (by its content; `fileName`
// tells YAML apart; a UTF-8 byte order mark is skipped). `error` is set when
// it is none of them or is broken. `beside` reads the files it refers to (none
// when empty: each such reference is named in notImported).
// `locate` finds the files that a request sends (none when empty: each is
// noted, and left out or sent empty as newman would).
CollectionImport importCollection(const std::string& data, const std::string& fileName, const BesideReader& beside = {},
                                  const FileLocator& locate = {});
// YAML 1.2 (as OpenAPI files are written) as JSON text; false with `error`.
bool yamlToJson(const std::string& yaml, std::string& json, std::string& error);

// Writes the collection (and its variables as an environment) at the end of
// the project's tree in one transaction; its id, or 0 with `error`.
std::int64_t writeCollection(ProjectStore& store, const CollectionImport& import, std::string& error);

// The collection item `collectionId` (its folders and HTTP requests) as a
// Postman Collection v2.1 file, with `variables` (an environment's values) as
// its collection variables; `skipped` names what Postman cannot hold (gRPC
// requests).
std::string exportPostman(const ProjectStore& store, std::int64_t collectionId,
                          const std::vector<std::pair<std::string, std::string>>& variables,
                          std::vector<ImportNote>& skipped);

// Postman's {{name}} as ${name}, and back.
std::string fromPostmanVariables(const std::string& text);
std::string toPostmanVariables(const std::string& text);

} // namespace stampede
