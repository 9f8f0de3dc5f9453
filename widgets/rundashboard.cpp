#include "rundashboard.h"
#include "splitterstate.h"

#include "enginetext.h"
#include "projecttreemodel.h"

#include <QRegularExpression>

#include "timechart.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGraphicsLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

RunDashboard::RunDashboard(RunSession* session, QWidget* parent) : QWidget(parent), m_session(session)
{
    QHBoxLayout* top = buildControls(session);
    buildSeries();
    buildTables();
    QSplitter* body = buildBody(buildCharts());
    auto* statusRow = new QHBoxLayout;
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_progress);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(statusRow);
    layout->addWidget(body, 1);

    fillRows(session);
    follow(session);
}

// The title, the chart's scope (steps, engines) and the live controls (load, pause, stop).
QHBoxLayout* RunDashboard::buildControls(RunSession* session)
{
    m_title = new QLabel(tr("Starting the engines…"));
    QFont f = m_title->font();
    f.setBold(true);
    m_title->setFont(f);
    m_title->setWordWrap(true); // a long verdict wraps: it never widens the window
    m_scope = new QComboBox;
    m_scope->setToolTip(tr("Show the whole run, one step, a group or one of a plan's scenarios in the charts"));
    m_scope->addItem(tr("all steps"));
    for (const QString& step : session->stepNames())
        m_scope->addItem(step);
    m_points.resize(1);
    m_points[0].resize(session->stepNames().size() + 1);
    connect(m_scope, &QComboBox::currentIndexChanged, this, &RunDashboard::redraw);
    m_agent = new QComboBox;
    m_agent->setToolTip(tr("Show all engines together or one engine in the charts"));
    m_agent->addItem(tr("all engines"));
    m_agent->setVisible(false);
    connect(m_agent, &QComboBox::currentIndexChanged, this, &RunDashboard::redraw);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("runProgress"));
    m_progress->setTextVisible(true);
    m_progress->setToolTip(tr("The time the run has taken of the time it is planned to take"));
    m_progress->setVisible(session->plannedSeconds() > 0);
    m_progress->setRange(0, 1000);
    m_progress->setMinimumWidth(280);
    m_progress->setValue(0);
    m_stop = new QPushButton(tr("Stop"));
    m_stop->setToolTip(tr("Stop the run now: every engine goes idle"));
    m_pause = new QPushButton(tr("Pause"));
    m_pause->setToolTip(tr("Hold the arrivals (open model) or rest the users (closed model); Resume continues. "
                           "The run's clock keeps going while paused: it ends at its planned time, paused or not"));
    m_factor = new QDoubleSpinBox;
    m_factor->setRange(0.1, 10);
    m_factor->setSingleStep(0.1);
    m_factor->setValue(1);
    m_factor->setPrefix(QStringLiteral("× "));
    m_factor->setToolTip(tr("Scale the planned rate or users from now on (1 is as planned)"));
    auto* apply = new QPushButton(tr("Apply"));
    connect(apply, &QPushButton::clicked, this, [this] { m_session->adjust(m_factor->value()); });

    auto* top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(new QLabel(tr("Charts:")));
    top->addWidget(m_scope);
    top->addWidget(m_agent);
    top->addWidget(new QLabel(tr("Load:")));
    top->addWidget(m_factor);
    top->addWidget(apply);
    top->addWidget(m_pause);
    top->addWidget(m_stop);
    return top;
}

// The charts' series, coloured once.
void RunDashboard::buildSeries()
{
    m_planned = new QLineSeries;
    m_planned->setName(tr("planned"));
    QPen dashed(QColor(0x99, 0x99, 0x99));
    dashed.setStyle(Qt::DashLine);
    m_planned->setPen(dashed);
    m_sent = new QLineSeries;
    m_sent->setName(tr("sent/s"));
    m_completed = new QLineSeries;
    m_completed->setName(tr("completed/s"));
    // the colours of the saved report's and the HTML export's throughput: completed first, messages third
    m_completed->setPen(QPen(timechart::seriesColour(0), 2));
    m_sent->setPen(QPen(timechart::seriesColour(3), 2));
    m_messages = new QLineSeries;
    m_messages->setName(tr("messages/s"));
    m_messages->setPen(QPen(timechart::seriesColour(2), 2));
    m_messages->setVisible(false);
    m_p50 = new QLineSeries;
    m_p50->setName(QStringLiteral("p50"));
    m_p90 = new QLineSeries;
    m_p90->setName(QStringLiteral("p90"));
    m_p95 = new QLineSeries;
    m_p95->setName(QStringLiteral("p95"));
    m_p99 = new QLineSeries;
    m_p99->setName(QStringLiteral("p99"));
    m_p999 = new QLineSeries;
    m_p999->setName(QStringLiteral("p99.9"));
    m_max = new QLineSeries;
    m_max->setName(tr("max"));
    m_connections = new QLineSeries;
    m_connections->setName(tr("open connections"));
    m_users = new QLineSeries;
    m_users->setName(tr("active users"));
    // fixed colours: the theme's palette repeats after five series
    const QColor classColors[] = {QColor(0x34, 0x49, 0x5e), QColor(0xe6, 0x7e, 0x22), QColor(0x8e, 0x44, 0xad),
                                  QColor(0xf1, 0xc4, 0x0f), QColor(0xc0, 0x39, 0x2b), QColor(0x16, 0xa0, 0x85),
                                  QColor(0x7f, 0x8c, 0x8d), QColor(0x29, 0x80, 0xb9), QColor(0xd3, 0x54, 0x00),
                                  QColor(0x2c, 0x3e, 0x50), QColor(0xe8, 0x43, 0x93), QColor(0x27, 0xae, 0x60)};
    static_assert(std::size(classColors) == kClasses, "one series per class");
    for (int i = 0; i < kClasses; ++i) {
        auto* series = new QLineSeries;
        series->setName(errorClassText(i));
        series->setPen(QPen(classColors[i], 2));
        m_errorsByClass << series;
    }
    int colour = 0;
    for (QLineSeries* series : {m_p50, m_p90, m_p95, m_p99, m_p999, m_max})
        series->setPen(QPen(timechart::seriesColour(colour++), 2));
}

// The steps' and checks' tables and the events list.
void RunDashboard::buildTables()
{
    m_steps = new QTableWidget(0, 6);
    m_steps->setObjectName(QStringLiteral("steps"));
    m_steps->setHorizontalHeaderLabels(
        {tr("Step"), tr("Rate/s"), tr("p50 ms"), tr("p99 ms"), tr("Errors"), tr("Late/dropped")});
    m_steps->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_steps->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch); // names take what is left
    m_steps->verticalHeader()->hide();
    m_steps->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_checks = new QTableWidget(0, 4);
    m_checks->setObjectName(QStringLiteral("checks"));
    m_checks->setHorizontalHeaderLabels({tr("Check"), tr("Passed"), tr("Failed"), tr("Pass rate")});
    m_checks->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_checks->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_checks->verticalHeader()->hide();
    m_checks->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_checks->setToolTip(tr("Each step's checks, judged on every answer since the run began; a failed check "
                            "counts as an error of class \"check\""));
    m_events = new QListWidget;
    m_events->setObjectName(QStringLiteral("events"));
    m_events->setWordWrap(true);
}

// The four charts (and the server's, shown when it reads metrics), scrolling.
QScrollArea* RunDashboard::buildCharts()
{
    auto* grid = new QGridLayout;
    grid->addWidget(makeChart(tr("Throughput"), tr("requests/s"), {m_planned, m_sent, m_completed, m_messages}), 0, 0);
    grid->addWidget(makeChart(tr("Latency"), tr("ms"), {m_p50, m_p90, m_p95, m_p99, m_p999, m_max}), 0, 1);
    auto* errors = makeChart(tr("Errors by class"), tr("errors/s"), m_errorsByClass);
    // the legend names the classes that have errors so far: eleven names fit nowhere (none before the first
    // second has come: a slow start would otherwise show all eleven, cut short)
    for (QLegendMarker* marker : errors->chart()->legend()->markers())
        marker->setVisible(false);
    errors->setObjectName(QStringLiteral("errorsChart"));
    grid->addWidget(errors, 1, 0);
    auto* gauges = makeChart(tr("Connections and users"), tr("count"), {m_connections, m_users});
    gauges->setToolTip(tr("Open connections, and users taking part (closed model) or iterations in flight "
                          "(open model), at the end of each second"));
    grid->addWidget(gauges, 1, 1);
    m_server = timechart::makeView(tr("Server"), tr("value"));
    m_server->setObjectName(QStringLiteral("server"));
    m_server->setToolTip(tr("The target's own metrics (the scenario's serverMetrics), as read each second"));
    m_server->setVisible(false);
    grid->addWidget(m_server, 2, 0, 1, 2);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    // the charts scroll when a third row (Server) leaves them too little height for their axes
    auto* charts = new QWidget;
    charts->setLayout(grid);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(charts);
    for (QChartView* view : m_charts)
        view->setMinimumHeight(210);
    m_server->setMinimumHeight(210);
    return scroll;
}

// The charts above, the full width under them: the steps, their checks, the events (a splitter between).
QSplitter* RunDashboard::buildBody(QScrollArea* scroll)
{
    auto* eventsBox = new QWidget;
    auto* eventsLayout = new QVBoxLayout(eventsBox);
    eventsLayout->setContentsMargins(0, 0, 0, 0);
    eventsLayout->addWidget(new QLabel(tr("Events:")));
    eventsLayout->addWidget(m_events, 1);
    auto* tables = new QSplitter(Qt::Horizontal);
    tables->addWidget(m_steps);
    tables->addWidget(m_checks);
    tables->addWidget(eventsBox);
    tables->setStretchFactor(0, 5);
    tables->setStretchFactor(1, 3);
    tables->setStretchFactor(2, 3);
    splitterstate::remember(tables, QStringLiteral("dashboardTables"));
    auto* body = new QSplitter(Qt::Vertical);
    body->setObjectName(QStringLiteral("dashboardBody"));
    body->addWidget(scroll);
    body->addWidget(tables);
    body->setStretchFactor(0, 3);
    body->setStretchFactor(1, 1);
    body->setSizes({440, 200}); // the tables' rows in sight (140 showed three and a half)
    body->setChildrenCollapsible(false);
    splitterstate::remember(body, QStringLiteral("dashboard"));
    return body;
}

// A row for each step and the total, and one for each check.
void RunDashboard::fillRows(RunSession* session)
{
    const QStringList steps = session->stepNames();
    m_steps->setRowCount(int(steps.size()) + 1);
    for (int i = 0; i < steps.size(); ++i)
        m_steps->setItem(i, 0, new QTableWidgetItem(steps[i]));
    m_steps->setItem(int(steps.size()), 0, new QTableWidgetItem(tr("total")));
    const QList<QStringList> checks = session->checkNames();
    for (int step = 0; step < checks.size(); ++step)
        for (int k = 0; k < checks[step].size(); ++k) {
            const int row = m_checks->rowCount();
            m_checks->insertRow(row);
            auto* name = new QTableWidgetItem(steps.value(step) + QLatin1Char('/') + checks[step][k]);
            name->setToolTip(name->text());
            m_checks->setItem(row, 0, name);
            m_checkRows.append({step, k});
        }
    m_checkPassed.resize(m_checkRows.size());
    m_checkFailed.resize(m_checkRows.size());
    m_checks->setVisible(!m_checkRows.isEmpty());
    m_plannedRaw = session->plannedProfile();
    m_planned->replace(m_plannedRaw);
}

// The session's news, and the controls' wishes to it.
void RunDashboard::follow(RunSession* session)
{
    connect(m_stop, &QPushButton::clicked, session, &RunSession::stop);
    connect(m_pause, &QPushButton::clicked, this, [this] {
        m_paused = !m_paused;
        if (m_paused)
            m_session->pause();
        else
            m_session->resume();
        m_pause->setText(m_paused ? tr("Resume") : tr("Pause"));
    }); // the run's own event (saved with it) says it below
    connect(session, &RunSession::started, this, [this](const QString& runId, const QStringList& agents) {
        m_title->setText(tr("Run %1 on %n engine(s)", nullptr, int(agents.size())).arg(runId));
        m_title->setToolTip(agents.join(QLatin1Char('\n')));
        if (agents.size() > 1) {
            for (const QString& a : agents)
                m_agent->addItem(a);
            m_agent->setVisible(true);
            m_points.resize(agents.size() + 1);
            for (auto& perAgent : m_points)
                perAgent.resize(m_session->stepNames().size() + 1);
        }
    });
    connect(session, &RunSession::secondAvailable, this, &RunDashboard::onSecond);
    connect(session, &RunSession::eventOccurred, this,
            [this](double at, const QString& kind, const QString& agent, const QString& detail) {
                // live control's and the breaker's own events, in the user's words; a
                // scaling says the level it went to ("level x0.5 of the plan")
                const QRegularExpressionMatch level =
                    QRegularExpression(QStringLiteral("level x([0-9.e+-]+)")).match(detail);
                const QString shown =
                    kind == QLatin1String("scaled")
                        ? tr("load × %1").arg(level.hasMatch() ? level.captured(1) : QString::number(m_factor->value()))
                        : eventKindText(kind);
                m_events->addItem(
                    QStringLiteral("%1 s  %2  %3  %4").arg(at, 0, 'f', 1).arg(shown, agent, engineText(detail)));
                if (!kind.startsWith(QLatin1String("capacity_"))) // the next level's scaling is marked
                    markEvent(at, shown);
            });
    connect(session, &RunSession::finished, this, &RunDashboard::onFinished);
}

QChartView* RunDashboard::makeChart(const QString& title, const QString& unit, const QList<QLineSeries*>& series)
{
    QChartView* view = timechart::makeView(title, unit);
    for (QLineSeries* s : series) {
        view->chart()->addSeries(s);
        for (auto* axis : view->chart()->axes())
            s->attachAxis(axis);
    }
    m_charts << view;
    return view;
}

void RunDashboard::compact(QList<QPointF>& points, bool keepMax)
{
    if (points.size() <= kMaxPoints)
        return;
    // merge the older half pairwise: a 12-hour run keeps its shape in 600 points
    const qsizetype half = points.size() / 2;
    QList<QPointF> merged;
    merged.reserve(points.size());
    for (qsizetype i = 0; i + 1 < half; i += 2) {
        const QPointF a = points[i], b = points[i + 1];
        merged << QPointF((a.x() + b.x()) / 2, keepMax ? std::max(a.y(), b.y()) : (a.y() + b.y()) / 2);
    }
    for (qsizetype i = half - (half % 2 ? 1 : 0); i < points.size(); ++i)
        merged << points[i];
    points = merged;
}

int RunDashboard::pointCount() const
{
    return int(m_points.isEmpty() || m_points[0].isEmpty() ? 0 : m_points[0][0].completed.size());
}

void RunDashboard::markEvent(double atS, const QString& label)
{
    // an event is a vertical mark on the throughput chart's time axis
    if (!m_charts.value(0))
        return;
    double top = 1;
    for (const auto& p : m_points.value(0).value(0).completed)
        top = std::max(top, p.y());
    // listed in the events box beside: in the legend, a dozen marks would crowd out the series
    timechart::addEventMarks(m_charts[0], {{atS, label}}, top * 1.1, false);
}

void RunDashboard::addPart(int agent, double t, const RunSecond::Step& total, const QVector<RunSecond::Step>& steps,
                           quint32 connections, quint32 users)
{
    if (agent >= m_points.size())
        return;
    auto push = [t](QList<QPointF>& pts, double v, bool keepMax) {
        pts << QPointF(t, v);
        compact(pts, keepMax);
    };
    QList<Points>& scopes = m_points[agent];
    for (int scope = 0; scope < scopes.size(); ++scope) {
        const RunSecond::Step& st = scope == 0 ? total : steps.value(scope - 1);
        Points& p = scopes[scope];
        push(p.sent, double(st.sent), false);
        push(p.completed, double(st.requests), false);
        push(p.messages, double(st.messages), false);
        if (st.requests) { // a second with nothing answered (paused) has no latency, not 0 ms
            push(p.p50, st.p50, true);
            push(p.p90, st.p90, true);
            push(p.p95, st.p95, true);
            push(p.p99, st.p99, true);
            push(p.p999, st.p999, true);
            push(p.max, st.max, true);
        }
        for (int c = 0; c < kClasses; ++c)
            push(p.errors[c], double(st.errorsByClass.value(c)), true);
    }
    push(scopes[0].connections, connections, true);
    push(scopes[0].users, users, true);
}

void RunDashboard::addChecks(const QVector<RunSecond::Step>& steps)
{
    for (int row = 0; row < m_checkRows.size(); ++row) {
        const auto [step, k] = m_checkRows[row];
        if (step >= steps.size())
            continue;
        m_checkPassed[row] += steps[step].checksPassed.value(k);
        m_checkFailed[row] += steps[step].checksFailed.value(k);
        const quint64 judged = m_checkPassed[row] + m_checkFailed[row];
        const QStringList cells = {
            QString::number(m_checkPassed[row]), QString::number(m_checkFailed[row]),
            judged ? QStringLiteral("%1 %").arg(100.0 * double(m_checkPassed[row]) / double(judged), 0, 'f', 2)
                   : QStringLiteral("-")};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = m_checks->item(row, c + 1);
            if (!item)
                m_checks->setItem(row, c + 1, item = new QTableWidgetItem);
            item->setText(cells[c]);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (c == 1)
                item->setForeground(m_checkFailed[row] ? QColor(0xc0, 0x39, 0x2b) : palette().text().color());
        }
    }
}

void RunDashboard::onSecond(const RunSecond& s)
{
    const double t = s.second;
    m_lastSecond = t;
    addPart(0, t, s.total, s.steps, s.openConnections, s.activeUsers);
    for (int a = 0; a < s.agents.size(); ++a) {
        const auto& part = s.agents[a];
        addPart(a + 1, t, part.total, part.steps, part.openConnections, part.activeUsers);
    }
    addServer(t, s.server);
    redraw();
    auto fill = [this](int row, const RunSecond::Step& st) {
        const QStringList cells = {QString::number(st.requests), QString::number(st.p50, 'f', 2),
                                   QString::number(st.p99, 'f', 2), QString::number(st.errors),
                                   QStringLiteral("%1/%2").arg(st.late).arg(st.dropped)};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = m_steps->item(row, c + 1);
            if (!item)
                m_steps->setItem(row, c + 1, item = new QTableWidgetItem);
            item->setText(cells[c]);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        }
    };
    for (int i = 0; i < s.steps.size() && i < m_steps->rowCount() - 1; ++i)
        fill(i, s.steps[i]);
    fill(m_steps->rowCount() - 1, s.total);
    addChecks(s.steps);
    // a second with nothing answered (paused) has no latency: "–", not 0 ms
    const QString p99 = s.total.requests ? QStringLiteral("%1 ms").arg(s.total.p99, 0, 'f', 2) : QStringLiteral("–");
    m_status->setText(tr("second %1 · %2 requests/s · p99 %3 · %4 errors · %5 connections open · %6 users")
                          .arg(s.second)
                          .arg(s.total.requests)
                          .arg(p99)
                          .arg(s.total.errors)
                          .arg(s.openConnections)
                          .arg(s.activeUsers));
    showHealth(s);
    showProgress(s.second);
}

// The generators' health: the busiest's CPU beside the status, each agent's
// in the tooltip, and a warning colour past 90 % (the generator, not the
// target, may limit the run).
void RunDashboard::showHealth(const RunSecond& s)
{
    if (s.rssMiB <= 0) {
        m_status->setToolTip(QString());
        return;
    }
    m_status->setText(m_status->text() + tr(" · generator CPU %1 %").arg(s.cpuPercent, 0, 'f', 0));
    QStringList lines{tr("The load generators in second %1 (CPU as a share of the cores each may use):").arg(s.second)};
    const auto line = [&](const QString& name, const RunSecond::Part& p) {
        lines << tr("%1: CPU %2 %, memory %3 MiB, event-loop lag %4 ms")
                     .arg(name)
                     .arg(p.cpuPercent, 0, 'f', 0)
                     .arg(p.rssMiB, 0, 'f', 1)
                     .arg(p.loopLagMs, 0, 'f', 2);
    };
    if (s.agents.isEmpty()) {
        RunSecond::Part only;
        only.cpuPercent = s.cpuPercent, only.rssMiB = s.rssMiB, only.loopLagMs = s.loopLagMs;
        line(tr("engine"), only);
    }
    for (int a = 0; a < s.agents.size(); ++a)
        line(m_agent->itemText(a + 1), s.agents[a]);
    if (s.cpuPercent > 90)
        lines << tr("Over 90 %: the generator, not the target, may be what limits this run.");
    m_status->setToolTip(lines.join(QLatin1Char('\n')));
    m_status->setStyleSheet(s.cpuPercent > 90 ? QStringLiteral("color: #c0392b") : QString());
}

// Elapsed and remaining time, against the plan.
void RunDashboard::showProgress(double elapsed)
{
    const double planned = m_session->plannedSeconds();
    if (!(planned > 0))
        return;
    m_progress->setValue(int(std::min(1.0, elapsed / planned) * 1000));
    // paused time counts toward the planned time (the plan does not move on after a resume): said while paused
    m_progress->setFormat(
        m_paused
            ? tr("paused · %1 of %2 · the run still ends in %3, paused or not")
                  .arg(durationText(elapsed), durationText(planned), durationText(std::max(0.0, planned - elapsed)))
            : tr("%1 of %2 · %3 left")
                  .arg(durationText(elapsed), durationText(planned), durationText(std::max(0.0, planned - elapsed))));
}

// "45 s", "12 min 05 s", "2 h 03 min".
QString RunDashboard::durationText(double seconds)
{
    const auto s = qint64(std::llround(seconds));
    if (s < 60)
        return tr("%1 s").arg(s);
    if (s < 3600)
        return tr("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
    return tr("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
}

// After the run, the steps table holds the run's totals (not its last second), labelled.
void RunDashboard::showTotals(const QJsonObject& summary)
{
    QJsonArray steps = summary.value(QStringLiteral("steps")).toArray();
    for (const char* more : {"groups", "scenarios"}) // in the order of the session's step names
        for (const QJsonValue& v : summary.value(QLatin1String(more)).toArray())
            steps.append(v);
    auto fill = [this](int row, const QJsonObject& m) {
        const QJsonObject lat = m.value(QStringLiteral("latency_ms")).toObject();
        const QStringList cells = {QString::number(m.value(QStringLiteral("rate")).toDouble(), 'f', 1),
                                   QString::number(lat.value(QStringLiteral("p50")).toDouble(), 'f', 2),
                                   QString::number(lat.value(QStringLiteral("p99")).toDouble(), 'f', 2),
                                   QString::number(m.value(QStringLiteral("errors")).toInteger()),
                                   QStringLiteral("%1/%2")
                                       .arg(m.value(QStringLiteral("late")).toInteger())
                                       .arg(m.value(QStringLiteral("dropped")).toInteger())};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = m_steps->item(row, c + 1);
            if (!item)
                m_steps->setItem(row, c + 1, item = new QTableWidgetItem);
            item->setText(cells[c]);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        }
    };
    for (int i = 0; i < steps.size() && i < m_steps->rowCount() - 1; ++i)
        fill(i, steps[i].toObject());
    fill(m_steps->rowCount() - 1, summary.value(QStringLiteral("total")).toObject());
    m_steps->horizontalHeaderItem(1)->setText(tr("Mean rate/s"));
    m_steps->setToolTip(tr("The whole run's figures: its mean rate, percentiles over every answer, its errors"));
    const double duration = summary.value(QStringLiteral("duration_s")).toDouble();
    m_status->setText(tr("The whole run, %1: the table shows its totals").arg(durationText(duration)));
    if (m_progress->isVisible()) {
        m_progress->setValue(m_progress->maximum());
        m_progress->setFormat(tr("ended after %1").arg(durationText(duration)));
    }
}

void RunDashboard::addServer(double t, const QMap<QString, double>& server)
{
    for (auto it = server.begin(); it != server.end(); ++it) {
        if (!m_serverLines.contains(it.key())) {
            auto* line = new QLineSeries;
            line->setName(it.key());
            line->setPen(QPen(timechart::seriesColour(int(m_serverLines.size())), 2));
            m_server->chart()->addSeries(line);
            for (auto* axis : m_server->chart()->axes())
                line->attachAxis(axis);
            m_serverLines.insert(it.key(), line);
            m_server->setVisible(true);
        }
        QList<QPointF>& points = m_serverPoints[it.key()];
        points.append(QPointF(t, it.value()));
        if (points.size() > kMaxPoints)
            compact(points, true);
    }
    if (m_serverLines.isEmpty())
        return;
    double low = 0, high = 1;
    for (auto it = m_serverLines.begin(); it != m_serverLines.end(); ++it) {
        const QList<QPointF>& points = m_serverPoints[it.key()];
        it.value()->replace(points);
        for (const QPointF& p : points) {
            low = std::min(low, p.y());
            high = std::max(high, p.y());
        }
    }
    for (auto* axis : m_server->chart()->axes(Qt::Vertical))
        if (auto* v = qobject_cast<QValueAxis*>(axis))
            timechart::setNiceRange(v, low, high * 1.05);
}

// Sent, completed and planned per second, in k or M past 10,000; the axis's top.
double RunDashboard::drawThroughput(const Points& p)
{
    // the plan is for all engines and all steps together
    const bool planned = m_scope->currentIndex() == 0 && m_agent->currentIndex() <= 0;
    double top = 1;
    const bool messages = std::any_of(p.messages.begin(), p.messages.end(), [](const QPointF& q) { return q.y() > 0; });
    for (const QList<QPointF>* line :
         {&p.sent, &p.completed, planned ? &m_plannedRaw : &p.sent, messages ? &p.messages : &p.sent})
        for (const auto& q : *line)
            top = std::max(top, q.y());
    const timechart::Scale rate = timechart::countScale(top, messages ? tr("per second") : tr("requests/s"));
    m_sent->replace(timechart::scaled(p.sent, rate.divisor));
    m_completed->replace(timechart::scaled(p.completed, rate.divisor));
    m_messages->replace(timechart::scaled(p.messages, rate.divisor));
    m_messages->setVisible(messages);
    m_planned->replace(timechart::scaled(m_plannedRaw, rate.divisor));
    m_planned->setVisible(planned);
    timechart::setValueTitle(m_charts[0], rate.unit);
    return top / rate.divisor;
}

// The latency lines in µs, ms or s as their values need; the axis's top.
double RunDashboard::drawLatency(const Points& p)
{
    double top = 0;
    for (const auto& q : p.max)
        top = std::max(top, q.y());
    const timechart::Scale lat = timechart::millisecondScale(top);
    m_p50->replace(timechart::scaled(p.p50, lat.divisor));
    m_p90->replace(timechart::scaled(p.p90, lat.divisor));
    m_p95->replace(timechart::scaled(p.p95, lat.divisor));
    m_p99->replace(timechart::scaled(p.p99, lat.divisor));
    m_p999->replace(timechart::scaled(p.p999, lat.divisor));
    m_max->replace(timechart::scaled(p.max, lat.divisor));
    timechart::setValueTitle(m_charts[1], lat.unit);
    return top > 0 ? top / lat.divisor : 1;
}

void RunDashboard::redraw()
{
    if (m_points.isEmpty())
        return;
    const QList<Points>& scopes = m_points[std::clamp(m_agent->currentIndex(), 0, int(m_points.size()) - 1)];
    const Points& p = scopes[std::clamp(m_scope->currentIndex(), 0, int(scopes.size()) - 1)];
    // one replace() per series, never an append() per sample
    const double maxRate = drawThroughput(p);
    const double maxLat = drawLatency(p);
    m_connections->replace(scopes[0].connections);
    m_users->replace(scopes[0].users);
    double maxErr = 1, maxGauge = 1;
    for (const auto& q : scopes[0].connections)
        maxGauge = std::max(maxGauge, q.y());
    for (const auto& q : scopes[0].users)
        maxGauge = std::max(maxGauge, q.y());
    const QList<QLegendMarker*> markers = m_charts[2]->chart()->legend()->markers();
    bool shownChanged = false;
    for (int c = 0; c < kClasses; ++c) {
        m_errorsByClass[c]->replace(p.errors[c]);
        bool any = false;
        for (const auto& q : p.errors[c]) {
            maxErr = std::max(maxErr, q.y());
            any |= q.y() > 0;
        }
        m_errorsByClass[c]->setVisible(any); // a class with no error draws no unlabelled line along 0
        if (c < markers.size() && markers[c]->isVisible() != any) {
            markers[c]->setVisible(any);
            shownChanged = true;
        }
    }
    if (shownChanged) // the names were cut to fit every class: laid out again for those shown
        m_charts[2]->chart()->legend()->layout()->invalidate();
    const double maxT =
        std::max(m_lastSecond, m_planned->count() ? m_planned->at(m_planned->count() - 1).x() : m_lastSecond);
    const double tops[] = {maxRate * 1.05, maxLat * 1.05, maxErr * 1.05, maxGauge * 1.05};
    for (auto* axis : m_server->chart()->axes(Qt::Horizontal)) // the same time axis as the others
        if (auto* v = qobject_cast<QValueAxis*>(axis))
            timechart::setNiceRange(v, 0, std::max(1.0, maxT));
    for (int c = 0; c < m_charts.size(); ++c) {
        for (auto* axis : m_charts[c]->chart()->axes()) {
            auto* v = qobject_cast<QValueAxis*>(axis);
            if (!v)
                continue;
            if (axis->orientation() == Qt::Horizontal)
                timechart::setNiceRange(v, 0, std::max(1.0, maxT));
            else if (c >= 2) // errors and connections are counts: whole steps
                timechart::setCountRange(v, tops[c]);
            else
                timechart::setNiceRange(v, 0, tops[c]);
        }
    }
}

void RunDashboard::onFinished(const QString& status, const QByteArray& summary)
{
    m_stop->setEnabled(false);
    m_pause->setEnabled(false);
    const QJsonObject o = QJsonDocument::fromJson(summary).object();
    if (status == QLatin1String("failed")) {
        m_title->setText(tr("The run could not be carried out: %1").arg(m_session->lastError()));
        return;
    }
    const QJsonObject total = o.value(QStringLiteral("total")).toObject();
    showTotals(o);
    // the verdict in the words of every report (the summary's "verdict"); an older engine's summary has none
    const QString verdict = o.value(QStringLiteral("verdict")).toString();
    m_title->setText(
        tr("Run %1: %2 requests, p99 %3 ms · %4")
            .arg(o.value(QStringLiteral("run_id")).toString())
            .arg(total.value(QStringLiteral("requests")).toInteger())
            .arg(total.value(QStringLiteral("latency_ms")).toObject().value(QStringLiteral("p99")).toDouble(), 0, 'f',
                 2)
            .arg(!verdict.isEmpty() ? engineText(verdict)
                                    : ProjectTreeModel::statusText(status.toStdString()) + QStringLiteral(", ") +
                                          thresholdsText(o.value(QStringLiteral("thresholds")).toArray())));
    if (const QString unjudged = o.value(QStringLiteral("unjudged")).toString(); !unjudged.isEmpty())
        m_title->setText(m_title->text() + QStringLiteral(" · ") + tr("not judged: %1").arg(engineText(unjudged)));
}

// What the thresholds said, whatever became of the run (a run stopped when asked is not a pass, and its
// thresholds may all have held): the summary's own judgement of each.
QString RunDashboard::thresholdsText(const QJsonArray& thresholds)
{
    if (thresholds.isEmpty())
        return tr("no thresholds");
    QStringList failed;
    for (const QJsonValue& t : thresholds)
        if (!t.toObject().value(QStringLiteral("passed")).toBool())
            failed << t.toObject().value(QStringLiteral("expr")).toString();
    return failed.isEmpty() ? tr("thresholds passed")
                            : tr("threshold failed: %1").arg(failed.join(QStringLiteral(", ")));
}
