#pragma once
// A saved run as the report view shows it: the summary per step as a table,
// the per-second series for the charts, thresholds, events, the scenario as
// it ran, and the exports. And the comparison of two saved runs as a table
// with the regressions marked.
#include <QAbstractTableModel>
#include <QPointF>
#include <QStringList>

#include <map>
#include <memory>
#include <string>

namespace stampede {
class ProjectStore;
struct SavedRun;
struct RunSummary;
struct MetricsSummary;
struct CompareResult;
struct ReportOptions;
} // namespace stampede

// A scope's sections as the report view draws them (report/reportsections.h in the workbench's terms).
struct ReportSection
{
    QList<QPair<QString, quint64>> distribution; // "≤ 20 ms" and the answers in that span
    double apdex = -1;                           // -1: no answer was timed
    double apdexTMs = 500;
    quint64 satisfied = 0, tolerating = 0, frustrated = 0;
    QList<QPointF> againstThroughput; // each second with answers: (its requests, its p99 ms)
    struct TopError
    {
        int errorClass = 0; // stampede::ErrorClass
        quint64 count = 0;
        QString sample; // in the user's words where the engine composed it
    };
    QList<TopError> topErrors; // most first
};

struct RunListEntry
{
    qint64 id = 0;
    QString runId, name, started, status;
    double seconds = 0; // how long it ran
    QString verdict;    // in the words of every report, in the user's language
};

class ReportModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        StepColumn,
        RequestsColumn,
        RateColumn,
        ErrorsColumn,
        P50Column,
        P90Column,
        P99Column,
        P999Column,
        MaxColumn,
        LateColumn,
        ColumnCount
    };

    explicit ReportModel(QObject* parent = nullptr);
    ~ReportModel() override;

    static QList<RunListEntry> runs(stampede::ProjectStore& store);
    // Loads run `id` (0: the newest). Returns false with errorString().
    bool load(stampede::ProjectStore& store, qint64 id = 0);
    QString errorString() const { return m_error; }

    QString runId() const;
    QString title() const; // scenario, status, start, duration
    bool passed() const;
    // Why the run did not pass (its verdict), in the user's words; empty when it passed as planned.
    QString reason() const;
    // The verdict in the words every report says it in (verdictText): "completed and passed", "stopped when asked…".
    QString verdict() const;
    // What the verdict did not judge (RunSummary::unjudged), in the user's words; empty when nothing.
    QString unjudged() const;
    // Per second, all steps: requests, errors, messages (stream steps' messages and events received), p50, p90,
    // p95, p99, p999, max, connections, users; for all agents merged (agent -1) or agent `agent`.
    // A latency point is NaN (a gap) in a second where nothing was answered
    // (paused, or nothing sent): never a 0 ms that did not happen.
    // The scopes the charts can show, chosen in the view: the whole run, each step, each group ("group NAME"), each
    // scenario of a plan ("scenario NAME").
    QStringList scopes() const;
    // Scope `scope`'s latency distribution, APDEX, percentiles over time and top errors (report/reportsections.h),
    // from the saved histograms; APDEX at apdexT(scope).
    ReportSection section(int scope) const;
    // APDEX's target time T in ms: the whole run's (scope 0, every scope without its own) or one scope's. The
    // exports use the same.
    void setApdexT(int scope, double ms);
    double apdexT(int scope) const;
    // `scope` indexes scopes() (0: the whole run); connections and users are the run's whatever the scope.
    QList<QPointF> series(const QString& metric, int agent = -1, int scope = 0) const;
    QStringList agents() const; // the engines, when several ran and each one's seconds were kept
    // The target's own metrics read during the run (serverMetrics), and one's
    // value per second (NaN, a gap, in a second it was not read).
    QStringList serverMetrics() const;
    QList<QPointF> serverSeries(const QString& name) const;
    // A capacity search's levels, by offered rate: "p99" (ms) or "errors" (%)
    // against the offered rate; empty when the run was not a search.
    bool isCapacitySearch() const;
    QList<QPointF> capacitySeries(const QString& metric) const;
    // "1467/s met every SLO; 1532/s broke error_rate < 1%" and how it ended.
    QString capacityLine() const;
    struct Sample
    {
        QString step, errorClass, title, text;
    };
    QList<Sample> errorSamples() const;
    // "grpc: 102 (UNAVAILABLE 102)", a line per error class: the errors
    // column's tooltip.
    static QString errorBreakdown(const stampede::MetricsSummary& m);
    QStringList thresholdLines() const;
    // "order/biz code: 960 passed, 24 failed (97.56 %)", a line per check.
    QStringList checkLines() const;
    // Whether checkLines()[i] is a check that failed on some answer.
    bool checkFailed(int i) const;
    QStringList eventLines() const;
    // (seconds after the start, kind) of each event, to mark on the charts.
    QList<QPair<double, QString>> eventMarks() const;
    QString scenarioJson() const;
    // html, json, csv or junit
    QByteArray exportAs(const QString& format) const;
    const stampede::RunSummary& summary() const;
    // Judged by its tests, as newman judges a collection (a collection run's): its report lists each request.
    bool judgedByTests() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    std::string scopeName(int scope) const; // the step's, group's or scenario's own name; empty for the run
    stampede::ReportOptions options() const;
    std::unique_ptr<stampede::SavedRun> m_run;
    std::unique_ptr<stampede::RunSummary> m_summary;
    QString m_error;
    double m_apdexTMs = 500;
    std::map<std::string, double> m_apdexTByName;
};

class CompareModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        ScopeColumn,
        MetricColumn,
        BaselineColumn,
        CandidateColumn,
        ChangeColumn,
        ColumnCount
    };
    explicit CompareModel(QObject* parent = nullptr);
    ~CompareModel() override;
    // tolerance: 0.1 for 10 %
    void compare(const ReportModel& baseline, const ReportModel& candidate, double tolerance);
    bool regressed() const;
    int regressionCount() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    std::unique_ptr<stampede::CompareResult> m_result;
};
