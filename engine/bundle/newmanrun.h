#pragma once
// A collection's scenario shaped as newman runs it, for the command line's
// `run P@COLLECTION` and the workbench's collection runner alike: judged by
// its tests, every request sent whatever failed before it (or, bailing, the
// run stopped at the first failure), newman's default headers, a cookie jar,
// redirects followed, a delay between requests, and its users and iterations.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "stampede/v1/scenario.pb.h"

namespace stampede {

struct NewmanRun
{
    std::uint32_t users = 1;                   // virtual users (closed); an open model's connections
    std::optional<double> rate;                // set: an open model at this many iterations per second, for a time
    std::optional<std::uint64_t> iterations;   // per user; unset: one, or one per row of the iteration data
    bool timed = false;                        // a duration was given: as many iterations as fit in it (none set)
    bool bail = false;                         // the run stops at the first failure (newman's --bail)
    Nanos delayRequest = 0;                    // a pause between requests (newman's --delay-request)
    std::vector<std::string> noDefaultHeaders; // names of newman's default headers not sent
};

// `ns` as a scenario's duration field.
google::protobuf::Duration durationOf(Nanos ns);

// The headers newman sends on every request that has none of the name, in its order.
const std::vector<std::pair<std::string, std::string>>& newmanDefaultHeaders();

// Shapes `s` (a collection's scenario, collectionScenario) as `run` says, with
// `dataRows` rows of iteration data (0: none). False with `error` when a name in
// noDefaultHeaders is not one of newman's headers, or `run` is out of range.
bool shapeNewmanRun(v1::Scenario& s, const NewmanRun& run, std::size_t dataRows, std::string& error);

} // namespace stampede
