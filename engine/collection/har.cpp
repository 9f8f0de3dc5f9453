// HAR 1.2 (one request per entry) and files of curl commands.
#include "importparts.h"

#include "core/curlcommand.h"
#include "core/text.h"

namespace stampede {

CollectionImport importHar(const Json& root)
{
    CollectionImport out;
    const Json& log = member(root, "log");
    out.format = "HAR " + str(log, "version", "1.2");
    out.name = str(member(log, "creator"), "name", "HAR") + " capture";
    const Json& entries = items(log, "entries");
    for (std::size_t n = 0; n < entries.size() && out.requestCount() < kMaxImportedRequests; ++n) {
        const Json& rq = member(entries[n], "request");
        const std::string url = str(rq, "url");
        if (!isAbsoluteUrl(url) || str(rq, "method").empty()) {
            out.notImported.push_back(note("har-entry", {std::to_string(n + 1)}));
            continue;
        }
        NewRequest r;
        r.method = asciiUpper(str(rq, "method"));
        r.url = url;
        const std::string name = r.method + " " + urlPath(url);
        for (const Json& h : items(rq, "headers")) {
            const std::string hn = str(h, "name");
            const std::string lower = asciiLower(hn);
            // the connection's own: set by Send and by the engines
            if (hn.empty() || hn[0] == ':' || lower == "host" || lower == "content-length" || lower == "connection" ||
                lower == "accept-encoding")
                continue;
            r.headers.emplace_back(hn, str(h, "value"));
        }
        const Json& post = member(rq, "postData");
        const std::string mime = str(post, "mimeType");
        if (!member(post, "text").is_null()) {
            r.body = str(post, "text");
            r.bodyMode = mime.find("json") != std::string::npos ? "json" : "raw";
        } else if (!items(post, "params").empty()) {
            r.bodyMode = mime.find("multipart") != std::string::npos ? "multipart" : "urlencoded";
            for (const Json& p : items(post, "params")) {
                if (!member(p, "fileName").is_null())
                    out.notImported.push_back(note("file-field", {name, str(p, "name")}));
                else
                    r.form.emplace_back(str(p, "name"), str(p, "value"));
            }
        }
        out.items.push_back(requestItem(name, r));
    }
    if (entries.size() > std::size_t(kMaxImportedRequests))
        out.notImported.push_back(note("entries-past", {std::to_string(kMaxImportedRequests)}));
    if (out.items.empty() && !out.error)
        out.error = note("har-empty");
    return out;
}

CollectionImport importCurl(const std::string& text, const FileLocator& locate)
{
    CollectionImport out;
    out.format = "curl";
    out.name = "curl commands";
    // one command per paragraph, or per line that starts with curl
    std::vector<std::string> commands;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const std::size_t end = text.find('\n', pos);
        const std::string line = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        const std::string t(trimSpaces(line));
        if (t == "curl" || t.rfind("curl ", 0) == 0 || commands.empty())
            commands.emplace_back();
        if (!t.empty() && t[0] != '#')
            commands.back() += line + "\n";
        if (end == std::string::npos)
            break;
        pos = end + 1;
    }
    for (std::size_t n = 0; n < commands.size(); ++n) {
        if (trimSpaces(commands[n]).empty())
            continue;
        std::string error;
        const auto c = parseCurl(commands[n], error);
        if (!c) {
            out.notImported.push_back(note("curl-command", {std::to_string(n + 1), error}));
            continue;
        }
        NewRequest r;
        r.method = c->method;
        r.url = c->url;
        r.headers = c->headers;
        r.body = c->body;
        for (const auto& [k, v] : c->headers)
            if (equalsNoCase(k, "content-type") && v.find("json") != std::string::npos)
                r.bodyMode = "json";
        if (!c->form.empty())
            r.bodyMode = "multipart";
        // -F name=@file: found as a collection's file fields are (a path kept); one that is not is named and left out
        for (std::size_t i = 0, file = 0; i < c->form.size(); ++i) {
            if (file == c->formFiles.size() || c->formFiles[file].first != i) {
                r.form.push_back(c->form[i]);
                continue;
            }
            const std::string& src = c->formFiles[file++].second;
            std::string why;
            std::string path = locatedFile(locate, src, why);
            if (path.empty()) {
                out.notImported.push_back(
                    note("file-missing", {"command " + std::to_string(n + 1), c->form[i].first, src, why}));
                continue;
            }
            r.form.push_back(c->form[i]);
            r.formFiles.emplace_back(r.form.size() - 1, std::vector<std::string>{std::move(path)});
        }
        if (c->basic && c->digest) { // --digest -u: the server's challenge answered
            r.auth = "digest";
            r.authFields = {{"username", c->user}, {"password", c->password}};
        } else if (c->basic) {
            r.auth = "basic";
            r.user = c->user;
            r.password = c->password;
        }
        r.insecure = c->insecure;
        r.timeoutMs = c->maxTimeSeconds * 1000;
        r.http = c->http == 1 ? "1.1" : c->http == 2 ? "2" : "";
        std::string notTaken;
        for (const auto& t : c->notTaken)
            notTaken += (notTaken.empty() ? "" : ", ") + t;
        if (!notTaken.empty())
            out.notImported.push_back(note("curl-not-taken", {std::to_string(n + 1), notTaken}));
        out.items.push_back(requestItem(r.method + " " + urlPath(r.url), r));
    }
    if (out.items.empty()) {
        std::string all;
        for (const auto& n : out.notImported)
            all += (all.empty() ? "" : "; ") + n.text();
        out.error = out.notImported.empty() ? note("curl-none") : note("curl-failed", {all});
    }
    return out;
}

} // namespace stampede
