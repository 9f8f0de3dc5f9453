#pragma once
// The live run: throughput (sent, completed, and the planned load under them),
// latency percentiles, errors, a per-step table updated every second, the
// events, and the controls (stop, pause, change the rate or users). Charts
// take their points once a second with replace(); old points are merged so
// a long run draws as smoothly as a short one.

#include <QJsonObject>
#include <QPointF>
#include <QWidget>

#include "runsession.h"

class QJsonArray;
class QChart;
class QComboBox;
class QChartView;
class QDoubleSpinBox;
class QHBoxLayout;
class QLabel;
class QLineSeries;
class QListWidget;
class QPushButton;
class QScrollArea;
class QSplitter;
class QTableWidget;

class RunDashboard : public QWidget
{
    Q_OBJECT
public:
    // "thresholds passed", "threshold failed: p99 < 250ms", "no thresholds": the summary's thresholds.
    static QString thresholdsText(const QJsonArray& thresholds);
    explicit RunDashboard(RunSession* session, QWidget* parent = nullptr);
    // At most this many points per series: older ones are merged pairwise.
    static constexpr int kMaxPoints = 600;
    static void compact(QList<QPointF>& points, bool keepMax);
    int pointCount() const;

private:
    QHBoxLayout* buildControls(RunSession* session);
    void buildSeries();
    void buildTables();
    QScrollArea* buildCharts();
    QSplitter* buildBody(QScrollArea* scroll);
    void fillRows(RunSession* session);
    void follow(RunSession* session);
    void onSecond(const RunSecond& s);
    void redraw();
    void markEvent(double atS, const QString& label);
    void onFinished(const QString& status, const QByteArray& summary);
    QChartView* makeChart(const QString& title, const QString& unit, const QList<QLineSeries*>& series);

    RunSession* m_session;
    QLabel* m_title;
    QLabel* m_status;
    class QProgressBar* m_progress;
    void showHealth(const RunSecond& s);
    void showProgress(double elapsed);
    void showTotals(const QJsonObject& summary);
    static QString durationText(double seconds);
    QPushButton* m_stop;
    QPushButton* m_pause;
    QDoubleSpinBox* m_factor;
    QLineSeries* m_planned;
    QLineSeries* m_sent;
    QLineSeries* m_completed;
    QLineSeries* m_messages; // stream steps' messages received/s: shown once some came
    QLineSeries* m_p50;
    QLineSeries* m_p90;
    QLineSeries* m_p95;
    QLineSeries* m_p99;
    QLineSeries* m_p999;
    QLineSeries* m_max;
    QLineSeries* m_connections;
    QLineSeries* m_users;
    QList<QLineSeries*> m_errorsByClass; // connect, reset, timeout, http_4xx, http_5xx, protocol, tls
    // connect, reset, timeout, http_4xx, http_5xx, protocol, tls, grpc: the engine's classes
    static constexpr int kClasses = kErrorClasses;
    struct Points
    {
        QList<QPointF> sent, completed, messages, p50, p90, p95, p99, p999, max, connections, users;
        QList<QPointF> errors[kClasses];
    };
    double drawThroughput(const Points& p);
    double drawLatency(const Points& p);
    QList<QPointF> m_plannedRaw; // requests/s or users over time, as planned (unscaled)
    // m_points[a][scope]: a is 0 for all agents merged, a + 1 for agent a;
    // scope 0 is all steps, i + 1 is step i (gauges are kept in scope 0 only).
    QList<QList<Points>> m_points;
    void addPart(int agent, double t, const RunSecond::Step& total, const QVector<RunSecond::Step>& steps,
                 quint32 connections, quint32 users);
    QComboBox* m_scope;
    QComboBox* m_agent;
    double m_lastSecond = 0;
    QTableWidget* m_steps;
    // checks: one row per check of every step, counts over the run so far
    QTableWidget* m_checks;
    QList<QPair<int, int>> m_checkRows; // row -> (step, check index)
    QVector<quint64> m_checkPassed, m_checkFailed;
    void addChecks(const QVector<RunSecond::Step>& steps);
    QListWidget* m_events;
    QList<QChartView*> m_charts;
    // The target's own metrics: a line per source, shown once one is read.
    QChartView* m_server;
    QMap<QString, QLineSeries*> m_serverLines;
    QMap<QString, QList<QPointF>> m_serverPoints;
    void addServer(double t, const QMap<QString, double>& server);
    bool m_paused = false;
};
