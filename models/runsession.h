#pragma once
// A run of a scenario on the local pool (agents started for it) or on remote
// agents: a thin caller of the engine's run service, which runs on a thread of
// its own. Its per-second snapshots arrive here as queued signals on the GUI
// thread, as values; the service's writes to the project (one transaction a
// second) are carried out on the GUI thread, which owns the store. Live
// control goes through the service's queue: nothing here blocks on an agent.
// The GUI never generates load in its own process.
#include "jobrunner.h"
#include "runsecond.h"

#include <QObject>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QVector>

#include <functional>
#include <memory>

#include "control/capacitysearch.h"
#include "control/runcontrol.h"

#include <optional>

namespace stampede {
class ProjectStore;
class RunService;
struct RunSummary;
} // namespace stampede

class RunSession : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QString cliPath;    // the stampede-cli executable the local agents run
        int engines = 0;    // local agents; 0: one per core
        QStringList agents; // remote agents host:port; empty: the local pool
        QString token;      // the remote agents' token
        QString caFile;     // set: TLS to the remote agents, verified against this CA
        // set: a capacity search of the scenario (shaped by shapeForCapacity()), not a run as planned
        std::optional<stampede::CapacityOptions> capacity;
        QStringList outputs;  // live outputs, as --out takes them: prometheus=HOST:PORT, jsonl=FILE
        QString maxErrorRate; // the project's error budget ("1%": RunRequest::maxErrorRate)
        // the project's environment the run takes its values from (bundle/environment.h's scopes)
        QString environment;
    };

    explicit RunSession(QObject* parent = nullptr);
    // "Find capacity": the SLOs (one per line) and levels checked as the command
    // line checks them, into `out`; why they cannot run, in the user's words, or empty.
    static QString capacityOptions(const QString& slos, double start, double max, int stepSeconds, double growth,
                                   stampede::CapacityOptions& out);
    ~RunSession() override;

    // Starts a run of the scenario (its proto3 JSON, as written) in the
    // project `store` (its traffic sets, options.environment), prepared as
    // the command line's PROJECT@SCENARIO is (control/runinputs.h); saves it
    // there when given (the store must stay open until finished()). Returns
    // false with lastError() when the scenario is not valid.
    bool start(const QByteArray& scenarioJson, const Options& options, stampede::ProjectStore* store = nullptr);
    bool isRunning() const { return m_running; }
    QString runId() const { return m_runId; }
    // What each second measures (RunSecond::steps, in this order): the steps,
    // then each group ("group checkout") and each of a plan's scenarios ("scenario order").
    QStringList stepNames() const { return m_stepNames; }
    // Per step, the names of its checks (in the order RunSecond counts them).
    QList<QStringList> checkNames() const { return m_checkNames; }
    // Per step, the folders of its collection it is in ("Users / Admin"; "" at the top or not a collection's).
    QStringList stepFolders() const { return m_stepFolders; }
    // The run's summary once finished() was told (null before, or when it failed to start).
    const stampede::RunSummary* summary() const { return m_summary.get(); }
    QString lastError() const { return m_error; }
    // The planned load over time: (seconds, requests/s) for the open model,
    // (seconds, users) for the closed model; for the dashboard.
    QList<QPointF> plannedProfile() const { return m_planned; }
    // How long the run is planned to last, in seconds (0: not known ahead, a capacity search).
    double plannedSeconds() const { return m_plannedSeconds; }

    // Live control goes through the run's queue (stampede::RunControl): none
    // of these blocks, and each is saved with the run as an event.
public Q_SLOTS:
    void stop()
    {
        if (m_control)
            m_control->stop();
    }
    // Pause is level 0; resume goes back to the last level asked.
    void pause()
    {
        if (m_control)
            m_control->pause();
    }
    void resume()
    {
        if (m_control)
            m_control->resume();
    }
    // Scales the planned rate or users from now on (0 pauses, 1 is as planned).
    void adjust(double factor)
    {
        if (m_control)
            m_control->scale(factor);
    }

Q_SIGNALS:
    void started(const QString& runId, const QStringList& agents);
    void secondAvailable(const RunSecond& second);
    void eventOccurred(double atS, const QString& kind, const QString& agent, const QString& detail);
    // status: completed, aborted or failed; summaryJson as in --summary-json.
    void finished(const QString& status, const QByteArray& summaryJson);

private:
    class Sink;
    void post(std::function<void()> fn);
    std::unique_ptr<stampede::RunService> m_service;
    std::unique_ptr<Sink> m_sink;
    std::shared_ptr<stampede::RunControl> m_control;
    JobRunner m_job{this}; // the run's thread: the service runs there until the run ends
    bool m_running = false;
    QString m_runId;
    QStringList m_stepNames;
    QList<QStringList> m_checkNames;
    QStringList m_stepFolders;
    std::shared_ptr<const stampede::RunSummary> m_summary;
    QString m_error;
    QList<QPointF> m_planned;
    double m_plannedSeconds = 0;
};
