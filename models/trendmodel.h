#pragma once
// A scenario's runs side by side for the workbench's trend view (report/trendreport.h, as `stampede-cli report
// trend` shows them): a row per run, oldest first, with its rate, error rate, percentiles, verdict and what
// regressed against the baseline; the lines over runs for the charts; the baseline the user marks, kept in the
// project (the command line's trend uses the same one).
#include <QAbstractTableModel>
#include <QPointF>
#include <QStringList>

#include <memory>
#include <string>

namespace stampede {
class ProjectStore;
struct Trend;
} // namespace stampede

class TrendModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        RunColumn,
        StartedColumn,
        RateColumn,
        ErrorRateColumn,
        P50Column,
        P95Column,
        P99Column,
        VerdictColumn,
        AgainstColumn,
        ColumnCount
    };
    explicit TrendModel(QObject* parent = nullptr);
    ~TrendModel() override;

    // The scenarios with completed runs in `store`, the newest run's first.
    static QStringList scenarios(stampede::ProjectStore& store);
    // The last `last` completed runs of `scenario` against the baseline marked for it (else the oldest listed),
    // `tolerance` 0.1 for 10 %. False with errorString() when it has none. `store` must outlive the model.
    bool load(stampede::ProjectStore& store, const QString& scenario, int last, double tolerance);
    QString errorString() const { return m_error; }
    // Marks run `row` as the scenario's baseline, in the project, and compares again.
    bool setBaseline(int row);
    int baseline() const;
    bool newestRegressed() const;
    // What became of the newest run, in the user's words.
    QString newestText() const;
    // Over the runs (x: 1, 2, … as the rows): "rate" (/s), "error_rate" (%), "p50", "p95", "p99" (ms).
    QList<QPointF> series(const QString& metric) const;
    bool regressed(int row) const;
    // The trend as one HTML file (report/trendreport.h).
    QByteArray html() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    static QString scopeText(const std::string& scope);
    stampede::ProjectStore* m_store = nullptr;
    QString m_scenario;
    int m_last = 10;
    double m_tolerance = 0.1;
    std::unique_ptr<stampede::Trend> m_trend;
    QString m_error;
};
