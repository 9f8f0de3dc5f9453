// OpenAPI 3 (JSON or YAML) into requests: one per operation, grouped by its
// first tag, with parameters and bodies from their examples or, lacking
// those, from their schemas.
#include "importparts.h"

#include "core/text.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <set>

namespace stampede {

namespace {

constexpr int kMaxSchemaDepth = 10;

struct YamlConverter
{
    int nodes = 0;
    std::string error;

    // YAML 1.2's core schema: booleans, nulls and numbers by their text, quoted text a string.
    static Json scalar(const YAML::Node& n)
    {
        const std::string& s = n.Scalar();
        if (n.Tag() == "!") // quoted: a string whatever it looks like
            return s;
        if (s == "true" || s == "True" || s == "TRUE")
            return true;
        if (s == "false" || s == "False" || s == "FALSE")
            return false;
        if (s == "null" || s == "~" || s == "Null" || s == "NULL" || s.empty())
            return nullptr;
        std::size_t i = s[0] == '-' || s[0] == '+' ? 1 : 0;
        bool digits = false, dot = false;
        for (; i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || (s[i] == '.' && !dot)); ++i) {
            dot |= s[i] == '.';
            digits |= s[i] != '.';
        }
        if (digits && i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
            std::size_t j = i + 1 < s.size() && (s[i + 1] == '-' || s[i + 1] == '+') ? i + 2 : i + 1;
            const std::size_t start = j;
            while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])))
                ++j;
            if (j > start)
                i = j;
        }
        if (digits && i == s.size()) {
            if (!dot && s.find_first_of("eE") == std::string::npos && s.size() < 18)
                return std::stoll(s);
            return std::strtod(s.c_str(), nullptr);
        }
        return s;
    }

    Json convert(const YAML::Node& n, int depth)
    {
        if (!error.empty())
            return nullptr;
        if (++nodes > kMaxYamlNodes || depth > kMaxYamlDepth) {
            error = note(depth > kMaxYamlDepth ? "too-deep" : "too-many-values",
                         {std::to_string(depth > kMaxYamlDepth ? kMaxYamlDepth : kMaxYamlNodes)})
                        .text();
            return nullptr;
        }
        switch (n.Type()) {
        case YAML::NodeType::Scalar:
            return scalar(n);
        case YAML::NodeType::Sequence: {
            Json a = Json::array();
            for (const auto& c : n)
                a.push_back(convert(c, depth + 1));
            return a;
        }
        case YAML::NodeType::Map: {
            Json o = Json::object();
            for (const auto& kv : n)
                o[kv.first.as<std::string>()] = convert(kv.second, depth + 1);
            return o;
        }
        default:
            return nullptr;
        }
    }
};

struct OpenApiReader
{
    const Json& doc;
    CollectionImport& out;
    std::set<std::string> variableNames;

    void variable(const std::string& name, const std::string& value = {})
    {
        if (variableNames.insert(name).second)
            out.variables.emplace_back(name, value);
    }

    const BesideReader& beside;
    std::map<std::string, Json> files;         // documents beside the specification, by path; their $refs made whole
    std::map<std::string, std::string> unread; // those that could not be read, and why (each tried once)

    // The value at JSON pointer `pointer` ("/components/schemas/Pet", "" the whole) in `root`, or null.
    static const Json* at(const Json& root, const std::string& pointer)
    {
        const Json* v = &root;
        for (std::size_t from = 1; v && from <= pointer.size() && !pointer.empty();) {
            const std::size_t slash = pointer.find('/', from);
            std::string part = pointer.substr(from, slash == std::string::npos ? std::string::npos : slash - from);
            for (std::size_t p = part.find("~1"); p != std::string::npos; p = part.find("~1", p + 1))
                part.replace(p, 2, "/");
            for (std::size_t p = part.find("~0"); p != std::string::npos; p = part.find("~0", p + 1))
                part.replace(p, 2, "~");
            v = v->is_object() && v->contains(part) ? &(*v)[part] : nullptr;
            if (slash == std::string::npos)
                break;
            from = slash + 1;
        }
        return v;
    }

    // `ref` ("other.yaml#/Pet", "#/Pet") as written in `file`, made relative to the specification's folder.
    static std::string wholeRef(const std::string& file, const std::string& ref)
    {
        if (ref.empty() || ref.find("://") != std::string::npos || ref[0] == '/')
            return ref;
        if (ref[0] == '#')
            return file + ref;
        const std::size_t slash = file.rfind('/');
        std::vector<std::string> parts;
        const std::string joined = (slash == std::string::npos ? "" : file.substr(0, slash + 1)) + ref;
        const std::size_t hash = std::min(joined.find('#'), joined.size());
        for (std::size_t from = 0; from <= hash;) {
            const std::size_t end = std::min(joined.find('/', from), hash);
            const std::string part = joined.substr(from, end - from);
            if (part == ".." && !parts.empty() && parts.back() != "..")
                parts.pop_back();
            else if (part != "." && !part.empty())
                parts.push_back(part);
            from = end + 1;
        }
        std::string out;
        for (const std::string& part : parts)
            out += (out.empty() ? "" : "/") + part;
        return out + joined.substr(hash);
    }

    static void makeRefsWhole(Json& v, const std::string& file)
    {
        if (v.is_object()) {
            for (auto it = v.begin(); it != v.end(); ++it)
                if (it.key() == "$ref" && it.value().is_string())
                    it.value() = wholeRef(file, it.value().get<std::string>());
                else
                    makeRefsWhole(it.value(), file);
        } else if (v.is_array()) {
            for (Json& e : v)
                makeRefsWhole(e, file);
        }
    }

    // The document `file` beside the specification, read once; null (named) when it cannot be.
    const Json* document(const std::string& file, const std::string& where, const std::string& ref)
    {
        if (const auto it = files.find(file); it != files.end())
            return &it->second;
        if (const auto it = unread.find(file); it != unread.end()) {
            out.notImported.push_back(note("external-ref-unread", {where, ref, it->second}));
            return nullptr;
        }
        std::string text, why;
        if (!beside) {
            out.notImported.push_back(note("external-ref", {where, ref}));
            return nullptr;
        }
        Json root;
        ImportNote error;
        if (files.size() >= std::size_t(kMaxFilesBeside))
            why = "more than " + std::to_string(kMaxFilesBeside) + " files are referred to";
        else if (beside(file, text, why) && !parseJsonOrYaml(text, root, error))
            why = error.text();
        if (!why.empty()) {
            unread.emplace(file, why);
            out.notImported.push_back(note("external-ref-unread", {where, ref, why}));
            return nullptr;
        }
        makeRefsWhole(root, file);
        return &files.emplace(file, std::move(root)).first->second;
    }

    // Follows a $ref: within the specification ("#/components/schemas/Pet") or into a file beside it
    // ("pets.yaml#/Pet", "common/errors.json"); what cannot be followed is named.
    const Json& resolve(const Json& in, const std::string& where)
    {
        static const Json null;
        const Json* v = &in;
        for (int hops = 0; hops < 32 && !member(*v, "$ref").is_null(); ++hops) {
            const std::string ref = str(*v, "$ref");
            const std::size_t hash = ref.find('#');
            const std::string file = ref.substr(0, hash);
            const std::string pointer = hash == std::string::npos ? std::string() : ref.substr(hash + 1);
            const Json* root = &doc;
            if (!file.empty()) {
                if (file.find("://") != std::string::npos || file[0] == '/') {
                    out.notImported.push_back(note("external-ref", {where, ref}));
                    return null;
                }
                root = document(file, where, ref);
                if (!root)
                    return null;
            } else if (!pointer.empty() && pointer[0] != '/') {
                out.notImported.push_back(note("ref-nowhere", {where, ref}));
                return null;
            }
            const Json* found = at(*root, pointer);
            if (!found) {
                out.notImported.push_back(note("ref-nowhere", {where, ref}));
                return null;
            }
            v = found;
        }
        return *v;
    }

    static Json stringExample(const Json& s)
    {
        const std::string format = str(s, "format");
        if (format == "date-time")
            return "2026-01-01T00:00:00Z";
        if (format == "date")
            return "2026-01-01";
        if (format == "email")
            return "user@example.com";
        if (format == "uuid")
            return "00000000-0000-4000-8000-000000000000";
        if (format == "uri" || format == "url")
            return "https://example.com/";
        return "string";
    }

    // An example value for a schema: its own example, default or first enum
    // value, else one made from its type (objects with every property).
    Json example(const Json& schemaIn, int depth, std::vector<std::string>& refs, const std::string& where)
    {
        const std::string ref = str(schemaIn, "$ref");
        if (!ref.empty() && (std::find(refs.begin(), refs.end(), ref) != refs.end() || depth > kMaxSchemaDepth))
            return nullptr; // a schema that contains itself
        if (!ref.empty())
            refs.push_back(ref);
        Json v = exampleOf(resolve(schemaIn, where), depth, refs, where);
        if (!ref.empty())
            refs.pop_back();
        return v;
    }

    Json exampleOf(const Json& s, int depth, std::vector<std::string>& refs, const std::string& where)
    {
        for (const char* key : {"example", "default"})
            if (s.is_object() && s.contains(key))
                return s[key];
        if (!items(s, "enum").empty())
            return items(s, "enum").front();
        if (!items(s, "examples").empty())
            return items(s, "examples").front();
        if (!member(s, "allOf").is_null()) {
            Json merged = Json::object();
            for (const Json& part : items(s, "allOf")) {
                const Json o = example(part, depth + 1, refs, where);
                if (o.is_object())
                    for (auto it = o.begin(); it != o.end(); ++it)
                        merged[it.key()] = it.value();
            }
            return merged;
        }
        for (const char* key : {"oneOf", "anyOf"})
            if (!items(s, key).empty())
                return example(items(s, key).front(), depth + 1, refs, where);
        std::string type = member(s, "type").is_array() && !member(s, "type").empty() // 3.1: ["string", "null"]
                               ? textOf(member(s, "type").front())
                               : str(s, "type");
        if (type.empty() && !member(s, "properties").is_null())
            type = "object";
        if (type == "object") {
            Json o = Json::object();
            const Json& props = member(s, "properties");
            if (props.is_object())
                for (auto it = props.begin(); it != props.end() && o.size() < 50; ++it) {
                    const Json& p = resolve(it.value(), where);
                    if (!(member(p, "readOnly").is_boolean() && member(p, "readOnly").get<bool>()))
                        o[it.key()] = example(it.value(), depth + 1, refs, where);
                }
            return o;
        }
        if (type == "array")
            return Json::array({example(member(s, "items"), depth + 1, refs, where)});
        if (type == "integer" || type == "number")
            return member(s, "minimum").is_null() ? Json(0) : member(s, "minimum");
        if (type == "boolean")
            return true;
        if (type == "string")
            return stringExample(s);
        return nullptr;
    }

    // A parameter's or a media type's own example (example, or the first of examples); null when none.
    Json ownExample(const Json& o, const std::string& where, bool& found)
    {
        found = true;
        if (o.is_object() && o.contains("example"))
            return o["example"];
        const Json& examples = member(o, "examples");
        if (examples.is_object() && !examples.empty())
            return member(resolve(examples.begin().value(), where), "value");
        found = false;
        return nullptr;
    }

    void parameters(const std::vector<const Json*>& params, NewRequest& r, std::string& path,
                    std::vector<std::string>& query, const std::string& where)
    {
        for (const Json* pv : params) {
            const Json& p = resolve(*pv, where);
            const std::string name = str(p, "name");
            const std::string in = str(p, "in");
            bool found = false;
            Json value = ownExample(p, where, found);
            std::vector<std::string> refs;
            const Json& schema = resolve(member(p, "schema"), where);
            const bool given = schema.is_object() &&
                               (schema.contains("example") || schema.contains("default") || schema.contains("enum"));
            const bool required = member(p, "required").is_boolean() && member(p, "required").get<bool>();
            if (!found && in == "path" && !given) { // which one is the user's to say
                value = "${" + name + "}";
                variable(name);
                found = true;
            } else if (!found && (in == "path" || required ||
                                  (in == "query" && schema.is_object() && schema.contains("default")))) {
                value = example(schema, 0, refs, where); // a query parameter's default is kept, as the server's
                found = true;
            }
            if (!found)
                continue; // optional, without an example or default: left out
            const bool isVariable = value.is_string() && value.get<std::string>().rfind("${", 0) == 0;
            // a query value as it goes on the wire ("a+b" is "a%2Bb": a + in a query is a space to a server)
            const std::string v = in == "query" && !isVariable ? percentEncode(textOf(value)) : textOf(value);
            const std::string lower = asciiLower(name);
            if (in == "path") {
                const std::string mark = "{" + name + "}";
                for (std::size_t at = path.find(mark); at != std::string::npos; at = path.find(mark, at + v.size()))
                    path.replace(at, mark.size(), v);
            } else if (in == "query") {
                query.push_back(percentEncode(name) + "=" + v);
            } else if (in == "header" && lower != "accept" && lower != "content-type" && lower != "authorization") {
                r.headers.emplace_back(name, v);
            } else if (in == "cookie") {
                r.headers.emplace_back("Cookie", name + "=" + v);
            }
        }
    }

    void body(const Json& bodyRef, NewRequest& r, const std::string& where)
    {
        const Json& content = member(resolve(bodyRef, where), "content");
        if (!content.is_object() || content.empty())
            return;
        std::string type = content.begin().key();
        for (auto it = content.begin(); it != content.end(); ++it)
            if (it.key().find("json") != std::string::npos)
                type = it.key();
        if (type.find("json") == std::string::npos)
            for (auto it = content.begin(); it != content.end(); ++it)
                if (it.key() == "application/x-www-form-urlencoded")
                    type = it.key();
        const Json& media = content[type];
        bool found = false;
        Json value = ownExample(media, where, found);
        std::vector<std::string> refs;
        if (!found)
            value = example(member(media, "schema"), 0, refs, where);
        if (type.find("json") != std::string::npos) {
            r.bodyMode = "json";
            r.body = value.is_object() || value.is_array() ? dumpJson(value, 4) : textOf(value);
            if (type != "application/json")
                r.headers.emplace_back("Content-Type", type);
        } else if (type == "application/x-www-form-urlencoded" || type == "multipart/form-data") {
            r.bodyMode = type.rfind("multipart", 0) == 0 ? "multipart" : "urlencoded";
            if (!value.is_object())
                return;
            const Json& props = member(resolve(member(media, "schema"), where), "properties");
            for (auto it = value.begin(); it != value.end(); ++it) {
                if (r.bodyMode == "multipart" && textOf(it.value()) == "string" &&
                    str(member(props, it.key().c_str()), "format") == "binary") {
                    out.notImported.push_back(note("file-field", {where, it.key()}));
                    continue;
                }
                r.form.emplace_back(it.key(), textOf(it.value()));
            }
        } else {
            r.body = textOf(value);
            r.headers.emplace_back("Content-Type", type);
        }
    }

    void security(const Json& requirements, NewRequest& r, std::vector<std::string>& query, const std::string& where)
    {
        const Json& schemes = member(member(doc, "components"), "securitySchemes");
        for (const Json& names : requirements) {
            if (!names.is_object() || names.empty())
                return; // {}: this alternative needs no credentials
            for (auto it = names.begin(); it != names.end(); ++it) {
                const Json& s = resolve(member(schemes, it.key().c_str()), where);
                const std::string type = str(s, "type");
                const std::string scheme = asciiLower(str(s, "scheme"));
                if (type == "http" && scheme == "bearer") {
                    r.auth = "bearer";
                    r.token = "${bearerToken}";
                    variable("bearerToken");
                } else if (type == "http" && scheme == "basic") {
                    r.auth = "basic";
                    r.user = "${username}";
                    r.password = "${password}";
                    variable("username");
                    variable("password");
                } else if (type == "http" && scheme == "digest") { // the server's challenge answered when sent
                    r.auth = "digest";
                    r.authFields = {{"username", "${username}"}, {"password", "${password}"}};
                    variable("username");
                    variable("password");
                } else if (type == "apiKey") {
                    const std::string name = str(s, "name");
                    const std::string value = "${" + it.key() + "}";
                    variable(it.key());
                    const std::string in = str(s, "in");
                    if (in == "query")
                        query.push_back(name + "=" + value);
                    else if (in == "cookie")
                        r.headers.emplace_back("Cookie", name + "=" + value);
                    else
                        r.headers.emplace_back(name, value);
                } else {
                    out.notImported.push_back(note("security-kind", {where, type, it.key()}));
                }
            }
            return; // the first alternative is enough
        }
    }

    ImportedItem operation(const Json& pathItem, const Json& op, const std::string& method, const std::string& path)
    {
        std::string name = str(op, "operationId");
        if (name.empty())
            name = str(op, "summary");
        if (name.empty())
            name = asciiUpper(method) + " " + path;
        const std::string where = asciiUpper(method) + " " + path;
        NewRequest r;
        r.method = asciiUpper(method);
        std::string target = path;
        std::vector<std::string> query;
        std::vector<const Json*> params;
        for (const Json& q : items(pathItem, "parameters"))
            params.push_back(&q);
        for (const Json& q : items(op, "parameters"))
            params.push_back(&q);
        parameters(params, r, target, query, where);
        body(member(op, "requestBody"), r, where);
        security(member(op, "security").is_array() ? member(op, "security") : items(doc, "security"), r, query, where);
        std::string q;
        for (const auto& part : query)
            q += (q.empty() ? "?" : "&") + part;
        r.url = "${baseUrl}" + target + q;
        return requestItem(name, r);
    }
};

int countAll(const std::vector<ImportedItem>& folders)
{
    int n = 0;
    for (const auto& f : folders)
        n += int(f.children.size());
    return n;
}

// The first server's URL, its variables at their defaults.
std::string serverUrl(const Json& root)
{
    const Json& servers = items(root, "servers");
    const Json& server = servers.empty() ? member(root, "servers") : servers.front();
    std::string base = str(server, "url", "http://127.0.0.1");
    const Json& vars = member(server, "variables");
    if (vars.is_object())
        for (auto it = vars.begin(); it != vars.end(); ++it) {
            const std::string mark = "{" + it.key() + "}";
            const std::string value = str(it.value(), "default");
            for (std::size_t at = base.find(mark); at != std::string::npos; at = base.find(mark, at + value.size()))
                base.replace(at, mark.size(), value);
        }
    if (!base.empty() && base.back() == '/')
        base.pop_back();
    return base;
}

} // namespace

bool yamlToJson(const std::string& yaml, std::string& json, std::string& error)
{
    try {
        const YAML::Node root = YAML::Load(yaml);
        YamlConverter c;
        const Json out = c.convert(root, 0);
        error = c.error;
        if (error.empty())
            json = dumpJson(out);
        return error.empty();
    } catch (const YAML::Exception& e) {
        error = e.what();
        return false;
    }
}

CollectionImport importOpenApi(const Json& root, const BesideReader& beside)
{
    CollectionImport out;
    const std::string version = str(root, "openapi");
    if (version.rfind("3.", 0) != 0) {
        out.error = note("openapi-version", {version});
        return out;
    }
    out.format = "OpenAPI " + version;
    out.name = str(member(root, "info"), "title", "OpenAPI");
    OpenApiReader reader{root, out, {}, beside, {}, {}};
    const std::string base = serverUrl(root);
    reader.variable("baseUrl", base);
    if (base.find("://") == std::string::npos)
        out.notImported.push_back(note("relative-server", {base}));
    // folders in the order of the specification's tags, then the requests without one
    std::vector<ImportedItem> folders, untagged;
    const auto folderOf = [&](const std::string& tag) -> ImportedItem& {
        for (auto& f : folders)
            if (f.name == tag)
                return f;
        ImportedItem f;
        f.name = tag;
        f.folder = true;
        folders.push_back(std::move(f));
        return folders.back();
    };
    for (const Json& t : items(root, "tags"))
        folderOf(str(t, "name"));
    const Json& paths = member(root, "paths");
    static const char* const methods[] = {"get", "put", "post", "delete", "options", "head", "patch", "trace"};
    bool full = false;
    if (paths.is_object())
        for (auto p = paths.begin(); p != paths.end() && !full; ++p) {
            const Json& pathItem = reader.resolve(p.value(), p.key());
            for (const char* m : methods) {
                if (!pathItem.is_object() || !pathItem.contains(m))
                    continue;
                if (countAll(folders) + int(untagged.size()) >= kMaxImportedRequests) {
                    out.notImported.push_back(note("operations-past", {std::to_string(kMaxImportedRequests)}));
                    full = true;
                    break;
                }
                const Json& op = pathItem[m];
                ImportedItem item = reader.operation(pathItem, op, m, p.key());
                const std::string tag = items(op, "tags").empty() ? std::string() : textOf(items(op, "tags").front());
                (tag.empty() ? untagged : folderOf(tag).children).push_back(std::move(item));
            }
        }
    for (auto& f : folders)
        if (!f.children.empty())
            out.items.push_back(std::move(f));
    for (auto& u : untagged)
        out.items.push_back(std::move(u));
    if (out.requestCount() == 0)
        out.error = note("no-operations");
    return out;
}

} // namespace stampede
