#include "runsession.h"

#include "bundle/bundlefile.h"
#include "control/controller.h"
#include "control/localpool.h"
#include "report/runsummary.h"
#include "run/scenarioplan.h"
#include "stampede/v1/bundle.pb.h"
#include "stampede/v1/scenario.pb.h"
#include "store/projectstore.h"
#include "store/runlog.h"

#include <QPointF>
#include <QPointer>

#include <thread>

using namespace stampede;

namespace {
// The dashboard's view of a second, from the same figures the store keeps.
RunSecond::Part toPart(const PreparedSecond& p)
{
    RunSecond::Part part;
    part.openConnections = p.openConnections;
    part.activeUsers = p.activeUsers;
    for (const auto& r : p.rows) {
        RunSecond::Step s;
        s.sent = r.counters.sent;
        s.requests = r.counters.requests;
        s.errors = r.counters.errors;
        s.late = r.counters.late;
        s.dropped = r.counters.dropped;
        for (auto e : r.counters.errorsByClass)
            s.errorsByClass.append(e);
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

namespace {
constexpr int kLocalEngineNiceness = 5;
}

struct RunSession::Worker
{
    ScenarioPlan plan;
    v1::Bundle bundle;
    std::thread thread;
    std::atomic<Controller*> controller{nullptr};
    std::atomic<bool> stopRequested{false};
};

RunSession::RunSession(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<RunSecond>();
}

RunSession::~RunSession()
{
    stop();
    if (m_worker && m_worker->thread.joinable())
        m_worker->thread.join();
}

bool RunSession::start(const QByteArray& scenarioJson, const Options& options, ProjectStore* store)
{
    if (m_running) {
        m_error = tr("A run is already going on.");
        return false;
    }
    v1::Scenario scenario;
    std::string error;
    if (!parseScenarioJson(scenarioJson.toStdString(), scenario, error)) {
        m_error = QString::fromStdString(error);
        return false;
    }
    if (!scenario.threads())
        scenario.set_threads(1);
    std::vector<PlanError> errors;
    PlanOptions po;
    po.resolveHosts = options.agents.isEmpty();
    auto plan = compileScenario(scenario, po, errors);
    if (!plan) {
        m_error = QString::fromStdString(errors.front().text());
        return false;
    }
    if (m_worker && m_worker->thread.joinable())
        m_worker->thread.join();
    m_worker = std::make_unique<Worker>();
    m_worker->plan = std::move(*plan);
    if (!makeBundle(scenario, {}, "gui", m_worker->bundle, error)) {
        m_error = QString::fromStdString(error);
        return false;
    }
    m_runId = QString::fromStdString(m_worker->plan.runId);
    m_stepNames.clear();
    std::vector<std::string> names;
    for (const auto& st : m_worker->plan.steps) {
        m_stepNames << QString::fromStdString(st.name);
        names.push_back(st.name);
    }
    // open model: iterations/s times the steps of an iteration is the planned requests/s
    m_planned.clear();
    const double perIteration = m_worker->plan.model == LoadModel::Open ? double(m_worker->plan.steps.size()) : 1.0;
    for (const auto& seg : m_worker->plan.profile.segments()) {
        m_planned << QPointF(double(seg.start) / 1e9, seg.from * perIteration)
                  << QPointF(double(seg.end) / 1e9, seg.to * perIteration);
    }
    // The run is recorded from the GUI thread, which owns the store.
    std::shared_ptr<RunLog> log;
    std::int64_t row = 0;
    std::string storePath;
    if (store) {
        // The GUI thread writes a second at a time; the write-ahead log is copied
        // back (checkpointed, with its fsync) from the run's thread instead.
        store->setAutoCheckpoint(false);
        storePath = store->path();
        log = std::make_shared<RunLog>(*store);
        row = log->begin(m_worker->plan.runId, m_worker->plan.name, scenarioJson.toStdString(), "{}", {}, names);
    }
    m_running = true;
    Worker* w = m_worker.get();
    QPointer<RunSession> self(this);
    const Options opts = options;
    if (store)
        connect(
            this, &RunSession::finished, this, [store] { store->setAutoCheckpoint(true); }, Qt::SingleShotConnection);
    w->thread = std::thread([this, self, w, opts, log, row, storePath] {
        auto post = [self](auto fn) {
            QMetaObject::invokeMethod(
                self.data() ? static_cast<QObject*>(self.data()) : nullptr,
                [self, fn] {
                    if (self)
                        fn(self.data());
                },
                Qt::QueuedConnection);
        };
        // the run could not start: said on the GUI thread, and recorded as aborted
        auto failed = [&post, log, row](const std::string& error) {
            post([error, log, row](RunSession* s) {
                if (log)
                    log->finish(row, "aborted", "{}");
                s->m_running = false;
                s->m_error = QString::fromStdString(error);
                Q_EMIT s->finished(QStringLiteral("failed"), QByteArray());
            });
        };
        LocalPool pool;
        ControllerOptions co;
        std::vector<std::string> addresses;
        std::string error;
        if (opts.agents.isEmpty()) {
            const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
            const unsigned cap = std::max(1u, w->plan.connections / std::max(1u, w->plan.threads));
            const unsigned n = std::min(opts.engines > 0 ? unsigned(opts.engines) : cores, cap);
            // the engines yield to this process: the dashboard stays fluid on a machine the load fills
            if (!pool.start(opts.cliPath.toStdString(), n, error, false, kLocalEngineNiceness)) {
                failed(error);
                return;
            }
            addresses = pool.addresses();
            co.token = pool.token();
        } else {
            for (const auto& a : opts.agents)
                addresses.push_back(a.toStdString());
            co.token = opts.token.toStdString();
            co.caFile = opts.caFile.toStdString();
        }
        Controller controller(addresses, co);
        if (!controller.connect(error)) {
            failed(error);
            return;
        }
        QStringList agents;
        for (const auto& a : controller.agentNames())
            agents << QString::fromStdString(a);
        const QString runId = QString::fromStdString(w->plan.runId);
        post([runId, agents](RunSession* s) { Q_EMIT s->started(runId, agents); });
        w->controller = &controller;
        if (w->stopRequested)
            controller.stop();
        if (log)
            log->setAgents(row, controller.agentNames());
        // Percentiles and serialization happen here; the GUI thread only draws and writes SQL.
        std::vector<PreparedSecond> parts;
        if (addresses.size() > 1)
            controller.setAgentSecondCallback([&](std::size_t agent, const IntervalMetrics& part) {
                parts.push_back(RunLog::prepare(part, controller.agentNames()[agent]));
            });
        const RunResult result = controller.run(
            w->bundle, w->plan.runId, w->plan.steps.size(), [&](const IntervalMetrics& m, const SecondSummary&) {
                auto prepared = std::make_shared<std::vector<PreparedSecond>>(std::move(parts));
                parts.clear();
                prepared->push_back(RunLog::prepare(m));
                if (!storePath.empty() && m.second % 5 == 0) {
                    std::string ignored; // a checkpoint that cannot happen now happens later
                    ProjectStore::checkpoint(storePath, ignored);
                }
                RunSecond sec;
                const RunSecond::Part merged = toPart(prepared->back());
                sec.total = merged.total;
                sec.steps = merged.steps;
                sec.openConnections = merged.openConnections;
                sec.activeUsers = merged.activeUsers;
                sec.second = m.second;
                for (std::size_t i = 0; i + 1 < prepared->size(); ++i)
                    sec.agents.append(toPart((*prepared)[i]));
                post([sec, prepared, log, row](RunSession* s) {
                    if (log)
                        log->write(row, *prepared); // one transaction a second
                    Q_EMIT s->secondAvailable(sec);
                });
            });
        w->controller = nullptr;
        pool.stop();
        RunSummary summary = summarizeRun(w->plan, result);
        summary.engines = controller.agentNames();
        const QByteArray json = QByteArray::fromStdString(summaryToJson(summary));
        const QString status = !result.ok       ? QStringLiteral("failed")
                               : result.aborted ? QStringLiteral("aborted")
                                                : QStringLiteral("completed");
        const std::vector<RunEvent> events = result.events;
        const QString err = QString::fromStdString(result.error);
        post([status, json, events, log, row, err](RunSession* s) {
            for (const auto& e : events) {
                if (log)
                    log->addEvent(row, e);
                Q_EMIT s->eventOccurred(e.atS, QString::fromStdString(e.kind), QString::fromStdString(e.agent),
                                        QString::fromStdString(e.detail));
            }
            if (log)
                log->finish(row, status == QLatin1String("completed") ? "completed" : "aborted", json.toStdString());
            s->m_running = false;
            s->m_error = err;
            Q_EMIT s->finished(status, json);
        });
    });
    return true;
}

void RunSession::stop()
{
    if (!m_worker)
        return;
    m_worker->stopRequested = true;
    if (Controller* c = m_worker->controller.load())
        c->stop();
}

void RunSession::adjust(double factor)
{
    if (!m_worker)
        return;
    if (Controller* c = m_worker->controller.load()) {
        std::string error;
        c->adjust(factor, error);
    }
}
