#include "mainwindow.h"

#include "csvpreviewmodel.h"
#include "dataseteditor.h"
#include "enginesettings.h"
#include "environmenteditor.h"
#include "planeditor.h"
#include "projecttreemodel.h"
#include "recentprojects.h"
#include "reportmodel.h"
#include "reportview.h"
#include "requesteditor.h"
#include "requestitem.h"
#include "rundashboard.h"
#include "runsession.h"
#include "scenariocheck.h"
#include "scenarioeditor.h"
#include "splitterstate.h"
#include "trafficimportdialog.h"
#include "trafficimporter.h"
#include "trafficrecorddialog.h"
#include "trafficview.h"
#include "welcomepage.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QIcon>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>
#include <functional>

using stampede::ItemKind;

namespace {
// A scenario's JSON under the name its item has in the tree (what the command line runs it by, and what its
// reports call it).
QByteArray namedAs(const QByteArray& json, const QString& name)
{
    QJsonObject o = QJsonDocument::fromJson(json).object();
    if (o.isEmpty() || o.value(QStringLiteral("name")).toString() == name)
        return json;
    o[QStringLiteral("name")] = name;
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}
} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    m_model = new ProjectTreeModel(this);
    m_filter = new QSortFilterProxyModel(this);
    m_filter->setSourceModel(m_model);
    m_filter->setRecursiveFilteringEnabled(true);
    m_filter->setFilterCaseSensitivity(Qt::CaseInsensitive);

    m_filterEdit = new QLineEdit;
    m_filterEdit->setPlaceholderText(tr("Filter requests, scenarios, data sets…"));
    m_filterEdit->setClearButtonEnabled(true);
    m_tree = new QTreeView;
    m_tree->setModel(m_filter);
    m_tree->setHeaderHidden(true);
    m_tree->setDragDropMode(QAbstractItemView::InternalMove);
    m_tree->setDefaultDropAction(Qt::MoveAction);
    m_tree->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
    m_tree->setContextMenuPolicy(Qt::ActionsContextMenu);

    auto* left = new QWidget;
    auto* ll = new QVBoxLayout(left);
    ll->setContentsMargins(0, 0, 0, 0);
    ll->addWidget(m_filterEdit);
    ll->addWidget(m_tree, 1);

    m_tabs = new QTabWidget;
    m_tabs->setTabsClosable(true);
    m_tabs->setDocumentMode(true);
    m_welcome = new WelcomePage;
    m_welcome->setDemoAvailable(false);
    m_tabs->addTab(m_welcome, tr("Welcome"));
    connect(m_welcome, &WelcomePage::newProjectRequested, this, &MainWindow::askNewProject);
    connect(m_welcome, &WelcomePage::openRequested, this, &MainWindow::askOpenProject);
    connect(m_welcome, &WelcomePage::projectChosen, this, &MainWindow::openProject);
    connect(m_welcome, &WelcomePage::demoRequested, this, [this] {
        if (!m_demoOpener)
            return;
        QString error;
        const QString path = m_demoOpener(error);
        if (path.isEmpty())
            showError(tr("The demo could not be opened: %1").arg(error));
        else
            openProject(path);
    });

    auto* split = new QSplitter;
    split->addWidget(left);
    split->addWidget(m_tabs);
    split->setStretchFactor(1, 1);
    split->setSizes({280, 900});
    split->setCollapsible(0, false);
    splitterstate::remember(split, QStringLiteral("main"));
    left->setMinimumWidth(220); // the tree stays readable beside a wide dashboard
    setCentralWidget(split);

    m_environments = new QComboBox;
    m_environments->setToolTip(tr("The environment whose values fill ${variables} when you send"));
    m_environments->setMinimumContentsLength(14);

    connect(m_filterEdit, &QLineEdit::textChanged, m_filter, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_tree, &QTreeView::doubleClicked, this, [this](const QModelIndex& i) {
        const QModelIndex source = m_filter->mapToSource(i);
        if (const qint64 run = source.data(ProjectTreeModel::RunRole).toLongLong())
            openRunReport(run);
        else
            openItem(source.data(ProjectTreeModel::IdRole).toLongLong());
    });
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, [this](int i) {
        QWidget* w = m_tabs->widget(i);
        m_tabs->removeTab(i);
        w->deleteLater();
        rememberTabs();
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::rememberTabs);
    connect(m_model, &ProjectTreeModel::editFailed, this, &MainWindow::showError);
    connect(m_model, &QAbstractItemModel::modelReset, this, &MainWindow::refreshEnvironments);
    // an undone (or redone) edit shows in the item's open editor
    connect(m_model, &ProjectTreeModel::payloadRestored, this, [this](qint64 id, const QByteArray& payload) {
        for (int t = 0; t < m_tabs->count(); ++t) {
            QWidget* w = m_tabs->widget(t);
            if (w->property("itemId").toLongLong() != id)
                continue;
            if (auto* e = qobject_cast<EnvironmentEditor*>(w))
                e->setJson(payload);
            else if (auto* d = qobject_cast<DataSetEditor*>(w))
                d->setJson(payload);
            else if (auto* sc = qobject_cast<ScenarioEditor*>(w))
                sc->setJson(payload);
            else if (auto* pl = qobject_cast<PlanEditor*>(w))
                pl->setJson(payload);
        }
        applyEnvironment();
    });
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &MainWindow::refreshEnvironments);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &MainWindow::refreshEnvironments);
    connect(m_environments, &QComboBox::currentIndexChanged, this, &MainWindow::applyEnvironment);
    // tabs follow their items: a rename retitles them, a deletion (or its undo of a creation) closes them
    connect(m_model, &QAbstractItemModel::dataChanged, this, &MainWindow::syncTabs);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &MainWindow::syncTabs);
    connect(m_model, &QAbstractItemModel::modelReset, this, &MainWindow::syncTabs);

    buildMenus();
    statusBar()->showMessage(tr("Ready"));
    resize(1280, 800);
    updateTitle();
}

MainWindow::~MainWindow()
{
    m_restoringTabs = true; // the tabs going with the window are not closed by the user: their list stays
    m_model->setStore(nullptr);
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* newProject = file->addAction(tr("&New Project…"), this, &MainWindow::askNewProject);
    newProject->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+N")));
    file->addAction(tr("&Open Project…"), QKeySequence::Open, this, &MainWindow::askOpenProject);
    file->addAction(tr("Open Re&port…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Report"), QString(),
                                                          tr("Stampede reports (*.streport);;Projects (*.stampede)"));
        if (!path.isEmpty())
            openReportFile(path);
    });
    file->addAction(tr("Import &Traffic…"), this, [this] {
        if (!m_store)
            return showError(tr("Open or create a project first: the traffic is stored in it."));
        TrafficImportDialog dialog(*m_store, this);
        if (dialog.exec() != QDialog::Accepted)
            return;
        m_model->refreshItems();
        statusBar()->showMessage(tr("Traffic imported."), 4000);
    });
    file->addAction(tr("Record Traffic from a &Gateway…"), this,
                    [this] {
                        if (!m_store)
                            return showError(tr("Open or create a project first: the traffic is stored in it."));
                        TrafficRecordDialog dialog(*m_store, this);
                        dialog.exec();
                        m_model->refreshItems();
                    })
        ->setToolTip(tr("A server for a gateway's mirror (nginx's mirror directive): every request it gets, "
                        "masked, kept as a traffic set"));
    file->addAction(tr("Import &Collection…"), this, &MainWindow::askImportCollection)
        ->setToolTip(tr("Postman Collection v2.1, OpenAPI 3 (JSON or YAML), HAR 1.2 or curl commands"));
    file->addAction(tr("&Export Collection to Postman…"), this, &MainWindow::askExportPostman);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, [this] {
        m_recentMenu->clear();
        const QStringList recent = RecentProjects::paths();
        for (const QString& p : recent)
            m_recentMenu->addAction(p, this, [this, p] { openProject(p); });
        if (recent.isEmpty())
            m_recentMenu->addAction(tr("(none yet)"))->setEnabled(false);
    });
    file->addAction(tr("&Save"), QKeySequence::Save, this,
                    [this] { statusBar()->showMessage(tr("Everything is saved as you edit it."), 4000); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_model->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_model->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    // in a text field Ctrl+Z undoes the typing; in the tree it undoes the last structure edit
    for (QAction* a : {undo, redo}) {
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        m_tree->addAction(a);
        edit->addAction(a);
    }

    QMenu* request = menuBar()->addMenu(tr("&Request"));
    request->addAction(tr("&History…"), this, &MainWindow::showHistory)
        ->setShortcut(QKeySequence(QStringLiteral("Ctrl+H")));
    QAction* add = request->addAction(tr("&New Request"), this, [this] { addItemOfKind(int(ItemKind::Request)); });
    add->setShortcut(QKeySequence::New);
    QAction* send = request->addAction(tr("&Send"), this, [this] {
        if (RequestEditor* e = currentRequestEditor())
            e->send();
    });
    send->setShortcuts({QKeySequence(QStringLiteral("Ctrl+Return")), QKeySequence(QStringLiteral("Ctrl+Enter"))});
    request->addAction(tr("Copy as &curl"), this, [this] {
        if (RequestEditor* e = currentRequestEditor()) {
            QGuiApplication::clipboard()->setText(e->curlCommand());
            statusBar()->showMessage(tr("The request is on the clipboard as a curl command."), 4000);
        }
    });
    QAction* close = request->addAction(tr("&Close Tab"), this, [this] {
        if (m_tabs->currentIndex() >= 0)
            Q_EMIT m_tabs->tabCloseRequested(m_tabs->currentIndex());
    });
    close->setShortcut(QKeySequence::Close);

    // The tree's context menu and the Project menu share these actions.
    QMenu* project = menuBar()->addMenu(tr("&Project"));
    const struct
    {
        const char* label;
        ItemKind kind;
    } kinds[] = {{QT_TR_NOOP("New &Collection"), ItemKind::Collection},
                 {QT_TR_NOOP("New &Folder"), ItemKind::Folder},
                 {QT_TR_NOOP("New &Environment"), ItemKind::Environment},
                 {QT_TR_NOOP("New &Data Set"), ItemKind::DataSet},
                 {QT_TR_NOOP("New &Scenario"), ItemKind::Scenario}};
    for (const auto& k : kinds) {
        QAction* a = project->addAction(tr(k.label), this, [this, kind = k.kind] { addItemOfKind(int(kind)); });
        m_tree->addAction(a);
    }
    QAction* plan = project->addAction(tr("New Test &Plan"), this, &MainWindow::addTestPlan);
    plan->setToolTip(tr("Several scenarios in one run, each with its own load, with a setup and a teardown"));
    m_tree->addAction(plan);
    project->addSeparator();
    QAction* rename = project->addAction(tr("&Rename"), this, [this] {
        if (m_tree->currentIndex().isValid())
            m_tree->edit(m_tree->currentIndex());
    });
    rename->setShortcut(QKeySequence(Qt::Key_F2));
    QAction* duplicate = project->addAction(
        tr("D&uplicate"), this, [this] { m_model->duplicateItem(m_filter->mapToSource(m_tree->currentIndex())); });
    duplicate->setShortcut(QKeySequence(QStringLiteral("Ctrl+D")));
    QAction* remove = project->addAction(tr("&Delete"), this, [this] {
        const QModelIndex i = m_filter->mapToSource(m_tree->currentIndex());
        if (!i.isValid())
            return;
        if (QMessageBox::question(this, tr("Delete"),
                                  tr("Delete \"%1\" and everything in it?").arg(i.data().toString())) ==
            QMessageBox::Yes)
            m_model->removeItem(i);
    });
    remove->setShortcut(QKeySequence::Delete);
    for (QAction* a : {rename, duplicate, remove}) {
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        m_tree->addAction(a);
    }

    QMenu* runs = menuBar()->addMenu(tr("R&uns"));
    QAction* runCollection = runs->addAction(tr("Run &Collection…"), this, [this] {
        askRunCollection(m_filter->mapToSource(m_tree->currentIndex()).data(ProjectTreeModel::IdRole).toLongLong());
    });
    runCollection->setToolTip(tr("Run the selected collection or folder as Postman's Runner and newman do: "
                                 "each request in order, each test's result"));
    runCollection->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+R")));
    m_tree->addAction(runCollection);
    runs->addSeparator();
    runs->addAction(tr("Run &History…"), this, &MainWindow::showRunHistory);
    runs->addAction(tr("&Engines…"), this, &MainWindow::editEngines);
    runs->addAction(tr("&Schedules…"), this, [this] { showSchedules(); });

    QMenu* settings = menuBar()->addMenu(tr("&Settings"));
    QMenu* language = settings->addMenu(tr("&Language"));
    auto* group = new QActionGroup(this);
    const QString current = QSettings().value(QStringLiteral("language")).toString();
    const struct
    {
        QString code;
        QString name;
    } languages[] = {{QString(), tr("System default")},
                     {QStringLiteral("en"), QStringLiteral("English")},
                     {QStringLiteral("zh_CN"), QStringLiteral("简体中文")}};
    for (const auto& l : languages) {
        QAction* a = language->addAction(l.name);
        a->setCheckable(true);
        a->setChecked(l.code == current);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, code = l.code] {
            QSettings().setValue(QStringLiteral("language"), code);
            statusBar()->showMessage(tr("The language changes when Stampede starts again."), 6000);
        });
    }

    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    // a button shows no mnemonic: "&New Request" and its translation "新建请求(&N)" both read without it
    for (QAction* a : {add, send}) {
        a->setIconText(withoutMnemonic(a->text()));
        bar->addAction(a);
    }
    bar->addSeparator();
    bar->addWidget(new QLabel(tr("Environment: ")));
    bar->addWidget(m_environments);
}

bool MainWindow::openProject(const QString& path)
{
    if (!mayCloseProject())
        return false;
    std::string error;
    auto store = stampede::ProjectStore::open(path.toStdString(), error);
    if (!store) {
        showError(QString::fromStdString(error));
        return false;
    }
    m_restoringTabs = true; // the project being left keeps its tabs' list
    while (m_tabs->count() > 1)
        Q_EMIT m_tabs->tabCloseRequested(1);
    adoptStore(std::move(store));
    startProjectMock();
    rememberRecent(path);
    updateTitle();
    m_tree->expandToDepth(0);
    restoreTabs();
    statusBar()->showMessage(tr("Opened %1").arg(QFileInfo(path).fileName()), 4000);
    return true;
}

namespace {
constexpr const char* kTabsSetting = "workbench.tabs"; // the open items' ids in tab order, then ";" and the current
} // namespace

void MainWindow::rememberTabs()
{
    if (m_restoringTabs || !m_store)
        return;
    QStringList ids;
    qint64 current = 0;
    for (int t = 0; t < m_tabs->count(); ++t)
        if (const qint64 id = m_tabs->widget(t)->property("itemId").toLongLong()) {
            ids << QString::number(id);
            if (t == m_tabs->currentIndex())
                current = id;
        }
    const std::string value = QString(ids.join(u',') + u';' + QString::number(current)).toStdString();
    if (m_store->setting(kTabsSetting) != value)
        (void)m_store->setSetting(kTabsSetting, value); // a project held read-only elsewhere: not remembered
}

// The tabs the project had open when it was last left, those of items that still exist, the current one current.
void MainWindow::restoreTabs()
{
    m_restoringTabs = true;
    const QString value = m_store ? QString::fromStdString(m_store->setting(kTabsSetting)) : QString();
    for (const QString& id : value.section(u';', 0, 0).split(u',', Qt::SkipEmptyParts))
        if (m_model->indexForId(id.toLongLong()).isValid())
            openItem(id.toLongLong());
    const qint64 current = value.section(u';', 1, 1).toLongLong();
    for (int t = 0; t < m_tabs->count(); ++t)
        if (current && m_tabs->widget(t)->property("itemId").toLongLong() == current)
            m_tabs->setCurrentIndex(t);
    m_restoringTabs = false;
}

bool MainWindow::newProject(const QString& path)
{
    if (!mayCloseProject())
        return false;
    std::string error;
    auto store = stampede::ProjectStore::create(path.toStdString(), error);
    if (!store) {
        showError(QString::fromStdString(error));
        return false;
    }
    store->addItem(0, ItemKind::Collection, tr("My requests").toStdString(), "{}");
    store->addItem(0, ItemKind::Environment, tr("local").toStdString(), "{}");
    adoptStore(std::move(store));
    startProjectMock();
    rememberRecent(path);
    updateTitle();
    return true;
}

// The store first, then the tree: the environments are listed from it, and
// the one chosen last in this project (not in the one before) is current again.
void MainWindow::adoptStore(std::unique_ptr<stampede::ProjectStore> store)
{
    m_environments->blockSignals(true);
    m_environments->clear(); // refilled from the new project, its own choice first
    m_environments->blockSignals(false);
    const std::unique_ptr<stampede::ProjectStore> old = std::move(m_store); // the tree may use it until reset
    m_store = std::move(store);
    m_model->setStore(m_store.get());
}

QString MainWindow::withoutMnemonic(QString text)
{
    return text.remove(QRegularExpression(QStringLiteral("\\(&[^)]\\)"))).remove(QLatin1Char('&')).trimmed();
}

void MainWindow::syncTabs()
{
    for (int t = m_tabs->count() - 1; t >= 0; --t) {
        QWidget* w = m_tabs->widget(t);
        const qint64 id = w->property("itemId").toLongLong();
        if (!id)
            continue; // the welcome page, dashboards, reports
        const QModelIndex item = m_model->indexForId(id);
        if (!item.isValid()) {
            m_tabs->removeTab(t);
            w->deleteLater();
        } else if (m_tabs->tabText(t) != item.data().toString()) {
            m_tabs->setTabText(t, item.data().toString());
            m_tabs->setTabToolTip(t, item.data().toString());
            // a scenario's or plan's name field says the tree's name (saved with it: the command line runs it so)
            if (auto* sc = qobject_cast<ScenarioEditor*>(w))
                sc->setName(item.data().toString());
            else if (auto* pl = qobject_cast<PlanEditor*>(w))
                pl->setName(item.data().toString());
        }
    }
}

void MainWindow::rememberRecent(const QString& path)
{
    RecentProjects::remember(path);
    if (m_welcome)
        m_welcome->refresh();
}

void MainWindow::askNewProject()
{
    const QString path =
        QFileDialog::getSaveFileName(this, tr("New Project"), QString(), tr("Stampede projects (*.stampede)"));
    if (!path.isEmpty())
        newProject(path.endsWith(QLatin1String(".stampede")) ? path : path + QStringLiteral(".stampede"));
}

void MainWindow::askOpenProject()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open Project"), QString(), tr("Stampede projects (*.stampede)"));
    if (!path.isEmpty())
        openProject(path);
}

void MainWindow::setDemoOpener(std::function<QString(QString& error)> opener)
{
    m_demoOpener = std::move(opener);
    m_welcome->setDemoAvailable(bool(m_demoOpener));
}

void MainWindow::updateTitle()
{
    setWindowTitle(m_store ? tr("%1 — Stampede").arg(QFileInfo(QString::fromStdString(m_store->path())).fileName())
                           : tr("Stampede"));
}

void MainWindow::showError(const QString& message)
{
    statusBar()->showMessage(message, 8000);
    if (isVisible())
        QMessageBox::warning(this, tr("Stampede"), message);
}

void MainWindow::addTestPlan()
{
    // one scenario to start from; the plan editor adds more
    const QString name = m_model->uniqueName(tr("New test plan"));
    const QByteArray payload = QStringLiteral("{\"name\": \"%1\", \"scenarios\": [{\"name\": \"%2\", \"steps\": [], "
                                              "\"load\": {\"open\": {\"rate\": 10}}, \"duration\": \"60s\"}]}")
                                   .arg(name, tr("scenario 1"))
                                   .toUtf8();
    const QModelIndex created = m_model->addItem({}, ItemKind::Scenario, name, payload);
    if (!created.isValid())
        return;
    m_tree->setCurrentIndex(m_filter->mapFromSource(created));
    openItem(created.data(ProjectTreeModel::IdRole).toLongLong());
}

void MainWindow::addItemOfKind(int kindValue)
{
    const auto kind = ItemKind(kindValue);
    QModelIndex parent = m_filter->mapToSource(m_tree->currentIndex());
    // requests and folders go into the selected collection or folder (or the first collection)
    if (kind == ItemKind::Request || kind == ItemKind::Folder) {
        while (parent.isValid() && parent.data(ProjectTreeModel::KindRole).toInt() != int(ItemKind::Collection) &&
               parent.data(ProjectTreeModel::KindRole).toInt() != int(ItemKind::Folder))
            parent = parent.parent();
        if (!parent.isValid()) {
            for (int r = 0; r < m_model->rowCount(); ++r)
                if (m_model->index(r, 0).data(ProjectTreeModel::KindRole).toInt() == int(ItemKind::Collection))
                    parent = m_model->index(r, 0);
        }
        if (!parent.isValid())
            parent = m_model->addItem({}, ItemKind::Collection, tr("My requests"));
    } else {
        parent = {};
    }
    const QString base = kind == ItemKind::Request       ? tr("New request")
                         : kind == ItemKind::Folder      ? tr("New folder")
                         : kind == ItemKind::Collection  ? tr("New collection")
                         : kind == ItemKind::Environment ? tr("New environment")
                         : kind == ItemKind::DataSet     ? tr("New data set")
                                                         : tr("New scenario");
    const QString name = m_model->uniqueName(base); // "New request 2": the tree, the designers and `run NAME` agree
    // a new scenario's designer shows its name (the tree's) in its Name field
    const QByteArray payload =
        kind == ItemKind::Request ? RequestItem().toJson()
        : kind == ItemKind::Scenario
            ? QJsonDocument(QJsonObject{{QStringLiteral("name"), name}}).toJson(QJsonDocument::Compact)
            : QByteArrayLiteral("{}");
    const QModelIndex created = m_model->addItem(parent, kind, name, payload);
    if (!created.isValid())
        return;
    const QModelIndex shown = m_filter->mapFromSource(created);
    m_tree->setCurrentIndex(shown);
    if (kind == ItemKind::Request)
        openItem(created.data(ProjectTreeModel::IdRole).toLongLong());
    else
        m_tree->edit(shown);
}

// A scenario designer's sources: the project's requests, data sets, traffic sets and environments.
void MainWindow::setUpScenarioEditor(ScenarioEditor* e)
{
    e->setBaseDir(QFileInfo(QString::fromStdString(m_store->path())).absolutePath());
    const EngineSettings engines = EngineSettings::load(*m_store);
    e->setEngines(engines.runLabel(), engines.runToolTip());
    e->setRequestSource([this] {
        QList<ScenarioEditor::ProjectRequest> out;
        std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
            for (int r = 0; r < m_model->rowCount(parent); ++r) {
                const QModelIndex i = m_model->index(r, 0, parent);
                if (i.data(ProjectTreeModel::KindRole).toInt() == int(ItemKind::Request))
                    out.append({i.data(ProjectTreeModel::IdRole).toLongLong(), i.data().toString(),
                                i.data(ProjectTreeModel::PayloadRole).toByteArray()});
                walk(i);
            }
        };
        walk({});
        return out;
    });
    connect(e, &ScenarioEditor::openRequest, this, &MainWindow::openItem);
    // a request edited, renamed or deleted: the steps that run it say so at once
    connect(m_model, &QAbstractItemModel::dataChanged, e, &ScenarioEditor::followRequests);
    connect(m_model, &QAbstractItemModel::rowsRemoved, e, &ScenarioEditor::followRequests);
    e->setDataSetSource([this](const QString& name) {
        for (int r = 0; r < m_model->rowCount(); ++r) {
            const QModelIndex i = m_model->index(r, 0);
            if (i.data(ProjectTreeModel::KindRole).toInt() == int(ItemKind::DataSet) && i.data().toString() == name)
                return QJsonDocument::fromJson(i.data(ProjectTreeModel::PayloadRole).toByteArray())
                    .object()
                    .value(QStringLiteral("csv"))
                    .toString();
        }
        return QString();
    });
    if (m_store) // read off the GUI thread by the designer's checks: a connection of each read's own
        e->setTrafficSource(TrafficImporter::trafficSource(QString::fromStdString(m_store->path())));
    e->setEnvironmentSource([this] {
        ScenarioCheck::EnvironmentChoice c;
        for (int r = 0; r < m_model->rowCount(); ++r) {
            const QModelIndex i = m_model->index(r, 0);
            if (i.data(ProjectTreeModel::KindRole).toInt() == int(ItemKind::Environment))
                c.environments.append({i.data().toString(), i.data(ProjectTreeModel::PayloadRole).toByteArray()});
        }
        if (m_environments->currentData().toLongLong())
            c.current = m_environments->currentText();
        return c;
    });
}

void MainWindow::openItem(qint64 id)
{
    const QModelIndex index = m_model->indexForId(id);
    if (!index.isValid())
        return;
    const auto kind = ItemKind(index.data(ProjectTreeModel::KindRole).toInt());
    if (kind == ItemKind::Collection || kind == ItemKind::Folder)
        return;
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (m_tabs->widget(i)->property("itemId").toLongLong() == id) {
            m_tabs->setCurrentIndex(i);
            return;
        }
    }
    const QByteArray payload = index.data(ProjectTreeModel::PayloadRole).toByteArray();
    // every editor saves as it is edited: its change goes straight to the store
    auto save = [this, id](const QByteArray& p) { m_model->setPayload(m_model->indexForId(id), p); };
    // environments, data sets and scenarios: each edit an undoable step (Edit → Undo)
    auto edit = [this, id](const QByteArray& p) { m_model->editPayload(m_model->indexForId(id), p); };
    QWidget* editor = nullptr;
    switch (kind) {
    case ItemKind::Request: {
        auto* e = new RequestEditor;
        if (m_store)
            e->setBaseDir(QFileInfo(QString::fromStdString(m_store->path())).absolutePath());
        e->setRequestJson(payload);
        connect(e, &RequestEditor::requestChanged, this, save);
        connect(e, &RequestEditor::extracted, this, &MainWindow::setExtracted);
        connect(e, &RequestEditor::sent, this, [this, id](HistoryEntry entry) {
            entry.name = m_model->indexForId(id).data().toString();
            recordSend(std::move(entry));
        });
        connect(e, &RequestEditor::responseShown, this, [this] {
            for (auto it = m_rowDrawn.begin(); it != m_rowDrawn.end(); ++it)
                ++it.value();
            for (int r = 0; r < m_model->rowCount(); ++r) {
                const QModelIndex i = m_model->index(r, 0);
                const qint64 setId = i.data(ProjectTreeModel::IdRole).toLongLong();
                if (i.data(ProjectTreeModel::KindRole).toInt() == int(ItemKind::DataSet) && !m_rowDrawn.contains(setId))
                    m_rowDrawn.insert(setId, 1);
            }
            applyEnvironment(); // the next Send takes the next rows
        });
        editor = e;
        break;
    }
    case ItemKind::Environment: {
        auto* e = new EnvironmentEditor;
        e->setJson(payload);
        connect(e, &EnvironmentEditor::changed, this, [this, edit](const QByteArray& p) {
            edit(p);
            applyEnvironment();
        });
        editor = e;
        break;
    }
    case ItemKind::DataSet: {
        auto* e = new DataSetEditor;
        e->setJson(payload);
        // where its columns are used: requests that mention ${name.
        QStringList users;
        const QString needle = QStringLiteral("${") + index.data().toString() + QLatin1Char('.');
        std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
            for (int r = 0; r < m_model->rowCount(parent); ++r) {
                const QModelIndex i = m_model->index(r, 0, parent);
                if (QString::fromUtf8(i.data(ProjectTreeModel::PayloadRole).toByteArray()).contains(needle))
                    users << i.data().toString();
                walk(i);
            }
        };
        walk({});
        e->setUsage(users);
        connect(e, &DataSetEditor::changed, this, edit);
        editor = e;
        break;
    }
    case ItemKind::Scenario: {
        // a name given in the designer's Name (or Plan:) field renames the item once the field is left: the tree,
        // the tabs and `stampede-cli run PROJECT@NAME` say the same name (an undoable rename of its own)
        const auto rename = [this, id](const QString& name) {
            if (!name.trimmed().isEmpty() && name.trimmed() != m_model->indexForId(id).data().toString())
                m_model->setData(m_model->indexForId(id), name.trimmed());
        };
        if (ScenarioCheck::isPlan(payload)) { // a test plan: its parts, each in the scenario designer
            auto* p = new PlanEditor;
            const EngineSettings engines = EngineSettings::load(*m_store);
            p->setEngines(engines.runLabel(), engines.runToolTip());
            p->setEditorSetup([this](ScenarioEditor* e) { setUpScenarioEditor(e); });
            p->setJson(payload);
            connect(p, &PlanEditor::changed, this, edit);
            connect(p, &PlanEditor::renamed, this, rename);
            connect(p, &PlanEditor::runRequested, this, [this, id](const QByteArray& json) {
                const QString name = m_model->indexForId(id).data().toString();
                startRun(namedAs(json, name), name);
            });
            editor = p;
            break;
        }
        auto* e = new ScenarioEditor;
        setUpScenarioEditor(e);
        e->setJson(payload);
        connect(e, &ScenarioEditor::changed, this, edit);
        connect(e, &ScenarioEditor::renamed, this, rename);
        connect(e, &ScenarioEditor::runRequested, this, [this, id](const QByteArray& json) {
            const QString name = m_model->indexForId(id).data().toString();
            startRun(namedAs(json, name), name);
        });
        connect(e, &ScenarioEditor::capacityRequested, this, [this, id](const QByteArray& json) {
            const QString name = m_model->indexForId(id).data().toString();
            findCapacity(namedAs(json, name), name);
        });
        editor = e;
        break;
    }
    case ItemKind::Traffic: { // what was imported, its requests per second and busiest paths
        auto* v = new TrafficView(*m_store, id, payload);
        connect(v, &TrafficView::replayRequested, this, [this, id] { newReplayScenario(id); });
        editor = v;
        break;
    }
    default:
        return;
    }
    editor->setProperty("itemId", id);
    const int tab = m_tabs->addTab(editor, index.data(Qt::DecorationRole).value<QIcon>(), index.data().toString());
    m_tabs->setTabToolTip(tab, index.data().toString());
    m_tabs->setCurrentIndex(tab);
    applyEnvironment();
}

QWidget* MainWindow::currentEditor() const
{
    return m_tabs->currentWidget();
}

RequestEditor* MainWindow::currentRequestEditor() const
{
    return qobject_cast<RequestEditor*>(m_tabs->currentWidget());
}

QHash<QString, QString> MainWindow::scenarioSamples()
{
    QHash<QString, QString> out;
    const QString baseDir = m_store ? QFileInfo(QString::fromStdString(m_store->path())).absolutePath() : QString();
    QHash<qint64, SampleCache> kept; // only the scenarios there are now
    for (int r = 0; r < m_model->rowCount(); ++r) {
        const QModelIndex i = m_model->index(r, 0);
        if (i.data(ProjectTreeModel::KindRole).toInt() != int(ItemKind::Scenario))
            continue;
        const qint64 id = i.data(ProjectTreeModel::IdRole).toLongLong();
        const QByteArray payload = i.data(ProjectTreeModel::PayloadRole).toByteArray();
        SampleCache c = m_samples.value(id);
        if (c.payload != payload || c.payload.isNull()) // compiled again only when the scenario changed
            c = {payload, ScenarioCheck::variableSamples(payload, baseDir)};
        for (auto it = c.values.cbegin(); it != c.values.cend(); ++it)
            out.insert(it.key(), it.value());
        kept.insert(id, std::move(c));
    }
    m_samples = std::move(kept);
    return out;
}

void MainWindow::refreshEnvironments()
{
    const QString current = m_environments->count() ? m_environments->currentText() : QString();
    m_environments->blockSignals(true);
    m_environments->clear();
    m_environments->addItem(tr("(no environment)"), qint64(0));
    for (int r = 0; r < m_model->rowCount(); ++r) {
        const QModelIndex i = m_model->index(r, 0);
        if (i.data(ProjectTreeModel::KindRole).toInt() == int(ItemKind::Environment))
            m_environments->addItem(i.data().toString(), i.data(ProjectTreeModel::IdRole));
    }
    QString wanted = current;
    if (m_store && wanted.isEmpty())
        wanted = QString::fromStdString(m_store->setting("environment"));
    const int found = m_environments->findText(wanted);
    m_environments->setCurrentIndex(found >= 0 ? found : (m_environments->count() > 1 ? 1 : 0));
    m_environments->blockSignals(false);
    applyEnvironment();
}

// Values a Send extracted go into the current environment, as Postman's
// tests set environment variables (with none chosen, into this session's own
// values, which the next Send takes too).
void MainWindow::setExtracted(const QHash<QString, QString>& values)
{
    const qint64 id = m_environments->currentData().toLongLong();
    if (!id) {
        for (auto it = values.begin(); it != values.end(); ++it)
            m_extracted.insert(it.key(), it.value());
        applyEnvironment();
        return;
    }
    const QModelIndex i = m_model->indexForId(id);
    QJsonObject o = QJsonDocument::fromJson(i.data(ProjectTreeModel::PayloadRole).toByteArray()).object();
    for (auto it = values.begin(); it != values.end(); ++it)
        o[it.key()] = it.value();
    const QByteArray payload = QJsonDocument(o).toJson(QJsonDocument::Compact);
    m_model->setPayload(i, payload);
    for (int t = 0; t < m_tabs->count(); ++t) // an open editor of that environment shows the new values
        if (auto* e = qobject_cast<EnvironmentEditor*>(m_tabs->widget(t));
            e && m_tabs->widget(t)->property("itemId").toLongLong() == id)
            e->setJson(payload);
    applyEnvironment();
    statusBar()->showMessage(
        tr("Set in the environment \"%1\": %2")
            .arg(m_environments->currentText(), QStringList(values.keys()).join(QStringLiteral(", "))),
        5000);
}

void MainWindow::applyEnvironment()
{
    // what a run would take, weakest first: the scenarios' variables (their
    // first values), the data sets' rows, values extracted, the environment
    QHash<QString, QString> vars = scenarioSamples();
    for (auto it = m_extracted.cbegin(); it != m_extracted.cend(); ++it)
        vars.insert(it.key(), it.value());
    // Each data set gives one row for ${set.column}: the next row at every Send.
    for (int r = 0; r < m_model->rowCount(); ++r) {
        const QModelIndex i = m_model->index(r, 0);
        if (i.data(ProjectTreeModel::KindRole).toInt() != int(ItemKind::DataSet))
            continue;
        const QJsonObject o = QJsonDocument::fromJson(i.data(ProjectTreeModel::PayloadRole).toByteArray()).object();
        CsvPreviewModel csv;
        const QString d = o.value(QStringLiteral("delimiter")).toString();
        if (!csv.load(o.value(QStringLiteral("csv")).toString().toUtf8(), d.isEmpty() ? QChar() : d.at(0)) ||
            csv.rowCount() == 0)
            continue;
        const qint64 setId = i.data(ProjectTreeModel::IdRole).toLongLong();
        const int row = m_rowDrawn.value(setId) % csv.rowCount();
        const QStringList columns = csv.columns();
        for (int c = 0; c < columns.size(); ++c)
            vars.insert(i.data().toString() + QLatin1Char('.') + columns[c], csv.index(row, c).data().toString());
    }
    const qint64 id = m_environments->currentData().toLongLong();
    if (id) {
        const QModelIndex i = m_model->indexForId(id);
        const QJsonObject o = QJsonDocument::fromJson(i.data(ProjectTreeModel::PayloadRole).toByteArray()).object();
        for (auto it = o.begin(); it != o.end(); ++it)
            if (!it.key().startsWith(QLatin1Char('$'))) // "$secrets" lists names, it is no value
                vars.insert(it.key(), it.value().toString());
        if (m_store)
            m_store->setSetting("environment", m_environments->currentText().toStdString());
    }
    for (int t = 0; t < m_tabs->count(); ++t) {
        if (auto* e = qobject_cast<RequestEditor*>(m_tabs->widget(t)))
            e->setVariables(vars);
        if (auto* e = qobject_cast<ScenarioEditor*>(m_tabs->widget(t)))
            e->recheck(); // checked with the environment a run would take
        for (ScenarioEditor* e : m_tabs->widget(t)->findChildren<ScenarioEditor*>()) // a plan's parts
            e->recheck();
    }
}
