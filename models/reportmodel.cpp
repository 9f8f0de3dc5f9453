#include "reportmodel.h"
#include "enginetext.h"
#include "reportwords.h"
#include "runsecond.h"

#include "projecttreemodel.h"

#include "report/reportsections.h"
#include "report/savedreport.h"
#include "store/projectstore.h"
#include "store/runlog.h"

#include <QColor>
#include <QFont>
#include <algorithm>

using namespace stampede;

ReportModel::ReportModel(QObject* parent)
    : QAbstractTableModel(parent), m_run(std::make_unique<SavedRun>()), m_summary(std::make_unique<RunSummary>())
{
}

ReportModel::~ReportModel() = default;

QList<RunListEntry> ReportModel::runs(ProjectStore& store)
{
    QList<RunListEntry> out;
    for (const auto& r : RunLog(store).runs())
        out.append({r.id, QString::fromStdString(r.runId), QString::fromStdString(r.name),
                    QString::fromStdString(r.started), QString::fromStdString(r.status), r.durationS,
                    engineText(QString::fromStdString(r.verdict))});
    return out;
}

bool ReportModel::load(ProjectStore& store, qint64 id)
{
    RunLog log(store);
    const auto found = id ? std::optional<std::int64_t>(id) : log.find({});
    if (!found) {
        m_error = tr("The file holds no run.");
        return false;
    }
    auto run = log.load(*found);
    if (!run) {
        m_error = QString::fromStdString(log.error());
        return false;
    }
    beginResetModel();
    *m_run = std::move(*run);
    *m_summary = summarizeSaved(*m_run);
    endResetModel();
    return true;
}

QString ReportModel::runId() const
{
    return QString::fromStdString(m_run->info.runId);
}

QString ReportModel::title() const
{
    return tr("%1 · run %2 · %3 · started %4 · %5 s")
        .arg(QString::fromStdString(m_summary->scenario), runId(), ProjectTreeModel::statusText(m_run->info.status),
             QString::fromStdString(m_run->info.started))
        .arg(m_summary->durationS, 0, 'f', 0);
}

bool ReportModel::passed() const
{
    return m_summary->passed;
}

QStringList ReportModel::scopes() const
{
    QStringList out{tr("all steps")};
    for (const auto& name : m_run->stepNames)
        out << QString::fromStdString(name);
    for (const auto& name : m_run->groupNames)
        out << tr("group %1").arg(QString::fromStdString(name));
    for (const auto& sc : m_run->scenarios)
        out << tr("scenario %1").arg(QString::fromStdString(sc.name));
    return out;
}

std::string ReportModel::scopeName(int scope) const
{
    const int steps = int(m_run->stepNames.size()), groups = int(m_run->groupNames.size());
    if (scope <= 0)
        return {};
    if (scope <= steps)
        return m_run->stepNames[std::size_t(scope - 1)];
    if (scope <= steps + groups)
        return m_run->groupNames[std::size_t(scope - 1 - steps)];
    const auto k = std::size_t(scope - 1 - steps - groups);
    return k < m_run->scenarios.size() ? m_run->scenarios[k].name : std::string();
}

stampede::ReportOptions ReportModel::options() const
{
    stampede::ReportOptions o;
    o.apdexTMs = m_apdexTMs;
    o.apdexTByName = m_apdexTByName;
    return o;
}

ReportSection ReportModel::section(int scope) const
{
    const stampede::ReportOptions o = options();
    // only the scope shown (scopes(): the run, then the steps, the groups, the scenarios)
    const auto steps = std::size_t(m_run->stepNames.size()), groups = m_run->groupNames.size();
    const auto at = std::size_t(std::max(scope - 1, 0));
    using Kind = stampede::StepSection::Kind;
    const stampede::StepSection s =
        scope <= 0            ? stampede::reportSection(*m_run, *m_summary, o, Kind::Run, 0)
        : at < steps          ? stampede::reportSection(*m_run, *m_summary, o, Kind::Step, at)
        : at < steps + groups ? stampede::reportSection(*m_run, *m_summary, o, Kind::Group, at - steps)
        : at < steps + groups + m_run->scenarios.size()
            ? stampede::reportSection(*m_run, *m_summary, o, Kind::Scenario, at - steps - groups)
            : stampede::StepSection{};
    ReportSection out;
    for (const auto& b : s.distribution)
        out.distribution.append({b.toMs < 1       ? QStringLiteral("≤ %1 µs").arg(b.toMs * 1000, 0, 'f', 0)
                                 : b.toMs < 10000 ? QStringLiteral("≤ %1 ms").arg(b.toMs, 0, 'f', 0)
                                                  : QStringLiteral("≤ %1 s").arg(b.toMs / 1000, 0, 'f', 0),
                                 quint64(b.count)});
    out.apdex = s.apdex;
    out.apdexTMs = s.apdexTMs;
    out.satisfied = s.satisfied;
    out.tolerating = s.tolerating;
    out.frustrated = s.frustrated;
    for (const auto& t : s.overTime)
        out.againstThroughput.append(QPointF(double(t.requests), t.p99));
    for (const auto& e : s.topErrors) {
        int cls = 0;
        while (cls < int(stampede::kErrorClassCount) &&
               e.errorClass != stampede::errorClassName(stampede::ErrorClass(cls)))
            ++cls;
        out.topErrors.append({cls, quint64(e.count), engineText(QString::fromStdString(e.sample))});
    }
    return out;
}

void ReportModel::setApdexT(int scope, double ms)
{
    if (scope <= 0)
        m_apdexTMs = ms;
    else if (const std::string name = scopeName(scope); !name.empty())
        m_apdexTByName[name] = ms;
}

double ReportModel::apdexT(int scope) const
{
    return options().apdexTFor(scopeName(scope));
}

QList<QPointF> ReportModel::series(const QString& metric, int agent, int scope) const
{
    QList<QPointF> out;
    const std::string agentName = agent >= 0 && std::size_t(agent) < m_run->agents.size() ? m_run->agents[agent] : "";
    const int steps = int(m_run->stepNames.size());
    const bool run = scope <= 0 || metric == QLatin1String("connections") || metric == QLatin1String("users");
    const int groups = int(m_run->groupNames.size());
    const bool scenario = !run && scope > steps + groups;  // a plan's scenario: its steps' seconds together
    const bool group = !run && !scenario && scope > steps; // groups' seconds are merged over the engines
    const int step = run ? -1 : scenario ? scope - 1 - steps - groups : group ? scope - 1 - steps : scope - 1;
    const auto& rows = scenario            ? m_run->scenarioRows
                       : group             ? m_run->groupRows
                       : agentName.empty() ? m_run->rows
                                           : m_run->agentRows;
    for (const auto& r : rows) {
        if (r.step != step || r.agent != (group || scenario ? std::string() : agentName))
            continue;
        const bool latency = metric.startsWith(QLatin1Char('p')) || metric == QLatin1String("max");
        if (latency && r.counters.requests == 0) { // nothing answered (paused, or nothing sent): a gap, not 0 ms
            out.append(QPointF(r.second, qQNaN()));
            continue;
        }
        const double v = metric == QLatin1String("requests")      ? double(r.counters.requests)
                         : metric == QLatin1String("errors")      ? double(r.counters.errors)
                         : metric == QLatin1String("messages")    ? double(r.counters.messagesReceived)
                         : metric == QLatin1String("p50")         ? r.p50Ms
                         : metric == QLatin1String("p90")         ? r.p90Ms
                         : metric == QLatin1String("p95")         ? r.p95Ms
                         : metric == QLatin1String("p99")         ? r.p99Ms
                         : metric == QLatin1String("p999")        ? r.p999Ms
                         : metric == QLatin1String("connections") ? double(r.openConnections)
                         : metric == QLatin1String("users")       ? double(r.activeUsers)
                                                                  : r.maxMs;
        out.append(QPointF(r.second, v));
    }
    return out;
}

QStringList ReportModel::serverMetrics() const
{
    QStringList out;
    for (const auto& r : m_run->rows)
        for (const auto& [name, value] : r.server)
            if (!out.contains(QString::fromStdString(name)))
                out << QString::fromStdString(name);
    out.sort();
    return out;
}

QList<QPointF> ReportModel::serverSeries(const QString& name) const
{
    QList<QPointF> out;
    const std::string key = name.toStdString();
    for (const auto& r : m_run->rows) {
        if (r.step != -1 || !r.agent.empty())
            continue;
        const auto it = r.server.find(key);
        out.append(QPointF(r.second, it == r.server.end() ? qQNaN() : it->second));
    }
    return out;
}

bool ReportModel::isCapacitySearch() const
{
    return m_summary->capacity.has_value();
}

QList<QPointF> ReportModel::capacitySeries(const QString& metric) const
{
    QList<QPointF> out;
    if (!m_summary->capacity)
        return out;
    for (const auto& l : m_summary->capacity->levels)
        out.append(QPointF(l.rate, metric == QLatin1String("p99") ? l.p99Ms : l.errorRatePct));
    std::sort(out.begin(), out.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    return out;
}

QString ReportModel::capacityLine() const
{
    if (!m_summary->capacity)
        return {};
    const stampede::CapacityResult& c = *m_summary->capacity;
    QString line = c.rate > 0 ? tr("Capacity: %1/s met every SLO").arg(c.rate, 0, 'f', 1)
                              : tr("Capacity: not even the start rate met every SLO");
    if (!c.brokenBy.empty())
        line += tr("; %1/s broke %2").arg(c.brokenAt, 0, 'f', 1).arg(QString::fromStdString(c.brokenBy));
    line += tr(" (%n level(s))", nullptr, int(c.levels.size()));
    return line;
}

QStringList ReportModel::agents() const
{
    QStringList out;
    if (m_run->agentRows.empty())
        return out;
    for (const auto& a : m_run->agents)
        out << QString::fromStdString(a);
    return out;
}

QList<ReportModel::Sample> ReportModel::errorSamples() const
{
    QList<Sample> out;
    for (const auto& e : m_run->samples) {
        Sample s;
        s.step = e.step < m_run->stepNames.size() ? QString::fromStdString(m_run->stepNames[e.step])
                                                  : QString::number(e.step);
        s.errorClass = errorClassText(int(e.errorClass));
        s.title = e.status ? tr("%1 · %2 · status %3 · second %4").arg(s.step, s.errorClass).arg(e.status).arg(e.second)
                           : tr("%1 · %2 · second %3").arg(s.step, s.errorClass).arg(e.second);
        // why, in the user's words; then the answer's bytes as they came
        const QString why = engineText(QString::fromStdString(printableSample(e.detail)));
        const QString answer = e.head.empty() && e.body.empty()
                                   ? QString()
                                   : QString::fromStdString(printableSample(e.head + "\n\n" + decodedSampleBody(e)));
        s.text = why.isEmpty() ? answer : answer.isEmpty() ? why : why + QStringLiteral("\n\n") + answer;
        if (!e.trace.empty()) // to look the request up in the tracing system
            s.text = tr("trace id %1").arg(QString::fromStdString(e.trace)) + QStringLiteral("\n\n") + s.text;
        out << s;
    }
    return out;
}

QStringList ReportModel::checkLines() const
{
    QStringList out;
    for (const auto& c : m_summary->total.checks) {
        const std::uint64_t judged = c.passed + c.failed;
        QString line =
            tr("%1: %2 passed, %3 failed (%4)")
                .arg(QString::fromStdString(c.name))
                .arg(c.passed)
                .arg(c.failed)
                .arg(judged ? QStringLiteral("%1 %").arg(100.0 * double(c.passed) / double(judged), 0, 'f', 2)
                            : QStringLiteral("-"));
        if (c.failed && !c.message.empty()) // why, as the first failure said it
            line += QStringLiteral(" - ") + QString::fromStdString(c.message);
        out << line;
    }
    return out;
}

bool ReportModel::judgedByTests() const
{
    return m_summary->testsVerdict;
}

QStringList ReportModel::thresholdLines() const
{
    QStringList out;
    for (const auto& t : m_summary->thresholds)
        out << tr("%1 %2 (measured %3)")
                   .arg(t.passed ? tr("PASS") : tr("FAIL"), QString::fromStdString(t.expr))
                   .arg(!t.note.empty() ? engineText(QString::fromStdString(t.note))
                                        : QString::fromStdString(measuredText(t)));
    return out;
}

QString ReportModel::unjudged() const
{
    return m_summary->passed ? engineText(QString::fromStdString(m_summary->unjudged)) : QString();
}

QString ReportModel::reason() const
{
    return m_summary->passed ? QString() : verdict();
}

QString ReportModel::verdict() const
{
    return engineText(QString::fromStdString(verdictText(*m_summary)));
}

bool ReportModel::checkFailed(int i) const
{
    const auto& judged = m_summary->total.checks;
    return i >= 0 && std::size_t(i) < judged.size() && judged[std::size_t(i)].failed;
}

QList<QPair<double, QString>> ReportModel::eventMarks() const
{
    QList<QPair<double, QString>> out;
    for (const auto& e : m_summary->events)
        if (e.kind.rfind("capacity_", 0) != 0) // a search's level ends where the next one's scaling is marked
            out.append({e.atS, eventKindText(QString::fromStdString(e.kind))});
    return out;
}

QStringList ReportModel::eventLines() const
{
    QStringList out;
    for (const auto& e : m_summary->events)
        out << QStringLiteral("%1 s  %2  %3  %4")
                   .arg(e.atS, 0, 'f', 1)
                   .arg(eventKindText(QString::fromStdString(e.kind)), QString::fromStdString(e.agent),
                        engineText(QString::fromStdString(e.detail)));
    return out;
}

QString ReportModel::scenarioJson() const
{
    return QString::fromStdString(m_run->scenarioJson);
}

QByteArray ReportModel::exportAs(const QString& format) const
{
    std::string text;
    stampede::ReportOptions options = this->options();
    options.words = reportWords();
    if (format == QLatin1String("html"))
        text = exportHtml(*m_run, *m_summary, options);
    else if (format == QLatin1String("json"))
        text = exportJson(*m_run, *m_summary, options);
    else if (format == QLatin1String("csv"))
        text = exportCsv(*m_run);
    else if (format == QLatin1String("junit"))
        text = exportJUnit(*m_summary);
    return QByteArray::fromStdString(text);
}

const RunSummary& ReportModel::summary() const
{
    return *m_summary;
}

int ReportModel::rowCount(const QModelIndex& parent) const
{
    // the steps, their total, then the groups (transactions) and a plan's scenarios
    return parent.isValid() ? 0
                            : int(m_summary->steps.size()) + (m_summary->steps.empty() ? 0 : 1) +
                                  int(m_summary->groups.size() + m_summary->scenarios.size());
}

int ReportModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ReportModel::errorBreakdown(const stampede::MetricsSummary& m)
{
    QStringList lines;
    for (std::size_t i = 0; i < stampede::kErrorClassCount; ++i) {
        if (!m.errorsByClass[i])
            continue;
        QString line = QStringLiteral("%1: %2").arg(errorClassText(int(i))).arg(m.errorsByClass[i]);
        if (stampede::ErrorClass(i) == stampede::ErrorClass::Grpc) {
            QStringList codes;
            for (std::size_t k = 1; k < stampede::kGrpcCodeCount; ++k)
                if (m.grpcCodes[k])
                    codes << QStringLiteral("%1 %2")
                                 .arg(QString::fromStdString(stampede::grpcCodeName(int(k))))
                                 .arg(m.grpcCodes[k]);
            line += QStringLiteral(" (") + codes.join(QStringLiteral(", ")) + QLatin1Char(')');
        }
        lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

QVariant ReportModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const auto row = std::size_t(index.row());
    const std::size_t steps = m_summary->steps.size(), groups = m_summary->groups.size();
    const bool isTotal = row == steps;
    const bool isGroup = row > steps && row <= steps + groups;
    const bool isScenario = row > steps + groups;
    const MetricsSummary& m = isTotal      ? m_summary->total
                              : isGroup    ? m_summary->groups[row - steps - 1]
                              : isScenario ? m_summary->scenarios[row - steps - groups - 1]
                                           : m_summary->steps[row];
    if (role == Qt::ToolTipRole && index.column() == StepColumn && (isGroup || isScenario))
        return isGroup ? tr("A group (transaction): per iteration, from its first step's start to its last step's end")
                       : tr("A scenario of the plan: its steps together");
    if (role == Qt::FontRole && isTotal) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::TextAlignmentRole && index.column() != StepColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == ErrorsColumn && m.errors)
        return errorBreakdown(m);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case StepColumn:
        return isTotal      ? tr("total")
               : isGroup    ? tr("group %1").arg(QString::fromStdString(m.name))
               : isScenario ? tr("scenario %1").arg(QString::fromStdString(m.name))
                            : QString::fromStdString(m.name);
    case RequestsColumn:
        return qulonglong(m.requests);
    case RateColumn:
        return QString::number(m.rate, 'f', 1);
    case ErrorsColumn:
        return qulonglong(m.errors);
    case P50Column:
        return QString::number(m.latency.p50, 'f', 2);
    case P90Column:
        return QString::number(m.latency.p90, 'f', 2);
    case P99Column:
        return QString::number(m.latency.p99, 'f', 2);
    case P999Column:
        return QString::number(m.latency.p999, 'f', 2);
    case MaxColumn:
        return QString::number(m.latency.max, 'f', 2);
    case LateColumn:
        return QStringLiteral("%1/%2").arg(m.late).arg(m.dropped);
    }
    return {};
}

QVariant ReportModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, o, role);
    const char* names[] = {QT_TR_NOOP("Step"),        QT_TR_NOOP("Requests"), QT_TR_NOOP("Rate/s"),
                           QT_TR_NOOP("Errors"),      QT_TR_NOOP("p50 ms"),   QT_TR_NOOP("p90 ms"),
                           QT_TR_NOOP("p99 ms"),      QT_TR_NOOP("p99.9 ms"), QT_TR_NOOP("max ms"),
                           QT_TR_NOOP("Late/dropped")};
    return section < ColumnCount ? tr(names[section]) : QVariant();
}

CompareModel::CompareModel(QObject* parent) : QAbstractTableModel(parent), m_result(std::make_unique<CompareResult>())
{
}

CompareModel::~CompareModel() = default;

void CompareModel::compare(const ReportModel& baseline, const ReportModel& candidate, double tolerance)
{
    beginResetModel();
    *m_result = compareRuns(baseline.summary(), candidate.summary(), tolerance);
    endResetModel();
}

bool CompareModel::regressed() const
{
    return m_result->regressed;
}

int CompareModel::regressionCount() const
{
    return int(
        std::count_if(m_result->rows.begin(), m_result->rows.end(), [](const CompareRow& r) { return r.regression; }));
}

int CompareModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_result->rows.size());
}

int CompareModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CompareModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const CompareRow& r = m_result->rows[std::size_t(index.row())];
    if (role == Qt::BackgroundRole && r.regression)
        return QColor(0xfa, 0xdb, 0xd8);
    if (role == Qt::ToolTipRole && r.regression)
        return tr("Worse than the baseline beyond the tolerance");
    if (role == Qt::TextAlignmentRole && index.column() >= BaselineColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case ScopeColumn:
        return r.scope == "total" ? tr("total") : QString::fromStdString(r.scope);
    case MetricColumn:
        return QString::fromStdString(r.metric);
    case BaselineColumn:
        return QString::number(r.baseline, 'f', 3);
    case CandidateColumn:
        return QString::number(r.candidate, 'f', 3);
    case ChangeColumn:
        return QStringLiteral("%1%2 %")
            .arg(r.change >= 0 ? QStringLiteral("+") : QString())
            .arg(r.change * 100, 0, 'f', 1);
    }
    return {};
}

QVariant CompareModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, o, role);
    const char* names[] = {QT_TR_NOOP("Scope"), QT_TR_NOOP("Metric"), QT_TR_NOOP("Baseline"), QT_TR_NOOP("Candidate"),
                           QT_TR_NOOP("Change")};
    return section < ColumnCount ? tr(names[section]) : QVariant();
}
