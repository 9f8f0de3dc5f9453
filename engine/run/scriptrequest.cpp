#include "scriptrequest.h"

#include "check/checks.h"
#include "check/contentcoding.h"
#include "core/text.h"
#include "core/wiretext.h"
#include "net/httpexchange.h"

#include <simdjson.h>

#include <algorithm>

namespace stampede {

namespace {

bool fail(std::string& json, const std::string& why)
{
    json = "{\"error\":" + jsonString(why) + "}";
    return false;
}

} // namespace

bool sendScriptRequest(std::string_view spec, std::string& json, Nanos timeout)
{
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (spec.empty() || parser.parse(spec.data(), spec.size()).get(root))
        return fail(json, "pm.sendRequest: the request cannot be read");
    HttpExchangeRequest x;
    std::string_view method, url, body;
    simdjson::dom::array headers;
    if (root["method"].get(method) || root["url"].get(url) || root["body"].get(body) || root["headers"].get(headers))
        return fail(json, "pm.sendRequest: the request cannot be read");
    if (url.empty())
        return fail(json, "pm.sendRequest: the request has no URL");
    x.method = method.empty() ? std::string("GET") : std::string(method);
    if (x.method.find_first_of(" \t\r\n") != std::string::npos)
        return fail(json, "pm.sendRequest: \"" + x.method + "\" is not a method");
    // a URL without a scheme is http://, as Postman takes it; a fragment is not sent
    x.url = std::string(url.substr(0, url.find('#')));
    if (x.url.find("://") == std::string::npos)
        x.url = "http://" + x.url;
    for (simdjson::dom::element pair : headers) {
        simdjson::dom::array kv;
        std::string_view k, v;
        if (pair.get(kv) || kv.size() != 2 || kv.at(0).get(k) || kv.at(1).get(v))
            return fail(json, "pm.sendRequest: the request cannot be read");
        if (k.empty() || forbiddenByte(k) != std::string_view::npos || forbiddenByte(v) != std::string_view::npos ||
            k.find(':') != std::string_view::npos)
            return fail(json, "pm.sendRequest: the header \"" + std::string(k) + "\" cannot be sent");
        x.headers.emplace_back(std::string(k), std::string(v));
    }
    x.body = std::string(body);
    x.timeout = timeout;
    const HttpExchangeResult r = exchange(x);
    if (!r.ok)
        return fail(json, "pm.sendRequest to " + x.url + ": " + r.error);
    AnswerView a;
    a.status = r.status;
    a.headers = &r.headers;
    a.body = r.body;
    std::string decoded;
    const std::string_view text = decodedBody(a, decoded);
    json = "{\"code\":" + std::to_string(r.status) + ",\"status\":" + jsonString(r.reason) + ",\"headers\":[";
    for (std::size_t i = 0; i < r.headers.size(); ++i)
        json += (i ? ",[" : "[") + jsonString(r.headers[i].first) + "," + jsonString(r.headers[i].second) + "]";
    json += "],\"body\":" + jsonString(text) + ",\"time\":" + std::to_string(r.totalTime / kNanosPerMilli) +
            ",\"size\":" + std::to_string(r.bodyBytes) + "}";
    return true;
}

std::function<void(std::size_t, std::string_view, std::string&)>
runRequestSender(const Clock& clock, Nanos end, std::function<void(std::size_t, bool)> count)
{
    return [&clock, end, count = std::move(count)](std::size_t step, std::string_view spec, std::string& json) {
        const Nanos left = end - clock.now();
        const bool answered = left > 0 ? sendScriptRequest(spec, json, std::min(left, kScriptRequestTimeout))
                                       : fail(json, "pm.sendRequest: the run's time is over");
        count(step, answered);
    };
}

} // namespace stampede
