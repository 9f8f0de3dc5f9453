#include "tagcheck.h"

#include "core/utf8.h"

#include <simdjson.h>

#include <cstdio>

namespace stampede {

namespace {

using simdjson::dom::element;

constexpr std::size_t kMaxAnswer = 64 * 1024 * 1024; // a trace's JSON read at most this long

// A value's text, whatever its JSON type (Jaeger's tag values are strings, numbers or booleans).
std::string textOf(element v)
{
    std::string_view s;
    if (v.get_string().get(s) == simdjson::SUCCESS)
        return std::string(s);
    return simdjson::minify(v);
}

bool carries(const std::string& value, const std::string& runId)
{
    return value == runId || value.find("stress_test=" + runId) != std::string::npos;
}

// The facts of one span: whether it carries the tag, and what it is to a reader.
struct SpanFacts
{
    bool tagged = false;
    std::string what;
    std::string service; // a Tempo span's resource's, or a tag's service.name
    void note(std::string_view key, const std::string& value, const std::string& runId)
    {
        tagged |= carries(value, runId);
        if (key == "db.system")
            what = "db " + value;
        else if (key == "messaging.system")
            what = "messaging " + value;
        else if (key == "peer.service" && what.empty())
            what = "calls " + value;
        else if (key == "service.name")
            service = value;
    }
};

// Jaeger's [{"key": K, "value": V}] (tags, a log's fields, a process's tags).
void jaegerPairs(simdjson::simdjson_result<element> list, SpanFacts& f, const std::string& runId)
{
    simdjson::dom::array a;
    if (list.get_array().get(a) != simdjson::SUCCESS)
        return;
    for (element kv : a) {
        std::string_view key;
        element value;
        if (kv["key"].get_string().get(key) == simdjson::SUCCESS && kv["value"].get(value) == simdjson::SUCCESS)
            f.note(key, textOf(value), runId);
    }
}

// OTLP's [{"key": K, "value": {"stringValue": V} | {"intValue": ...} | ...}].
void otlpPairs(simdjson::simdjson_result<element> list, SpanFacts& f, const std::string& runId)
{
    simdjson::dom::array a;
    if (list.get_array().get(a) != simdjson::SUCCESS)
        return;
    for (element kv : a) {
        std::string_view key;
        simdjson::dom::object value;
        if (kv["key"].get_string().get(key) != simdjson::SUCCESS ||
            kv["value"].get_object().get(value) != simdjson::SUCCESS)
            continue;
        for (const auto field : value)
            f.note(key, textOf(field.value), runId);
    }
}

void count(TagCheck& check, const std::string& service, const SpanFacts& f, std::string_view operation)
{
    std::string name = utf8Escaped(utf8Prefix(service.empty() ? std::string("(unnamed)") : service, 100));
    if (!f.what.empty())
        name += " (" + utf8Escaped(utf8Prefix(f.what, 60)) + ")";
    HopTally& t = check.services[name];
    t.what = f.what;
    ++t.spans;
    if (f.tagged)
        ++t.tagged;
    else if (t.untaggedExample.empty())
        t.untaggedExample = utf8Escaped(utf8Prefix(operation, 80));
}

bool jaeger(element root, const std::string& runId, TagCheck& check)
{
    simdjson::dom::array traces;
    if (root["data"].get_array().get(traces) != simdjson::SUCCESS)
        return false;
    for (element trace : traces) {
        ++check.found;
        simdjson::dom::object processes;
        const bool haveProcesses = trace["processes"].get_object().get(processes) == simdjson::SUCCESS;
        simdjson::dom::array spans;
        if (trace["spans"].get_array().get(spans) != simdjson::SUCCESS)
            continue;
        for (element span : spans) {
            SpanFacts f;
            jaegerPairs(span["tags"], f, runId);
            simdjson::dom::array logs;
            if (span["logs"].get_array().get(logs) == simdjson::SUCCESS)
                for (element log : logs)
                    jaegerPairs(log["fields"], f, runId);
            std::string service;
            std::string_view pid, name, operation;
            element process;
            if (haveProcesses && span["processID"].get_string().get(pid) == simdjson::SUCCESS &&
                processes.at_key(pid).get(process) == simdjson::SUCCESS) {
                if (process["serviceName"].get_string().get(name) == simdjson::SUCCESS)
                    service = std::string(name);
                SpanFacts p; // the process's tags: the tag there counts for its spans
                jaegerPairs(process["tags"], p, runId);
                f.tagged |= p.tagged;
            }
            if (span["operationName"].get_string().get(operation) != simdjson::SUCCESS)
                operation = {};
            count(check, service, f, operation);
        }
    }
    return true;
}

bool otlp(element root, const std::string& runId, TagCheck& check)
{
    element trace = root;
    element inner;
    if (root["trace"].get(inner) == simdjson::SUCCESS)
        trace = inner;
    simdjson::dom::array batches;
    if (trace["batches"].get_array().get(batches) != simdjson::SUCCESS &&
        trace["resourceSpans"].get_array().get(batches) != simdjson::SUCCESS)
        return false;
    if (batches.size())
        ++check.found;
    for (element batch : batches) {
        SpanFacts resource;
        otlpPairs(batch["resource"]["attributes"], resource, runId);
        simdjson::dom::array scopes;
        if (batch["scopeSpans"].get_array().get(scopes) != simdjson::SUCCESS &&
            batch["instrumentationLibrarySpans"].get_array().get(scopes) != simdjson::SUCCESS)
            continue;
        for (element scope : scopes) {
            simdjson::dom::array spans;
            if (scope["spans"].get_array().get(spans) != simdjson::SUCCESS)
                continue;
            for (element span : spans) {
                SpanFacts f;
                otlpPairs(span["attributes"], f, runId);
                f.tagged |= resource.tagged;
                std::string_view operation;
                if (span["name"].get_string().get(operation) != simdjson::SUCCESS)
                    operation = {};
                count(check, resource.service, f, operation);
            }
        }
    }
    return true;
}

} // namespace

bool TagCheck::reachedEveryHop() const
{
    if (services.empty())
        return false;
    for (const auto& [name, t] : services)
        if (t.tagged != t.spans)
            return false;
    return true;
}

std::vector<std::string> TagCheck::untagged() const
{
    std::vector<std::string> out;
    for (const auto& [name, t] : services)
        if (t.tagged != t.spans)
            out.push_back(name);
    return out;
}

bool addTraceAnswer(std::string_view json, const std::string& runId, TagCheck& check, std::string& error)
{
    ++check.asked;
    if (json.size() > kMaxAnswer) {
        error = "the answer is larger than 64 MiB";
        return false;
    }
    simdjson::dom::parser parser;
    element root;
    if (const auto e = parser.parse(json.data(), json.size()).get(root); e != simdjson::SUCCESS) {
        error = std::string("the answer is not JSON (") + simdjson::error_message(e) + ")";
        return false;
    }
    if (jaeger(root, runId, check) || otlp(root, runId, check))
        return true;
    element errors;
    if (root["errors"].get(errors) == simdjson::SUCCESS || root["data"].is_null())
        return true; // Jaeger's "trace not found": counted as not found
    error = "the answer is neither Jaeger's {\"data\": [...]} nor Tempo's {\"batches\": [...]}";
    return false;
}

std::string tagCheckTable(const TagCheck& check)
{
    std::string out = "service                                    spans   tagged  without  (an operation without)\n";
    for (const auto& [name, t] : check.services) {
        char line[200];
        std::snprintf(line, sizeof line, "%-40s %7zu  %7zu  %7zu", std::string(utf8Prefix(name, 40)).c_str(), t.spans,
                      t.tagged, t.spans - t.tagged);
        out += line;
        if (!t.untaggedExample.empty())
            out += "  (" + t.untaggedExample + ")";
        out += "\n";
    }
    return out;
}

} // namespace stampede
