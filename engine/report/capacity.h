#pragma once
// What a capacity search found (control/capacitysearch.h): the highest
// open-model rate that met every SLO, the first level that broke one, and
// each level's figures. Written into the summary JSON as "capacity" (docs/scenarios.md,
// "Capacity search") and read back from a saved run's summary.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stampede {

struct CapacityLevel
{
    double rate = 0;         // offered: the open model's rate (iterations per second)
    double achieved = 0;     // completed requests per second over the seconds judged
    double p99Ms = 0;        // the total's p99 over the seconds judged (exact, merged)
    double errorRatePct = 0; // the total's error rate over them
    bool passed = false;     // every SLO held
    std::string brokenBy;    // the first SLO that did not hold ("p99 < 50ms")
    std::uint32_t fromS = 0; // the seconds judged: fromS..toS (1-based, inclusive)
    std::uint32_t toS = 0;
};

struct CapacityResult
{
    std::vector<std::string> slos;
    double rate = 0;                   // the highest rate that met every SLO; 0: not even the start rate
    std::string brokenBy;              // which SLO the first failing level broke; empty: none failed
    double brokenAt = 0;               // the lowest rate that broke an SLO; 0: none did
    bool finished = false;             // the search concluded (not stopped by a user, the breaker or an engine)
    std::string note;                  // how it ended, in words
    std::vector<CapacityLevel> levels; // in the order they ran
};

// The "capacity" object of the summary JSON.
std::string capacityToJson(const CapacityResult& c);
// Reads the "capacity" object of a summary JSON; false when it has none (or
// it cannot be read).
bool capacityFromJson(std::string_view summaryJson, CapacityResult& c);
// A rate as the search says it: "1467.21/s".
std::string rateText(double rate);
// For the terminal: the answer, then one line per level.
std::string capacityToTable(const CapacityResult& c);

} // namespace stampede
