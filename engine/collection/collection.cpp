#include "importparts.h"

#include "core/textfile.h"

#include "core/jsondepth.h"
#include "core/parametersource.h"
#include "core/text.h"
#include "store/projectstore.h"

#include <algorithm>
#include <filesystem>
#include <map>

namespace stampede {

namespace {

// The English of each note; the workbench has the same texts, translated.
const std::map<std::string, std::string>& noteTexts()
{
    static const std::map<std::string, std::string> texts = {
        {"too-large", "The file is larger than 64 MiB."},
        {"bad-json", "Not valid JSON at byte %1: %2"},
        {"bad-yaml", "Not valid YAML: %1"},
        {"too-deep", "nested deeper than %1 levels"},
        {"too-many-values", "more than %1 values (aliases expanded)"},
        {"swagger", "Swagger 2.0 is not read: convert it to OpenAPI 3 first."},
        {"unknown-format", "Not a Postman collection, an OpenAPI 3 file, a HAR file or curl commands."},
        {"postman-version", "This Postman Collection (%1) has no list of items: export it again from Postman as v2.1."},
        {"script-unsupported", "%1: its %2 script calls %3 (line %4), which Stampede does not run"},
        {"auth-kind", "%1: its %2 authorization"},
        {"file-field", "%1: the file field \"%2\""},
        {"file-body-missing", "%1: its body from the file \"%2\" (%3): it is sent empty, as newman does"},
        {"file-missing",
         "%1: the file field \"%2\" names \"%3\" (%4): it is not sent, as newman leaves out a file it cannot load"},
        {"requests-past", "the requests past the first %1"},
        {"dynamic-variables", "%1: Postman's dynamic variables (%2) are kept as text"},
        {"grpc-request", "%1: a gRPC request"},
        {"har-entry", "entry %1: no method or absolute URL"},
        {"entries-past", "the entries past the first %1"},
        {"har-empty", "The HAR file has no entry with a request."},
        {"curl-command", "command %1: %2"},
        {"curl-not-taken", "command %1: not taken: %2"},
        {"curl-none", "No curl command in the file."},
        {"curl-failed", "%1"},
        {"external-ref", "%1: the external reference %2"},
        {"external-ref-unread", "%1: the external reference %2 (%3)"},
        {"ref-nowhere", "%1: the reference %2 leads nowhere"},
        {"relative-server", "the server URL \"%1\" is relative: set baseUrl in the environment"},
        {"operations-past", "the operations past the first %1"},
        {"security-kind", "%1: its %2 security (%3)"},
        {"openapi-version", "Only OpenAPI 3 is read (this file says openapi: %1)."},
        {"no-operations", "The specification has no operation under paths."},
    };
    return texts;
}

int countRequests(const std::vector<ImportedItem>& items)
{
    int n = 0;
    for (const auto& i : items)
        n += i.folder ? countRequests(i.children) : 1;
    return n;
}

Json pairsJson(const Pairs& pairs)
{
    Json a = Json::array();
    for (const auto& [n, v] : pairs)
        a.push_back({{"name", n}, {"value", v}});
    return a;
}

ProjectStore::NewItem toNew(const ImportedItem& i)
{
    ProjectStore::NewItem n;
    // the name as written (Postman's: a script's setNextRequest names it so, blanks and all); none: "(unnamed)"
    n.name = trimSpaces(i.name).empty() ? std::string("(unnamed)") : i.name;
    if (i.folder) {
        n.kind = ItemKind::Folder;
        for (const auto& c : i.children)
            n.children.push_back(toNew(c));
    } else {
        n.kind = ItemKind::Request;
        n.payload = i.payload;
    }
    return n;
}

// `name`, or "name (2)", "name (3)"… whichever no root item of `store` has.
std::string freeName(const ProjectStore& store, const std::string& name)
{
    const auto taken = [&](const std::string& candidate) {
        for (const auto& i : store.children(0))
            if (i.name == candidate)
                return true;
        return false;
    };
    std::string candidate = name;
    for (int n = 2; taken(candidate); ++n)
        candidate = name + " (" + std::to_string(n) + ")";
    return candidate;
}

int hexValue(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

} // namespace

std::string ImportNote::text() const
{
    const auto it = noteTexts().find(code);
    std::string out = it == noteTexts().end() ? code : it->second;
    for (std::size_t i = args.size(); i > 0; --i) { // %10 before %1
        const std::string mark = "%" + std::to_string(i);
        for (std::size_t at = out.find(mark); at != std::string::npos; at = out.find(mark, at + args[i - 1].size()))
            out.replace(at, mark.size(), args[i - 1]);
    }
    return out;
}

std::string dumpJson(const Json& v, int indent)
{
    return v.dump(indent, ' ', false, Json::error_handler_t::replace);
}

ImportNote note(std::string code, std::vector<std::string> args)
{
    return ImportNote{std::move(code), std::move(args)};
}

int CollectionImport::requestCount() const
{
    return countRequests(items);
}

std::string NewRequest::payload() const
{
    Json o;
    o["method"] = method;
    o["url"] = std::string(trimSpaces(url));
    o["headers"] = pairsJson(headers);
    o["body"] = body;
    o["bodyMode"] = bodyMode;
    if (!bodyFile.empty())
        o["bodyFile"] = bodyFile;
    if (!form.empty())
        o["form"] = pairsJson(form);
    for (const auto& [at, files] : formFiles)
        if (at < form.size())
            o["form"][at] = {{"name", form[at].first}, {"type", "file"}, {"src", files}};
    if (auth == "basic")
        o["auth"] = {{"type", "basic"}, {"user", user}, {"password", password}};
    else if (auth == "bearer")
        o["auth"] = {{"type", "bearer"}, {"token", token}};
    else if (auth == "oauth1" || auth == "digest") {
        o["auth"] = {{"type", auth}};
        for (const auto& [name, value] : authFields)
            o["auth"][name] = value;
    }
    if (timeoutMs > 0)
        o["timeoutMs"] = timeoutMs;
    if (insecure)
        o["insecure"] = true;
    if (!http.empty())
        o["http"] = http;
    if (!preRequestScript.empty())
        o["preRequestScript"] = preRequestScript;
    if (!testScript.empty())
        o["testScript"] = testScript;
    if (!description.empty())
        o["description"] = description;
    if (!postmanId.empty())
        o["postmanId"] = postmanId;
    return dumpJson(o);
}

ImportedItem requestItem(const std::string& name, const NewRequest& r)
{
    ImportedItem i;
    i.name = name;
    i.payload = r.payload();
    return i;
}

// The nesting checked first (the parser recurses), in one pass outside strings.
bool parseJson(const std::string& text, Json& out, ImportNote& error, std::size_t maxDepth)
{
    if (const std::size_t i = jsonTooDeep(text, maxDepth); i != std::string::npos) {
        error = note("bad-json", {std::to_string(i), "nested deeper than " + std::to_string(maxDepth) + " levels"});
        return false;
    }
    try {
        out = Json::parse(text);
        return true;
    } catch (const Json::parse_error& e) {
        std::string what = e.what();
        if (const std::size_t colon = what.rfind(": "); colon != std::string::npos)
            what = what.substr(colon + 2);
        error = note("bad-json", {std::to_string(e.byte), what});
        return false;
    } catch (const Json::exception& e) { // a number past a double's range (1e400): where it is, and what
        std::string what = e.what();
        if (const std::size_t bracket = what.find("] "); bracket != std::string::npos)
            what = what.substr(bracket + 2);
        const std::size_t quote = what.find('\'');
        const std::size_t at =
            quote == std::string::npos ? 0 : text.find(what.substr(quote + 1, what.rfind('\'') - quote - 1));
        error = note("bad-json", {std::to_string(at == std::string::npos ? 0 : at + 1), what});
        return false;
    }
}

const Json& member(const Json& o, const char* key)
{
    static const Json null;
    if (!o.is_object())
        return null;
    const auto it = o.find(key);
    return it == o.end() ? null : *it;
}

const Json& items(const Json& o, const char* key)
{
    static const Json empty = Json::array();
    const Json& v = member(o, key);
    return v.is_array() ? v : empty;
}

std::string textOf(const Json& v)
{
    if (v.is_string())
        return v.get<std::string>();
    if (v.is_null())
        return {};
    if (v.is_number_integer())
        return std::to_string(v.get<std::int64_t>());
    if (v.is_number_unsigned())
        return std::to_string(v.get<std::uint64_t>());
    if (v.is_number_float()) {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.15g", v.get<double>());
        return buf;
    }
    if (v.is_boolean())
        return v.get<bool>() ? "true" : "false";
    return dumpJson(v);
}

std::string str(const Json& o, const char* key, const std::string& otherwise)
{
    const Json& v = member(o, key);
    return v.is_null() ? otherwise : textOf(v);
}

std::string urlPath(const std::string& url)
{
    std::size_t start = url.find("://");
    start = start == std::string::npos ? 0 : url.find('/', start + 3);
    if (start == std::string::npos)
        return "/";
    const std::size_t end = url.find_first_of("?#", start);
    const std::string raw = url.substr(start, end == std::string::npos ? std::string::npos : end - start);
    std::string out;
    for (std::size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] == '%' && i + 2 < raw.size() && hexValue(raw[i + 1]) >= 0 && hexValue(raw[i + 2]) >= 0) {
            out += char(hexValue(raw[i + 1]) * 16 + hexValue(raw[i + 2]));
            i += 2;
        } else {
            out += raw[i];
        }
    }
    return out;
}

bool isAbsoluteUrl(const std::string& url)
{
    const std::size_t colon = url.find("://");
    if (colon == std::string::npos || colon == 0)
        return false;
    for (std::size_t i = 0; i < colon; ++i)
        if (!std::isalnum(static_cast<unsigned char>(url[i])) && url[i] != '+' && url[i] != '-' && url[i] != '.')
            return false;
    return url.size() > colon + 3;
}

std::string fromPostmanVariables(const std::string& text)
{
    std::string out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t open = text.find("{{", pos);
        if (open == std::string::npos)
            break;
        const std::size_t close = text.find("}}", open + 2);
        if (close == std::string::npos)
            break;
        const std::string name(trimSpaces(std::string_view(text).substr(open + 2, close - open - 2)));
        const bool plain = isPostmanName(name);
        out += text.substr(pos, open - pos);
        // Postman's dynamic variables the engine draws ({{$guid}}: ${$guid}); others ({{$randomColor}}) stay as text
        out += plain || dynamicVariable(name) ? "${" + name + "}" : text.substr(open, close + 2 - open);
        pos = close + 2;
    }
    return out + text.substr(std::min(pos, text.size()));
}

std::string toPostmanVariables(const std::string& text)
{
    std::string out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t open = text.find("${", pos);
        const std::size_t close = open == std::string::npos ? open : text.find('}', open + 2);
        if (close == std::string::npos)
            break;
        out += text.substr(pos, open - pos) + "{{" + text.substr(open + 2, close - open - 2) + "}}";
        pos = close + 1;
    }
    return out + text.substr(std::min(pos, text.size()));
}

bool parseJsonOrYaml(const std::string& input, Json& root, ImportNote& error)
{
    const std::string data = input.rfind("\xEF\xBB\xBF", 0) == 0 ? input.substr(3) : input; // a BOM
    const std::string trimmed(trimSpaces(data));
    if (!trimmed.empty() && trimmed[0] == '{')
        return parseJson(data, root, error);
    std::string json, why;
    if (!yamlToJson(data, json, why) || !parseJson(json, root, error, std::size_t(kMaxYamlDepth) + 1)) {
        error = note("bad-yaml", {why.empty() ? error.text() : why});
        return false;
    }
    return true;
}

BesideReader filesBeside(const std::string& file)
{
    const std::size_t slash = file.rfind('/');
    const std::string folder = slash == std::string::npos ? std::string(".") : file.substr(0, slash);
    return [folder](const std::string& relative, std::string& text, std::string& why) {
        bool up = false;
        for (std::size_t at = 0; at <= relative.size();) {
            const std::size_t end = std::min(relative.find('/', at), relative.size());
            up |= relative.compare(at, end - at, "..") == 0;
            at = end + 1;
        }
        if (relative.empty() || relative[0] == '/' || up || relative.find("://") != std::string::npos ||
            relative.find_first_of(std::string("\\\0", 2)) != std::string::npos) {
            why = "only a file beside the specification, or in a folder below it, is read";
            return false;
        }
        if (!readWholeFile(folder + "/" + relative, text, why))
            return false;
        if (std::int64_t(text.size()) > kMaxCollectionBytes) {
            why = note("too-large").text();
            return false;
        }
        return true;
    };
}

std::string locatedFile(const FileLocator& locate, const std::string& src, std::string& why)
{
    why = "no file is read by this import";
    return locate ? locate(src, why) : std::string();
}

FileLocator filesUnder(const std::string& workingDir, bool anywhere, const std::string& projectDir)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    // by the paths' names, as written: a link inside the folder is the user's own choice, as newman's
    const fs::path root = fs::absolute(workingDir.empty() ? "." : workingDir, ec).lexically_normal();
    const fs::path project = projectDir.empty() ? fs::path() : fs::absolute(projectDir, ec).lexically_normal();
    return [root, anywhere, project](const std::string& src, std::string& why) -> std::string {
        std::error_code ec;
        if (src.empty() || src.find('\0') != std::string::npos) {
            why = "no file";
            return {};
        }
        const fs::path p = (fs::path(src).is_absolute() ? fs::path(src) : root / src).lexically_normal();
        const fs::path inside = p.lexically_relative(root);
        if (!anywhere && (inside.empty() || *inside.begin() == "..")) {
            why = "outside the working folder " + root.string() + "; --insecure-file-read allows it";
            return {};
        }
        if (!fs::is_regular_file(p, ec)) {
            why = fs::exists(p, ec) ? "not a regular file" : "not found in " + root.string();
            return {};
        }
        if (const fs::path mine = project.empty() ? fs::path() : p.lexically_relative(project);
            !mine.empty() && *mine.begin() != "..")
            return mine.string();
        return p.string();
    };
}

CollectionImport importCollection(const std::string& input, const std::string& fileName, const BesideReader& beside,
                                  const FileLocator& locate)
{
    CollectionImport out;
    if (std::int64_t(input.size()) > kMaxCollectionBytes) {
        out.error = note("too-large");
        return out;
    }
    const std::string data = input.rfind("\xEF\xBB\xBF", 0) == 0 ? input.substr(3) : input; // a BOM
    const std::string lower = asciiLower(fileName);
    const std::string trimmed(trimSpaces(data));
    const auto endsWith = [&](const char* s) {
        const std::string_view e(s);
        return lower.size() >= e.size() && lower.compare(lower.size() - e.size(), e.size(), e) == 0;
    };
    if (trimmed.rfind("curl ", 0) == 0 || endsWith(".sh") || endsWith(".curl"))
        return importCurl(data, locate);
    Json root;
    ImportNote error;
    if (!trimmed.empty() && trimmed[0] == '{') {
        if (!parseJson(data, root, error)) {
            out.error = error;
            return out;
        }
    } else if (endsWith(".yaml") || endsWith(".yml") || trimmed.rfind("openapi:", 0) == 0) {
        std::string json, why;
        if (!yamlToJson(data, json, why) || !parseJson(json, root, error, std::size_t(kMaxYamlDepth) + 1)) {
            out.error = note("bad-yaml", {why.empty() ? error.text() : why});
            return out;
        }
    }
    if (!member(root, "openapi").is_null())
        return importOpenApi(root, beside);
    if (!member(root, "swagger").is_null()) {
        out.error = note("swagger");
        return out;
    }
    const std::string schema = str(member(root, "info"), "schema");
    const bool v1 = schema.find("/v1.") != std::string::npos ||
                    (member(root, "info").is_null() && member(root, "requests").is_array());
    if (v1)
        return importPostman(postmanV1ToV2(root), locate);
    if (!schema.empty() || member(root, "item").is_array())
        return importPostman(root, locate);
    if (member(member(root, "log"), "entries").is_array())
        return importHar(root);
    out.error = note("unknown-format");
    return out;
}

std::int64_t writeCollection(ProjectStore& store, const CollectionImport& import, std::string& error)
{
    if (import.error) {
        error = import.error->text();
        return 0;
    }
    std::vector<ProjectStore::NewItem> roots(1);
    roots[0].kind = ItemKind::Collection;
    const std::string name(trimSpaces(import.name));
    roots[0].name = freeName(store, name.empty() ? "Imported" : name);
    for (const auto& i : import.items)
        roots[0].children.push_back(toNew(i));
    if (!import.variables.empty()) {
        Json values = Json::object();
        for (const auto& [k, v] : import.variables)
            values[k] = v;
        ProjectStore::NewItem env;
        env.kind = ItemKind::Environment;
        env.name = freeName(store, roots[0].name);
        env.payload = dumpJson(values);
        roots.push_back(std::move(env));
    }
    const std::int64_t id = store.addTree(0, roots);
    if (!id)
        error = store.lastError();
    return id;
}

} // namespace stampede
