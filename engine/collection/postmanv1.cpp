// Postman Collection v1 (the format of Postman's first app and of newman's
// older fixtures) read as the v2 tree importPostman takes, the way Postman's
// own converter maps it: folders by `folders_order` (else as listed), each
// with its sub-folders then its requests by `order`, then the collection's
// own requests by `order`; `headers` as "Name: value" lines ("//" disables
// one), `dataMode` params/urlencoded/raw/binary, `tests` and
// `preRequestScript` (or `events`), and `currentHelper` with its
// `helperAttributes` as the request's auth.
#include "importparts.h"

#include "core/text.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace stampede {

namespace {

Json scriptEvent(const char* listen, const Json& text)
{
    return {{"listen", listen}, {"script", {{"type", "text/javascript"}, {"exec", text}}}};
}

// v1's events: `events` when it has some, else its `tests` and `preRequestScript`.
Json events(const Json& entity)
{
    if (const Json& ev = member(entity, "events"); ev.is_array() && !ev.empty()) {
        Json out = Json::array();
        for (Json e : ev) {
            if (!e.is_object())
                continue;
            if (str(e, "listen").empty())
                e["listen"] = "test";
            out.push_back(std::move(e));
        }
        return out;
    }
    Json out = Json::array();
    if (const Json& t = member(entity, "tests"); (t.is_string() && !t.get<std::string>().empty()) || t.is_array())
        out.push_back(scriptEvent("test", t));
    if (const Json& p = member(entity, "preRequestScript");
        (p.is_string() && !p.get<std::string>().empty()) || p.is_array())
        out.push_back(scriptEvent("prerequest", p));
    return out;
}

// `auth` when the entity has one, else its helper ("basicAuth" with its username and password); null for none.
Json auth(const Json& entity)
{
    if (const Json& a = member(entity, "auth"); a.is_object())
        return a;
    const std::string helper = str(entity, "currentHelper");
    if (helper.empty() || helper == "normal")
        return nullptr;
    static const std::pair<const char*, const char*> kinds[] = {
        {"basicAuth", "basic"}, {"digestAuth", "digest"}, {"oAuth1", "oauth1"}, {"oAuth2", "oauth2"},
        {"hawkAuth", "hawk"},   {"awsSigV4", "awsv4"},    {"ntlmAuth", "ntlm"}, {"akamai", "edgegrid"}};
    std::string type = helper;
    for (const auto& [from, to] : kinds)
        if (helper == from)
            type = to;
    Json out = {{"type", type}};
    Json attributes = member(entity, "helperAttributes");
    if (attributes.is_string()) { // some exports wrote them as JSON text
        ImportNote ignored;
        Json parsed;
        attributes = parseJson(attributes.get<std::string>(), parsed, ignored) ? parsed : Json();
    }
    if (attributes.is_object()) {
        Json params = Json::array();
        for (const auto& [k, v] : attributes.items())
            if (k != "id" && k != "saveToRequest")
                params.push_back({{"key", k}, {"value", v}});
        out[type] = params;
    }
    return out;
}

Json headers(const Json& request)
{
    if (const Json& h = member(request, "headers"); h.is_array())
        return h;
    Json out = Json::array();
    std::set<std::string> seen;
    for (Json h : items(request, "headerData")) {
        if (!h.is_object())
            continue;
        std::string key = str(h, "key");
        if (key.rfind("//", 0) == 0 || (member(h, "enabled").is_boolean() && !h["enabled"].get<bool>())) {
            h["disabled"] = true;
            key = std::string(trimSpaces(key.rfind("//", 0) == 0 ? key.substr(2) : key));
            h["key"] = key;
        }
        seen.insert(key);
        out.push_back(std::move(h));
    }
    const std::string text = str(request, "headers");
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        std::string line(trimSpaces(std::string_view(text).substr(at, end - at)));
        at = end + 1;
        const std::size_t colon = line.find(':');
        if (line.empty() || colon == std::string::npos)
            continue;
        const bool disabled = line.rfind("//", 0) == 0;
        const std::string key(trimSpaces(std::string_view(line).substr(disabled ? 2 : 0, colon - (disabled ? 2 : 0))));
        if (seen.count(key))
            continue;
        Json h = {{"key", key}, {"value", std::string(trimSpaces(std::string_view(line).substr(colon + 1)))}};
        if (disabled)
            h["disabled"] = true;
        out.push_back(std::move(h));
    }
    return out;
}

Json formFields(const Json& data)
{
    Json out = Json::array();
    if (!data.is_array())
        return out;
    for (Json f : data) {
        if (!f.is_object() || str(f, "key").empty())
            continue;
        if (member(f, "enabled").is_boolean() && !f["enabled"].get<bool>())
            f["disabled"] = true;
        f.erase("enabled");
        out.push_back(std::move(f));
    }
    return out;
}

Json body(const Json& request)
{
    const std::string mode = str(request, "dataMode");
    const Json& data = member(request, "data");
    std::string raw;
    if (const Json& r = member(request, "rawModeData"); r.is_string())
        raw = r.get<std::string>();
    else if (r.is_array() && r.size() == 1 && r[0].is_string())
        raw = r[0].get<std::string>();
    std::string v2 = mode == "params" ? "formdata" : mode == "binary" ? "file" : mode;
    if (v2 != "formdata" && v2 != "urlencoded" && v2 != "raw" && v2 != "file") {
        if ((!data.is_array() || data.empty()) && raw.empty() && !data.is_string())
            return nullptr;
        v2 = raw.empty() && data.is_array() ? "formdata" : "raw";
    }
    Json out = {{"mode", v2}};
    if (v2 == "raw")
        out["raw"] = !raw.empty() ? raw : data.is_string() ? data.get<std::string>() : std::string();
    else if (v2 == "file")
        out["file"] = {{"src", raw}};
    else
        out[v2] = formFields(data.is_array() ? data : member(request, "rawModeData"));
    return out;
}

Json item(const Json& request)
{
    Json rq = {{"method", str(request, "method", "GET")}, {"url", str(request, "url")}, {"header", headers(request)}};
    if (Json b = body(request); !b.is_null())
        rq["body"] = std::move(b);
    if (Json a = auth(request); !a.is_null())
        rq["auth"] = std::move(a);
    if (!str(request, "description").empty())
        rq["description"] = str(request, "description");
    Json out = {{"id", str(request, "id")}, {"name", str(request, "name")}, {"request", std::move(rq)}};
    if (Json ev = events(request); !ev.empty())
        out["event"] = std::move(ev);
    return out;
}

// The ids an entity lists under `key`, each once, in order.
std::vector<std::string> ids(const Json& entity, const char* key)
{
    std::vector<std::string> out;
    for (const Json& id : items(entity, key))
        if (id.is_string() && std::find(out.begin(), out.end(), id.get<std::string>()) == out.end())
            out.push_back(id.get<std::string>());
    return out;
}

} // namespace

Json postmanV1ToV2(const Json& v1)
{
    std::map<std::string, const Json*> requests, folders;
    for (const Json& r : items(v1, "requests"))
        if (r.is_object())
            requests.emplace(str(r, "id"), &r);
    std::vector<std::string> folderIds;
    std::set<std::string> subfolders;
    for (const Json& f : items(v1, "folders"))
        if (f.is_object() && folders.emplace(str(f, "id"), &f).second) {
            folderIds.push_back(str(f, "id"));
            for (const std::string& sub : ids(f, "folders_order"))
                subfolders.insert(sub);
        }
    // a folder as v2's: its sub-folders, then its requests; a folder is placed once, where it is first listed
    // (a folder listed under itself, or under many, is not copied again and again)
    std::set<std::string> placed;
    // (and folders nested deeper than a JSON file may be are not followed)
    std::function<Json(const std::string&, std::size_t)> folder = [&](const std::string& id,
                                                                      std::size_t depth) -> Json {
        const Json& f = *folders.at(id);
        placed.insert(id);
        Json children = Json::array();
        for (const std::string& sub : ids(f, "folders_order"))
            if (folders.count(sub) && !placed.count(sub) && depth < kMaxYamlDepth)
                children.push_back(folder(sub, depth + 1));
        for (const std::string& r : ids(f, "order"))
            if (requests.count(r))
                children.push_back(item(*requests.at(r)));
        Json out = {{"name", str(f, "name")}, {"item", std::move(children)}};
        if (Json a = auth(f); !a.is_null())
            out["auth"] = std::move(a);
        if (Json ev = events(f); !ev.empty())
            out["event"] = std::move(ev);
        return out;
    };
    Json list = Json::array();
    const std::vector<std::string> top = member(v1, "folders_order").is_array() ? ids(v1, "folders_order") : folderIds;
    for (const std::string& id : top)
        if (folders.count(id) && !subfolders.count(id) && !placed.count(id))
            list.push_back(folder(id, 1));
    for (const std::string& r : ids(v1, "order"))
        if (requests.count(r))
            list.push_back(item(*requests.at(r)));
    Json out = {{"info",
                 {{"name", str(v1, "name", "Postman collection")},
                  {"schema", "https://schema.getpostman.com/json/collection/v1.0.0/collection.json"}}},
                {"item", std::move(list)}};
    if (Json a = auth(v1); !a.is_null() && str(a, "type") != "noauth")
        out["auth"] = std::move(a);
    if (Json ev = events(v1); !ev.empty())
        out["event"] = std::move(ev);
    if (const Json& vars = member(v1, "variables"); vars.is_array())
        out["variable"] = vars;
    return out;
}

} // namespace stampede
