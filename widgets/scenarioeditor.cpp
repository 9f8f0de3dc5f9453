#include "scenarioeditor.h"

#include "notifytable.h"

#include "enginetext.h"
#include "jsontext.h"

#include "breakereditor.h"
#include "replayform.h"
#include "stepoptionsform.h"
#include "timechart.h"

#include <QTableWidget>

#include "requestitem.h"

#include "scenariocheck.h"
#include "stagesmodel.h"
#include "variablesmodel.h"

#include <algorithm>

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSpinBox>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

namespace {
// The stage kind column edits with a list of the four kinds.
class KindDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& o, const QModelIndex& i) const override
    {
        if (i.column() != StagesModel::KindColumn)
            return QStyledItemDelegate::createEditor(parent, o, i);
        auto* c = new QComboBox(parent);
        for (int k = StagesModel::Hold; k <= StagesModel::Spike; ++k)
            c->addItem(StagesModel::kindName(StagesModel::Kind(k)), k);
        return c;
    }
    void setEditorData(QWidget* e, const QModelIndex& i) const override
    {
        if (auto* c = qobject_cast<QComboBox*>(e))
            c->setCurrentIndex(i.data(Qt::EditRole).toInt());
        else
            QStyledItemDelegate::setEditorData(e, i);
    }
    void setModelData(QWidget* e, QAbstractItemModel* m, const QModelIndex& i) const override
    {
        if (auto* c = qobject_cast<QComboBox*>(e))
            m->setData(i, c->currentData());
        else
            QStyledItemDelegate::setModelData(e, m, i);
    }
};

// The variable source column edits with a list of the sources.
class SourceDelegate : public KindDelegate
{
public:
    using KindDelegate::KindDelegate;
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& o, const QModelIndex& i) const override
    {
        if (i.column() != VariablesModel::SourceColumn)
            return QStyledItemDelegate::createEditor(parent, o, i);
        auto* c = new QComboBox(parent);
        for (int k = VariablesModel::Constant; k <= VariablesModel::DataSet; ++k)
            c->addItem(VariablesModel::sourceName(VariablesModel::Source(k)), k);
        return c;
    }
};

double seconds(const QJsonValue& v, double fallback)
{
    QString s = v.toString();
    if (!s.endsWith(QLatin1Char('s')))
        return fallback;
    s.chop(1);
    return s.toDouble();
}

// "then think 100ms-300ms": a step's think time as the list shows it.
QString thinkText(const QJsonObject& step)
{
    const QJsonObject t = step.value(QStringLiteral("thinkTime")).toObject();
    if (t.isEmpty())
        return {};
    QString what;
    if (t.contains(QStringLiteral("fixed")))
        what = t.value(QStringLiteral("fixed")).toString();
    else if (t.contains(QStringLiteral("uniform"))) {
        const QJsonArray u = t.value(QStringLiteral("uniform")).toArray();
        what = u.at(0).toString() + QLatin1Char('-') + u.at(1).toString();
    } else if (t.contains(QStringLiteral("normal"))) {
        const QJsonObject n = t.value(QStringLiteral("normal")).toObject();
        what = QCoreApplication::translate("ScenarioEditor", "about %1 (sd %2)")
                   .arg(n.value(QStringLiteral("mean")).toString(), n.value(QStringLiteral("sd")).toString());
    } else if (t.contains(QStringLiteral("exponential"))) {
        what = QCoreApplication::translate("ScenarioEditor", "%1 on average")
                   .arg(t.value(QStringLiteral("exponential")).toObject().value(QStringLiteral("mean")).toString());
    }
    return QCoreApplication::translate("ScenarioEditor", "   then think %1").arg(what);
}

// "   checks: ok, biz code · extracts token": a step's checks and extractions as the list shows them.
QString flowText(const QJsonObject& step)
{
    QStringList checks, names;
    for (const auto& c : step.value(QStringLiteral("checks")).toArray()) {
        const QJsonObject o = c.toObject();
        QString name = o.value(QStringLiteral("name")).toString();
        if (name.isEmpty()) // the engine names it by its subject
            for (const char* k : {"status", "jsonPath", "header", "bodyContains", "maxTimeMs"})
                if (o.contains(QLatin1String(k)))
                    name = QString::fromLatin1(k);
        checks << name;
    }
    for (const auto& x : step.value(QStringLiteral("extract")).toArray())
        names << QStringLiteral("${%1}").arg(x.toObject().value(QStringLiteral("name")).toString());
    QString out;
    if (!checks.isEmpty())
        out += QCoreApplication::translate("ScenarioEditor", "   checks: %1").arg(checks.join(QStringLiteral(", ")));
    if (!names.isEmpty())
        out += QCoreApplication::translate("ScenarioEditor", "   extracts %1").arg(names.join(QStringLiteral(", ")));
    return out;
}

QString stepLine(const QJsonObject& step)
{
    if (step.contains(QStringLiteral("replay"))) {
        const QJsonObject r = step.value(QStringLiteral("replay")).toObject();
        const QString set = r.value(QStringLiteral("traffic")).toString(r.value(QStringLiteral("file")).toString());
        return QCoreApplication::translate("ScenarioEditor", "%1   replays %2 at × %3 to %4")
            .arg(step.value(QStringLiteral("name")).toString(), set,
                 QString::number(r.value(QStringLiteral("speed")).toDouble(1)),
                 r.value(QStringLiteral("target")).toString());
    }
    if (step.contains(QStringLiteral("grpc"))) {
        const QJsonObject g = step.value(QStringLiteral("grpc")).toObject();
        return QStringLiteral("%1   gRPC %2 %3")
                   .arg(step.value(QStringLiteral("name")).toString(), g.value(QStringLiteral("target")).toString(),
                        g.value(QStringLiteral("method")).toString()) +
               thinkText(step) + flowText(step) + StepOptionsForm::summary(step);
    }
    for (const char* stream : {"websocket", "sse"})
        if (const QJsonObject w = step.value(QLatin1String(stream)).toObject(); !w.isEmpty()) {
            const int messages = int(w.value(QStringLiteral("send")).toArray().size());
            return QStringLiteral("%1   %2 %3")
                       .arg(step.value(QStringLiteral("name")).toString(),
                            QLatin1String(stream[0] == 'w' ? "WS" : "SSE"), w.value(QStringLiteral("url")).toString()) +
                   (stream[0] == 'w'
                        ? QCoreApplication::translate("ScenarioEditor", "   sends %n message(s)", nullptr, messages)
                        : QString()) +
                   thinkText(step) + flowText(step) + StepOptionsForm::summary(step);
        }
    const QJsonObject rq = step.value(QStringLiteral("request")).toObject();
    return QStringLiteral("%1   %2 %3")
               .arg(step.value(QStringLiteral("name")).toString(),
                    rq.value(QStringLiteral("method")).toString(QStringLiteral("GET")),
                    rq.value(QStringLiteral("url")).toString()) +
           thinkText(step) + flowText(step) + StepOptionsForm::summary(step);
}
// A row of buttons, left-aligned.
QHBoxLayout* buttonRow(std::initializer_list<QWidget*> ws)
{
    auto* row = new QHBoxLayout;
    for (QWidget* w : ws)
        row->addWidget(w);
    row->addStretch(1);
    return row;
}

// A section's content in a frameless scroll area.
QScrollArea* scrolling(QLayout* content)
{
    auto* inner = new QWidget;
    inner->setLayout(content);
    auto* scroll = new QScrollArea;
    scroll->setWidget(inner);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    return scroll;
}

// A table of `model` as tall as its rows (the section scrolls, not the table).
QTableView* tableOf(QAbstractItemModel* model)
{
    auto* view = new QTableView;
    view->setModel(model);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    view->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return view;
}

// The buttons that add a row after the last of a table's rows and remove its current one.
QHBoxLayout* addAndRemoveRows(QTableView* view, const QString& add, const QString& remove)
{
    auto* addButton = new QPushButton(add);
    auto* removeButton = new QPushButton(remove);
    QAbstractItemModel* model = view->model();
    QObject::connect(addButton, &QPushButton::clicked, view, [model] { model->insertRows(model->rowCount(), 1); });
    QObject::connect(removeButton, &QPushButton::clicked, view, [view, model] {
        if (view->currentIndex().isValid())
            model->removeRows(view->currentIndex().row(), 1);
    });
    return buttonRow({addButton, removeButton});
}

} // namespace

QStringList ScenarioEditor::requestLabels(const QList<ProjectRequest>& requests)
{
    // requests of one name told apart by what they send (and by their place when that is the same too): the one
    // picked is the one added
    QStringList labels;
    for (const auto& r : requests) {
        const bool repeated =
            std::count_if(requests.begin(), requests.end(), [&](const auto& o) { return o.name == r.name; }) > 1;
        const QJsonObject req = QJsonDocument::fromJson(r.payload).object();
        const QString base = repeated
                                 ? tr("%1 — %2 %3")
                                       .arg(r.name, req.value(QStringLiteral("method")).toString(QStringLiteral("GET")),
                                            req.value(QStringLiteral("url")).toString())
                                 : r.name;
        QString label = base;
        for (int n = 2; labels.contains(label); ++n)
            label = tr("%1 (%2)").arg(base).arg(n);
        labels << label;
    }
    return labels;
}

QString ScenarioEditor::name() const
{
    return m_name->text();
}

void ScenarioEditor::setName(const QString& name)
{
    m_name->setText(name); // saved with the next edit; a run takes the tree's name meanwhile
}

ScenarioEditor::ScenarioEditor(QWidget* parent) : QWidget(parent)
{
    m_name = new QLineEdit;
    QLayout* steps = buildSteps();
    QLayout* load = buildLoad();
    QLayout* variables = buildVariables();
    QLayout* checks = buildChecks();
    m_checkPause = new QTimer(this);
    m_checkPause->setSingleShot(true);
    m_checkPause->setInterval(kCheckPauseMs);
    connect(m_checkPause, &QTimer::timeout, this, &ScenarioEditor::startCheck);
    m_problemsLabel = new QLabel;
    m_problemsLabel->setWordWrap(true);
    m_problemsLabel->setStyleSheet(QStringLiteral("color: #c0392b"));
    m_warningsLabel = new QLabel;
    m_warningsLabel->setObjectName(QStringLiteral("scenarioWarnings"));
    m_warningsLabel->setWordWrap(true);
    m_warningsLabel->setStyleSheet(QStringLiteral("color: #b9770e"));
    m_warningsLabel->hide();
    QHBoxLayout* header = buildHeader();
    m_breaker = new BreakerEditor;
    auto* breakerBox = new QVBoxLayout;
    breakerBox->addWidget(m_breaker);
    breakerBox->addStretch(1);
    m_schedule = new QLineEdit;
    m_schedule->setObjectName(QStringLiteral("schedule"));
    m_schedule->setPlaceholderText(tr("none (e.g. daily 02:00, weekly mon 03:30, every 6h)"));
    m_schedule->setToolTip(tr("When to run it unattended: stampede-cli schedule install PROJECT writes systemd user "
                              "timers that run it headless and keep the runs in the project (Runs → Schedules)."));
    auto* scheduleForm = new QFormLayout;
    scheduleForm->addRow(tr("Schedule:"), m_schedule);

    m_sections = new QTabWidget;
    m_sections->setObjectName(QStringLiteral("scenarioSections"));
    m_sections->addTab(scrolling(steps), tr("Steps"));
    m_sections->addTab(scrolling(load), tr("Load"));
    m_sections->addTab(scrolling(variables), tr("Variables"));
    m_sections->addTab(scrolling(checks), tr("Checks && thresholds"));
    m_sections->addTab(scrolling(breakerBox), tr("Breaker"));
    m_sections->addTab(scrolling(scheduleForm), tr("Schedule"));
    m_notify = new NotifyTable;
    m_notify->setSources([this] { return json(); },
                         [this] { return m_environments ? m_environments() : ScenarioCheck::EnvironmentChoice{}; });
    auto* notifyBox = new QVBoxLayout;
    auto* notifyNote = new QLabel(tr("Webhooks told how each run goes: at its start, at each breaker action, when "
                                     "thresholds fail and at its end (verdict, figures, where the run is kept)."));
    notifyNote->setWordWrap(true);
    notifyBox->addWidget(notifyNote);
    notifyBox->addWidget(m_notify, 1);
    m_sections->addTab(scrolling(notifyBox), tr("Notifications"));

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_problemsLabel);
    layout->addWidget(m_warningsLabel);
    layout->addLayout(header);
    layout->addWidget(m_sections, 1);

    followEdits();
}

// The steps (and a replay's form in their place), the chosen step's options, the stress tag and trace context.
QLayout* ScenarioEditor::buildSteps()
{
    m_replay = new ReplayForm;
    m_steps = new QListWidget;
    m_steps->setToolTip(tr("Each iteration runs these requests in order, on one connection"));
    m_stepOptions = new StepOptionsForm;
    m_stepOptions->setObjectName(QStringLiteral("stepOptions"));
    auto* addStep = new QPushButton(tr("Add request…"));
    auto* removeStep = new QPushButton(tr("Remove"));
    m_copyStep = new QPushButton(tr("Make a copy"));
    m_copyStep->setObjectName(QStringLiteral("copyStep"));
    m_copyStep->setToolTip(tr("The chosen step runs its project request as the request is when the run starts. "
                              "Make a copy keeps what the step sends now, whatever later happens to the request."));
    m_openStepRequest = new QPushButton(tr("Open request"));
    m_openStepRequest->setObjectName(QStringLiteral("openStepRequest"));
    m_openStepRequest->setToolTip(tr("Opens the request the chosen step runs, to edit it"));
    connect(m_copyStep, &QPushButton::clicked, this, [this] {
        const int row = m_steps->currentRow();
        if (row < 0 || row >= m_stepObjects.size())
            return;
        const QList<ProjectRequest> requests = projectRequests();
        m_stepObjects[row] = followed(m_stepObjects[row], requests);
        m_stepObjects[row].remove(QStringLiteral("requestItem"));
        showStepRow(row, requests);
        showStepButtons(requests);
        edited();
    });
    connect(m_openStepRequest, &QPushButton::clicked, this, [this] {
        const int row = m_steps->currentRow();
        if (row >= 0 && row < m_stepObjects.size())
            if (const qint64 id = requestItemOf(m_stepObjects[row]))
                Q_EMIT openRequest(id);
    });

    connect(addStep, &QPushButton::clicked, this, [this] {
        const auto requests = m_requests ? m_requests() : QList<ProjectRequest>();
        if (requests.isEmpty()) {
            QMessageBox::information(this, tr("Add request"), tr("The project has no requests yet."));
            return;
        }
        const QStringList labels = requestLabels(requests);
        bool ok = false;
        const QString chosen = QInputDialog::getItem(this, tr("Add request"), tr("Request:"), labels, 0, false, &ok);
        const qsizetype at = labels.indexOf(chosen);
        if (ok && at >= 0)
            this->addStep(requests[at]);
    });
    connect(removeStep, &QPushButton::clicked, this, [this] {
        const int row = m_steps->currentRow();
        if (row >= 0) {
            m_stepObjects.removeAt(row);
            delete m_steps->takeItem(row);
            edited();
        }
    });
    m_tagOn = new QCheckBox(tr("Send the stress tag"));
    m_tagOn->setToolTip(tr("Every request carries the run's unique id, so services can route test traffic "
                           "to shadow tables and tell test traffic apart"));
    m_tagHeader = new QLineEdit;
    m_tagHeader->setPlaceholderText(QStringLiteral("X-Stress-Tag"));
    m_trace = new QCheckBox(tr("Trace context (W3C traceparent)"));
    m_trace->setObjectName(QStringLiteral("trace"));
    m_trace->setToolTip(tr("Every request carries a traceparent: one trace id per iteration of a virtual user, one "
                           "span id per request, so a request can be followed through the services; a replay keeps "
                           "a recorded trace id. Write baggage as the stress tag's header to carry the tag as "
                           "OpenTelemetry baggage."));
    auto* stepsForm = new QFormLayout;
    auto* stepsBox = new QVBoxLayout;
    stepsBox->addWidget(m_steps);
    stepsBox->addLayout(buttonRow({addStep, m_copyStep, m_openStepRequest, removeStep}));
    stepsForm->addRow(tr("Steps:"), stepsBox);
    stepsForm->addRow(tr("Chosen step:"), m_stepOptions);
    stepsForm->addRow(tr("Replay:"), m_replay);
    stepsForm->setRowVisible(m_replay, false);
    auto* tag = new QHBoxLayout;
    tag->addWidget(m_tagOn);
    tag->addWidget(m_tagHeader, 1);
    tag->addWidget(m_trace);
    stepsForm->addRow(tr("Stress tag:"), tag);
    m_stepsForm = stepsForm;
    return stepsForm;
}

// The load model and its level, connections, think time and pacing, the protocol, the stages and their chart.
QLayout* ScenarioEditor::buildLoad()
{
    m_model = new QComboBox;
    m_model->addItem(tr("Open model: a target rate (iterations/s)"));
    m_model->addItem(tr("Closed model: virtual users"));
    m_model->setToolTip(tr("Open: iterations start on a schedule whatever the latency (stable QPS).\n"
                           "Closed: each user sends, waits for the answer, thinks, and repeats."));
    m_level = new QDoubleSpinBox;
    m_level->setRange(0, 10000000);
    m_level->setDecimals(1);
    m_levelLabel = new QLabel;
    m_connections = new QSpinBox;
    m_connections->setRange(0, 1000000);
    m_connections->setSpecialValueText(tr("default (50)"));
    m_connections->setToolTip(tr("Open model: the connection pool. An arrival that finds every connection busy "
                                 "waits and is counted as late."));
    m_thinkMs = new QSpinBox;
    m_thinkMs->setRange(0, 3600000);
    m_thinkMs->setSuffix(tr(" ms"));
    m_thinkMs->setToolTip(tr("Closed model: the pause after each iteration"));
    m_pacingMs = new QSpinBox;
    m_pacingMs->setRange(0, 3600000);
    m_pacingMs->setSuffix(tr(" ms"));
    m_pacingMs->setSpecialValueText(tr("off"));
    m_pacingMs->setToolTip(tr("Closed model: each user starts an iteration at least this long after its previous "
                              "one began (a steady pace per user, whatever the latency); 0: off"));
    m_http = new QComboBox;
    m_http->addItem(tr("auto"));
    m_http->addItem(QStringLiteral("HTTP/1.1"));
    m_http->addItem(QStringLiteral("HTTP/2"));
    m_http->setToolTip(tr("auto: HTTP/1.1 for http://, and for https:// what the server settles on by ALPN.\n"
                          "HTTP/2 with http:// is h2c with prior knowledge."));
    m_streams = new QSpinBox;
    m_streams->setRange(1, 1000);
    m_streams->setToolTip(tr("HTTP/2: requests in flight on each connection"));
    m_verifyTls = new QCheckBox(tr("Verify servers' certificates (https)"));
    m_verifyTls->setObjectName(QStringLiteral("verifyServers"));
    m_verifyTls->setChecked(true);
    m_verifyTls->setToolTip(tr("Off only for test servers with self-made certificates: a refused certificate "
                               "counts as a tls error"));
    m_duration = new QDoubleSpinBox;
    m_duration->setRange(0, 7 * 24 * 3600);
    m_duration->setSuffix(tr(" s"));
    m_duration->setSpecialValueText(tr("the stages' total"));

    auto* loadForm = new QFormLayout;
    loadForm->addRow(tr("Load model:"), m_model);
    loadForm->addRow(m_levelLabel, m_level);
    loadForm->addRow(tr("Connections:"), m_connections);
    loadForm->addRow(tr("Think time:"), m_thinkMs);
    loadForm->addRow(tr("Pacing:"), m_pacingMs);
    auto* protocol = new QHBoxLayout;
    protocol->addWidget(m_http);
    protocol->addWidget(new QLabel(tr("Streams per connection:")));
    protocol->addWidget(m_streams);
    protocol->addWidget(m_verifyTls);
    protocol->addStretch(1);
    loadForm->addRow(tr("HTTP version:"), protocol);
    loadForm->addRow(tr("Duration:"), m_duration);
    QVBoxLayout* stagesBox = buildStages();
    loadForm->addRow(tr("Stages:"), stagesBox);

    m_loadFields = {m_model, m_level, m_thinkMs, m_pacingMs};
    m_stagesBox = stagesBox;
    m_form = loadForm;
    return loadForm;
}

// The stages' table, its buttons and the chart of the planned load.
QVBoxLayout* ScenarioEditor::buildStages()
{
    m_stages = new StagesModel(this);
    m_stagesView = tableOf(m_stages);
    m_stagesView->setItemDelegate(new KindDelegate(m_stagesView));
    m_stagesView->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded); // a ninth stage is reached, never clipped
    // its rows shown whole (up to eight; then it scrolls), whatever room the chart below would take
    const auto fitRows = [view = m_stagesView] {
        const int rows = std::clamp(view->model()->rowCount(), 3, 8);
        const int row = view->verticalHeader()->defaultSectionSize();
        view->setMinimumHeight(view->horizontalHeader()->sizeHint().height() + rows * row + 2 * view->frameWidth() + 2);
    };
    fitRows();
    connect(m_stages, &QAbstractItemModel::rowsInserted, m_stagesView, fitRows);
    connect(m_stages, &QAbstractItemModel::rowsRemoved, m_stagesView, fitRows);
    connect(m_stages, &QAbstractItemModel::modelReset, m_stagesView, fitRows);
    m_series = new QLineSeries;
    auto* chart = new QChart;
    chart->addSeries(m_series);
    chart->legend()->hide();
    auto* x = new QValueAxis;
    x->setTitleText(tr("seconds"));
    x->setLabelFormat(QStringLiteral("%g"));
    auto* y = new QValueAxis;
    y->setLabelFormat(QStringLiteral("%g"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    m_series->attachAxis(x);
    m_series->attachAxis(y);
    chart->setTitle(tr("Planned load"));
    m_chart = new QChartView(chart);
    m_chart->setRenderHint(QPainter::Antialiasing);
    m_chart->setMinimumHeight(220);

    auto* stagesBox = new QVBoxLayout;
    stagesBox->addWidget(m_stagesView);
    stagesBox->addLayout(addAndRemoveRows(m_stagesView, tr("Add stage"), tr("Remove stage")));
    stagesBox->addWidget(m_chart);
    return stagesBox;
}

// The scenario's variables and where each name's value comes from.
QLayout* ScenarioEditor::buildVariables()
{
    m_variables = new VariablesModel(this);
    m_variablesView = tableOf(m_variables);
    m_variablesView->setItemDelegate(new SourceDelegate(m_variablesView));
    m_variablesView->setToolTip(tr("A data-set variable takes its rows from the project's data set of the same name"));
    m_scopes = new QLabel;
    m_scopes->setObjectName(QStringLiteral("variableScopes"));
    m_scopes->setWordWrap(true);
    m_scopes->setToolTip(tr("Where each name's value comes from in a run with the current environment, lowest "
                            "first: the environment, the scenario's variables, its data sets and generators, the "
                            "values its steps extract (an environment value is the default until extracted)"));
    auto* variablesBox = new QVBoxLayout;
    variablesBox->addWidget(m_variablesView);
    variablesBox->addLayout(addAndRemoveRows(m_variablesView, tr("Add variable"), tr("Remove variable")));
    variablesBox->addWidget(m_scopes);
    variablesBox->addStretch(1);

    return variablesBox;
}

// The thresholds, and the steps' checks listed.
QLayout* ScenarioEditor::buildChecks()
{
    m_thresholds = new QPlainTextEdit;
    m_thresholds->setPlaceholderText(tr("One per line, e.g.\np99 < 200ms\nerror_rate < 0.1%"));
    m_thresholds->setMaximumHeight(80);
    m_checksList = new QLabel;
    m_checksList->setObjectName(QStringLiteral("stepChecks"));
    m_checksList->setWordWrap(true);
    m_checksList->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* checksForm = new QFormLayout;
    checksForm->addRow(tr("Thresholds:"), m_thresholds);
    checksForm->addRow(tr("Steps' checks:"), m_checksList);

    return checksForm;
}

// The name and what to do with the scenario (run, find capacity, export), always in sight.
QHBoxLayout* ScenarioEditor::buildHeader()
{
    auto* run = new QPushButton(tr("Run on the local pool"));
    m_run = run;
    run->setToolTip(
        tr("Start this scenario on local engines (fitted to the CPUs this machine lets it use) and watch it live"));
    run->setObjectName(QStringLiteral("runButton"));
    auto* capacity = new QPushButton(tr("Find capacity…"));
    capacity->setObjectName(QStringLiteral("capacityButton"));
    capacity->setToolTip(tr("Raise this scenario's rate level by level until an SLO breaks: the highest rate "
                            "the target takes"));
    auto* exportJson = new QPushButton(tr("Export JSON…"));
    auto* exportBundle = new QPushButton(tr("Export bundle…"));

    connect(exportJson, &QPushButton::clicked, this, &ScenarioEditor::exportJson);
    connect(run, &QPushButton::clicked, this, [this] {
        if (refusedForProblems(tr("Run")))
            return;
        if (!m_warnings.isEmpty() &&
            QMessageBox::question(this, tr("Run"),
                                  tr("This scenario will fail requests:") + QStringLiteral("\n• ") +
                                      m_warnings.join(QStringLiteral("\n• ")) + QStringLiteral("\n\n") +
                                      tr("Run it anyway?")) != QMessageBox::Yes)
            return;
        Q_EMIT runRequested(json());
    });
    connect(capacity, &QPushButton::clicked, this, [this] {
        if (refusedForProblems(tr("Find capacity")))
            return;
        if (isReplay()) {
            QMessageBox::information(this, tr("Find capacity"),
                                     tr("A replay sends the recording at its own pace: a capacity search raises an "
                                        "open model's rate. Use a scenario of requests."));
            return;
        }
        Q_EMIT capacityRequested(json());
    });
    connect(exportBundle, &QPushButton::clicked, this, &ScenarioEditor::exportBundle);
    auto* header = new QHBoxLayout;
    m_nameLabel = new QLabel(tr("Name:"));
    header->addWidget(m_nameLabel);
    header->addWidget(m_name, 1);
    header->addWidget(run);
    header->addWidget(capacity);
    header->addWidget(exportJson);
    header->addWidget(exportBundle);
    m_actions = {run, capacity, exportJson, exportBundle};

    return header;
}

// Every field's change marks the scenario edited (connected once its fields hold their first values).
void ScenarioEditor::followEdits()
{
    connect(m_name, &QLineEdit::textEdited, this, &ScenarioEditor::edited);
    connect(m_name, &QLineEdit::editingFinished, this, [this] {
        if (m_name->isModified()) {
            m_name->setModified(false);
            emit renamed(m_name->text());
        }
    });
    connect(m_schedule, &QLineEdit::textEdited, this, &ScenarioEditor::edited);
    connect(m_notify, &NotifyTable::changed, this, &ScenarioEditor::edited);
    connect(m_replay, &ReplayForm::changed, this, [this] {
        if (!isReplay())
            return;
        m_stepObjects[0][QStringLiteral("replay")] = m_replay->replay();
        showStepRow(0, projectRequests());
        edited();
    });
    connect(m_model, &QComboBox::currentIndexChanged, this, &ScenarioEditor::edited);
    connect(m_level, &QDoubleSpinBox::valueChanged, this, &ScenarioEditor::edited);
    connect(m_connections, &QSpinBox::valueChanged, this, &ScenarioEditor::edited);
    connect(m_thinkMs, &QSpinBox::valueChanged, this, &ScenarioEditor::edited);
    connect(m_pacingMs, &QSpinBox::valueChanged, this, &ScenarioEditor::edited);
    connect(m_http, &QComboBox::currentIndexChanged, this, [this] {
        m_streams->setEnabled(m_http->currentIndex() == 2);
        edited();
    });
    connect(m_streams, &QSpinBox::valueChanged, this, &ScenarioEditor::edited);
    connect(m_verifyTls, &QCheckBox::toggled, this, &ScenarioEditor::edited);
    connect(m_duration, &QDoubleSpinBox::valueChanged, this, &ScenarioEditor::edited);
    connect(m_thresholds, &QPlainTextEdit::textChanged, this, &ScenarioEditor::edited);
    connect(m_breaker, &BreakerEditor::changed, this, &ScenarioEditor::edited);
    connect(m_tagOn, &QCheckBox::toggled, this, &ScenarioEditor::edited);
    connect(m_trace, &QCheckBox::toggled, this, &ScenarioEditor::edited);
    connect(m_tagHeader, &QLineEdit::textEdited, this, &ScenarioEditor::edited);
    connect(m_stages, &QAbstractItemModel::dataChanged, this, &ScenarioEditor::edited);
    connect(m_stages, &QAbstractItemModel::rowsInserted, this, &ScenarioEditor::edited);
    connect(m_stages, &QAbstractItemModel::rowsRemoved, this, &ScenarioEditor::edited);
    connect(m_variables, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex& a, const QModelIndex& b) {
        if (a.column() <= VariablesModel::SettingsColumn)
            edited();
    });
    connect(m_variables, &QAbstractItemModel::rowsInserted, this, &ScenarioEditor::edited);
    connect(m_variables, &QAbstractItemModel::rowsRemoved, this, &ScenarioEditor::edited);
    connect(m_steps, &QListWidget::currentRowChanged, this, [this](int row) {
        m_stepOptions->setStep(row >= 0 && row < m_stepObjects.size() ? m_stepObjects[row] : QJsonObject());
        showStepButtons(projectRequests());
    });
    connect(m_stepOptions, &StepOptionsForm::changed, this, [this] {
        const int row = m_steps->currentRow();
        if (row < 0 || row >= m_stepObjects.size())
            return;
        m_stepObjects[row] = m_stepOptions->applyTo(m_stepObjects[row]);
        showStepRow(row, projectRequests());
        edited();
    });
}

bool ScenarioEditor::refusedForProblems(const QString& title)
{
    if (problems().isEmpty())
        return false;
    QMessageBox::warning(
        this, title, tr("Fix the scenario first:") + QStringLiteral("\n• ") + m_problems.join(QStringLiteral("\n• ")));
    return true;
}

bool ScenarioEditor::isReplay() const
{
    return m_stepObjects.size() == 1 && m_stepObjects.front().contains(QStringLiteral("replay"));
}

// A replay's own settings in place of the load's: the recording paces it.
void ScenarioEditor::showReplay()
{
    const bool replay = isReplay();
    m_stepsForm->setRowVisible(m_replay, replay);
    for (QWidget* w : m_loadFields)
        m_form->setRowVisible(w, !replay);
    m_form->setRowVisible(m_stagesBox, !replay);
    m_duration->setSpecialValueText(replay ? tr("the recording's length") : tr("the stages' total"));
    if (replay)
        m_replay->setReplay(m_stepObjects.front().value(QStringLiteral("replay")).toObject());
}

void ScenarioEditor::addStep(const ProjectRequest& request)
{
    QJsonObject step = RequestItem::fromJson(request.payload).toStep(request.name);
    if (request.id) // the request itself runs, not a copy of it (Make a copy makes one)
        step[QStringLiteral("requestItem")] = QString::number(request.id);
    m_stepObjects.append(step);
    m_steps->addItem(QString());
    showStepRow(int(m_stepObjects.size()) - 1, projectRequests());
    m_steps->setCurrentRow(int(m_stepObjects.size()) - 1);
    edited();
}

qint64 ScenarioEditor::requestItemOf(const QJsonObject& step)
{
    const QJsonValue v = step.value(QStringLiteral("requestItem")); // an int64: a string in protobuf's JSON
    return v.isString() ? v.toString().toLongLong() : qint64(v.toDouble());
}

QList<ScenarioEditor::ProjectRequest> ScenarioEditor::projectRequests() const
{
    return m_requests ? m_requests() : QList<ProjectRequest>();
}

// Whether `step` runs a project request that `requests` no longer holds.
bool ScenarioEditor::requestGone(const QJsonObject& step, const QList<ProjectRequest>& requests) const
{
    const qint64 id = requestItemOf(step);
    return id && m_requests &&
           std::none_of(requests.begin(), requests.end(), [id](const ProjectRequest& r) { return r.id == id; });
}

QJsonObject ScenarioEditor::followed(const QJsonObject& step, const QList<ProjectRequest>& requests) const
{
    if (const qint64 id = requestItemOf(step))
        for (const ProjectRequest& r : requests)
            if (r.id == id)
                return RequestItem::followStep(step, r.name, r.payload);
    return step;
}

void ScenarioEditor::followRequests()
{
    const QList<ProjectRequest> requests = projectRequests(); // the tree walked once for every step
    for (int row = 0; row < m_stepObjects.size(); ++row) {
        m_stepObjects[row] = followed(m_stepObjects[row], requests);
        showStepRow(row, requests);
    }
    showStepButtons(requests);
}

// A step's line: what it sends, and whether it runs its project request, a copy, or a request since deleted.
void ScenarioEditor::showStepRow(int row, const QList<ProjectRequest>& requests)
{
    if (row < 0 || row >= m_stepObjects.size() || row >= m_steps->count())
        return;
    const QJsonObject& step = m_stepObjects[row];
    const bool gone = requestGone(step, requests);
    const bool linked = requestItemOf(step) != 0;
    QString line = stepLine(step);
    if (gone)
        line += tr("   · its request was deleted");
    else if (!linked && !step.contains(QStringLiteral("replay")))
        line += tr("   · a copy");
    QListWidgetItem* item = m_steps->item(row);
    item->setText(line);
    item->setToolTip(gone     ? tr("The request this step ran is no longer in the project: the run refuses the step. "
                                       "Make a copy to keep what it last sent, or remove it.")
                     : linked ? tr("Runs the project's request \u201c%1\u201d as it is when the run starts")
                                    .arg(step.value(QStringLiteral("name")).toString())
                              : tr("A copy: sends what it holds, whatever happens to the request it came from"));
}

void ScenarioEditor::showStepButtons(const QList<ProjectRequest>& requests)
{
    const int row = m_steps->currentRow();
    const QJsonObject step = row >= 0 && row < m_stepObjects.size() ? m_stepObjects[row] : QJsonObject();
    m_copyStep->setEnabled(requestItemOf(step) != 0);
    m_openStepRequest->setEnabled(requestItemOf(step) != 0 && !requestGone(step, requests));
}

void ScenarioEditor::setEngines(const QString& label, const QString& toolTip)
{
    m_run->setText(label);
    m_run->setToolTip(toolTip);
}

void ScenarioEditor::setJson(const QByteArray& payload)
{
    m_loading = true;
    m_rest = QJsonDocument::fromJson(payload).object();
    m_name->setText(m_rest.value(QStringLiteral("name")).toString());
    m_schedule->setText(m_rest.value(QStringLiteral("schedule")).toString());
    m_notify->fromJson(m_rest.value(QStringLiteral("notify")).toArray());
    m_inlineCsv.clear();
    for (const auto& v : m_rest.value(QStringLiteral("variables")).toArray()) {
        const QJsonObject csv = v.toObject().value(QStringLiteral("csv")).toObject();
        if (!csv.value(QStringLiteral("data")).toString().isEmpty())
            m_inlineCsv.insert(v.toObject().value(QStringLiteral("name")).toString(),
                               csv.value(QStringLiteral("data")).toString());
    }
    m_variables->fromJson(m_rest.value(QStringLiteral("variables")).toArray());
    m_stepObjects.clear();
    m_steps->clear();
    const QList<ProjectRequest> requests = projectRequests();
    for (const auto& s : m_rest.value(QStringLiteral("steps")).toArray()) {
        m_stepObjects.append(followed(s.toObject(), requests)); // a step that runs a request shows it as it is now
        m_steps->addItem(QString());
        showStepRow(int(m_stepObjects.size()) - 1, requests);
    }
    if (m_steps->count()) // its options shown for the first step
        m_steps->setCurrentRow(0);
    showReplay();
    const QJsonObject load = m_rest.value(QStringLiteral("load")).toObject();
    const bool closed = load.contains(QStringLiteral("closed"));
    m_model->setCurrentIndex(closed ? 1 : 0);
    m_level->setValue(closed ? load.value(QStringLiteral("closed")).toObject().value(QStringLiteral("users")).toDouble()
                             : load.value(QStringLiteral("open")).toObject().value(QStringLiteral("rate")).toDouble());
    m_thinkMs->setValue(
        int(seconds(load.value(QStringLiteral("closed")).toObject().value(QStringLiteral("thinkTime")), 0) * 1000));
    m_pacingMs->setValue(
        int(seconds(load.value(QStringLiteral("closed")).toObject().value(QStringLiteral("pacing")), 0) * 1000));
    m_stages->fromJson(load.value(QStringLiteral("stages")).toArray());
    m_connections->setValue(m_rest.value(QStringLiteral("connections")).toInt());
    const QString http = m_rest.value(QStringLiteral("http")).toString();
    m_http->setCurrentIndex(http == QLatin1String("HTTP_2") ? 2 : http == QLatin1String("HTTP_1_1") ? 1 : 0);
    m_streams->setValue(std::max(1, m_rest.value(QStringLiteral("streams")).toInt()));
    m_streams->setEnabled(m_http->currentIndex() == 2);
    m_verifyTls->setChecked(!m_rest.value(QStringLiteral("tls")).toObject().value(QStringLiteral("insecure")).toBool());
    m_duration->setValue(seconds(m_rest.value(QStringLiteral("duration")), 0));
    QStringList thresholds;
    for (const auto& t : m_rest.value(QStringLiteral("thresholds")).toArray())
        thresholds << t.toObject().value(QStringLiteral("expr")).toString();
    m_thresholds->setPlainText(thresholds.join(QLatin1Char('\n')));
    m_breaker->fromJson(m_rest.value(QStringLiteral("breaker")).toObject());
    const QJsonObject tag = m_rest.value(QStringLiteral("stressTag")).toObject();
    m_tagOn->setChecked(!tag.value(QStringLiteral("disabled")).toBool());
    m_tagHeader->setText(tag.value(QStringLiteral("header")).toString());
    m_trace->setChecked(m_rest.value(QStringLiteral("trace")).toBool());
    m_loading = false;
    QList<QPair<QString, QString>> usage;
    for (const auto& st : m_stepObjects)
        usage.append({st.value(QStringLiteral("name")).toString(),
                      QString::fromUtf8(QJsonDocument(st).toJson(QJsonDocument::Compact))});
    m_variables->setUsageText(usage);
    refreshPreview();
    startCheck();
}

void ScenarioEditor::asPlanPart(PlanPart part, std::function<QByteArray(const QByteArray&)> asItRuns)
{
    m_wrap = std::move(asItRuns);
    for (QWidget* w : m_actions) // the plan runs and exports as a whole
        w->hide();
    // what each part of a plan says: a scenario all but its schedule (the plan's), the setup and
    // teardown their steps, the plan itself its defaults and its judges
    const QStringList shown =
        part == PlanPart::Scenario
            ? QStringList{tr("Steps"), tr("Load"), tr("Variables"), tr("Checks && thresholds"), tr("Breaker")}
        : part == PlanPart::Phase
            ? QStringList{tr("Steps")}
            : QStringList{tr("Variables"), tr("Checks && thresholds"), tr("Breaker"), tr("Schedule")};
    for (int i = 0; i < m_sections->count(); ++i)
        m_sections->setTabVisible(i, shown.contains(m_sections->tabText(i)));
    for (int i = 0; i < m_sections->count(); ++i)
        if (m_sections->isTabVisible(i)) {
            m_sections->setCurrentIndex(i);
            break;
        }
    m_scopes->setVisible(part == PlanPart::Scenario); // where a name's value comes from: a scenario's steps
    m_name->setVisible(part == PlanPart::Scenario);   // the plan's name is the plan editor's
    m_nameLabel->setVisible(part == PlanPart::Scenario);
}

QByteArray ScenarioEditor::json() const
{
    QJsonObject o = m_rest;
    o[QStringLiteral("name")] = m_name->text();
    if (const QJsonArray notify = m_notify->toJson(); notify.isEmpty())
        o.remove(QStringLiteral("notify"));
    else
        o[QStringLiteral("notify")] = notify;
    if (m_schedule->text().trimmed().isEmpty())
        o.remove(QStringLiteral("schedule"));
    else
        o[QStringLiteral("schedule")] = m_schedule->text().trimmed();
    // data-set variables carry the project's data set (or the data the scenario came with)
    o[QStringLiteral("variables")] = m_variables->toJson([this](const QString& name) {
        const QString fromProject = m_dataSets ? m_dataSets(name) : QString();
        return fromProject.isEmpty() ? m_inlineCsv.value(name) : fromProject;
    });
    QJsonArray steps;
    const QList<ProjectRequest> requests = projectRequests();
    for (const auto& s : m_stepObjects)
        steps.append(followed(s, requests)); // what runs: the request as it is now
    o[QStringLiteral("steps")] = steps;
    // what the form does not show (an open model's backlogLimit) is kept as it came
    const QJsonObject loaded = m_rest.value(QStringLiteral("load")).toObject();
    QJsonObject load;
    const auto millis = [](int ms) { return QString(QString::number(ms / 1000.0, 'g', 9) + QLatin1Char('s')); };
    if (m_model->currentIndex() == 1) {
        QJsonObject closed = loaded.value(QStringLiteral("closed")).toObject();
        closed[QStringLiteral("users")] = int(m_level->value());
        closed.remove(QStringLiteral("thinkTime"));
        closed.remove(QStringLiteral("pacing"));
        if (m_thinkMs->value())
            closed[QStringLiteral("thinkTime")] = millis(m_thinkMs->value());
        if (m_pacingMs->value())
            closed[QStringLiteral("pacing")] = millis(m_pacingMs->value());
        load[QStringLiteral("closed")] = closed;
    } else {
        QJsonObject open = loaded.value(QStringLiteral("open")).toObject();
        open[QStringLiteral("rate")] = m_level->value();
        load[QStringLiteral("open")] = open;
    }
    if (m_stages->rowCount())
        load[QStringLiteral("stages")] = m_stages->toJson();
    if (isReplay()) // the recording is the load
        o.remove(QStringLiteral("load"));
    else
        o[QStringLiteral("load")] = load;
    if (m_connections->value())
        o[QStringLiteral("connections")] = m_connections->value();
    else
        o.remove(QStringLiteral("connections"));
    if (m_http->currentIndex() == 0)
        o.remove(QStringLiteral("http"));
    else
        o[QStringLiteral("http")] = m_http->currentIndex() == 2 ? QStringLiteral("HTTP_2") : QStringLiteral("HTTP_1_1");
    if (m_http->currentIndex() == 2 && m_streams->value() > 1)
        o[QStringLiteral("streams")] = m_streams->value();
    else
        o.remove(QStringLiteral("streams"));
    QJsonObject tls = o.value(QStringLiteral("tls")).toObject(); // CA and client files are kept as they were
    if (m_verifyTls->isChecked())
        tls.remove(QStringLiteral("insecure"));
    else
        tls[QStringLiteral("insecure")] = true;
    if (tls.isEmpty())
        o.remove(QStringLiteral("tls"));
    else
        o[QStringLiteral("tls")] = tls;
    if (m_duration->value() > 0)
        o[QStringLiteral("duration")] = QString(QString::number(m_duration->value(), 'g', 9) + QLatin1Char('s'));
    else
        o.remove(QStringLiteral("duration"));
    QJsonArray thresholds;
    for (const QString& line : m_thresholds->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        if (!line.trimmed().isEmpty())
            thresholds.append(QJsonObject{{QStringLiteral("expr"), line.trimmed()}});
    o[QStringLiteral("thresholds")] = thresholds;
    const QJsonObject breaker = m_breaker->toJson();
    if (breaker.isEmpty())
        o.remove(QStringLiteral("breaker"));
    else
        o[QStringLiteral("breaker")] = breaker;
    QJsonObject tag;
    if (!m_tagOn->isChecked())
        tag[QStringLiteral("disabled")] = true;
    if (!m_tagHeader->text().trimmed().isEmpty())
        tag[QStringLiteral("header")] = m_tagHeader->text().trimmed();
    o[QStringLiteral("stressTag")] = tag;
    if (m_trace->isChecked())
        o[QStringLiteral("trace")] = true;
    else
        o.remove(QStringLiteral("trace"));
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

void ScenarioEditor::edited()
{
    if (m_loading)
        return;
    QList<QPair<QString, QString>> usage;
    for (const auto& st : m_stepObjects)
        usage.append({st.value(QStringLiteral("name")).toString(),
                      QString::fromUtf8(QJsonDocument(st).toJson(QJsonDocument::Compact))});
    m_variables->setUsageText(usage);
    refreshPreview();
    scheduleCheck();
    Q_EMIT changed(json());
}

QList<QPointF> ScenarioEditor::previewPoints() const
{
    const double duration = m_duration->value() > 0 ? m_duration->value()
                            : m_stages->rowCount()  ? m_stages->totalSeconds()
                                                    : 10.0;
    return m_stages->preview(m_level->value(), duration);
}

QList<QPointF> ScenarioEditor::drawnPreview() const
{
    return m_series->points();
}

QString ScenarioEditor::levelLabelText() const
{
    return m_levelLabel->text();
}

void ScenarioEditor::refreshPreview()
{
    const bool closed = m_model->currentIndex() == 1;
    // the open model's rate is of iterations: each runs every step, so the
    // preview draws requests/s, the steps times the rate
    const int steps = std::max(1, int(m_stepObjects.size()));
    m_levelLabel->setText(closed ? tr("Users at the start:")
                                 : tr("Iterations/s at the start (%1 steps: × %1 requests/s):").arg(steps));
    m_level->setDecimals(closed ? 0 : 1); // users are whole
    QList<QPointF> points = previewPoints();
    if (!closed)
        for (auto& p : points)
            p.setY(p.y() * steps);
    m_series->replace(points);
    double maxX = 1, maxY = 1;
    for (const auto& p : points) {
        maxX = std::max(maxX, p.x());
        maxY = std::max(maxY, p.y());
    }
    for (auto* a : m_chart->chart()->axes()) { // 1-2-5 steps on both axes, as every chart
        auto* v = qobject_cast<QValueAxis*>(a);
        if (!v)
            continue;
        if (a->orientation() == Qt::Horizontal) {
            timechart::setNiceRange(v, 0, maxX);
        } else {
            timechart::setNiceRange(v, 0, maxY * 1.05);
            m_chart->chart()->setTitle(
                QStringLiteral("%1 (%2)").arg(tr("Planned load"), closed ? tr("users") : tr("requests/s")));
        }
    }
}

// Each name the steps use, with the scope its value comes from; each step's checks.
void ScenarioEditor::showScopes(const QList<QPair<QString, QString>>& scopes)
{
    QStringList parts;
    for (const auto& [name, scope] : scopes) {
        const QString where = scope == QLatin1String("extracted")     ? tr("extracted by a step")
                              : scope == QLatin1String("data set")    ? tr("data set")
                              : scope == QLatin1String("generator")   ? tr("generator")
                              : scope == QLatin1String("scenario")    ? tr("scenario constant")
                              : scope == QLatin1String("environment") ? tr("environment")
                                                                      : tr("not defined");
        parts << QStringLiteral("${%1}: %2").arg(name, where);
    }
    m_scopes->setText(
        parts.isEmpty()
            ? tr("The steps use no ${names}.")
            : tr("Names the steps use, and where their values come from: %1").arg(parts.join(QStringLiteral(" · "))));
    QStringList checks;
    for (const QJsonObject& step : m_stepObjects)
        if (const QString f = flowText(step).trimmed(); !f.isEmpty())
            checks << step.value(QStringLiteral("name")).toString() + QStringLiteral(": ") + f;
    m_checksList->setText(checks.isEmpty() ? tr("No step has checks: add them in a request's Checks tab.")
                                           : checks.join(QLatin1Char('\n')));
}

struct ScenarioEditor::CheckInput
{
    QByteArray scenario; // as it compiles (a plan's part within its plan)
    QString baseDir;
    ScenarioCheck::TrafficSource traffic;
    ScenarioCheck::EnvironmentChoice environments;
};

struct ScenarioEditor::CheckOutput
{
    ScenarioCheck::Result result;
    QList<QPair<QString, QString>> scopes;
};

// What the check reads, taken on the GUI thread: checked as a run in the workbench would be, with the current
// environment applied.
ScenarioEditor::CheckInput ScenarioEditor::checkInput() const
{
    CheckInput in;
    in.environments = m_environments ? m_environments() : ScenarioCheck::EnvironmentChoice();
    in.scenario = m_wrap ? m_wrap(json()) : json();
    in.baseDir = m_baseDir;
    in.traffic = m_traffic;
    return in;
}

// The engine's checks, on any thread: one compile for the faults and warnings, and each name's scope.
ScenarioEditor::CheckOutput ScenarioEditor::runCheck(const CheckInput& in)
{
    CheckOutput out;
    if (in.scenario.isEmpty()) // nothing to check: a plan's setup or teardown without steps
        return out;
    out.result = ScenarioCheck::check(in.scenario, in.baseDir, in.traffic, in.environments);
    out.scopes = ScenarioCheck::scopes(in.scenario, in.environments);
    return out;
}

void ScenarioEditor::scheduleCheck()
{
    m_checkStale = true;
    m_checkPause->start();
}

void ScenarioEditor::startCheck()
{
    m_checkPause->stop();
    if (m_checking) // the edit is checked once the running check lands
        return;
    m_checkStale = false;
    m_checking = true;
    m_checks.start([in = checkInput()] { return runCheck(in); },
                   [this](const CheckOutput& out) {
                       m_checking = false;
                       showCheck(out);
                       if (m_checkStale && !m_checkPause->isActive())
                           startCheck();
                   });
}

void ScenarioEditor::checkNow()
{
    m_checkPause->stop();
    m_checks.cancel(); // a check of an older edit lands nowhere
    m_checking = false;
    m_checkStale = false;
    showCheck(runCheck(checkInput()));
}

bool ScenarioEditor::checkIsCurrent() const
{
    return !m_checkStale && !m_checking;
}

QStringList ScenarioEditor::problems() const
{
    if (!checkIsCurrent())
        const_cast<ScenarioEditor*>(this)->checkNow(); // the faults of what the user sees, not of an older edit
    return m_problems;
}

void ScenarioEditor::showCheck(const CheckOutput& out)
{
    const ScenarioCheck::Result& found = out.result;
    showScopes(out.scopes);
    auto problems = found.problems;
    if (isReplay() && !m_replay->offsetsProblem().isEmpty())
        problems.append({QStringLiteral("steps[0].replay.offsets"), m_replay->offsetsProblem()});
    if (isReplay() && !m_replay->headersProblem().isEmpty())
        problems.append({QStringLiteral("steps[0].replay.setHeaders"), m_replay->headersProblem()});
    const QList<ProjectRequest> requests = projectRequests();
    for (int i = 0; i < m_stepObjects.size(); ++i)
        if (requestGone(m_stepObjects[i], requests))
            problems.append({QStringLiteral("steps[%1]").arg(i),
                             tr("its request is no longer in the project: make the step a copy or remove it")});
    m_problems.clear();
    // each field shows its own faults beside it (a red frame and a tooltip); the list names each field in the
    // designer's words (Step "login" · URL), not the file's path
    QHash<QWidget*, QStringList> byWidget;
    const QByteArray shown = json();
    for (const auto& [field, message] : problems) {
        //: a fault of a field: the field in the designer's words, then what is wrong with it
        m_problems << (field.isEmpty()
                           ? engineText(message)
                           : tr("%1: %2").arg(ScenarioCheck::fieldLabel(field, shown), engineText(message)));
        QWidget* w =
            field.startsWith(QLatin1String("steps[0].replay.target")) ||
                    field.startsWith(QLatin1String("steps[0].replay.hosts"))
                ? static_cast<QWidget*>(m_replay->target())
            : field.startsWith(QLatin1String("steps[0].replay.speed"))   ? static_cast<QWidget*>(m_replay->speed())
            : field.startsWith(QLatin1String("steps[0].replay.amplify")) ? static_cast<QWidget*>(m_replay->amplify())
            : field.startsWith(QLatin1String("steps[0].replay.offsets")) ? static_cast<QWidget*>(m_replay->offsets())
            : field.startsWith(QLatin1String("steps"))                   ? static_cast<QWidget*>(m_steps)
            : field.startsWith(QLatin1String("variables"))               ? static_cast<QWidget*>(m_variablesView)
            : field.startsWith(QLatin1String("load.stages"))             ? static_cast<QWidget*>(m_stagesView)
            : field.startsWith(QLatin1String("load"))                    ? static_cast<QWidget*>(m_level)
            : field.startsWith(QLatin1String("duration"))                ? static_cast<QWidget*>(m_duration)
            : field.startsWith(QLatin1String("connections"))             ? static_cast<QWidget*>(m_connections)
            : field.startsWith(QLatin1String("streams"))                 ? static_cast<QWidget*>(m_streams)
            : field.startsWith(QLatin1String("tls"))                     ? static_cast<QWidget*>(m_verifyTls)
            : field.startsWith(QLatin1String("thresholds"))              ? static_cast<QWidget*>(m_thresholds)
            : field.startsWith(QLatin1String("breaker"))                 ? static_cast<QWidget*>(m_breaker->table())
            : field.startsWith(QLatin1String("stressTag"))               ? static_cast<QWidget*>(m_tagHeader)
            : field.startsWith(QLatin1String("schedule"))                ? static_cast<QWidget*>(m_schedule)
                                                                         : nullptr;
        if (w)
            byWidget[w] << engineText(message);
    }
    for (QWidget* w :
         {static_cast<QWidget*>(m_steps), static_cast<QWidget*>(m_replay->target()),
          static_cast<QWidget*>(m_replay->speed()), static_cast<QWidget*>(m_replay->amplify()),
          static_cast<QWidget*>(m_stagesView), static_cast<QWidget*>(m_level), static_cast<QWidget*>(m_duration),
          static_cast<QWidget*>(m_connections), static_cast<QWidget*>(m_streams), static_cast<QWidget*>(m_verifyTls),
          static_cast<QWidget*>(m_thresholds), static_cast<QWidget*>(m_breaker->table()),
          static_cast<QWidget*>(m_tagHeader), static_cast<QWidget*>(m_schedule)}) {
        const QStringList msgs = byWidget.value(w);
        w->setStyleSheet(msgs.isEmpty() ? QString() : QStringLiteral("border: 1px solid #c0392b;"));
        // the field's own help stays, under its faults
        QVariant help = w->property("helpTip");
        if (!help.isValid()) {
            help = w->toolTip();
            w->setProperty("helpTip", help);
        }
        const QString own = help.toString();
        w->setToolTip(msgs.isEmpty()
                          ? own
                          : msgs.join(QLatin1Char('\n')) + (own.isEmpty() ? QString() : QStringLiteral("\n\n") + own));
    }
    m_problemsLabel->setText(m_problems.isEmpty()
                                 ? QString()
                                 : tr("To fix before this scenario can run:") + QStringLiteral("\n• ") +
                                       m_problems.join(QStringLiteral("\n• ")));
    m_problemsLabel->setVisible(!m_problems.isEmpty());
    m_warnings = m_problems.isEmpty() ? found.warnings : QStringList();
    m_warningsLabel->setText(m_warnings.isEmpty()
                                 ? QString()
                                 : tr("Warning:") + QStringLiteral("\n• ") + m_warnings.join(QStringLiteral("\n• ")));
    m_warningsLabel->setVisible(!m_warnings.isEmpty());
    Q_EMIT checked();
}

void ScenarioEditor::exportJson()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export scenario"), m_name->text() + QStringLiteral(".json"), tr("Scenario JSON (*.json)"));
    if (path.isEmpty())
        return;
    QSaveFile f(path); // whole or not at all
    if (!f.open(QIODevice::WriteOnly) || f.write(indentedJson(json()).toUtf8()) < 0 || !f.commit())
        QMessageBox::warning(this, tr("Export scenario"), f.errorString());
}

void ScenarioEditor::exportBundle()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export bundle"), m_name->text() + QStringLiteral(".stbundle"), tr("Scenario bundles (*.stbundle)"));
    if (path.isEmpty())
        return;
    QString chosen;
    const ScenarioCheck::EnvironmentChoice envs =
        m_environments ? m_environments() : ScenarioCheck::EnvironmentChoice{};
    if (!envs.environments.isEmpty()) { // the one the workbench runs with, unless told otherwise
        QStringList items{tr("(no environment)")};
        for (const auto& e : envs.environments)
            items << e.first;
        bool ok = false;
        const QString item = QInputDialog::getItem(
            this, tr("Export bundle"), tr("The bundle carries every environment; its constants take the values of:"),
            items, std::max(0, int(items.indexOf(envs.current))), false, &ok);
        if (!ok)
            return;
        chosen = item == items.first() ? QString() : item;
    }
    QString error;
    if (!exportBundleTo(path, chosen, error))
        QMessageBox::warning(this, tr("Export bundle"), error);
}

bool ScenarioEditor::exportBundleTo(const QString& path, const QString& chosen, QString& error) const
{
    const ScenarioCheck::EnvironmentChoice envs =
        m_environments ? m_environments() : ScenarioCheck::EnvironmentChoice{};
    return ScenarioCheck::exportBundle(json(), m_baseDir, path, &error, m_traffic, envs, chosen);
}
