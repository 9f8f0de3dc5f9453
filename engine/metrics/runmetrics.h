#pragma once
// What a run counts: per step and per second, latency measured from the
// intended start (corrected for coordinated omission) and from the actual send
// (service time), completions, errors by class, late and dropped arrivals, bytes.
#include "latencyhistogram.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace stampede {

enum class ErrorClass : std::uint8_t
{
    Connect,
    Reset,
    Timeout,
    Http4xx,
    Http5xx,
    Protocol,
    Count
};
constexpr std::size_t kErrorClassCount = std::size_t(ErrorClass::Count);
// Stable names, as in the summary JSON: connect, reset, timeout, http_4xx, http_5xx, protocol.
std::string_view errorClassName(ErrorClass c);

struct StepCounters
{
    std::uint64_t sent = 0;     // requests written to a connection
    std::uint64_t requests = 0; // requests that completed (answered, or failed)
    std::uint64_t errors = 0;   // of which failed, by class below
    std::array<std::uint64_t, kErrorClassCount> errorsByClass{};
    std::uint64_t late = 0;    // arrivals that waited for a free connection
    std::uint64_t dropped = 0; // arrivals refused because the backlog was full
    std::uint64_t bytesIn = 0;
    std::uint64_t bytesOut = 0;

    void merge(const StepCounters& o);
    void addError(ErrorClass c)
    {
        ++errors;
        ++errorsByClass[std::size_t(c)];
    }
};

struct StepMetrics
{
    StepCounters counters;
    LatencyHistogram latency;     // from the intended start
    LatencyHistogram serviceTime; // from the actual send
    void merge(const StepMetrics& o)
    {
        counters.merge(o.counters);
        latency.merge(o.latency);
        serviceTime.merge(o.serviceTime);
    }
};

// One second of a run (or a whole run): one StepMetrics per step.
struct IntervalMetrics
{
    std::uint32_t second = 0; // 1-based: second k covers [k-1, k) seconds after the start
    std::vector<StepMetrics> steps;
    void merge(const IntervalMetrics& o);
    StepMetrics total() const;
};
using IntervalMetricsPtr = std::unique_ptr<IntervalMetrics>;

} // namespace stampede
