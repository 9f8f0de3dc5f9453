#include "har.h"

#include "logformat.h"

#include "check/jsonfields.h"

#include <simdjson.h>

#include <algorithm>

namespace stampede {

namespace {

using simdjson::ondemand::array;
using simdjson::ondemand::object;

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

bool readHeaders(array headers, TrafficRecord& r, std::string& why)
{
    for (auto h : headers) {
        object o;
        std::string name, value;
        bool hasName = false, hasValue = false;
        if (h.get_object().get(o) ||
            !eachField(o,
                       [&](std::string_view key, simdjson::ondemand::value v) {
                           std::string_view text;
                           if (key == "name" || key == "value") {
                               if (v.get_string().get(text))
                                   return false;
                               (key == "name" ? name : value).assign(text);
                               (key == "name" ? hasName : hasValue) = true;
                           }
                           return true;
                       }) ||
            !hasName || !hasValue) {
            why = "a request header is not {name, value}";
            return false;
        }
        std::transform(name.begin(), name.end(), name.begin(), [](char c) { return char(std::tolower(c)); });
        if (name.empty() || name.front() == ':' || isHopByHopHeader(name))
            continue; // HTTP/2 pseudo-headers and hop-by-hop headers are the connection's, not the request's
        r.headers.emplace_back(std::move(name), std::move(value));
    }
    return true;
}

bool readRequest(object request, TrafficRecord& r, std::string& why)
{
    bool method = false, url = false;
    const bool ok = eachField(request, [&](std::string_view key, simdjson::ondemand::value v) {
        std::string_view text;
        if (key == "method") {
            if (v.get_string().get(text) || text.empty())
                return false;
            r.method.assign(text);
            method = true;
        } else if (key == "url") {
            if (v.get_string().get(text) || (text.rfind("http://", 0) != 0 && text.rfind("https://", 0) != 0))
                return false;
            r.target.assign(text);
            r.host = authority(r.target);
            url = true;
        } else if (key == "headers") {
            array headers;
            return !v.get_array().get(headers) && readHeaders(headers, r, why);
        } else if (key == "postData") {
            object post;
            if (v.get_object().get(post))
                return false;
            return eachField(post, [&](std::string_view k, simdjson::ondemand::value pv) {
                std::string_view body;
                if (k == "text") {
                    if (pv.get_string().get(body))
                        return false;
                    r.body.assign(body);
                }
                return true;
            });
        }
        return true;
    });
    if (!ok || !method || !url) {
        if (why.empty())
            why = !method ? "no request.method"
                  : !url  ? "request.url is not an http(s) URL"
                          : "the request cannot be read";
        return false;
    }
    return true;
}

bool readEntry(object entry, TrafficRecord& r, std::string& why)
{
    bool started = false, request = false;
    const bool ok = eachField(entry, [&](std::string_view key, simdjson::ondemand::value v) {
        std::string_view text;
        if (key == "startedDateTime") {
            if (v.get_string().get(text))
                return false;
            const auto at = parseIso8601(text);
            if (!at) {
                why = "startedDateTime \"" + std::string(text.substr(0, 40)) + "\" is not ISO 8601";
                return false;
            }
            r.atNanos = *at;
            started = true;
        } else if (key == "time") {
            double ms = -1;
            if (!v.get_double().get(ms) && ms >= 0)
                r.durationS = ms / 1000;
        } else if (key == "request") {
            object o;
            if (v.get_object().get(o) || !readRequest(o, r, why))
                return false;
            request = true;
        } else if (key == "response") {
            object o;
            if (v.get_object().get(o))
                return false;
            return eachField(o, [&](std::string_view k, simdjson::ondemand::value rv) {
                std::int64_t status = 0;
                if (k == "status" && !rv.get_int64().get(status) && status >= 100 && status <= 999)
                    r.status = int(status);
                return true;
            });
        }
        return true;
    });
    if (!ok || !started || !request) {
        if (why.empty())
            why = !started ? "no startedDateTime" : !request ? "no request" : "the entry cannot be read";
        return false;
    }
    return true;
}

} // namespace

bool readHar(std::string_view json, HarRead& out, std::string& error)
{
    simdjson::ondemand::parser parser;
    const simdjson::padded_string padded(json);
    simdjson::ondemand::document doc;
    object root;
    if (parser.iterate(padded).get(doc) || doc.get_object().get(root)) {
        error = "not a HAR file: not a JSON object";
        return false;
    }
    bool log = false, entries = false;
    const bool read = eachField(root, [&](std::string_view key, simdjson::ondemand::value v) {
        if (key != "log")
            return true;
        log = true;
        object o;
        if (v.get_object().get(o))
            return false;
        return eachField(o, [&](std::string_view k, simdjson::ondemand::value lv) {
            if (k != "entries")
                return true;
            array list;
            if (lv.get_array().get(list))
                return false;
            entries = true;
            for (auto item : list) {
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
                    out.problems.push_back(
                        {out.entries, "entries[" + std::to_string(out.entries - 1) + "]: " + why, {}});
                if (item.error())
                    return false; // the array itself is broken: what follows cannot be read
            }
            return true;
        });
    });
    if (!log || !entries) {
        error = !log ? "not a HAR file: no \"log\" object" : "not a HAR file: no \"log.entries\" array";
        return false;
    }
    if (!read && out.entries == 0) {
        error = "not a HAR file: it cannot be read as JSON";
        return false;
    }
    std::stable_sort(out.records.begin(), out.records.end(),
                     [](const TrafficRecord& a, const TrafficRecord& b) { return a.atNanos < b.atNanos; });
    return true;
}

} // namespace stampede
