#include "trendview.h"

#include "reportview.h"
#include "timechart.h"
#include "trendmodel.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>

TrendView::TrendView(stampede::ProjectStore& store, const QString& scenario, QWidget* parent)
    : QWidget(parent), m_store(store), m_model(new TrendModel(this))
{
    m_scenario = new QComboBox;
    m_scenario->setObjectName(QStringLiteral("trendScenario"));
    m_scenario->setToolTip(tr("The scenario whose completed runs are shown"));
    m_scenario->addItems(TrendModel::scenarios(store));
    if (!scenario.isEmpty())
        m_scenario->setCurrentText(scenario);
    auto* last = new QSpinBox;
    last->setRange(2, 1000);
    last->setValue(m_last);
    last->setPrefix(tr("last "));
    last->setSuffix(tr(" runs"));
    last->setToolTip(tr("How many of the scenario's newest completed runs are shown"));
    auto* tolerance = new QDoubleSpinBox;
    tolerance->setRange(0, 1000);
    tolerance->setValue(m_tolerance * 100);
    tolerance->setSuffix(QStringLiteral(" %"));
    tolerance->setToolTip(tr("A change for the worse against the baseline beyond this is a regression"));
    auto* mark = new QPushButton(tr("Mark as baseline"));
    mark->setObjectName(QStringLiteral("markBaseline"));
    mark->setToolTip(tr("The selected run becomes the scenario's baseline, kept in the project (stampede-cli "
                        "report trend uses it too)"));
    auto* exportHtml = new QPushButton(tr("Export HTML…"));
    m_newest = new QLabel;
    m_newest->setObjectName(QStringLiteral("trendNewest"));
    m_newest->setWordWrap(true);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Scenario:")));
    top->addWidget(m_scenario);
    top->addWidget(last);
    top->addWidget(new QLabel(tr("Tolerance:")));
    top->addWidget(tolerance);
    top->addWidget(mark);
    top->addWidget(exportHtml);
    top->addStretch(1);
    m_charts = new QHBoxLayout;
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("trendRuns"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_newest);
    layout->addLayout(m_charts, 3);
    layout->addWidget(m_table, 2);
    connect(m_scenario, &QComboBox::currentTextChanged, this, &TrendView::reload);
    connect(last, &QSpinBox::valueChanged, this, [this](int n) {
        m_last = n;
        reload();
    });
    connect(tolerance, &QDoubleSpinBox::valueChanged, this, [this](double pct) {
        m_tolerance = pct / 100;
        reload();
    });
    connect(mark, &QPushButton::clicked, this, [this] {
        const QModelIndexList rows = m_table->selectionModel()->selectedRows();
        if (rows.isEmpty()) {
            QMessageBox::information(this, tr("Mark as baseline"), tr("Select the run to compare the others with."));
            return;
        }
        markBaseline(rows.first().row());
    });
    connect(exportHtml, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export trend"), QStringLiteral("trend-%1.html").arg(m_scenario->currentText()));
        if (path.isEmpty())
            return;
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(m_model->html()) < 0)
            QMessageBox::warning(this, tr("Export trend"), out.errorString());
    });
    reload();
}

QString TrendView::scenario() const
{
    return m_scenario->currentText();
}

bool TrendView::markBaseline(int row)
{
    if (!m_model->setBaseline(row))
        return false;
    showCharts();
    return true;
}

void TrendView::reload()
{
    if (!m_model->load(m_store, m_scenario->currentText(), m_last, m_tolerance))
        m_newest->setText(m_model->errorString());
    showCharts();
}

// The lines over the runs, the baseline and the regressed runs marked on them.
void TrendView::showCharts()
{
    while (QLayoutItem* item = m_charts->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    if (!m_model->rowCount())
        return;
    m_newest->setText(m_model->newestText());
    m_newest->setStyleSheet(m_model->newestRegressed() ? QStringLiteral("color: #c0392b; font-weight: bold")
                                                       : QStringLiteral("font-weight: bold"));
    QList<QPair<double, QString>> marks{{double(m_model->baseline() + 1), tr("baseline")}};
    for (int r = 0; r < m_model->rowCount(); ++r)
        if (m_model->regressed(r))
            marks.append({double(r + 1), tr("regressed")});
    const struct
    {
        QString title, unit;
        QList<QPair<QString, QList<QPointF>>> lines;
        bool ms;
    } charts[] = {
        {tr("Throughput over runs"), tr("requests/s"), {{tr("rate"), m_model->series(QStringLiteral("rate"))}}, false},
        {tr("Error rate over runs"), tr("%"), {{tr("errors"), m_model->series(QStringLiteral("error_rate"))}}, false},
        {tr("Latency over runs"),
         tr("ms"),
         {{QStringLiteral("p50"), m_model->series(QStringLiteral("p50"))},
          {QStringLiteral("p95"), m_model->series(QStringLiteral("p95"))},
          {QStringLiteral("p99"), m_model->series(QStringLiteral("p99"))}},
         true},
    };
    for (const auto& c : charts) {
        QChartView* view = ReportView::lineChart(c.title, c.unit, c.lines, marks, c.ms);
        if (auto* x = qobject_cast<QValueAxis*>(view->chart()->axes(Qt::Horizontal).value(0))) {
            x->setTitleText(tr("run (oldest first)"));
            if (m_model->rowCount() <= 12) { // a tick a run, none at the edge
                x->setRange(0, double(m_model->rowCount()) + 1);
                x->setTickCount(m_model->rowCount() + 2);
                x->setLabelFormat(QStringLiteral("%d"));
            } else {
                timechart::setNiceRange(x, 0, double(m_model->rowCount()) + 1);
            }
        }
        m_charts->addWidget(view);
    }
}
