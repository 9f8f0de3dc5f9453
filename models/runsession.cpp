#include "runsession.h"

#include "control/agentdiscovery.h"

#include "control/runinputs.h"
#include "enginetext.h"

#include <QFileInfo>

#include "traffic/trafficstore.h"

#include "control/runservice.h"
#include "store/projectstore.h"

using namespace stampede;

static constexpr int kLocalEngineNiceness = 5;

// Told on the run's thread; everything it says reaches the GUI thread as a queued call.
class RunSession::Sink final : public RunSink
{
public:
    explicit Sink(RunSession* s) : m_s(s) {}
    void started(const std::vector<std::string>& names) override
    {
        QStringList agents;
        for (const auto& a : names)
            agents << QString::fromStdString(a);
        m_s->post([s = m_s, agents] { Q_EMIT s->started(s->m_runId, agents); });
    }
    void second(const LiveSecond& live) override
    {
        m_s->post([s = m_s, sec = toRunSecond(live)] { Q_EMIT s->secondAvailable(sec); });
    }
    void event(const RunEvent& e) override
    {
        m_s->post([s = m_s, e] {
            Q_EMIT s->eventOccurred(e.atS, QString::fromStdString(e.kind), QString::fromStdString(e.agent),
                                    QString::fromStdString(e.detail));
        });
    }
    void finished(const RunOutcome& o) override
    {
        const QString status = QString::fromStdString(o.status);
        for (const std::string& e : o.outputErrors) // shown with the run's events
            event({o.summary.durationS, "output", "", e, 0, 0});
        const QByteArray json =
            o.status == "failed" ? QByteArray() : QByteArray::fromStdString(summaryToJson(o.summary));
        auto summary = o.status == "failed" ? nullptr : std::make_shared<const RunSummary>(o.summary);
        m_s->post([s = m_s, status, json, summary, error = engineText(QString::fromStdString(o.error))] {
            s->m_running = false;
            s->m_error = error;
            s->m_summary = summary;
            Q_EMIT s->finished(status, json);
        });
    }

private:
    RunSession* m_s;
};

RunSession::RunSession(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<RunSecond>();
}

RunSession::~RunSession()
{
    stop();
    m_job.wait(); // what it posts after this is dropped with this object
}

void RunSession::post(std::function<void()> fn)
{
    QMetaObject::invokeMethod(this, std::move(fn), Qt::QueuedConnection);
}

QString RunSession::capacityOptions(const QString& slos, double start, double max, int stepSeconds, double growth,
                                    CapacityOptions& out)
{
    CapacityOptions o;
    o.start = start;
    o.max = max;
    o.stepSeconds = std::uint32_t(std::max(0, stepSeconds));
    o.growth = growth;
    for (const QString& line : slos.split(QLatin1Char('\n'))) {
        if (line.trimmed().isEmpty())
            continue;
        std::string error;
        auto t = Threshold::parse(line.trimmed().toStdString(), error);
        if (!t)
            return tr("SLO %1").arg(QString::fromStdString(error)); // the error quotes the line
        o.slos.push_back(*t);
    }
    // in the workbench's words, not the command line's
    const QString why = QString::fromStdString(CapacitySearch::invalid(o));
    if (why.startsWith(QLatin1String("--max")))
        return tr("The highest rate must be at least the start rate, and at most 100000 times it.");
    if (why.startsWith(QLatin1String("--slo")))
        return tr("Give at least one SLO, e.g. p99 < 50ms.");
    if (why.isEmpty())
        out = std::move(o);
    return why;
}

bool RunSession::start(const QByteArray& scenarioJson, const Options& options, ProjectStore* store)
{
    if (m_running) {
        m_error = tr("A run is already going on.");
        return false;
    }
    RunRequest rq;
    std::string error;
    // the one preparation the command line's PROJECT@SCENARIO makes too
    RunInputs in;
    in.scenarioJson = scenarioJson.toStdString();
    in.project = store;
    in.environment = store ? options.environment.toStdString() : std::string();
    if (store)
        in.baseDir = QFileInfo(QString::fromStdString(store->path())).absolutePath().toStdString();
    PreparedRun found;
    if (!prepareRun(in, rq, found, error)) {
        m_error = engineText(QString::fromStdString(error));
        return false;
    }
    rq.source = "gui";
    if (options.capacity) { // recorded as it runs: open model at the start rate, no thresholds
        shapeForCapacity(rq.scenario, *options.capacity);
        rq.capacity = options.capacity;
        rq.scenarioJson.clear();
    }
    rq.engines.executable = options.cliPath.toStdString();
    rq.engines.localEngines = unsigned(std::max(0, options.engines));
    rq.engines.niceness = kLocalEngineNiceness; // the dashboard stays fluid on a machine the load fills
    std::vector<std::string> specs;             // host:port, dns:NAME:PORT or file:PATH, looked up now
    for (const auto& a : options.agents)
        specs.push_back(a.trimmed().toStdString());
    if (std::string why; !specs.empty() && !expandAgents(specs, rq.engines.agents, why)) {
        m_error = engineText(QString::fromStdString(why));
        return false;
    }
    rq.controller.token = options.token.toStdString();
    rq.controller.caFile = options.caFile.toStdString();
    for (const QString& o : options.outputs)
        rq.outputs.push_back(o.toStdString());
    rq.maxErrorRate = options.maxErrorRate.trimmed().toStdString();
    std::vector<std::string> errors;
    auto service = RunService::prepare(std::move(rq), errors);
    if (!service) {
        m_error = engineText(QString::fromStdString(errors.front()));
        return false;
    }
    m_job.wait(); // the last run's thread has posted its end
    if (!service->begin({store, [this](std::function<void()> job) { post(std::move(job)); }}, error)) {
        m_error = engineText(QString::fromStdString(error));
        return false;
    }
    m_service = std::move(service);
    m_control = m_service->control();
    const ScenarioPlan& plan = m_service->plan();
    m_runId = QString::fromStdString(plan.runId);
    m_stepNames.clear();
    m_checkNames.clear();
    m_stepFolders.clear();
    m_summary.reset();
    for (const auto& st : plan.steps) {
        m_stepNames << QString::fromStdString(st.name);
        m_stepFolders << QString::fromStdString(st.folder);
        m_checkNames.append(QStringList());
        for (const auto& c : st.checks)
            m_checkNames.back() << QString::fromStdString(c.name);
    }
    for (const std::string& g : plan.groups) // measured beside the steps: after them, each second (RunLog::prepare)
        m_stepNames << tr("group %1").arg(QString::fromStdString(g));
    for (const ScenarioPlan& sc : plan.scenarios)
        m_stepNames << tr("scenario %1").arg(QString::fromStdString(sc.name));
    m_planned = options.capacity ? QList<QPointF>() : ::plannedProfile(plan); // a search plans level by level
    m_plannedSeconds = options.capacity ? 0 : double(plan.duration) / 1e9;
    m_sink = std::make_unique<Sink>(this);
    m_running = true;
    // what the run says reaches this object through the sink's queued calls
    m_job.start(
        [service = m_service.get(), sink = m_sink.get()] {
            service->run(*sink);
            return true;
        },
        [](bool) {});
    return true;
}
