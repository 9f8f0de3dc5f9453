#pragma once
// HAR 1.2 (a browser's recording, "Save all as HAR"): one TrafficRecord per
// entry of log.entries, from startedDateTime, request.method, request.url,
// request.headers (HTTP/2 pseudo-headers and hop-by-hop headers left out),
// request.postData.text, response.status and time.
#include "trafficrecord.h"

#include <string>
#include <string_view>
#include <vector>

namespace stampede {

struct HarRead
{
    std::vector<TrafficRecord> records;
    std::uint64_t entries = 0;            // entries seen
    std::vector<TrafficProblem> problems; // entries that could not be read (`line` is the entry's 1-based index)
    std::uint64_t bad = 0;
};

// False with `error` when the text is not a HAR file at all (not JSON, no
// log.entries); entries that cannot be read are problems, not a failure.
bool readHar(std::string_view json, HarRead& out, std::string& error);

} // namespace stampede
