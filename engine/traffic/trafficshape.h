#pragma once
// The shape of a traffic set, for its view and for planning a replay: requests
// per second from the first one, the busiest paths, methods and clients.
#include "trafficrecord.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace stampede {

struct TrafficShape
{
    std::vector<std::uint64_t> perSecond;                        // [k]: requests in second k after the first request
    std::vector<std::pair<std::string, std::uint64_t>> topPaths; // path without its query, busiest first
    std::vector<std::pair<std::string, std::uint64_t>> methods;  // busiest first
    std::uint64_t clients = 0;                                   // distinct clients (0 when the recording has none)
    std::uint64_t peak = 0;                                      // the busiest second's requests
};

// `records` in time order; at most `paths` paths are listed.
TrafficShape shapeOf(const std::vector<TrafficRecord>& records, std::size_t paths = 10);

} // namespace stampede
