#include "reportview.h"

#include "collectionrunner.h"

#include "enginetext.h"
#include "jsontext.h"
#include "projecttreemodel.h"
#include "reportmodel.h"
#include "runsecond.h"
#include "timechart.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScatterSeries>
#include <QScrollArea>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <memory>

QChartView* ReportView::lineChart(const QString& title, const QString& unit,
                                  const QList<QPair<QString, QList<QPointF>>>& series,
                                  const QList<QPair<double, QString>>& events, bool milliseconds, bool counts)
{
    double maxX = 1, maxY = 0;
    for (const auto& [name, points] : series)
        for (const auto& p : points) {
            maxX = std::max(maxX, p.x());
            if (!std::isnan(p.y()))
                maxY = std::max(maxY, p.y());
        }
    const timechart::Scale scale = milliseconds ? timechart::millisecondScale(maxY) : timechart::countScale(maxY, unit);
    maxY = std::max(maxY / scale.divisor, milliseconds && maxY > 0 ? 0.0 : 1.0);
    if (maxY <= 0)
        maxY = 1;
    QChartView* view = timechart::makeView(title, scale.unit);
    view->setMinimumHeight(260); // room for the axes' labels
    QChart* chart = view->chart();
    auto* x = qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).value(0));
    auto* y = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).value(0));
    int colour = 0;
    for (const auto& [name, points] : series)
        timechart::addLine(view, name, timechart::seriesColour(colour++), timechart::scaled(points, scale.divisor));
    // named in the legend beside few lines and few marks only: a dozen marks crowd the names out
    timechart::addEventMarks(view, events, maxY * 1.1, series.size() <= 2 && events.size() <= 3);
    timechart::setNiceRange(x, 0, maxX);
    if (counts)
        timechart::setCountRange(y, maxY * 1.05);
    else
        timechart::setNiceRange(y, 0, maxY * 1.05);
    return view;
}

// The shown scope's latency distribution (counts between the bounds of a 1-2-5 scale, from the saved histogram).
static QChartView* distributionChart(const ReportSection& s)
{
    auto* chart = new QChart;
    chart->setTitle(ReportView::tr("Latency distribution"));
    auto* set = new QBarSet(ReportView::tr("requests"));
    set->setColor(timechart::seriesColour(0));
    QStringList bounds;
    double most = 0;
    for (const auto& [bound, count] : s.distribution) {
        *set << double(count);
        most = std::max(most, double(count));
        bounds << bound;
    }
    auto* bars = new QBarSeries;
    bars->append(set);
    chart->addSeries(bars);
    auto* x = new QBarCategoryAxis;
    x->append(bounds);
    auto* y = new QValueAxis;
    y->setTitleText(ReportView::tr("requests"));
    timechart::setCountRange(y, most * 1.05);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    bars->attachAxis(x);
    bars->attachAxis(y);
    chart->legend()->hide();
    chart->setMargins(QMargins(4, 4, 4, 4));
    auto* view = new QChartView(chart);
    view->setObjectName(QStringLiteral("distribution"));
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(240);
    view->setToolTip(ReportView::tr("How many answers took each span of time, over the whole run (exact, from the "
                                    "saved histograms)"));
    return view;
}

// Each second of the shown scope as a dot: its throughput, its p99 (does latency rise with load?).
static QChartView* againstThroughputChart(const ReportSection& s)
{
    auto* chart = new QChart;
    chart->setTitle(ReportView::tr("p99 against throughput"));
    auto* dots = new QScatterSeries;
    dots->setName(ReportView::tr("a second"));
    dots->setColor(timechart::seriesColour(0));
    dots->setBorderColor(timechart::seriesColour(0));
    dots->setMarkerSize(7);
    double maxX = 1, maxY = 0;
    for (const QPointF& p : s.againstThroughput) {
        dots->append(p);
        maxX = std::max(maxX, p.x());
        maxY = std::max(maxY, p.y());
    }
    chart->addSeries(dots);
    auto* x = new QValueAxis;
    x->setTitleText(ReportView::tr("requests/s"));
    timechart::setNiceRange(x, 0, maxX * 1.05);
    auto* y = new QValueAxis;
    y->setTitleText(ReportView::tr("p99 ms"));
    timechart::setNiceRange(y, 0, std::max(maxY * 1.05, 1.0));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    dots->attachAxis(x);
    dots->attachAxis(y);
    chart->legend()->hide();
    chart->setMargins(QMargins(4, 4, 4, 4));
    auto* view = new QChartView(chart);
    view->setObjectName(QStringLiteral("againstThroughput"));
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(240);
    return view;
}

QString ReportView::apdexText(const ReportSection& s)
{
    if (s.apdex < 0)
        return tr("APDEX (T %1 ms): no answer was timed").arg(s.apdexTMs, 0, 'g', 4);
    return tr("APDEX %1 (T %2 ms): %3 satisfied · %4 tolerating · %5 frustrated")
        .arg(s.apdex, 0, 'f', 2)
        .arg(s.apdexTMs, 0, 'g', 4)
        .arg(s.satisfied)
        .arg(s.tolerating)
        .arg(s.frustrated);
}

// The shown scope's distribution, p99 against throughput, APDEX at its T (set here), and its top errors.
QWidget* ReportView::sectionRow(int scope)
{
    const ReportSection s = m_model->section(scope);
    auto* row = new QWidget;
    row->setObjectName(QStringLiteral("sectionRow"));
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(distributionChart(s), 2);
    layout->addWidget(againstThroughputChart(s), 2);
    auto* side = new QVBoxLayout;
    auto* apdex = new QLabel(apdexText(s));
    apdex->setObjectName(QStringLiteral("apdex"));
    apdex->setWordWrap(true);
    apdex->setToolTip(tr("Satisfied: answered within T; tolerating: within 4 T; frustrated: slower, or failed "
                         "without an answer. APDEX = (satisfied + tolerating / 2) / all answers"));
    auto* t = new QDoubleSpinBox;
    t->setObjectName(QStringLiteral("apdexT"));
    t->setRange(0.1, 3600000);
    t->setDecimals(1);
    t->setSuffix(tr(" ms"));
    t->setValue(m_model->apdexT(scope));
    t->setToolTip(scope == 0 ? tr("APDEX's target time T for the whole run and every step without its own; the "
                                  "exports use it too")
                             : tr("APDEX's target time T for this one; the exports use it too"));
    connect(t, &QDoubleSpinBox::editingFinished, row, [this, t, apdex, scope] {
        m_model->setApdexT(scope, t->value());
        apdex->setText(apdexText(m_model->section(scope)));
    });
    auto* tRow = new QHBoxLayout;
    tRow->addWidget(new QLabel(tr("APDEX T:")));
    tRow->addWidget(t, 1);
    side->addWidget(apdex);
    side->addLayout(tRow);
    side->addWidget(new QLabel(tr("Top errors:")));
    auto* errors = new QTableWidget(int(s.topErrors.size()), 3);
    errors->setObjectName(QStringLiteral("topErrors"));
    errors->setHorizontalHeaderLabels({tr("Error"), tr("Count"), tr("A sample")});
    errors->verticalHeader()->hide();
    errors->setEditTriggers(QAbstractItemView::NoEditTriggers);
    errors->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    errors->horizontalHeader()->setStretchLastSection(true);
    for (int i = 0; i < int(s.topErrors.size()); ++i) {
        const auto& e = s.topErrors[i];
        errors->setItem(i, 0, new QTableWidgetItem(errorClassText(e.errorClass)));
        auto* count = new QTableWidgetItem(QString::number(e.count));
        count->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        errors->setItem(i, 1, count);
        auto* item = new QTableWidgetItem(e.sample.section(QLatin1Char('\n'), 0, 0));
        item->setToolTip(e.sample);
        errors->setItem(i, 2, item);
    }
    side->addWidget(errors, 1);
    layout->addLayout(side, 2);
    return row;
}

ReportView::ReportView(ReportModel* model, std::unique_ptr<stampede::ProjectStore> ownStore, QWidget* parent)
    : QWidget(parent), m_model(model), m_store(std::move(ownStore))
{
    model->setParent(this);
    auto* title = new QLabel(model->title());
    QFont f = title->font();
    f.setBold(true);
    title->setFont(f);
    title->setWordWrap(true); // a long title wraps: it never widens the window
    title->setToolTip(model->title());
    auto* verdict = new QLabel(model->passed() ? tr("PASSED") : tr("FAILED"));
    verdict->setStyleSheet(model->passed() ? QStringLiteral("color: #1e8449; font-weight: bold")
                                           : QStringLiteral("color: #c0392b; font-weight: bold"));
    verdict->setObjectName(QStringLiteral("verdict"));
    verdict->setToolTip(model->verdict());
    // the verdict in the words of the exit code's summary, every export and `report list`
    auto* reason = new QLabel(model->verdict());
    reason->setObjectName(QStringLiteral("verdictReason"));
    reason->setWordWrap(true);
    auto* unjudged = new QLabel(tr("Not judged: %1").arg(model->unjudged())); // beside the verdict, never hidden
    unjudged->setObjectName(QStringLiteral("verdictUnjudged"));
    unjudged->setStyleSheet(QStringLiteral("color: #c0392b"));
    unjudged->setWordWrap(true);
    unjudged->setVisible(!model->unjudged().isEmpty());
    auto* top = new QHBoxLayout;
    auto* heading = new QVBoxLayout;
    heading->addWidget(title);
    heading->addWidget(reason);
    heading->addWidget(unjudged);
    top->addLayout(heading, 1);
    top->addWidget(verdict);
    for (const QString& format :
         {QStringLiteral("html"), QStringLiteral("json"), QStringLiteral("csv"), QStringLiteral("junit")}) {
        auto* b = new QPushButton(tr("Export %1…").arg(format.toUpper()));
        top->addWidget(b);
        connect(b, &QPushButton::clicked, this, [this, format] {
            const QString ext = format == QLatin1String("junit") ? QStringLiteral("xml") : format;
            const QString path =
                QFileDialog::getSaveFileName(this, tr("Export report"), m_model->runId() + QLatin1Char('.') + ext);
            if (path.isEmpty())
                return;
            QFile out(path);
            if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(m_model->exportAs(format)) < 0)
                QMessageBox::warning(this, tr("Export report"), out.errorString());
        });
    }
    auto* table = new QTableView;
    table->setModel(model);
    table->horizontalHeader()->setStretchLastSection(true);
    table->verticalHeader()->hide();
    auto* thresholds = new QListWidget;
    thresholds->addItems(model->thresholdLines());
    const QStringList checkLines = model->checkLines();
    for (qsizetype i = 0; i < checkLines.size(); ++i) { // the checks under the thresholds, failing ones in red
        auto* item = new QListWidgetItem(checkLines[i], thresholds);
        if (model->checkFailed(int(i)))
            item->setForeground(QColor(0xc0, 0x39, 0x2b));
    }
    auto* events = new QListWidget;
    events->addItems(model->eventLines());
    const QString asRan = indentedJson(model->scenarioJson().toUtf8()); // one field a line, in its own order
    auto* scenario = new QPlainTextEdit(asRan.isNull() ? model->scenarioJson() : asRan);
    scenario->setReadOnly(true);

    auto* grid = new QGridLayout;
    auto* charts = new QHBoxLayout;
    auto* sections = new QVBoxLayout;
    // what the charts show: all engines or one (agent), the whole run or a step or group (scope), as chosen
    auto shown = std::make_shared<std::pair<int, int>>(-1, 0);
    auto showCharts = [this, charts, sections, shown] {
        for (QLayout* l : {static_cast<QLayout*>(charts), static_cast<QLayout*>(sections)})
            while (QLayoutItem* item = l->takeAt(0)) {
                delete item->widget();
                delete item;
            }
        const auto [agent, scope] = *shown;
        sections->addWidget(sectionRow(scope));
        const auto series = [this, agent, scope](const char* metric) {
            return m_model->series(QString::fromLatin1(metric), agent, scope);
        };
        const auto events = m_model->eventMarks();
        QList<QPair<QString, QList<QPointF>>> throughput{{tr("completed/s"), series("requests")},
                                                         {tr("errors/s"), series("errors")}};
        const QList<QPointF> messages = series("messages"); // stream steps: their messages beside requests
        const bool streams = std::any_of(messages.begin(), messages.end(), [](const QPointF& q) { return q.y() > 0; });
        if (streams)
            throughput.append({tr("messages/s"), messages});
        charts->addWidget(
            lineChart(tr("Throughput"), streams ? tr("per second") : tr("requests/s"), throughput, events), 2);
        charts->addWidget(lineChart(tr("Latency"), tr("ms"),
                                    {{QStringLiteral("p50"), series("p50")},
                                     {QStringLiteral("p90"), series("p90")},
                                     {QStringLiteral("p95"), series("p95")},
                                     {QStringLiteral("p99"), series("p99")},
                                     {QStringLiteral("p99.9"), series("p999")},
                                     {tr("max"), series("max")}},
                                    events, true),
                          3); // six names in its legend: wider than the others
        charts->addWidget(
            lineChart(tr("Connections and users"), tr("count"),
                      {{tr("open connections"), series("connections")}, {tr("active users"), series("users")}}, {},
                      false, true),
            2);
        QList<QPair<QString, QList<QPointF>>> server; // the target's own metrics, a line each
        for (const QString& name : m_model->serverMetrics())
            server.append({name, m_model->serverSeries(name)});
        if (!server.isEmpty())
            charts->addWidget(lineChart(tr("Server"), tr("value"), server, events), 2);
    };
    showCharts();
    const QStringList agents = model->agents();
    if (!agents.isEmpty()) {
        auto* agent = new QComboBox;
        agent->setToolTip(tr("Show all engines together or one engine in the charts"));
        agent->addItem(tr("all engines"));
        agent->addItems(agents);
        connect(agent, &QComboBox::currentIndexChanged, this, [showCharts, shown](int i) {
            shown->first = i - 1;
            showCharts();
        });
        top->insertWidget(1, agent);
    }
    if (const QStringList scopes = model->scopes(); scopes.size() > 2) { // more than one step: pick one
        auto* scope = new QComboBox;
        scope->setObjectName(QStringLiteral("chartScope"));
        scope->setToolTip(tr("Show the whole run, one step or one group (a transaction) in the throughput and "
                             "latency charts: its requests and percentiles second by second"));
        scope->addItems(scopes);
        connect(scope, &QComboBox::currentIndexChanged, this, [showCharts, shown](int i) {
            shown->second = i;
            showCharts();
        });
        top->insertWidget(1, scope);
    }
    // a capacity search's answer comes first, then the run's charts and table
    const int first = model->isCapacitySearch() ? 1 : 0;
    if (first)
        grid->addLayout(capacityRow(*model), 0, 0, 1, 2);
    grid->addLayout(charts, first, 0, 1, 2);
    grid->addWidget(table, first + 1, 0, 1, 2);
    grid->addLayout(sections, first + 2, 0, 1, 2);
    grid->setRowStretch(first, 3);
    grid->setRowStretch(first + 1, 1);
    table->setMinimumHeight(60);
    auto* lists = new QHBoxLayout;
    auto* tl = new QVBoxLayout;
    tl->addWidget(new QLabel(checkLines.isEmpty() ? tr("Thresholds:") : tr("Thresholds and checks:")));
    tl->addWidget(thresholds);
    auto* el = new QVBoxLayout;
    el->addWidget(new QLabel(tr("Events:")));
    el->addWidget(events);
    auto* sl = new QVBoxLayout;
    sl->addWidget(new QLabel(tr("Scenario as it ran:")));
    sl->addWidget(scenario);
    // error samples: what the server answered (or why the transport failed)
    auto* samples = new QListWidget;
    auto* sampleText = new QPlainTextEdit;
    sampleText->setObjectName(QStringLiteral("sampleText"));
    sampleText->setReadOnly(true);
    sampleText->setPlaceholderText(tr("No failed request was sampled."));
    const auto sampleList = model->errorSamples();
    for (const auto& smp : sampleList)
        samples->addItem(smp.title);
    connect(samples, &QListWidget::currentRowChanged, this, [sampleText, sampleList](int row) {
        sampleText->setPlainText(row >= 0 && row < sampleList.size() ? sampleList[row].text : QString());
    });
    if (!sampleList.isEmpty())
        samples->setCurrentRow(0);
    auto* xl = new QVBoxLayout;
    xl->addWidget(new QLabel(tr("Error samples:")));
    xl->addWidget(samples);
    xl->addWidget(sampleText);
    lists->addLayout(tl);
    lists->addLayout(el);
    lists->addLayout(xl, 2);
    lists->addLayout(sl, 2);
    // the report is a page: it scrolls as a whole, each part as tall as it needs
    // every step's row in sight (the page scrolls, the table does not); the columns as wide as their text
    table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    const auto fit = [table] {
        table->setFixedHeight(table->horizontalHeader()->sizeHint().height() + table->verticalHeader()->length() +
                              2 * table->frameWidth() + 2);
    };
    fit();
    connect(table->verticalHeader(), &QHeaderView::sectionResized, table, fit);
    connect(table->horizontalHeader(), &QHeaderView::geometriesChanged, table, fit);
    auto* inner = new QWidget;
    auto* page = new QVBoxLayout(inner);
    if (model->judgedByTests()) { // a collection run: each request and each test first, as its runner showed them
        auto* results = new CollectionRunView;
        results->showSummary(model->summary());
        results->setMinimumHeight(260);
        page->addWidget(results);
    }
    page->addLayout(grid);
    page->addLayout(lists);
    for (QWidget* w : {static_cast<QWidget*>(thresholds), static_cast<QWidget*>(events),
                       static_cast<QWidget*>(scenario), static_cast<QWidget*>(samples)})
        w->setMinimumHeight(180);
    auto* scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("reportPage"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(inner);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(scroll, 1);
}

ReportView::~ReportView() = default;

// A capacity search: its answer, then p99 and the error rate against the offered rate.
QLayout* ReportView::capacityRow(const ReportModel& model)
{
    auto* row = new QVBoxLayout;
    auto* answer = new QLabel(model.capacityLine());
    answer->setObjectName(QStringLiteral("capacity"));
    answer->setWordWrap(true);
    QFont f = answer->font();
    f.setBold(true);
    answer->setFont(f);
    row->addWidget(answer);
    auto* charts = new QHBoxLayout;
    const struct
    {
        QString title, unit, line;
        const char* metric;
    } parts[] = {{tr("p99 against the offered rate"), tr("ms"), QStringLiteral("p99"), "p99"},
                 {tr("Error rate against the offered rate"), tr("%"), tr("errors"), "errors"}};
    for (const auto& p : parts) {
        QChartView* view = lineChart(p.title, p.unit, {{p.line, model.capacitySeries(QString::fromLatin1(p.metric))}});
        if (auto* x = view->chart()->axes(Qt::Horizontal).value(0))
            x->setTitleText(tr("offered rate /s"));
        view->setToolTip(tr("Each level of the search: its offered rate, and what it measured"));
        view->setMinimumHeight(260); // room for the rate axis' labels
        charts->addWidget(view);
    }
    row->addLayout(charts, 1);
    return row;
}

CompareView::CompareView(ReportModel* baseline, ReportModel* candidate, QWidget* parent) : QWidget(parent)
{
    baseline->setParent(this);
    candidate->setParent(this);
    m_compare = new CompareModel(this);
    auto* tolerance = new QDoubleSpinBox;
    tolerance->setRange(0, 1000);
    tolerance->setValue(10);
    tolerance->setSuffix(QStringLiteral(" %"));
    tolerance->setToolTip(tr("A change for the worse beyond this is a regression"));
    auto* verdict = new QLabel;
    auto* table = new QTableView;
    table->setModel(m_compare);
    table->horizontalHeader()->setStretchLastSection(true);
    table->verticalHeader()->hide();
    auto update = [this, baseline, candidate, verdict, tolerance] {
        m_compare->compare(*baseline, *candidate, tolerance->value() / 100);
        verdict->setText(m_compare->regressed() ? tr("%n regression(s)", nullptr, m_compare->regressionCount())
                                                : tr("no regression"));
        verdict->setStyleSheet(m_compare->regressed() ? QStringLiteral("color: #c0392b; font-weight: bold")
                                                      : QStringLiteral("color: #1e8449; font-weight: bold"));
    };
    update();
    connect(tolerance, &QDoubleSpinBox::valueChanged, this, update);
    auto* top = new QHBoxLayout;
    auto* which = new QLabel(tr("Baseline: %1\nCandidate: %2").arg(baseline->title(), candidate->title()));
    which->setWordWrap(true);
    top->addWidget(which, 1);
    top->addWidget(new QLabel(tr("Tolerance:")));
    top->addWidget(tolerance);
    top->addWidget(verdict);
    auto* charts = new QHBoxLayout;
    charts->addWidget(ReportView::lineChart(tr("Throughput"), tr("requests/s"),
                                            {{tr("baseline"), baseline->series(QStringLiteral("requests"))},
                                             {tr("candidate"), candidate->series(QStringLiteral("requests"))}}));
    charts->addWidget(ReportView::lineChart(tr("p99 latency"), tr("ms"),
                                            {{tr("baseline"), baseline->series(QStringLiteral("p99"))},
                                             {tr("candidate"), candidate->series(QStringLiteral("p99"))}}));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(charts, 1);
    layout->addWidget(table, 1);
}
