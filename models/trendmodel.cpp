#include "trendmodel.h"

#include "enginetext.h"

#include "report/trendreport.h"
#include "store/projectstore.h"
#include "store/runlog.h"

#include <QColor>
#include <QFont>

#include <algorithm>

// "total" in the user's words; a step, "group NAME" or "scenario NAME" as the run names it.
QString TrendModel::scopeText(const std::string& scope)
{
    return scope == "total" ? tr("total") : QString::fromStdString(scope);
}

TrendModel::TrendModel(QObject* parent) : QAbstractTableModel(parent) {}

TrendModel::~TrendModel() = default;

QStringList TrendModel::scenarios(stampede::ProjectStore& store)
{
    QStringList out;
    const auto runs = stampede::RunLog(store).runs();
    for (auto it = runs.rbegin(); it != runs.rend(); ++it)
        if (it->status == "completed" && !out.contains(QString::fromStdString(it->name)))
            out << QString::fromStdString(it->name);
    return out;
}

bool TrendModel::load(stampede::ProjectStore& store, const QString& scenario, int last, double tolerance)
{
    beginResetModel();
    m_store = &store;
    m_scenario = scenario;
    m_last = last;
    m_tolerance = tolerance;
    std::string error;
    auto trend =
        stampede::loadTrend(store, {scenario.toStdString(), std::size_t(std::max(2, last)), {}, tolerance}, error);
    m_trend = trend ? std::make_unique<stampede::Trend>(std::move(*trend)) : nullptr;
    m_error = trend ? QString() : engineText(QString::fromStdString(error));
    endResetModel();
    return m_trend != nullptr;
}

bool TrendModel::setBaseline(int row)
{
    if (!m_trend || !m_store || row < 0 || row >= int(m_trend->runs.size()))
        return false;
    const std::string scenario = m_trend->scenario;
    if (!m_store->setSetting(stampede::trendBaselineKey(scenario), m_trend->runs[std::size_t(row)].info.runId))
        return false;
    return load(*m_store, QString::fromStdString(scenario), m_last, m_tolerance);
}

int TrendModel::baseline() const
{
    return m_trend ? int(m_trend->baseline) : -1;
}

bool TrendModel::newestRegressed() const
{
    return m_trend && m_trend->newestRegressed();
}

bool TrendModel::regressed(int row) const
{
    return m_trend && row >= 0 && row < int(m_trend->runs.size()) &&
           !m_trend->runs[std::size_t(row)].regressions.empty();
}

QString TrendModel::newestText() const
{
    if (!m_trend || m_trend->runs.empty())
        return m_error;
    if (m_trend->runs.size() < 2 || m_trend->baseline + 1 == m_trend->runs.size())
        return tr("The newest run is the baseline: nothing to compare it with");
    if (!m_trend->newestRegressed())
        return tr("The newest run holds against the baseline");
    QStringList what;
    for (const auto& r : m_trend->runs.back().regressions)
        what
            << (r.fromZero
                    ? QStringLiteral("%1 %2 new").arg(QString::fromStdString(r.scope), QString::fromStdString(r.metric))
                    : QStringLiteral("%1 %2 %3%4 %")
                          .arg(QString::fromStdString(r.scope), QString::fromStdString(r.metric),
                               r.change >= 0 ? QStringLiteral("+") : QString())
                          .arg(r.change * 100, 0, 'f', 0));
    return tr("The newest run regressed against the baseline: %1").arg(what.mid(0, 4).join(QStringLiteral(", ")));
}

QList<QPointF> TrendModel::series(const QString& metric) const
{
    QList<QPointF> out;
    if (!m_trend)
        return out;
    for (std::size_t i = 0; i < m_trend->runs.size(); ++i) {
        const auto& m = m_trend->runs[i].summary.total;
        const double v = metric == QLatin1String("rate")         ? m.rate
                         : metric == QLatin1String("error_rate") ? m.errorRatePct()
                         : metric == QLatin1String("p50")        ? m.latency.p50
                         : metric == QLatin1String("p95")        ? m.latency.p95
                                                                 : m.latency.p99;
        out.append(QPointF(double(i + 1), v));
    }
    return out;
}

QByteArray TrendModel::html() const
{
    return m_trend ? QByteArray::fromStdString(stampede::trendToHtml(*m_trend)) : QByteArray();
}

int TrendModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_trend ? 0 : int(m_trend->runs.size());
}

int TrendModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TrendModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_trend)
        return {};
    const auto row = std::size_t(index.row());
    const stampede::TrendRun& r = m_trend->runs[row];
    const auto& m = r.summary.total;
    if (role == Qt::BackgroundRole && !r.regressions.empty())
        return QColor(0xfa, 0xdb, 0xd8);
    if (role == Qt::FontRole && row == m_trend->baseline) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::TextAlignmentRole && index.column() >= RateColumn && index.column() <= P99Column)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == RunColumn)
        return QString::fromStdString(r.info.runId);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case RunColumn:
        return row == m_trend->baseline ? tr("%1 (baseline)").arg(r.info.id) : QString::number(r.info.id);
    case StartedColumn:
        return QString::fromStdString(r.info.started.substr(0, 19)).replace(QLatin1Char('T'), QLatin1Char(' '));
    case RateColumn:
        return QString::number(m.rate, 'f', 1);
    case ErrorRateColumn:
        return QString::number(m.errorRatePct(), 'f', 2);
    case P50Column:
        return QString::number(m.latency.p50, 'f', 2);
    case P95Column:
        return QString::number(m.latency.p95, 'f', 2);
    case P99Column:
        return QString::number(m.latency.p99, 'f', 2);
    case VerdictColumn:
        return engineText(QString::fromStdString(r.info.verdict));
    case AgainstColumn: {
        if (row == m_trend->baseline)
            return tr("the baseline");
        if (r.regressions.empty())
            return tr("holds");
        QStringList what;
        for (const auto& g : r.regressions)
            what << QStringLiteral("%1 %2").arg(scopeText(g.scope), QString::fromStdString(g.metric));
        return tr("regressed: %1").arg(what.join(QStringLiteral(", ")));
    }
    default:
        return {};
    }
}

QVariant TrendModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RunColumn:
        return tr("Run");
    case StartedColumn:
        return tr("Started");
    case RateColumn:
        return tr("Rate/s");
    case ErrorRateColumn:
        return tr("Errors %");
    case P50Column:
        return tr("p50 ms");
    case P95Column:
        return tr("p95 ms");
    case P99Column:
        return tr("p99 ms");
    case VerdictColumn:
        return tr("Verdict");
    case AgainstColumn:
        return tr("Against the baseline");
    default:
        return {};
    }
}
