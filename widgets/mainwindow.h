#pragma once
// The workbench window: the project tree on the left (filter box above it),
// editors in tabs in the middle, an environment switcher in the toolbar.
// Every edit is written to the project as it is made; Ctrl+S only says so.
#include <QHash>
#include <QMainWindow>

#include <functional>

#include <memory>
#include <optional>

#include "runsession.h"

class QComboBox;
class QLineEdit;
class QMenu;
class QSortFilterProxyModel;
class QTabWidget;
class QTreeView;
class WelcomePage;
class ProjectTreeModel;
class ProjectMock;
class RequestEditor;
class RunSession;

namespace stampede {
class ProjectStore;
}

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a project file; shows the reason and returns false when it cannot.
    bool openProject(const QString& path);
    bool newProject(const QString& path);
    ProjectTreeModel* treeModel() const { return m_model; }
    QTreeView* treeView() const { return m_tree; }
    RequestEditor* currentRequestEditor() const;
    // The editor in the current tab (a request's, a scenario's, a report...), if any.
    QWidget* currentEditor() const;
    // Opens the editor for the item with this id, as a double click does.
    void openItem(qint64 id);
    // Starts a run of the scenario (its JSON) and shows its live dashboard.
    // `capacity`: a capacity search of the scenario instead of a run as planned.
    void startRun(const QByteArray& scenarioJson, const QString& title,
                  std::optional<stampede::CapacityOptions> capacity = std::nullopt);
    // Runs → Run Collection: the collection or folder `id` (or the one a request `id` is in), with the choices
    // of the runner's dialog; false (and nothing runs) when cancelled or it cannot run.
    bool askRunCollection(qint64 id);
    // Runs it as `choice` says and shows its results, request by request and test by test, live; false with
    // the reason (shown, or in `error` when given) when it cannot start.
    bool runCollection(qint64 id, const struct CollectionRunChoice& choice, QString* error = nullptr);
    // Asks for the SLOs (CapacityDialog), then starts the search.
    void findCapacity(const QByteArray& scenarioJson, const QString& title);
    // Reports: a run of the open project (0: the newest), two runs compared, a standalone file.
    bool openRunReport(qint64 id);
    bool compareRuns(qint64 baseline, qint64 candidate);
    // A run as the Run button starts it, without a dialog for a failure (why in `error`): for tests.
    RunSession* launchRunForTest(const QByteArray& scenarioJson, const QString& title, QString* error)
    {
        return launchRun(scenarioJson, title, {}, false, error);
    }
    // Quits the application once the runs started have ended and been saved (the command line's --run with
    // --screenshot); when none has started within a minute, quits then.
    void quitOnceRunsEnd();
    // A scenario's trend over its last runs (empty: the newest run's scenario), in a tab.
    bool showTrend(const QString& scenario = {});
    bool openReportFile(const QString& path);
    void showRunHistory();
    // Run → Engines: the local pool or remote agents, kept in the project.
    void editEngines();
    // Runs → Schedules: each scheduled scenario, its schedule, whether its
    // timer is installed (stampede-cli schedule install) and its last verdict.
    // Returns the rows shown (scenario, schedule, installed, last run), for tests.
    QList<QStringList> showSchedules(bool modal = true);
    // How "Open the demo" gets the demo project's path (its mock server started); unset: not offered.
    void setDemoOpener(std::function<QString(QString& error)> opener);
    WelcomePage* welcomePage() const { return m_welcome; }
    // File → Import Collection: Postman v2.1, OpenAPI 3 (JSON, YAML), HAR, curl.
    // Writes it whole or not at all, selects it, and says what was not
    // imported (`report` gets the text when given, else a message box shows it).
    bool importCollectionFile(const QString& path, QString* report = nullptr);
    // The collection `id` (or the one the selected item is in) as Postman v2.1 at `path`.
    bool exportCollectionToPostman(qint64 id, const QString& path, QString* report = nullptr);
    // Request → History: every Send kept in the project, searchable; one
    // re-opened becomes a new request in the first collection.
    void showHistory();
    // The history entry `index` (newest first) as a new request, opened; its id or 0.
    qint64 reopenFromHistory(int index);
    // The project's own mock server (its rules kept in the project: the
    // demo's), started when the project opens; its URL goes into the
    // environments' value that names it. Null when the project has none.
    ProjectMock* projectMock() const { return m_mock; }
    // Points the project's mock value at `url` (a mock started elsewhere) instead of starting its own.
    void useMockAt(const QString& url);
    // Calls `then` once the project's mock server listens (its URL in the
    // environments) or could not start; now when the project has none
    // starting.
    void whenMockReady(const std::function<void()>& then);
    // A menu text as a button shows it: "&New Request" -> "New Request", "新建请求(&N)" -> "新建请求".
    static QString withoutMnemonic(QString text);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    // The open items' tabs, kept in the project and opened again when it is (Postman's habit).
    void rememberTabs();
    void restoreTabs();
    bool m_restoringTabs = false;
    enum class RunsAnswer
    {
        NoRuns,
        Stop,
        Detach,
        Cancel
    };
    QList<RunSession*> runningSessions() const;
    // Starts a run as `options` say (the engines' settings added) and shows it in a new tab: its dashboard, and
    // with `collection` the collection runner's results first. The session, or null after showing why not.
    RunSession* launchRun(const QByteArray& scenarioJson, const QString& title, RunSession::Options options,
                          bool collection, QString* error = nullptr);
    // The collection or folder an item is, or is in (0: none), and its path as newman names it ("Shop / Checkout").
    qint64 collectionOf(qint64 id) const;
    QString collectionTitle(qint64 id) const;
    RunsAnswer askAboutRuns(bool quitting);
    // With runs going on, asks; true when the project may close (they were stopped and saved).
    bool mayCloseProject();
    void stopRunsAndWait();
    void buildMenus();
    void addItemOfKind(int kind);
    void addTestPlan();
    void setUpScenarioEditor(class ScenarioEditor* e);
    void askNewProject();
    // Tabs of items: titled as their items are named, closed when their items are gone.
    void syncTabs();
    void askOpenProject();
    // A scenario replaying traffic set `id`, to the current environment's server, opened.
    void newReplayScenario(qint64 id);
    QString replayTarget() const;
    void refreshEnvironments();
    void adoptStore(std::unique_ptr<stampede::ProjectStore> store);
    void applyEnvironment();
    // The project's scenarios' variables at their first values (a CSV's first row as name.column).
    QHash<QString, QString> scenarioSamples();
    struct SampleCache
    {
        QByteArray payload; // the scenario as it was when its values were drawn
        QHash<QString, QString> values;
    };
    QHash<qint64, SampleCache> m_samples; // by scenario id
    void setExtracted(const QHash<QString, QString>& values);
    void updateTitle();
    void rememberRecent(const QString& path);
    void showError(const QString& message);
    void askImportCollection();
    void askExportPostman();
    QList<QPair<QString, QString>> collectionVariables(qint64 collectionId) const;
    void recordSend(struct HistoryEntry entry);
    void startProjectMock();
    void pointEnvironmentsAt(const QString& variable, const QString& url);

    std::unique_ptr<stampede::ProjectStore> m_store;
    ProjectTreeModel* m_model;
    QSortFilterProxyModel* m_filter;
    QTreeView* m_tree;
    QLineEdit* m_filterEdit;
    QTabWidget* m_tabs;
    QComboBox* m_environments;
    QMenu* m_recentMenu = nullptr;
    QHash<qint64, int> m_rowDrawn;       // data set id -> the row the next Send uses
    QHash<QString, QString> m_extracted; // values Sends extracted with no environment chosen
    WelcomePage* m_welcome = nullptr;
    std::function<QString(QString& error)> m_demoOpener;
    ProjectMock* m_mock = nullptr;
};
