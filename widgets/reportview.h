#pragma once
// A saved run, static: its charts, the summary per step, thresholds, events,
// the scenario as it ran, and the exports (HTML, JSON, CSV, JUnit).
#include <QWidget>

#include <memory>

class ReportModel;
class CompareModel;
class QChartView;
class QLayout;

struct ReportSection;

namespace stampede {
class ProjectStore;
} // namespace stampede

class ReportView : public QWidget
{
    Q_OBJECT
public:
    // `model` is owned by the view; `ownStore` keeps a standalone report file open.
    ReportView(ReportModel* model, std::unique_ptr<stampede::ProjectStore> ownStore = {}, QWidget* parent = nullptr);
    ~ReportView() override;
    ReportModel* model() const { return m_model; }
    // Lines over the run's seconds (a NaN point is a gap), with the run's
    // events marked at their time.
    // `milliseconds`: the values are latencies in ms, shown in µs, ms or s as they need;
    // else counts, shown with k or M past 10,000; `counts`: whole steps (connections, users).
    static QChartView* lineChart(const QString& title, const QString& unit,
                                 const QList<QPair<QString, QList<QPointF>>>& series,
                                 const QList<QPair<double, QString>>& events = {}, bool milliseconds = false,
                                 bool counts = false);

    // "APDEX 0.94 (T 500 ms): 940 satisfied · 50 tolerating · 10 frustrated"
    static QString apdexText(const ReportSection& s);

private:
    static QLayout* capacityRow(const ReportModel& model);
    QWidget* sectionRow(int scope);
    ReportModel* m_model;
    std::unique_ptr<stampede::ProjectStore> m_store;
};

// Two saved runs side by side: the changes, with regressions over the
// tolerance marked, and their charts overlaid.
class CompareView : public QWidget
{
    Q_OBJECT
public:
    CompareView(ReportModel* baseline, ReportModel* candidate, QWidget* parent = nullptr);
    CompareModel* model() const { return m_compare; }

private:
    CompareModel* m_compare;
};
