#include "har.h"

#include "logformat.h"

#include <simdjson.h>

#include <algorithm>

namespace stampede {

namespace {

using simdjson::ondemand::array;
using simdjson::ondemand::object;

bool hopByHop(const std::string& lower)
{
    return lower == "content-length" || lower == "connection" || lower == "keep-alive" ||
           lower == "transfer-encoding" || lower == "upgrade" || lower == "te" || lower == "proxy-connection";
}

// The authority of an absolute URL: "http://a.example:8080/x" -> "a.example:8080".
std::string authority(const std::string& url)
{
    const std::size_t scheme = url.find("://");
    if (scheme == std::string::npos)
        return {};
    const std::size_t start = scheme + 3;
    const std::size_t end = url.find_first_of("/?#", start);
    return url.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

bool readEntry(object entry, TrafficRecord& r, std::string& why)
{
    std::string_view text;
    if (entry.find_field_unordered("startedDateTime").get_string().get(text)) {
        why = "no startedDateTime";
        return false;
    }
    const auto at = parseIso8601(text);
    if (!at) {
        why = "startedDateTime \"" + std::string(text.substr(0, 40)) + "\" is not ISO 8601";
        return false;
    }
    r.atNanos = *at;
    double ms = -1;
    if (!entry.find_field_unordered("time").get_double().get(ms) && ms >= 0)
        r.durationS = ms / 1000;
    object request;
    if (entry.find_field_unordered("request").get_object().get(request)) {
        why = "no request";
        return false;
    }
    if (request.find_field_unordered("method").get_string().get(text) || text.empty()) {
        why = "no request.method";
        return false;
    }
    r.method.assign(text);
    if (request.find_field_unordered("url").get_string().get(text) ||
        (text.rfind("http://", 0) != 0 && text.rfind("https://", 0) != 0)) {
        why = "request.url is not an http(s) URL";
        return false;
    }
    r.target.assign(text);
    r.host = authority(r.target);
    array headers;
    if (!request.find_field_unordered("headers").get_array().get(headers)) {
        for (auto h : headers) {
            object o;
            std::string_view name, value;
            if (h.get_object().get(o) || o.find_field_unordered("name").get_string().get(name) ||
                o.find_field_unordered("value").get_string().get(value)) {
                why = "a request header is not {name, value}";
                return false;
            }
            std::string lower(name);
            std::transform(lower.begin(), lower.end(), lower.begin(), [](char c) { return char(std::tolower(c)); });
            if (lower.empty() || lower.front() == ':' || hopByHop(lower))
                continue; // HTTP/2 pseudo-headers and hop-by-hop headers are the connection's, not the request's
            r.headers.emplace_back(std::move(lower), std::string(value));
        }
    }
    object post;
    if (!request.find_field_unordered("postData").get_object().get(post) &&
        !post.find_field_unordered("text").get_string().get(text))
        r.body.assign(text);
    object response;
    std::int64_t status = 0;
    if (!entry.find_field_unordered("response").get_object().get(response) &&
        !response.find_field_unordered("status").get_int64().get(status) && status >= 100 && status <= 999)
        r.status = int(status);
    return true;
}

} // namespace

bool readHar(std::string_view json, HarRead& out, std::string& error)
{
    simdjson::ondemand::parser parser;
    const simdjson::padded_string padded(json);
    simdjson::ondemand::document doc;
    object log;
    array entries;
    if (parser.iterate(padded).get(doc) || doc.find_field_unordered("log").get_object().get(log)) {
        error = "not a HAR file: no \"log\" object";
        return false;
    }
    if (log.find_field_unordered("entries").get_array().get(entries)) {
        error = "not a HAR file: no \"log.entries\" array";
        return false;
    }
    for (auto item : entries) {
        ++out.entries;
        object entry;
        TrafficRecord r;
        std::string why;
        if (item.get_object().get(entry))
            why = "the entry is not an object";
        else if (readEntry(entry, r, why)) {
            out.records.push_back(std::move(r));
            continue;
        }
        ++out.bad;
        if (out.problems.size() < 20)
            out.problems.push_back({out.entries, "entries[" + std::to_string(out.entries - 1) + "]: " + why, {}});
        if (why == "the entry is not an object" || item.error())
            break; // the array itself is broken: what follows cannot be read
    }
    std::stable_sort(out.records.begin(), out.records.end(),
                     [](const TrafficRecord& a, const TrafficRecord& b) { return a.atNanos < b.atNanos; });
    return true;
}

} // namespace stampede
