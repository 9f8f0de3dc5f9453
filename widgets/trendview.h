#pragma once
// A scenario's runs over time: rate, error rate and percentiles as lines over its last runs, the baseline the
// user marks (kept in the project) and the runs that regressed against it marked, a table of the runs, and the
// trend as one HTML file. The workbench's `stampede-cli report trend`.
#include <QWidget>

class QChartView;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QTableView;
class TrendModel;

namespace stampede {
class ProjectStore;
}

class TrendView : public QWidget
{
    Q_OBJECT
public:
    // `store` must outlive the view; `scenario` empty: the newest run's.
    TrendView(stampede::ProjectStore& store, const QString& scenario, QWidget* parent = nullptr);
    TrendModel* model() const { return m_model; }
    QString scenario() const;
    // Marks run `row` of the table as the baseline (what the "Mark as baseline" button does).
    bool markBaseline(int row);

private:
    void reload();
    void showCharts();
    stampede::ProjectStore& m_store;
    TrendModel* m_model;
    QComboBox* m_scenario;
    QLabel* m_newest;
    QHBoxLayout* m_charts;
    QTableView* m_table;
    int m_last = 10;
    double m_tolerance = 0.1;
};
