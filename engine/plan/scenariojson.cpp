// Scenario files: proto3 JSON, with durations also in the command line's units.
#include "core/durationtext.h"
#include "core/jsondepth.h"
#include "scenarioplan.h"

#include "stampede/v1/scenario.pb.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include <cstdio>
#include <cstdlib>

namespace stampede {

namespace {

// Durations in a scenario file may be written as the command line takes them
// ("200ms", "1.5m"), not only as proto3 JSON's seconds ("0.2s"): each string
// that stands for a google.protobuf.Duration is rewritten to seconds before
// the file is read. Other strings are left alone, whatever they look like.
// And the shorthand a person writes: one value for a list ("status": 201 for
// [201]) and a time for a fixed think time ("thinkTime": "300ms" for
// {"fixed": "300ms"}).
bool secondsForDurations(google::protobuf::Value& value, const google::protobuf::Descriptor* type)
{
    bool changed = false;
    if (!value.has_struct_value())
        return false;
    for (auto& [key, field] : *value.mutable_struct_value()->mutable_fields()) {
        const google::protobuf::FieldDescriptor* f = type->FindFieldByName(key);
        if (!f)
            f = type->FindFieldByCamelcaseName(key); // the JSON name
        if (!f || f->cpp_type() != google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE || f->is_map())
            continue;
        const google::protobuf::Descriptor* sub = f->message_type();
        auto visit = [&](google::protobuf::Value& v) {
            // what a person writes for a list of one ("status": 201) and for a fixed think time ("300ms")
            if (sub->full_name() == "google.protobuf.ListValue" && (v.has_number_value() || v.has_string_value())) {
                google::protobuf::Value one = v;
                *v.mutable_list_value()->add_values() = std::move(one);
                changed = true;
                return;
            }
            if (sub->full_name() == "stampede.v1.ThinkTime" && v.has_string_value()) {
                google::protobuf::Value fixed = v;
                (*v.mutable_struct_value()->mutable_fields())["fixed"] = std::move(fixed);
                changed = true;
            }
            if (sub->full_name() != "google.protobuf.Duration") {
                changed |= secondsForDurations(v, sub);
                return;
            }
            if (!v.has_string_value())
                return;
            const auto ns = parseDuration(v.string_value());
            if (ns && (v.string_value().empty() || v.string_value().back() != 's' ||
                       v.string_value().find_first_not_of("0123456789.s") != std::string::npos)) {
                changed = true;
                char text[48];
                std::snprintf(text, sizeof text, "%lld.%09llds", static_cast<long long>(*ns / kNanosPerSecond),
                              static_cast<long long>(std::llabs(*ns % kNanosPerSecond)));
                v.set_string_value(text);
            }
        };
        if (f->is_repeated() && field.has_list_value()) {
            for (auto& item : *field.mutable_list_value()->mutable_values())
                visit(item);
        } else {
            visit(field);
        }
    }
    return changed;
}

// JSON nested past kMaxJsonDepth (arrays and objects alike), found in one
// pass before a parser sees it: protobuf's took over a minute for arrays
// 100,000 deep. Returns the byte offset where the limit was passed, or npos.
std::size_t tooDeep(const std::string& json)
{
    return jsonTooDeep(json, kMaxJsonDepth);
}

} // namespace

bool parseScenarioJson(const std::string& json, v1::Scenario& out, std::string& error)
{
    if (const std::size_t at = tooDeep(json); at != std::string::npos) {
        error =
            "nested more than " + std::to_string(kMaxJsonDepth) + " levels deep (at byte " + std::to_string(at) + ")";
        return false;
    }
    google::protobuf::util::JsonParseOptions opts;
    opts.ignore_unknown_fields = false;
    google::protobuf::Value tree;
    std::string normalized = json;
    // only a file that needs it takes the round trip (numbers pass through doubles there)
    if (google::protobuf::util::JsonStringToMessage(json, &tree, opts).ok() &&
        secondsForDurations(tree, v1::Scenario::descriptor())) {
        normalized.clear();
        (void)google::protobuf::util::MessageToJsonString(tree, &normalized);
    }
    const auto status = google::protobuf::util::JsonStringToMessage(normalized, &out, opts);
    if (!status.ok()) {
        error = std::string(status.message());
        return false;
    }
    return true;
}

} // namespace stampede
