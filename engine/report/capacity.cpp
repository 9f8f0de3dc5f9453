#include "capacity.h"

#include "runsummary.h"

#include <simdjson.h>

#include <cstdio>

namespace stampede {

namespace {

std::string num(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

std::string rateText(double r)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g/s", r);
    return buf;
}

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
    for (auto field : o) {
        std::string_view key;
        if (field.unescaped_key().get(key))
            return false;
        value v;
        if (field.value().get(v))
            return false;
        simdjson::error_code e = simdjson::SUCCESS;
        if (key == "rate")
            e = v.get_double().get(l.rate);
        else if (key == "achieved_rate")
            e = v.get_double().get(l.achieved);
        else if (key == "p99_ms")
            e = v.get_double().get(l.p99Ms);
        else if (key == "error_rate_pct")
            e = v.get_double().get(l.errorRatePct);
        else if (key == "passed")
            e = v.get_bool().get(l.passed);
        else if (key == "broken_by")
            e = readString(v, l.brokenBy) ? simdjson::SUCCESS : simdjson::INCORRECT_TYPE;
        else if (key == "from_s" || key == "to_s") {
            std::uint64_t s = 0;
            e = v.get_uint64().get(s);
            (key == "from_s" ? l.fromS : l.toS) = std::uint32_t(s);
        }
        if (e)
            return false;
    }
    return true;
}

bool readCapacity(object o, CapacityResult& c)
{
    for (auto field : o) {
        std::string_view key;
        if (field.unescaped_key().get(key))
            return false;
        value v;
        if (field.value().get(v))
            return false;
        simdjson::error_code e = simdjson::SUCCESS;
        if (key == "rate")
            e = v.get_double().get(c.rate);
        else if (key == "broken_at")
            e = v.get_double().get(c.brokenAt);
        else if (key == "finished")
            e = v.get_bool().get(c.finished);
        else if (key == "broken_by" || key == "note") {
            bool isNull = false;
            if (!v.is_null().get(isNull) && isNull)
                continue;
            if (!readString(v, key == "note" ? c.note : c.brokenBy))
                return false;
        } else if (key == "slos") {
            simdjson::ondemand::array a;
            if (v.get_array().get(a))
                return false;
            for (auto item : a) {
                std::string s;
                if (item.error() || !readString(item.value_unsafe(), s))
                    return false;
                c.slos.push_back(s);
            }
        } else if (key == "levels") {
            simdjson::ondemand::array a;
            if (v.get_array().get(a))
                return false;
            for (auto item : a) {
                object lo;
                CapacityLevel l;
                if (item.get_object().get(lo) || !readLevel(lo, l))
                    return false;
                c.levels.push_back(l);
            }
        }
        if (e)
            return false;
    }
    return true;
}

} // namespace

std::string capacityToJson(const CapacityResult& c)
{
    std::string out = "{\"rate\": " + num(c.rate) +
                      ", \"broken_by\": " + (c.brokenBy.empty() ? std::string("null") : jsonString(c.brokenBy)) +
                      ", \"broken_at\": " + num(c.brokenAt) + ", \"finished\": " + (c.finished ? "true" : "false") +
                      ", \"note\": " + jsonString(c.note) + ", \"slos\": [";
    for (std::size_t i = 0; i < c.slos.size(); ++i)
        out += (i ? ", " : "") + jsonString(c.slos[i]);
    out += "],\n    \"levels\": [";
    for (std::size_t i = 0; i < c.levels.size(); ++i) {
        const CapacityLevel& l = c.levels[i];
        out += std::string(i ? ",\n      " : "\n      ") + "{\"rate\": " + num(l.rate) +
               ", \"achieved_rate\": " + num(l.achieved) + ", \"p99_ms\": " + num(l.p99Ms) +
               ", \"error_rate_pct\": " + num(l.errorRatePct) + ", \"passed\": " + (l.passed ? "true" : "false") +
               ", \"broken_by\": " + jsonString(l.brokenBy) + ", \"from_s\": " + std::to_string(l.fromS) +
               ", \"to_s\": " + std::to_string(l.toS) + "}";
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
    // field by field, in order: an unordered lookup assumes a document already validated
    for (auto field : root) {
        std::string_view key;
        value v;
        if (field.unescaped_key().get(key) || field.value().get(v))
            return false;
        object o;
        if (key != "capacity")
            continue;
        if (v.get_object().get(o))
            return false;
        c = {};
        return readCapacity(o, c);
    }
    return false;
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
