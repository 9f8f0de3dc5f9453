#pragma once
// Did the stress tag reach every hop? A run with trace keeps a few trace ids
// of each step (run_traces); the tracing system's query API gives each trace's
// spans (Jaeger's GET /api/traces/{id}: {"data": [{"spans": [...],
// "processes": {...}}]}, or Tempo's OTLP JSON: {"batches"|"resourceSpans":
// [{"resource": {"attributes": [...]}, "scopeSpans"|"instrumentationLibrarySpans":
// [{"spans": [...]}]}]}). A span carries the tag when one of its tags,
// attributes, log fields or its process's tags has the run's id as its value,
// or a W3C baggage value with `stress_test=RUN` in it (how the stress tag
// travels: its header's value is the run id; a `baggage` header's member is
// stress_test=RUN). Services are told by their name, with what they are to a
// reader (db.system, messaging.system, peer.service) when a span says it.
//
// The answers are outside input: parsed here with simdjson (depth and size
// bounded), fuzzed (tests/fuzz/fuzz_tracejson.cpp).
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace stampede {

struct HopTally
{
    std::string what; // "db mysql", "messaging kafka", "" for a service
    std::size_t spans = 0;
    std::size_t tagged = 0;
    std::string untaggedExample; // an operation of a span without the tag
};

struct TagCheck
{
    std::size_t asked = 0, found = 0;         // traces asked for, and found
    std::map<std::string, HopTally> services; // by service name
    // Every span of every trace found carried the tag (and at least one span was seen).
    bool reachedEveryHop() const;
    // The services some span of which went without it, in name order.
    std::vector<std::string> untagged() const;
};

// Adds one trace's answer (Jaeger's or Tempo's JSON) to `check`; false with `error` when it is neither (an
// empty trace list counts as not found, not as an error).
bool addTraceAnswer(std::string_view json, const std::string& runId, TagCheck& check, std::string& error);

// The table a reader reads: per service its spans, with and without the tag.
std::string tagCheckTable(const TagCheck& check);

} // namespace stampede
