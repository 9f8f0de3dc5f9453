#pragma once
// One second of a run as the dashboard draws it, made from what the run
// service hands its sink (the same figures the store keeps).
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QVector>

namespace stampede {
struct LiveSecond;
struct ScenarioPlan;
} // namespace stampede

// One second of a run, as the dashboard draws it: per step and in total,
// merged over the agents and (with several) for each agent.
struct RunSecond
{
    struct Step
    {
        quint64 sent = 0, requests = 0, errors = 0, late = 0, dropped = 0;
        quint64 messages = 0;           // stream steps: WebSocket messages and events received
        QVector<quint64> errorsByClass; // in the engine's ErrorClass order: connect ... tls, grpc
        double p50 = 0, p90 = 0, p95 = 0, p99 = 0, p999 = 0, max = 0; // ms
        QVector<quint64> checksPassed, checksFailed;                  // by the step's check index
        QStringList checkMessages; // by check index: why it first failed in this second ("" where it did not)
    };
    struct Part
    {
        Step total;
        QVector<Step> steps;
        quint32 openConnections = 0;
        quint32 activeUsers = 0; // closed model: users taking part; open model: iterations in flight
        // the engine's health (merged: the busiest); rssMiB 0: not reported
        double cpuPercent = 0, rssMiB = 0, loopLagMs = 0;
    };
    quint32 second = 0;
    Step total;
    QVector<Step> steps;
    quint32 openConnections = 0;
    quint32 activeUsers = 0;
    double cpuPercent = 0, rssMiB = 0, loopLagMs = 0; // the busiest engine's (rssMiB 0: not reported)
    QVector<Part> agents;                             // in the order of started()'s agents; empty with one agent
    QMap<QString, double> server;                     // the target's own metrics read in this second (serverMetrics)
    // Per step, the names of the tests its scripts ran that the plan did not know, so far: checks numbered after
    // the plan's (RunSession::checkNames()).
    QList<QStringList> testNames;
};
Q_DECLARE_METATYPE(RunSecond)

// How many error classes a Step counts (errorsByClass' size; the engine's
// ErrorClass, checked where the two meet: runsecond.cpp).
constexpr int kErrorClasses = 12;
// An error class (the engine's ErrorClass, by index) in the user's words:
// "connect", "http 4xx", "check"... translated.
QString errorClassText(int errorClass);

RunSecond toRunSecond(const stampede::LiveSecond& live);
// The planned load over time, as the dashboard draws it: (seconds, requests/s)
// for the open model (iterations/s times the steps of an iteration),
// (seconds, users) for the closed model.
QList<QPointF> plannedProfile(const stampede::ScenarioPlan& plan);
