#pragma once
// Thresholds and breaker rules judged against a scenario's own history: "p99 < baseline + 3 sigma" is the mean of
// the figure over the scenario's last N completed runs in its project (N from "baseline(N)", else 10; at least
// kMinBaselineRuns of them must have it) plus three of their standard deviations, as the JMeter-to-platform
// account sets its breakers at 3 sigma from the historical baseline. Resolved once, before the run: each
// threshold's expression then says the value it judged by and what it was made of
// ("p99 < baseline + 3 sigma (= 47.52ms: mean 41.2 ms + 3 sigma of 2.1 ms over 8 runs)"), so the verdict, the
// record and every report read the same.
#include "runsummary.h"

#include "core/threshold.h"

#include <string>
#include <vector>

namespace stampede {

class ProjectStore;

// The threshold's figure in `s` (its step's, group's or scenario's, else the run's), in the threshold's units;
// false when the run has no such figure (no such step, no request).
bool thresholdFigure(const RunSummary& s, const Threshold& t, double& value);

// Resolves `t` (a baseline not yet resolved) from `history` (the scenario's completed runs, oldest first; the
// newest `t.baseline->runs` are used): its limit and its expression. False with `error` naming why it cannot.
bool resolveBaseline(Threshold& t, const std::vector<RunSummary>& history, const std::string& scenario,
                     std::string& error);

// Every unresolved baseline of `thresholds` from the scenario's runs in `store`; false with `error`.
bool resolveBaselines(std::vector<Threshold*> thresholds, ProjectStore& store, const std::string& scenario,
                      std::string& error);

} // namespace stampede
