#include "capacity.h"

#include "runsummary.h"

#include "check/jsonfields.h"

#include <simdjson.h>

#include <cstdio>

namespace stampede {

namespace {

using simdjson::ondemand::object;
using simdjson::ondemand::value;

bool readString(value v, std::string& out)
{
    std::string_view s;
    if (v.get_string().get(s))
        return false;
    out.assign(s);
    return true;
}

bool readLevel(object o, CapacityLevel& l)
{
    return eachField(o, [&](std::string_view key, value v) {
        std::uint64_t s = 0;
        if (key == "rate")
            return !v.get_double().get(l.rate);
        if (key == "achieved_rate")
            return !v.get_double().get(l.achieved);
        if (key == "p99_ms")
            return !v.get_double().get(l.p99Ms);
        if (key == "error_rate_pct")
            return !v.get_double().get(l.errorRatePct);
        if (key == "passed")
            return !v.get_bool().get(l.passed);
        if (key == "broken_by")
            return readString(v, l.brokenBy);
        if (key == "from_s" || key == "to_s") {
            if (v.get_uint64().get(s))
                return false;
            (key == "from_s" ? l.fromS : l.toS) = std::uint32_t(s);
        }
        return true;
    });
}

bool readCapacity(object o, CapacityResult& c)
{
    return eachField(o, [&](std::string_view key, value v) {
        if (key == "rate")
            return !v.get_double().get(c.rate);
        if (key == "broken_at")
            return !v.get_double().get(c.brokenAt);
        if (key == "finished")
            return !v.get_bool().get(c.finished);
        if (key == "broken_by" || key == "note") {
            bool isNull = false;
            return (!v.is_null().get(isNull) && isNull) || readString(v, key == "note" ? c.note : c.brokenBy);
        }
        simdjson::ondemand::array a;
        if ((key == "slos" || key == "levels") && v.get_array().get(a))
            return false;
        if (key == "slos")
            for (auto item : a) {
                std::string s;
                if (item.error() || !readString(item.value_unsafe(), s))
                    return false;
                c.slos.push_back(s);
            }
        if (key == "levels")
            for (auto item : a) {
                object lo;
                CapacityLevel l;
                if (item.get_object().get(lo) || !readLevel(lo, l))
                    return false;
                c.levels.push_back(l);
            }
        return true;
    });
}

} // namespace

std::string rateText(double rate)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g/s", rate);
    return buf;
}

std::string capacityToJson(const CapacityResult& c)
{
    std::string out = "{\"rate\": " + jsonNumber(c.rate) +
                      ", \"broken_by\": " + (c.brokenBy.empty() ? std::string("null") : jsonString(c.brokenBy)) +
                      ", \"broken_at\": " + jsonNumber(c.brokenAt) +
                      ", \"finished\": " + (c.finished ? "true" : "false") + ", \"note\": " + jsonString(c.note) +
                      ", \"slos\": [";
    for (std::size_t i = 0; i < c.slos.size(); ++i)
        out += (i ? ", " : "") + jsonString(c.slos[i]);
    out += "],\n    \"levels\": [";
    for (std::size_t i = 0; i < c.levels.size(); ++i) {
        const CapacityLevel& l = c.levels[i];
        out += std::string(i ? ",\n      " : "\n      ") + "{\"rate\": " + jsonNumber(l.rate) +
               ", \"achieved_rate\": " + jsonNumber(l.achieved) + ", \"p99_ms\": " + jsonNumber(l.p99Ms) +
               ", \"error_rate_pct\": " + jsonNumber(l.errorRatePct) +
               ", \"passed\": " + (l.passed ? "true" : "false") + ", \"broken_by\": " + jsonString(l.brokenBy) +
               ", \"from_s\": " + std::to_string(l.fromS) + ", \"to_s\": " + std::to_string(l.toS) + "}";
    }
    return out + "]}";
}

bool capacityFromJson(std::string_view summaryJson, CapacityResult& c)
{
    simdjson::ondemand::parser parser;
    const simdjson::padded_string padded(summaryJson);
    simdjson::ondemand::document doc;
    if (parser.iterate(padded).get(doc))
        return false;
    object root;
    if (doc.get_object().get(root))
        return false;
    bool found = false;
    const bool ok = eachField(root, [&](std::string_view key, value v) {
        object o;
        if (key != "capacity")
            return true;
        found = true;
        c = {};
        return !v.get_object().get(o) && readCapacity(o, c);
    });
    return found && ok;
}

std::string capacityToTable(const CapacityResult& c)
{
    std::string out = "Capacity: ";
    if (c.rate > 0)
        out += rateText(c.rate) + " met every SLO";
    else
        out += "not even the start rate met every SLO";
    if (!c.brokenBy.empty())
        out += "; " + rateText(c.brokenAt) + " broke " + c.brokenBy;
    out += "\n";
    if (!c.note.empty())
        out += "  " + c.note + "\n";
    char line[256];
    std::snprintf(line, sizeof line, "  %5s %12s %12s %10s %9s  %s\n", "level", "offered/s", "achieved/s", "p99 ms",
                  "errors %", "verdict");
    out += line;
    for (std::size_t i = 0; i < c.levels.size(); ++i) {
        const CapacityLevel& l = c.levels[i];
        std::snprintf(line, sizeof line, "  %5zu %12.1f %12.1f %10.2f %9.2f  %s\n", i + 1, l.rate, l.achieved, l.p99Ms,
                      l.errorRatePct, l.passed ? "met every SLO" : ("broke " + l.brokenBy).c_str());
        out += line;
    }
    return out;
}

} // namespace stampede
