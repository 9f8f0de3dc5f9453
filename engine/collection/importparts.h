#pragma once
// What the collection readers share (not for other rooms): JSON trees in
// their own key order (nlohmann::ordered_json, Debian's nlohmann-json3-dev),
// read only after their nesting is checked, and a stored request as the
// readers build it, written in the payload form bundle/storedrequest.h reads.
#include "collection.h"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace stampede {

using Json = nlohmann::ordered_json;
using Pairs = std::vector<std::pair<std::string, std::string>>;

// A request being imported, in the workbench's terms.
struct NewRequest
{
    std::string method = "GET";
    std::string url;
    Pairs headers;
    std::string body;
    std::string bodyMode = "raw"; // raw, json, urlencoded, multipart, file
    std::string bodyFile;         // file: the path the locator gave ("" when it found none: sent empty)
    Pairs form;
    // Multipart file fields: the index in `form` of each, and the files that fill it (the paths the locator gave).
    std::vector<std::pair<std::size_t, std::vector<std::string>>> formFiles;
    std::string auth; // "", basic, bearer, oauth1
    std::string user, password, token;
    Pairs authFields;     // oauth1, digest: the helper's fields by Postman's names
    double timeoutMs = 0; // 0: the default
    bool insecure = false;
    std::string http; // "", "1.1", "2"
    std::string preRequestScript, testScript;
    std::string description; // Postman's, which its scripts read (request.description)
    std::string postmanId;   // the item's id in its collection (pm.info.requestId)
    std::string payload() const;
};

ImportedItem requestItem(const std::string& name, const NewRequest& r);

// `text` parsed, when it is JSON nested at most `maxDepth` deep; else a note.
bool parseJson(const std::string& text, Json& out, ImportNote& error, std::size_t maxDepth = kMaxYamlDepth);

// A field's text ("" when missing or not a string); a number or a bool as its text.
std::string str(const Json& o, const char* key, const std::string& otherwise = {});
// The value's own text: a string as it is, others as JSON.
std::string textOf(const Json& v);
const Json& member(const Json& o, const char* key); // null when missing
const Json& items(const Json& o, const char* key);  // an empty array when missing or not one

ImportNote note(std::string code, std::vector<std::string> args = {});
// `v` as JSON text; bytes that are not UTF-8 (a curl command, a HAR body) become U+FFFD: JSON holds text only.
std::string dumpJson(const Json& v, int indent = -1);

// The path `locate` gives for a file a request sends (`src` as written), or "" with `why` (also when the import
// reads no file: no locator).
std::string locatedFile(const FileLocator& locate, const std::string& src, std::string& why);

CollectionImport importPostman(const Json& root, const FileLocator& locate = {});
// A Postman Collection v1 as the v2 tree importPostman reads (postmanv1.cpp).
Json postmanV1ToV2(const Json& v1);
CollectionImport importOpenApi(const Json& root, const BesideReader& beside = {});
// JSON or YAML text (by its first character) as a tree; false with `error`.
bool parseJsonOrYaml(const std::string& text, Json& root, ImportNote& error);
CollectionImport importHar(const Json& root);
CollectionImport importCurl(const std::string& text, const FileLocator& locate = {});

// The path of a URL ("/a/b" of "https://h/a/b?q"), percent-decoded, for a name.
std::string urlPath(const std::string& url);
bool isAbsoluteUrl(const std::string& url);

} // namespace stampede
