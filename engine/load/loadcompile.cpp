#include "loadcompile.h"

#include "closedload.h"
#include "core/number.h"
#include "core/text.h"
#include "openload.h"
#include "stampede/v1/scenario.pb.h"

#include <cmath>

namespace stampede {

namespace {

constexpr std::uint32_t kMaxStageSteps = 10000; // a step stage's steps
constexpr std::uint32_t kMaxBacklog = 1000000;  // the open model's backlog of arrivals
// a run that ends by its iterations is bounded by this when no duration is given
constexpr Nanos kIterationsBound = 3600 * kNanosPerSecond;

Nanos nanos(const google::protobuf::Duration& d)
{
    // saturated: proto3 allows 10,000 years, nanoseconds hold 292 (the bounds are checked on the result)
    constexpr std::int64_t kLimit = 9'000'000'000;
    if (d.seconds() > kLimit || d.seconds() < -kLimit)
        return d.seconds() > 0 ? kLimit * kNanosPerSecond : -kLimit * kNanosPerSecond;
    return Nanos(d.seconds()) * kNanosPerSecond + d.nanos();
}

std::string seconds(const google::protobuf::Duration& d)
{
    return shortNumber(double(nanos(d)) / 1e9) + "s";
}

class LoadCompiler
{
public:
    LoadCompiler(const v1::Scenario& s, const LoadFault& fault) : m_s(s), m_fault(fault) {}

    CompiledLoad run()
    {
        const auto& l = m_s.load();
        switch (l.model_case()) {
        case v1::LoadProfile::kOpen:
            open(l.open());
            break;
        case v1::LoadProfile::kClosed:
            closed(l.closed());
            break;
        case v1::LoadProfile::MODEL_NOT_SET:
            error("load", "choose an open model (load.open.rate) or a closed model (load.closed.users)");
            return {};
        }
        const std::vector<StageSpec> stages = stageSpecs(l);
        if (!iterations())
            return {};
        if (!duration(stages) || m_faults)
            return {}; // no profile of a level or a length past the bounds (1e308/s spun the engine)
        const StageProfile profile = StageProfile::build(m_initial, stages, m_out.duration);
        if (profile.peak() <= 0) {
            error(m_levelField, m_isOpen ? "the rate must be positive at some point of the run"
                                         : "at least one virtual user is needed");
            return {};
        }
        if (m_isOpen) {
            m_open.profile = profile;
            m_out.executor = std::make_shared<OpenExecutor>(std::move(m_open));
        } else {
            m_closed.profile = profile;
            if (m_closed.iterations)
                m_out.executor = std::make_shared<IterationsExecutor>(std::move(m_closed));
            else
                m_out.executor = std::make_shared<ClosedExecutor>(std::move(m_closed));
        }
        return std::move(m_out);
    }

private:
    void error(const std::string& field, const std::string& message)
    {
        ++m_faults;
        m_fault(field, message);
    }

    void open(const v1::OpenModel& o)
    {
        m_isOpen = true;
        m_initial = o.rate();
        m_levelField = "load.open.rate";
        if (m_initial < 0 || !std::isfinite(m_initial))
            error(m_levelField, "must not be negative (got " + shortNumber(m_initial) + ")");
        else
            levelBound(m_initial, m_levelField);
        if (o.backlog_limit() > kMaxBacklog)
            error("load.open.backlogLimit",
                  "at most " + std::to_string(kMaxBacklog) + " (got " + std::to_string(o.backlog_limit()) + ")");
        else if (o.backlog_limit())
            m_open.backlogLimit = o.backlog_limit();
    }

    void closed(const v1::ClosedModel& c)
    {
        m_initial = c.users();
        m_levelField = "load.closed.users";
        levelBound(m_initial, m_levelField);
        if (c.has_think_time()) {
            m_closed.thinkTime = nanos(c.think_time());
            if (m_closed.thinkTime < 0)
                error("load.closed.thinkTime", "must not be negative");
        }
        if (c.has_pacing()) {
            m_closed.pacing = nanos(c.pacing());
            if (m_closed.pacing < 0 || m_closed.pacing > 3600 * kNanosPerSecond)
                error("load.closed.pacing", "must be from 0 to 1h (got " + seconds(c.pacing()) + ")");
        }
    }

    std::vector<StageSpec> stageSpecs(const v1::LoadProfile& l)
    {
        std::vector<StageSpec> stages;
        for (int i = 0; i < l.stages_size(); ++i) {
            const auto& st = l.stages(i);
            const std::string field = "load.stages[" + std::to_string(i) + "]";
            StageSpec spec;
            spec.kind = st.kind() == v1::STAGE_RAMP    ? StageSpec::Kind::Ramp
                        : st.kind() == v1::STAGE_STEP  ? StageSpec::Kind::Step
                        : st.kind() == v1::STAGE_SPIKE ? StageSpec::Kind::Spike
                                                       : StageSpec::Kind::Hold;
            spec.duration = nanos(st.duration());
            if (spec.duration <= 0)
                error(field + ".duration", "must be positive");
            else
                longest(spec.duration, field + ".duration", RunLimits::kDurationSeconds);
            if (st.has_target()) {
                if (st.target() < 0 || !std::isfinite(st.target()))
                    error(field + ".target", "must not be negative (got " + shortNumber(st.target()) + ")");
                else
                    levelBound(st.target(), field + ".target");
                spec.target = st.target();
            } else if (spec.kind != StageSpec::Kind::Hold) {
                error(field + ".target", "a ramp, step or spike stage needs a target");
            }
            if (st.steps() > kMaxStageSteps)
                error(field + ".steps",
                      "at most " + std::to_string(kMaxStageSteps) + " (got " + std::to_string(st.steps()) + ")");
            else if (st.steps())
                spec.steps = st.steps();
            stages.push_back(spec);
        }
        return stages;
    }

    // Iterations per virtual user: the closed model's, at most a million.
    bool iterations()
    {
        constexpr auto kMaxIterations = std::uint32_t(RunLimits::kIterations);
        if (!m_s.iterations())
            return true;
        if (m_isOpen) {
            error("iterations", "iterations per virtual user are the closed model's (load.closed.users)");
            return false;
        }
        if (m_s.iterations() > kMaxIterations) {
            error("iterations",
                  "at most " + std::to_string(kMaxIterations) + " (got " + std::to_string(m_s.iterations()) + ")");
            return false;
        }
        m_closed.iterations = m_s.iterations();
        return true;
    }

    // The scenario's duration, else its stages' length, else 10 s (an hour as a
    // bound on a run that ends by its iterations).
    bool duration(const std::vector<StageSpec>& stages)
    {
        if (m_s.iterations() && !m_s.has_duration() && stages.empty())
            m_out.duration = kIterationsBound;
        if (m_s.has_duration()) {
            m_out.duration = nanos(m_s.duration());
            if (m_out.duration <= 0) {
                error("duration", "must be positive (got " + seconds(m_s.duration()) + ")");
                return false;
            }
            return longest(m_out.duration, "duration", RunLimits::kDurationSeconds);
        }
        if (!stages.empty()) {
            m_out.duration = StageProfile::stagesLength(stages);
            return longest(m_out.duration, "load.stages", RunLimits::kDurationSeconds);
        }
        return true;
    }

    // The flags' bounds for what a file says too (core/number.h): a rate or a number of users.
    void levelBound(double level, const std::string& field)
    {
        const double max = m_isOpen ? RunLimits::kRate : double(RunLimits::kConnections);
        if (level > max)
            error(field, shortNumber(level) + " is out of range (at most " +
                             (m_isOpen ? "10,000,000 iterations/s" : "1,000,000 users") + ")");
    }
    bool longest(Nanos d, const std::string& field, std::int64_t maxSeconds)
    {
        return withinLongest(d, field, maxSeconds, [this](const std::string& f, const std::string& m) { error(f, m); });
    }

    const v1::Scenario& m_s;
    const LoadFault& m_fault;
    int m_faults = 0;
    bool m_isOpen = false;
    double m_initial = 0;
    std::string m_levelField;
    OpenLoad m_open;
    ClosedLoad m_closed;
    CompiledLoad m_out;
};

} // namespace

CompiledLoad compileLoad(const v1::Scenario& scenario, const LoadFault& fault)
{
    return LoadCompiler(scenario, fault).run();
}

bool withinLongest(Nanos d, const std::string& field, std::int64_t maxSeconds, const LoadFault& fault)
{
    if (d <= maxSeconds * kNanosPerSecond)
        return true;
    fault(field,
          "at most " + shortNumber(double(maxSeconds) / 3600) + " h (got " + shortNumber(double(d) / 1e9) + " s)");
    return false;
}

} // namespace stampede
