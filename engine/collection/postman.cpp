// Postman Collection v2.1 (and v2.0, the same shape) in and out.
#include "importparts.h"

#include "core/text.h"
#include "script/scriptcheck.h"
#include "store/projectstore.h"

#include <cctype>
#include <functional>
#include <string_view>

namespace stampede {

namespace {

// A field of Postman's auth block: [{key, value}, ...] (v2.1) or {key: value} (v2.0); null when absent.
const Json& authField(const Json& auth, const std::string& type, const char* key)
{
    static const Json kNone;
    const Json& block = member(auth, type.c_str());
    if (block.is_object())
        return member(block, key);
    if (block.is_array())
        for (const Json& e : block)
            if (str(e, "key") == key)
                return member(e, "value");
    return kNone;
}

std::string authValue(const Json& auth, const std::string& type, const char* key)
{
    const Json& v = authField(auth, type, key);
    return v.is_null() ? std::string() : textOf(v);
}

// A boolean of Postman's auth block (true, or "true" as some exports write it).
bool authFlag(const Json& auth, const std::string& type, const char* key)
{
    const Json& v = authField(auth, type, key);
    return (v.is_boolean() && v.get<bool>()) || (v.is_string() && v == "true");
}

// Postman's digest helper's text fields, by its names (the stored request keeps them so).
constexpr const char* kDigestFields[] = {"username", "password",   "realm",       "nonce", "algorithm",
                                         "qop",      "nonceCount", "clientNonce", "opaque"};

// A request's scripts with those of its collection and folders before its
// own, in Postman's order (collection, folder, request): each inherited one
// in a function of its own (its declarations and a `return` its own, as
// Postman runs it), headed by where it comes from.
struct Scripts
{
    std::string pre, test;
    Scripts then(const Scripts& next, const std::string& from, bool own) const
    {
        const auto join = [&](const std::string& before, const std::string& text) {
            if (text.empty())
                return before;
            if (own)
                return before + text;
            return before + "// " + from + "'s script\n(function () {\n" + text + "\n})();\n";
        };
        return {join(pre, next.pre), join(test, next.test)};
    }
};

struct PostmanReader
{
    CollectionImport& out;
    const FileLocator& locate;

    // An item's scripts ("" each when it has none), what they call that is
    // not run here noted with its line.
    Scripts scripts(const Json& o, const std::string& where)
    {
        Scripts found;
        // one event written as an object, not a list: Postman's SDK takes it as a list of one
        const Json& written = member(o, "event");
        const Json events = written.is_object() ? Json::array({written}) : items(o, "event");
        for (const Json& ev : events) {
            const Json& exec = member(member(ev, "script"), "exec");
            std::string text;
            if (exec.is_array()) {
                for (const Json& l : exec)
                    text += (text.empty() && &l == &exec.front() ? "" : "\n") + textOf(l);
            } else {
                text = textOf(exec);
            }
            if (trimSpaces(text).empty())
                continue;
            const bool test = str(ev, "listen") == "test";
            for (const script::ScriptNote& n : script::unsupportedCalls(text))
                out.notImported.push_back(
                    note("script-unsupported", {where, test ? "test" : "pre-request", n.what, std::to_string(n.line)}));
            (test ? found.test : found.pre) = text;
        }
        return found;
    }

    // Text for a query's name or value: what would end or split it percent-encoded, ${name}s kept whole.
    static std::string queryText(const std::string& text)
    {
        std::string out;
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (text.compare(i, 2, "${") == 0) {
                const std::size_t close = text.find('}', i);
                if (close != std::string::npos) {
                    out += text.substr(i, close + 1 - i);
                    i = close;
                    continue;
                }
            }
            const auto c = static_cast<unsigned char>(text[i]);
            if (std::isalnum(c) || std::string_view("-._~!$'()*,;:@/?").find(char(c)) != std::string_view::npos) {
                out += char(c);
            } else {
                static const char* hex = "0123456789ABCDEF";
                out += '%';
                out += hex[c >> 4];
                out += hex[c & 15];
            }
        }
        return out;
    }

    void auth(const Json& a, NewRequest& r, const std::string& where)
    {
        const std::string type = str(a, "type");
        if (type == "basic") {
            r.auth = "basic";
            r.user = fromPostmanVariables(authValue(a, type, "username"));
            r.password = fromPostmanVariables(authValue(a, type, "password"));
        } else if (type == "bearer") {
            r.auth = "bearer";
            r.token = fromPostmanVariables(authValue(a, type, "token"));
        } else if (type == "oauth1") {
            r.auth = "oauth1";
            for (const char* name :
                 {"consumerKey", "consumerSecret", "token", "tokenSecret", "signatureMethod", "timestamp", "nonce",
                  "version", "realm", "callback", "verifier", "addParamsToHeader", "addEmptyParamsToSign"})
                if (const std::string value = authValue(a, type, name); !value.empty())
                    r.authFields.emplace_back(name, fromPostmanVariables(value));
            if (const std::string method = authValue(a, type, "signatureMethod"); method.rfind("RSA", 0) == 0)
                out.notImported.push_back(note("auth-kind", {where, "oauth1 " + method}));
        } else if (type == "digest") { // answered to the server's challenge when sent (flow/digest.h)
            r.auth = "digest";
            for (const char* name : kDigestFields)
                if (const std::string value = authValue(a, type, name); !value.empty())
                    r.authFields.emplace_back(name, fromPostmanVariables(value));
            if (authFlag(a, type, "disableRetryRequest"))
                r.authFields.emplace_back("disableRetryRequest", "true");
        } else if (type == "apikey" && authValue(a, type, "in") != "query") {
            r.headers.emplace_back(fromPostmanVariables(authValue(a, type, "key")),
                                   fromPostmanVariables(authValue(a, type, "value")));
        } else if (type == "apikey") { // in the query, after the URL's own parameters (as Postman adds it)
            const std::size_t hash = r.url.find('#');
            const std::string before = r.url.substr(0, hash),
                              fragment = hash == std::string::npos ? "" : r.url.substr(hash);
            r.url = before +
                    (before.find('?') == std::string::npos          ? "?"
                     : before.back() == '?' || before.back() == '&' ? ""
                                                                    : "&") +
                    queryText(fromPostmanVariables(authValue(a, type, "key"))) + "=" +
                    queryText(fromPostmanVariables(authValue(a, type, "value"))) + fragment;
        } else if (!type.empty() && type != "noauth") {
            out.notImported.push_back(note("auth-kind", {where, type}));
        }
    }

    static std::string url(const Json& u)
    {
        if (u.is_string())
            return fromPostmanVariables(u.get<std::string>());
        // newman sends the URL its parts make (Postman's SDK reads no `raw` when they are there)
        if (member(u, "host").is_null() && member(u, "path").is_null())
            return fromPostmanVariables(str(u, "raw"));
        return encodedBreaks(fromPostmanVariables(urlOfParts(u)));
    }

    // A query parameter's key or value as newman's encoder writes it from the parts: `#` and `&` (and `=` in a
    // key) percent-encoded, so they stay in the parameter; a {{variable}} left as it is (its value goes as it
    // holds, as newman's).
    static std::string queryPart(const std::string& text, bool key)
    {
        std::string out;
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (text.compare(i, 2, "{{") == 0) {
                const std::size_t close = text.find("}}", i + 2);
                if (close != std::string::npos) {
                    out.append(text, i, close + 2 - i);
                    i = close + 1;
                    continue;
                }
            }
            const char c = text[i];
            out += c == '#'          ? std::string("%23")
                   : c == '&'        ? std::string("%26")
                   : c == '=' && key ? std::string("%3D")
                                     : std::string(1, c);
        }
        return out;
    }

    // Line breaks and NUL bytes in a URL's parts percent-encoded, as newman's encoder sends them (a request's
    // own URL may hold none: they would end its request line).
    static std::string encodedBreaks(std::string url)
    {
        std::string out;
        for (const char c : url)
            out += c == '\n'   ? std::string("%0A")
                   : c == '\r' ? std::string("%0D")
                   : c == '\0' ? std::string("%00")
                               : std::string(1, c);
        return out;
    }

    // A URL object's parts as Postman's SDK writes them (Url.toString): protocol, auth, host, port, path, the
    // enabled query parameters (a key without a value has no "="), hash.
    static std::string urlOfParts(const Json& u)
    {
        std::string out;
        if (std::string protocol = str(u, "protocol"); !protocol.empty()) {
            if (protocol.size() >= 3 && protocol.compare(protocol.size() - 3, 3, "://") == 0)
                protocol.resize(protocol.size() - 3);
            out += protocol + "://";
        }
        if (const Json& auth = member(u, "auth"); auth.is_object())
            out += str(auth, "user") + ":" + str(auth, "password") + "@";
        const Json& host = member(u, "host");
        if (host.is_array()) {
            std::string joined;
            for (const Json& h : host)
                joined += (joined.empty() ? "" : ".") + textOf(h);
            out += joined;
        } else {
            out += textOf(host);
        }
        if (const std::string port = textOf(member(u, "port")); !port.empty())
            out += ":" + port;
        const Json& path = member(u, "path");
        if (path.is_array()) {
            for (const Json& p : path)
                out += "/" + textOf(p);
        } else if (const std::string p = textOf(path); !p.empty()) {
            out += (p.front() == '/' ? "" : "/") + p;
        }
        std::string query;
        bool anyQuery = false;
        for (const Json& q : items(u, "query")) {
            if (member(q, "disabled").is_boolean() && member(q, "disabled").get<bool>())
                continue;
            query += anyQuery ? "&" : "";
            anyQuery = true;
            query += queryPart(textOf(member(q, "key")), true);
            if (!member(q, "value").is_null())
                query += "=" + queryPart(textOf(member(q, "value")), false);
        }
        if (anyQuery)
            out += "?" + query;
        if (const std::string hash = str(u, "hash"); !hash.empty())
            out += "#" + hash;
        return out;
    }

    // A formdata file field: each file it names found now (a path kept, never its bytes); one that is not is
    // noted and left out, as newman drops a file it cannot load (a field with none is not sent).
    void fileField(const Json& f, NewRequest& r, const std::string& where)
    {
        const std::string key = fromPostmanVariables(str(f, "key"));
        std::vector<std::string> sources;
        if (member(f, "src").is_array()) {
            for (const Json& s : member(f, "src"))
                sources.push_back(textOf(s));
        } else {
            sources.push_back(str(f, "src"));
        }
        std::vector<std::string> paths;
        for (const std::string& src : sources) {
            std::string why;
            std::string path = locatedFile(locate, src, why);
            if (path.empty())
                out.notImported.push_back(note("file-missing", {where, key, src, why}));
            else
                paths.push_back(std::move(path));
        }
        if (paths.empty())
            return;
        r.form.emplace_back(key, std::string());
        r.formFiles.emplace_back(r.form.size() - 1, std::move(paths));
    }

    void body(const Json& b, NewRequest& r, const std::string& where)
    {
        const std::string mode = str(b, "mode");
        if (mode == "raw") {
            r.body = fromPostmanVariables(str(b, "raw"));
            r.bodyMode = str(member(member(b, "options"), "raw"), "language") == "json" ? "json" : "raw";
        } else if (mode == "urlencoded" || mode == "formdata") {
            r.bodyMode = mode == "urlencoded" ? "urlencoded" : "multipart";
            for (const Json& f : items(b, mode.c_str())) {
                if (member(f, "disabled").is_boolean() && member(f, "disabled").get<bool>())
                    continue;
                if (str(f, "type") == "file" && mode == "formdata") {
                    fileField(f, r, where);
                    continue;
                }
                r.form.emplace_back(fromPostmanVariables(str(f, "key")), fromPostmanVariables(str(f, "value")));
            }
        } else if (mode == "graphql") {
            const Json& g = member(b, "graphql");
            Json query = {{"query", member(g, "query")}};
            Json vars;
            ImportNote ignored;
            if (parseJson(str(g, "variables"), vars, ignored) && vars.is_object())
                query["variables"] = vars;
            r.body = dumpJson(query);
            r.bodyMode = "json";
        } else if (mode == "file") { // found now, its path kept; one that is not is sent empty, as newman does
            const std::string src = str(member(b, "file"), "src");
            std::string why;
            std::string path = locatedFile(locate, src, why);
            if (path.empty() && !src.empty())
                out.notImported.push_back(note("file-body-missing", {where, src, why}));
            r.bodyMode = "file";
            r.bodyFile = std::move(path);
        }
    }

    // A URL's user and password (https://user:pass@host/) as Basic authorization, as newman sends them, when
    // the request has no other (the URL keeps them; they never go on the wire in it).
    static void urlCredentials(const Json& u, NewRequest& r)
    {
        std::string user, password;
        if (const Json& auth = member(u, "auth"); auth.is_object()) {
            user = str(auth, "user");
            password = str(auth, "password");
        } else {
            const std::string text = u.is_string() ? u.get<std::string>() : str(u, "raw");
            const std::size_t scheme = text.find("://");
            const std::size_t from = scheme == std::string::npos ? 0 : scheme + 3;
            const std::size_t end = text.find_first_of("/?#", from);
            const std::string authority = text.substr(from, end == std::string::npos ? end : end - from);
            const std::size_t at = authority.rfind('@');
            if (at == std::string::npos)
                return;
            const std::string info = authority.substr(0, at);
            const std::size_t colon = info.find(':');
            user = info.substr(0, colon);
            password = colon == std::string::npos ? "" : info.substr(colon + 1);
        }
        if (user.empty() && password.empty())
            return;
        r.auth = "basic";
        r.user = fromPostmanVariables(user);
        r.password = fromPostmanVariables(password);
    }

    ImportedItem request(const Json& item, const Json& inheritedAuth, const Scripts& inherited,
                         const std::string& where)
    {
        const Json& rqv = member(item, "request");
        NewRequest r;
        std::string method = rqv.is_object() ? str(rqv, "method", "GET") : "GET";
        r.method = asciiUpper(method);
        r.url = url(rqv.is_string() ? rqv : member(rqv, "url"));
        for (const Json& h : items(rqv, "header"))
            if (!(member(h, "disabled").is_boolean() && member(h, "disabled").get<bool>()))
                r.headers.emplace_back(str(h, "key"), fromPostmanVariables(str(h, "value")));
        body(member(rqv, "body"), r, where);
        auth(member(rqv, "auth").is_null() ? inheritedAuth : member(rqv, "auth"), r, where);
        if (r.auth.empty())
            urlCredentials(rqv.is_string() ? rqv : member(rqv, "url"), r);
        const Scripts own = inherited.then(scripts(item, where), "", true);
        // a description is text, or {content, type} (v2.1)
        const Json& description = member(rqv, "description");
        r.description = description.is_object() ? str(description, "content") : str(rqv, "description");
        r.postmanId = str(item, "id").empty() ? str(item, "_postman_id") : str(item, "id");
        r.preRequestScript = own.pre;
        r.testScript = own.test;
        return requestItem(str(item, "name"), r);
    }

    std::vector<ImportedItem> list(const Json& entries, const Json& inheritedAuth, const Scripts& inherited,
                                   const std::string& path, int& made)
    {
        std::vector<ImportedItem> out_;
        for (const Json& item : entries) {
            const std::string where = path + str(item, "name");
            if (made >= kMaxImportedRequests) {
                out.notImported.push_back(note("requests-past", {std::to_string(kMaxImportedRequests)}));
                break;
            }
            if (member(item, "item").is_array()) { // a folder: its auth is its requests'
                ImportedItem folder;
                folder.folder = true;
                folder.name = str(item, "name");
                const Json& auth = member(item, "auth").is_null() ? inheritedAuth : member(item, "auth");
                const Scripts folderScripts =
                    inherited.then(scripts(item, where), "the folder \"" + folder.name + "\"", false);
                folder.children = list(member(item, "item"), auth, folderScripts, where + " / ", made);
                out_.push_back(std::move(folder));
            } else {
                out_.push_back(request(item, inheritedAuth, inherited, where));
                ++made;
            }
        }
        return out_;
    }
};

// A {{$dynamic}} variable of Postman's kept as text, named once per request.
void lookForDynamic(const std::vector<ImportedItem>& items, const std::string& path, CollectionImport& out)
{
    for (const auto& i : items) {
        if (i.folder) {
            lookForDynamic(i.children, path + i.name + " / ", out);
            continue;
        }
        const std::size_t at = i.payload.find("{{$");
        if (at == std::string::npos)
            continue;
        const std::size_t end = i.payload.find("}}", at);
        out.notImported.push_back(note("dynamic-variables", {path + i.name, i.payload.substr(at, end - at + 2)}));
    }
}

Json pairsOut(const Json& pairs)
{
    Json a = Json::array();
    for (const Json& p : pairs) {
        if (str(p, "type") == "file") { // a file field: its paths as Postman's src
            a.push_back({{"key", toPostmanVariables(str(p, "name"))}, {"type", "file"}, {"src", member(p, "src")}});
            continue;
        }
        a.push_back({{"key", toPostmanVariables(str(p, "name"))},
                     {"value", toPostmanVariables(str(p, "value"))},
                     {"type", "text"}});
    }
    return a;
}

Json requestOut(const Json& r)
{
    Json rq = {{"method", asciiUpper(str(r, "method", "GET"))}, {"url", {{"raw", toPostmanVariables(str(r, "url"))}}}};
    Json headers = Json::array();
    for (const Json& h : items(r, "headers"))
        headers.push_back({{"key", str(h, "name")}, {"value", toPostmanVariables(str(h, "value"))}});
    rq["header"] = headers;
    const std::string mode = str(r, "bodyMode", "raw");
    if (mode == "urlencoded")
        rq["body"] = {{"mode", "urlencoded"}, {"urlencoded", pairsOut(items(r, "form"))}};
    else if (mode == "multipart")
        rq["body"] = {{"mode", "formdata"}, {"formdata", pairsOut(items(r, "form"))}};
    else if (mode == "file")
        rq["body"] = {{"mode", "file"}, {"file", {{"src", str(r, "bodyFile")}}}};
    else if (!str(r, "body").empty()) {
        Json b = {{"mode", "raw"}, {"raw", toPostmanVariables(str(r, "body"))}};
        if (mode == "json")
            b["options"] = {{"raw", {{"language", "json"}}}};
        rq["body"] = b;
    }
    const auto kv = [](const char* k, const std::string& v) {
        return Json{{"key", k}, {"value", toPostmanVariables(v)}, {"type", "string"}};
    };
    const Json& auth = member(r, "auth");
    if (str(auth, "type") == "basic")
        rq["auth"] = {
            {"type", "basic"},
            {"basic", Json::array({kv("username", str(auth, "user")), kv("password", str(auth, "password"))})}};
    else if (str(auth, "type") == "bearer")
        rq["auth"] = {{"type", "bearer"}, {"bearer", Json::array({kv("token", str(auth, "token"))})}};
    else if (str(auth, "type") == "oauth1") {
        Json fields = Json::array();
        for (auto it = auth.begin(); it != auth.end(); ++it)
            if (it.key() == "addParamsToHeader" || it.key() == "addEmptyParamsToSign")
                fields.push_back({{"key", it.key()}, {"value", textOf(it.value()) == "true"}, {"type", "boolean"}});
            else if (it.key() != "type")
                fields.push_back(kv(it.key().c_str(), textOf(it.value())));
        rq["auth"] = {{"type", "oauth1"}, {"oauth1", fields}};
    } else if (str(auth, "type") == "digest") {
        Json fields = Json::array();
        for (const char* name : kDigestFields)
            if (const std::string value = textOf(member(auth, name)); !value.empty())
                fields.push_back(kv(name, value));
        if (textOf(member(auth, "disableRetryRequest")) == "true")
            fields.push_back({{"key", "disableRetryRequest"}, {"value", true}, {"type", "boolean"}});
        rq["auth"] = {{"type", "digest"}, {"digest", fields}};
    }
    return rq;
}

Json itemsOut(const ProjectStore& store, std::int64_t parent, const std::string& path, std::vector<ImportNote>& skipped)
{
    Json out = Json::array();
    for (const auto& c : store.children(parent)) {
        if (c.kind == ItemKind::Folder) {
            out.push_back({{"name", c.name}, {"item", itemsOut(store, c.id, path + c.name + " / ", skipped)}});
            continue;
        }
        if (c.kind != ItemKind::Request)
            continue;
        Json r;
        ImportNote ignored;
        if (!parseJson(c.payload.empty() ? "{}" : c.payload, r, ignored) || str(r, "kind") == "grpc") {
            skipped.push_back(note("grpc-request", {path + c.name}));
            continue;
        }
        Json item = {{"name", c.name}, {"request", requestOut(r)}};
        Json events = Json::array();
        for (const auto& [listen, key] : {std::pair{"prerequest", "preRequestScript"}, {"test", "testScript"}})
            if (const std::string text = str(r, key); !text.empty()) {
                Json lines = Json::array();
                for (std::size_t at = 0;;) { // Postman keeps a script as its lines
                    const std::size_t end = text.find('\n', at);
                    lines.push_back(text.substr(at, end == std::string::npos ? end : end - at));
                    if (end == std::string::npos)
                        break;
                    at = end + 1;
                }
                events.push_back({{"listen", listen}, {"script", {{"type", "text/javascript"}, {"exec", lines}}}});
            }
        if (!events.empty())
            item["event"] = events;
        out.push_back(item);
    }
    return out;
}

} // namespace

CollectionImport importPostman(const Json& root, const FileLocator& locate)
{
    CollectionImport out;
    const Json& info = member(root, "info");
    const std::string schema = str(info, "schema");
    if (!member(root, "item").is_array()) {
        out.error = note("postman-version", {schema.empty() ? "without items" : schema});
        return out;
    }
    out.format = schema.find("/v1.") != std::string::npos   ? "Postman Collection v1"
                 : schema.find("v2.0") != std::string::npos ? "Postman Collection v2.0"
                                                            : "Postman Collection v2.1";
    out.name = str(info, "name", "Postman collection");
    for (const Json& v : items(root, "variable")) {
        const bool disabled = member(v, "disabled").is_boolean() && member(v, "disabled").get<bool>();
        if (!disabled && !str(v, "key").empty())
            out.variables.emplace_back(str(v, "key"), str(v, "value"));
    }
    PostmanReader reader{out, locate};
    const Scripts collection = Scripts{}.then(reader.scripts(root, "the collection"), "the collection", false);
    int made = 0;
    out.items = reader.list(member(root, "item"), member(root, "auth"), collection, std::string(), made);
    lookForDynamic(out.items, std::string(), out);
    return out;
}

std::string exportPostman(const ProjectStore& store, std::int64_t collectionId, const Pairs& variables,
                          std::vector<ImportNote>& skipped)
{
    const auto collection = store.item(collectionId);
    Json root = {{"info",
                  {{"name", collection ? collection->name : std::string("Stampede")},
                   {"schema", "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}}},
                 {"item", itemsOut(store, collectionId, std::string(), skipped)}};
    if (!variables.empty()) { // the collection's variables, as an import makes them an environment
        Json vars = Json::array();
        for (const auto& [k, v] : variables)
            vars.push_back({{"key", k}, {"value", v}, {"type", "string"}});
        root["variable"] = vars;
    }
    return dumpJson(root, 2);
}

} // namespace stampede
