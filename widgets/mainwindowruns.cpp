// The main window's runs and reports: starting a run with its live
// dashboard, the run history, saved reports and comparisons.
#include "mainwindow.h"

#include "planeditor.h"

#include "enginesettings.h"

#include "capacitydialog.h"
#include "collectionrunner.h"
#include "enginesdialog.h"
#include "projecttreemodel.h"
#include "replaysettings.h"
#include "reportmodel.h"
#include "reportview.h"
#include "rundashboard.h"
#include "runsession.h"
#include "scenarioeditor.h"
#include "schedulelist.h"
#include "trendmodel.h"
#include "trendview.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTreeView>
#include <QVBoxLayout>
#include <cmath>
#include <map>

using stampede::ItemKind;

void MainWindow::findCapacity(const QByteArray& scenarioJson, const QString& title)
{
    CapacityDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    startRun(scenarioJson, tr("capacity of %1").arg(title), dialog.options());
}

void MainWindow::startRun(const QByteArray& scenarioJson, const QString& title,
                          std::optional<stampede::CapacityOptions> capacity)
{
    RunSession::Options options;
    options.capacity = capacity;
    // the scenario as written, in the current environment: the engine prepares it as the command line does
    if (m_environments->currentData().toLongLong())
        options.environment = m_environments->currentText();
    launchRun(scenarioJson, title, options, false);
}

RunSession* MainWindow::launchRun(const QByteArray& scenarioJson, const QString& title, RunSession::Options options,
                                  bool collection, QString* error)
{
    const auto fail = [&](const QString& why) {
        if (error)
            *error = why;
        else
            showError(why);
        return nullptr;
    };
    // the engines are stampede-cli agents
    options.cliPath = findStampedeCli();
    if (options.cliPath.isEmpty())
        return fail(tr("stampede-cli, which runs the engines, was not found next to Stampede or on PATH."));
    if (m_store) {
        const EngineSettings engines = EngineSettings::load(*m_store);
        options.engines = engines.localEngines;
        options.outputs = engines.outputs();
        options.maxErrorRate = engines.maxErrorRate;
        if (engines.remote) {
            QString why;
            if (!engines.readToken(options.token, why))
                return fail(tr("The run cannot start: %1").arg(why));
            options.agents = engines.agents;
            options.caFile = engines.caFile;
        }
    }
    auto* session = new RunSession(this);
    if (!session->start(scenarioJson, options, m_store.get())) {
        const QString why = session->lastError();
        delete session;
        return fail(tr("The run cannot start: %1").arg(why));
    }
    auto* dashboard = new RunDashboard(session);
    QWidget* page = dashboard;
    if (collection) { // the runner's results first, the dashboard's charts beside them
        auto* tabs = new QTabWidget;
        tabs->setDocumentMode(true);
        auto* results = new CollectionRunView;
        results->follow(session);
        tabs->addTab(results, tr("Requests and tests"));
        tabs->addTab(dashboard, tr("Charts"));
        page = tabs;
    }
    session->setParent(page);
    // the project tree's Runs branch shows the run as running, then as it ended
    m_model->refreshRuns();
    connect(session, &RunSession::finished, m_model, &ProjectTreeModel::refreshRuns);
    page->setProperty("runId", session->runId());
    const int tab = m_tabs->addTab(page, tr("Run: %1").arg(title));
    m_tabs->setCurrentIndex(tab);
    statusBar()->showMessage(tr("Run %1 started").arg(session->runId()), 4000);
    return session;
}

qint64 MainWindow::collectionOf(qint64 id) const
{
    for (QModelIndex i = m_model->indexForId(id); i.isValid(); i = i.parent()) {
        const auto kind = ItemKind(i.data(ProjectTreeModel::KindRole).toInt());
        if (kind == ItemKind::Collection || kind == ItemKind::Folder)
            return i.data(ProjectTreeModel::IdRole).toLongLong();
    }
    return 0;
}

bool MainWindow::askRunCollection(qint64 id)
{
    const qint64 item = collectionOf(id);
    if (!m_store || !item) {
        showError(tr("Select a collection, a folder or a request in one to run it."));
        return false;
    }
    QStringList environments; // the toolbar's list, past its "(no environment)"
    for (int i = 1; i < m_environments->count(); ++i)
        environments << m_environments->itemText(i);
    CollectionRunDialog dialog(collectionTitle(item), environments,
                               m_environments->currentData().toLongLong() ? m_environments->currentText() : QString(),
                               this);
    return dialog.exec() == QDialog::Accepted && runCollection(item, dialog.choice());
}

QString MainWindow::collectionTitle(qint64 id) const
{
    QStringList names; // "Shop / Checkout", as newman names a folder
    for (QModelIndex i = m_model->indexForId(id); i.isValid(); i = i.parent())
        names.prepend(i.data().toString());
    return names.join(QStringLiteral(" / "));
}

bool MainWindow::runCollection(qint64 id, const CollectionRunChoice& choice, QString* error)
{
    const qint64 item = collectionOf(id);
    QByteArray json;
    QStringList warnings;
    QString why;
    if (!m_store || !item) {
        why = tr("Select a collection, a folder or a request in one to run it.");
    } else if (collectionRunScenario(*m_store, item, choice, json, warnings, why)) {
        for (const QString& w : warnings)
            statusBar()->showMessage(w, 8000);
        return launchRun(json, collectionTitle(item), RunSession::Options{}, true, error) != nullptr;
    }
    if (error)
        *error = why;
    else
        showError(tr("The collection cannot run: %1").arg(why));
    return false;
}

bool MainWindow::openRunReport(qint64 id)
{
    if (!m_store)
        return false;
    auto* model = new ReportModel;
    if (!model->load(*m_store, id)) {
        showError(model->errorString());
        delete model;
        return false;
    }
    auto* view = new ReportView(model);
    m_tabs->setCurrentIndex(m_tabs->addTab(view, tr("Report: %1").arg(model->runId())));
    return true;
}

bool MainWindow::compareRuns(qint64 baseline, qint64 candidate)
{
    if (!m_store)
        return false;
    auto* a = new ReportModel;
    auto* b = new ReportModel;
    if (!a->load(*m_store, baseline) || !b->load(*m_store, candidate)) {
        showError(a->errorString().isEmpty() ? b->errorString() : a->errorString());
        delete a;
        delete b;
        return false;
    }
    auto* view = new CompareView(a, b);
    m_tabs->setCurrentIndex(m_tabs->addTab(view, tr("Compare: %1 / %2").arg(a->runId(), b->runId())));
    return true;
}

bool MainWindow::openReportFile(const QString& path)
{
    std::string error;
    auto store = stampede::ProjectStore::open(path.toStdString(), error);
    if (!store) {
        showError(QString::fromStdString(error));
        return false;
    }
    auto* model = new ReportModel;
    if (!model->load(*store)) {
        showError(model->errorString());
        delete model;
        return false;
    }
    auto* view = new ReportView(model, std::move(store));
    m_tabs->setCurrentIndex(m_tabs->addTab(view, tr("Report: %1").arg(QFileInfo(path).fileName())));
    return true;
}

void MainWindow::editEngines()
{
    if (!m_store) {
        showError(tr("No project is open."));
        return;
    }
    EnginesDialog dialog(EngineSettings::load(*m_store), this);
    dialog.setProjectPath(QString::fromStdString(m_store->path()));
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (!dialog.settings().save(*m_store)) {
        showError(tr("The engine settings cannot be saved: %1").arg(QString::fromStdString(m_store->lastError())));
        return;
    }
    for (int t = 0; t < m_tabs->count(); ++t) // every Run button names the engines it will use
        if (auto* e = qobject_cast<ScenarioEditor*>(m_tabs->widget(t)))
            e->setEngines(dialog.settings().runLabel(), dialog.settings().runToolTip());
        else if (auto* p = qobject_cast<PlanEditor*>(m_tabs->widget(t)))
            p->setEngines(dialog.settings().runLabel(), dialog.settings().runToolTip());
}

void MainWindow::showRunHistory()
{
    if (!m_store) {
        showError(tr("No project is open."));
        return;
    }
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Run History"));
    auto* list = new QListWidget;
    list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    for (const auto& r : ReportModel::runs(*m_store)) {
        auto* item = new QListWidgetItem(tr("%1  %2  %3 s  %4  %5  %6")
                                             .arg(r.id)
                                             .arg(r.runId)
                                             .arg(r.seconds, 0, 'f', r.seconds == std::floor(r.seconds) ? 0 : 1)
                                             .arg(r.started, r.name, r.verdict));
        item->setData(Qt::UserRole + 1, r.name);
        item->setData(Qt::UserRole, r.id);
        list->addItem(item);
    }
    auto* open = new QPushButton(tr("Open report"));
    auto* compare = new QPushButton(tr("Compare two (baseline first)"));
    compare->setToolTip(tr("Select two runs: the upper one is the baseline"));
    auto* trend = new QPushButton(tr("Trend of its scenario"));
    trend->setToolTip(tr("The selected run's scenario over its last runs: rate, error rate and percentiles, each "
                         "against a baseline you mark"));
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(open);
    buttons->addWidget(compare);
    buttons->addWidget(trend);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(list);
    layout->addLayout(buttons);
    connect(open, &QPushButton::clicked, &dialog, [&] {
        for (auto* item : list->selectedItems())
            openRunReport(item->data(Qt::UserRole).toLongLong());
        dialog.accept();
    });
    connect(compare, &QPushButton::clicked, &dialog, [&] {
        QList<QListWidgetItem*> chosen = list->selectedItems();
        if (chosen.size() != 2) {
            QMessageBox::information(&dialog, tr("Compare"), tr("Select exactly two runs."));
            return;
        }
        std::sort(chosen.begin(), chosen.end(), [&](auto* a, auto* b) { return list->row(a) < list->row(b); });
        compareRuns(chosen[0]->data(Qt::UserRole).toLongLong(), chosen[1]->data(Qt::UserRole).toLongLong());
        dialog.accept();
    });
    connect(trend, &QPushButton::clicked, &dialog, [&] {
        const QList<QListWidgetItem*> chosen = list->selectedItems();
        showTrend(chosen.isEmpty() ? QString() : chosen.last()->data(Qt::UserRole + 1).toString());
        dialog.accept();
    });
    dialog.resize(760, 400);
    dialog.exec();
}

bool MainWindow::showTrend(const QString& scenario)
{
    if (!m_store)
        return false;
    auto* view = new TrendView(*m_store, scenario);
    if (!view->model()->rowCount()) {
        showError(view->model()->errorString());
        delete view;
        return false;
    }
    m_tabs->setCurrentIndex(m_tabs->addTab(view, tr("Trend: %1").arg(view->scenario())));
    return true;
}

// The server a new replay goes to: the current environment's URL (mock_url,
// base_url, ... or any value that is an http URL), else a local port to edit.
QString MainWindow::replayTarget() const
{
    const qint64 envId = m_environments->currentData().toLongLong();
    const QJsonObject env =
        envId ? QJsonDocument::fromJson(m_model->indexForId(envId).data(ProjectTreeModel::PayloadRole).toByteArray())
                    .object()
              : QJsonObject();
    // the environment's name for it, not its value of today (the demo's mock listens on a new port at each open)
    for (const char* key : {"mock_url", "base_url", "baseUrl", "url", "host"}) {
        const QString v = env.value(QLatin1String(key)).toString();
        if (v.startsWith(QLatin1String("http")))
            return QStringLiteral("${%1}").arg(QLatin1String(key));
    }
    for (auto it = env.begin(); it != env.end(); ++it)
        if (it.value().toString().startsWith(QLatin1String("http://")) ||
            it.value().toString().startsWith(QLatin1String("https://")))
            return QStringLiteral("${%1}").arg(it.key());
    return QStringLiteral("http://127.0.0.1:8080");
}

void MainWindow::newReplayScenario(qint64 id)
{
    const QString set = m_model->indexForId(id).data().toString();
    const QModelIndex created = m_model->addItem({}, stampede::ItemKind::Scenario, tr("Replay of %1").arg(set),
                                                 ReplaySettings::newScenario(set, replayTarget()));
    if (!created.isValid())
        return;
    m_tree->setCurrentIndex(m_filter->mapFromSource(created));
    openItem(created.data(ProjectTreeModel::IdRole).toLongLong());
}

QList<QStringList> MainWindow::showSchedules(bool modal)
{
    QList<QStringList> rows;
    if (!m_store) {
        showError(tr("No project is open."));
        return rows;
    }
    rows = scheduleRows(*m_store);
    if (!modal)
        return rows;
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Schedules"));
    auto* table = new QTableWidget(int(rows.size()), 4);
    table->setHorizontalHeaderLabels({tr("Scenario"), tr("Schedule"), tr("Timer"), tr("Last run")});
    table->horizontalHeader()->setStretchLastSection(true);
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (int i = 0; i < rows.size(); ++i)
        for (int c = 0; c < 4; ++c)
            table->setItem(i, c, new QTableWidgetItem(rows[i][c]));
    table->resizeColumnsToContents();
    auto* help =
        new QLabel(rows.isEmpty() ? tr("No scenario has a schedule: give one in the scenario's Schedule field.")
                                  : tr("Install the timers with: stampede-cli schedule install %1")
                                        .arg(QFileInfo(QString::fromStdString(m_store->path())).canonicalFilePath()));
    help->setWordWrap(true);
    help->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(table);
    layout->addWidget(help);
    auto* close = new QPushButton(tr("Close"));
    connect(close, &QPushButton::clicked, &dialog, &QDialog::accept);
    layout->addWidget(close, 0, Qt::AlignRight);
    dialog.resize(720, 320);
    dialog.exec();
    return rows;
}
