#pragma once
// What a reviewer reads of each step besides its totals, made from a saved
// run's exact figures (nothing re-run, nothing averaged): the latency
// distribution (counts between bounds of a 1-2-5 scale, from the step's
// whole-run histogram), APDEX at a target time T (satisfied at or below T,
// tolerating up to 4T, from the same histogram; a request that failed without an answer frustrated), the percentiles
// second by second (the stored per-second rows; with each second's throughput, the response time against throughput),
// and the step's errors by class, most first, each with a sample the run kept.
#include "reportwords.h"
#include "runsummary.h"
#include "store/runlog.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace stampede {

struct StepSection
{
    // A step; a group (transaction: its time per iteration, from its first step's start to its last step's end);
    // or a plan's scenario (its steps together).
    enum class Kind
    {
        Run, // all steps together (named "total")
        Step,
        Group,
        Scenario
    };
    Kind kind = Kind::Step;
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

// One section: of `kind`, the `index`th of the run's steps, groups or plan scenarios (a Run's index is unused).
StepSection reportSection(const SavedRun& run, const RunSummary& summary, const ReportOptions& options,
                          StepSection::Kind kind, std::size_t index);
// All steps together (their histograms merged, the run's seconds), APDEX at the global T.
StepSection runSection(const SavedRun& run, const RunSummary& summary, const ReportOptions& options = {});
// All steps together when there are several (runSection), each step's section, then each group's and each plan
// scenario's; APDEX at each one's T (options.apdexTFor).
std::vector<StepSection> reportSections(const SavedRun& run, const RunSummary& summary,
                                        const ReportOptions& options = {});
// As members of the report's JSON ("sections": [...]), and as HTML (charts and tables) in `words`' language.
std::string sectionsJson(const std::vector<StepSection>& sections);
std::string sectionsHtml(const std::vector<StepSection>& sections, const ReportWords& words = {});
// "step", "group" or "scenario".
const char* sectionKindName(StepSection::Kind kind);

} // namespace stampede
