#include "namedtests.h"

#include "plan/scenarioplan.h"

#include <algorithm>

namespace stampede {

NamedTests::NamedTests(const ScenarioPlan& plan) : m_names(plan.steps.size())
{
    for (const PlannedStep& st : plan.steps)
        m_planned.push_back(st.checks.size());
}

int NamedTests::indexOf(std::size_t step, const std::string& name)
{
    std::vector<std::string>& names = m_names[step];
    const std::size_t room = kMaxChecksPerStep - std::min(kMaxChecksPerStep, m_planned[step]);
    const auto at = [&](std::string_view n) { return std::find(names.begin(), names.end(), n); };
    auto it = at(name);
    const std::size_t reserve = at(kOtherTests) == names.end() ? 1 : 0; // the last place is kOtherTests'
    if (it == names.end() && names.size() + reserve < room) {
        names.push_back(name);
        it = names.end() - 1;
    }
    if (it == names.end()) { // no room for another name: kOtherTests, while there is room for it
        it = at(kOtherTests);
        if (it == names.end() && names.size() < room) {
            names.emplace_back(kOtherTests);
            it = names.end() - 1;
        }
    }
    return it == names.end() ? -1 : int(m_planned[step] + std::size_t(it - names.begin()));
}

void NamedTests::index(IntervalMetrics& second)
{
    for (std::size_t i = 0; i < second.steps.size() && i < m_names.size(); ++i) {
        StepMetrics& m = second.steps[i];
        for (const NamedCheckCount& n : m.named) {
            const int k = indexOf(i, n.name);
            if (k < 0)
                continue;
            if (m.checks.size() <= std::size_t(k))
                m.checks.resize(std::size_t(k) + 1);
            m.checks[std::size_t(k)].passed += n.count.passed;
            m.checks[std::size_t(k)].failed += n.count.failed;
            m.noteMessage(std::size_t(k), n.message);
        }
        m.named.clear();
    }
}

} // namespace stampede
