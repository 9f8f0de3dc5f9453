#pragma once
// What a reviewer reads of each step besides its totals, made from a saved
// run's exact figures (nothing re-run, nothing averaged): the latency
// distribution (counts between bounds of a 1-2-5 scale, from the step's
// whole-run histogram), APDEX at a target time T (satisfied at or below T,
// tolerating up to 4T, from the same histogram), the percentiles second by
// second (the stored per-second rows; with each second's throughput, the
// response time against throughput), and the step's errors by class, most
// first, each with a sample the run kept.
#include "runsummary.h"
#include "store/runlog.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace stampede {

struct StepSection
{
    std::string name;
    struct Bucket
    {
        double fromMs = 0, toMs = 0; // (from, to]
        std::uint64_t count = 0;
    };
    std::vector<Bucket> distribution;
    double apdexTMs = 0;
    double apdex = -1; // (satisfied + tolerating / 2) / all; -1: no answer was timed
    std::uint64_t satisfied = 0, tolerating = 0, frustrated = 0;
    struct Second
    {
        std::uint32_t second = 0;
        double p50 = 0, p90 = 0, p99 = 0, max = 0;
        std::uint64_t requests = 0; // completed in the second: its throughput, for response time against it
    };
    std::vector<Second> overTime; // seconds with answers
    struct TopError
    {
        std::string errorClass;
        std::uint64_t count = 0;
        std::string sample; // the first kept of that class, as printable text ("" when none was kept)
    };
    std::vector<TopError> topErrors; // most first
};

// Each step's sections; `apdexTMs` the target time (default 500 ms).
std::vector<StepSection> reportSections(const SavedRun& run, const RunSummary& summary, double apdexTMs = 500);
// As members of the report's JSON ("sections": [...]), and as HTML (charts and tables).
std::string sectionsJson(const std::vector<StepSection>& sections);
std::string sectionsHtml(const std::vector<StepSection>& sections);

} // namespace stampede
