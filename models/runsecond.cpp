#include "runsecond.h"

#include <QCoreApplication>

#include <iterator>

#include "plan/replaystep.h"

#include "control/runservice.h"
#include "plan/scenarioplan.h"

using namespace stampede;

namespace {

// The dashboard's view of a second, from the same figures the store keeps.
RunSecond::Part toPart(const PreparedSecond& p)
{
    RunSecond::Part part;
    part.openConnections = p.openConnections;
    part.activeUsers = p.activeUsers;
    part.cpuPercent = p.health.cpu * 100;
    part.rssMiB = double(p.health.rssBytes) / 1048576.0;
    part.loopLagMs = double(p.health.loopLag) / 1e6;
    for (const auto& r : p.rows) {
        RunSecond::Step s;
        s.sent = r.counters.sent;
        s.requests = r.counters.requests;
        s.errors = r.counters.errors;
        s.late = r.counters.late;
        s.dropped = r.counters.dropped;
        s.messages = r.counters.messagesReceived;
        for (auto e : r.counters.errorsByClass)
            s.errorsByClass.append(e);
        for (const auto& c : r.checks) {
            s.checksPassed.append(c.passed);
            s.checksFailed.append(c.failed);
        }
        const auto& q = r.percentilesMs;
        s.p50 = q[0], s.p90 = q[1], s.p95 = q[2], s.p99 = q[3], s.p999 = q[4], s.max = q[5];
        if (r.step < 0)
            part.total = s;
        else
            part.steps.append(s);
    }
    return part;
}

} // namespace

static_assert(kErrorClasses == int(stampede::kErrorClassCount), "RunSecond counts every error class of the engine");

QString errorClassText(int errorClass)
{
    static const char* const names[] = {
        QT_TRANSLATE_NOOP("ErrorClass", "connect"),  QT_TRANSLATE_NOOP("ErrorClass", "reset"),
        QT_TRANSLATE_NOOP("ErrorClass", "timeout"),  QT_TRANSLATE_NOOP("ErrorClass", "http 4xx"),
        QT_TRANSLATE_NOOP("ErrorClass", "http 5xx"), QT_TRANSLATE_NOOP("ErrorClass", "protocol"),
        QT_TRANSLATE_NOOP("ErrorClass", "tls"),      QT_TRANSLATE_NOOP("ErrorClass", "grpc"),
        QT_TRANSLATE_NOOP("ErrorClass", "check"),    QT_TRANSLATE_NOOP("ErrorClass", "extract"),
        QT_TRANSLATE_NOOP("ErrorClass", "render"),   QT_TRANSLATE_NOOP("ErrorClass", "script")};
    static_assert(std::size(names) == kErrorClasses, "a word for every class");
    return errorClass >= 0 && errorClass < kErrorClasses ? QCoreApplication::translate("ErrorClass", names[errorClass])
                                                         : QString::number(errorClass);
}

RunSecond toRunSecond(const LiveSecond& live)
{
    const auto& prepared = *live.prepared;
    const RunSecond::Part merged = toPart(prepared.back());
    RunSecond sec;
    sec.second = live.summary.second;
    sec.total = merged.total;
    sec.steps = merged.steps;
    sec.openConnections = merged.openConnections;
    sec.activeUsers = merged.activeUsers;
    sec.cpuPercent = merged.cpuPercent;
    sec.rssMiB = merged.rssMiB;
    sec.loopLagMs = merged.loopLagMs;
    for (std::size_t i = 0; i + 1 < prepared.size(); ++i)
        sec.agents.append(toPart(prepared[i]));
    for (const auto& [name, value] : live.summary.server)
        sec.server.insert(QString::fromStdString(name), value);
    const auto strings = [](const std::vector<std::string>& in) {
        QStringList out;
        for (const std::string& s : in)
            out << QString::fromStdString(s);
        return out;
    };
    for (const auto& names : live.testNames)
        sec.testNames << strings(names);
    for (std::size_t i = 0; i < live.checkMessages.size() && i < std::size_t(sec.steps.size()); ++i)
        sec.steps[qsizetype(i)].checkMessages = strings(live.checkMessages[i]);
    return sec;
}

QList<QPointF> plannedProfile(const ScenarioPlan& plan)
{
    QList<QPointF> out;
    if (const ReplayPlan* replay = plan.replay()) { // the traffic's own shape: second k's requests at k
        for (std::size_t s = 0; s < replay->planned.size(); ++s)
            out << QPointF(double(s + 1), double(replay->planned[s]));
        return out;
    }
    if (!plan.scenarios.empty()) { // a plan: its paced scenarios' planned requests summed, second by second
        const auto seconds = std::size_t((plan.duration + kNanosPerSecond - 1) / kNanosPerSecond);
        for (std::size_t t = 0; t <= seconds; ++t) {
            double level = 0;
            for (std::size_t k = 0; k < plan.scenarios.size(); ++k) {
                const ScenarioPlan& sc = plan.scenarios[k];
                const StageProfile* p = sc.load ? sc.load->profile() : nullptr;
                const Nanos at = Nanos(t) * kNanosPerSecond - plan.places[k].startAfter;
                if (p && sc.load->paced() && at >= 0 && at < sc.duration) // users are no rate
                    level += p->levelAt(at) * double(sc.steps.size());
            }
            out << QPointF(double(t), level);
        }
        return out;
    }
    const StageProfile* profile = plan.load ? plan.load->profile() : nullptr;
    if (!profile)
        return out;
    // arrivals make every step once; users are drawn as they are
    const double perIteration = plan.load->paced() ? double(plan.steps.size()) : 1.0;
    for (const auto& seg : profile->segments())
        out << QPointF(double(seg.start) / 1e9, seg.from * perIteration)
            << QPointF(double(seg.end) / 1e9, seg.to * perIteration);
    return out;
}
