#pragma once
// A run of a scenario on the local pool (agents started for it) or on remote
// agents, driven by the engine's controller on a worker thread. Its per-second
// snapshots arrive here as queued signals on the GUI thread, as values; the
// session also writes them to the project as they come (one transaction a
// second). The GUI never generates load in its own process.
#include <QObject>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QVector>

#include <atomic>
#include <memory>

namespace stampede {
class ProjectStore;
class Controller;
} // namespace stampede

// One second of a run, as the dashboard draws it: per step and in total,
// merged over the agents and (with several) for each agent.
struct RunSecond
{
    struct Step
    {
        quint64 sent = 0, requests = 0, errors = 0, late = 0, dropped = 0;
        QVector<quint64> errorsByClass; // in the engine's ErrorClass order: connect ... tls, grpc
        double p50 = 0, p90 = 0, p95 = 0, p99 = 0, p999 = 0, max = 0; // ms
    };
    struct Part
    {
        Step total;
        QVector<Step> steps;
        quint32 openConnections = 0;
        quint32 activeUsers = 0; // closed model: users taking part; open model: iterations in flight
    };
    quint32 second = 0;
    Step total;
    QVector<Step> steps;
    quint32 openConnections = 0;
    quint32 activeUsers = 0;
    QVector<Part> agents; // in the order of started()'s agents; empty with one agent
};
Q_DECLARE_METATYPE(RunSecond)

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
    };

    explicit RunSession(QObject* parent = nullptr);
    ~RunSession() override;

    // Starts a run of the scenario (its proto3 JSON); saves it in `store` when
    // given (the store must stay open until finished()). Returns false with
    // lastError() when the scenario is not valid.
    bool start(const QByteArray& scenarioJson, const Options& options, stampede::ProjectStore* store = nullptr);
    bool isRunning() const { return m_running; }
    QString runId() const { return m_runId; }
    QStringList stepNames() const { return m_stepNames; }
    QString lastError() const { return m_error; }
    // The planned load over time: (seconds, requests/s) for the open model,
    // (seconds, users) for the closed model; for the dashboard.
    QList<QPointF> plannedProfile() const { return m_planned; }

public Q_SLOTS:
    void stop();
    // Scales the planned rate or users from now on (0 pauses, 1 is as planned).
    void adjust(double factor);

Q_SIGNALS:
    void started(const QString& runId, const QStringList& agents);
    void secondAvailable(const RunSecond& second);
    void eventOccurred(double atS, const QString& kind, const QString& agent, const QString& detail);
    // status: completed, aborted or failed; summaryJson as in --summary-json.
    void finished(const QString& status, const QByteArray& summaryJson);

private:
    struct Worker;
    std::unique_ptr<Worker> m_worker;
    bool m_running = false;
    QString m_runId;
    QStringList m_stepNames;
    QString m_error;
    QList<QPointF> m_planned;
};
