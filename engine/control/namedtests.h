#pragma once
// Tests a step's script ran under names its plan could not know (a name made
// by an expression: Postman's `tests["id is " + id]`), which the engines count
// by name (NamedCheckCount), made checks of their step like any other: each
// name, in the second it first comes, takes the step's next check index after
// the plan's, so that every consumer past the controller (the live view, the
// breaker, the saved seconds, the summary and its exports) counts it by index.
// At most kMaxChecksPerStep checks in all: past them, one kOtherTests gathers
// the rest.
#include "metrics/runmetrics.h"

#include <string>
#include <vector>

namespace stampede {

struct ScenarioPlan;

class NamedTests
{
public:
    explicit NamedTests(const ScenarioPlan& plan);
    // `second` (the engines' merged) with its named tests counted by index.
    void index(IntervalMetrics& second);
    // Per step, the names given indices, in order: the step's checks after the plan's.
    const std::vector<std::vector<std::string>>& names() const { return m_names; }

private:
    int indexOf(std::size_t step, const std::string& name);
    std::vector<std::size_t> m_planned; // the plan's checks per step
    std::vector<std::vector<std::string>> m_names;
};

} // namespace stampede
