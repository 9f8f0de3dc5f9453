#pragma once
// The scenario designer: steps (copied from the collection's requests), the
// load model and level, the stages with a live preview of the planned rate or
// users, duration, connections, think time, thresholds and the stress tag.
// Faults found by the engine's validation are shown beside the fields they
// name. Saved as the proto3 JSON of stampede.v1.Scenario.
#include <QHash>
#include <QJsonObject>
#include <QWidget>

#include "jobrunner.h"
#include "scenariocheck.h"

#include <functional>

class QChartView;
class QComboBox;
class QDoubleSpinBox;
class QHBoxLayout;
class QLabel;
class QLayout;
class QPushButton;
class NotifyTable;
class QLineEdit;
class ReplayForm;
class QLineSeries;
class QListWidget;
class QCheckBox;
class QPlainTextEdit;
class QSpinBox;
class QTableView;
class QTimer;
class QVBoxLayout;
class BreakerEditor;
class StepOptionsForm;
class StagesModel;
class VariablesModel;

class ScenarioEditor : public QWidget
{
    Q_OBJECT
public:
    // A request of the project: its item's id, name and JSON.
    struct ProjectRequest
    {
        qint64 id = 0;
        QString name;
        QByteArray payload;
    };
    // The project's requests in tree order: "Add request…" offers them, and a step that runs one (its
    // "requestItem") is shown and saved as the request is now.
    using RequestSource = std::function<QList<ProjectRequest>()>;

    explicit ScenarioEditor(QWidget* parent = nullptr);
    void setRequestSource(RequestSource source) { m_requests = std::move(source); }
    // What "Add request…" lists for `requests`: their names, told apart where names repeat (method and URL, then
    // a number), one label each in the same order.
    static QStringList requestLabels(const QList<ProjectRequest>& requests);
    // The Name field, as the tree names the item (a rename there shows here, and is saved with the scenario).
    QString name() const;
    void setName(const QString& name);
    // The CSV text of the project's data set of that name (for data-set variables).
    void setDataSetSource(std::function<QString(const QString&)> source) { m_dataSets = std::move(source); }
    // The project's traffic sets by name, for a replay step's checks and bundle. The checks call it off the
    // GUI thread: it must not use the GUI thread's objects (TrafficImporter::trafficSource opens its own
    // connection).
    void setTrafficSource(ScenarioCheck::TrafficSource source) { m_traffic = std::move(source); }
    // The project's environments: Export bundle asks which one its constants take.
    void setEnvironmentSource(ScenarioCheck::EnvironmentSource source) { m_environments = std::move(source); }
    // Writes the bundle to `path` with the environment `chosen` applied (empty: none); false with `error`.
    bool exportBundleTo(const QString& path, const QString& chosen, QString& error) const;
    // Set when the scenario replays recorded traffic (its load is the recording's).
    ReplayForm* replayForm() const { return m_replay; }
    bool isReplay() const;
    VariablesModel* variables() const { return m_variables; }
    void setBaseDir(const QString& dir) { m_baseDir = dir; }
    // What the Run button says: the engines it will use (EngineSettings::runLabel()).
    void setEngines(const QString& label, const QString& toolTip);
    // Checks the scenario again (the current environment changed): as an edit is checked, off the GUI thread
    // once the edits pause.
    void recheck() { scheduleCheck(); }
    void setJson(const QByteArray& payload);
    QByteArray json() const;
    StagesModel* stages() const { return m_stages; }
    // The preview's points: (seconds, planned level).
    QList<QPointF> previewPoints() const;
    // What the preview chart draws (requests/s in the open model: the
    // iterations/s of previewPoints() times the steps) and the level's label.
    QList<QPointF> drawnPreview() const;
    QString levelLabelText() const;
    // The scenario's faults as it is now: a check still pending (an edit within the pause, or one running) is
    // made first, here (a run must not go on a check of an older edit).
    QStringList problems() const;
    // The faults as the last check that landed found them (shown beside the fields), without checking again.
    QStringList shownProblems() const { return m_problems; }
    // Whether the faults and warnings shown are those of the scenario as it is now.
    bool checkIsCurrent() const;
    // A step that runs the project's request (request.id; 0: a copy of it).
    void addStep(const ProjectRequest& request);
    void addStep(const QString& name, const QByteArray& requestJson) { addStep(ProjectRequest{0, name, requestJson}); }
    // The steps that run a project's request made what it says now (shown, and saved with the next edit); a step
    // whose request is gone keeps what it last ran, marked.
    void followRequests();
    // This editor shows a part of a test plan (PlanEditor): a scenario, the
    // setup or teardown (their steps), or the plan's own fields; the plan runs
    // and exports as a whole. `asItRuns` turns the part's JSON into what it
    // compiles as within the plan (its defaults applied), for the checks.
    enum class PlanPart
    {
        Scenario,
        Phase,
        Plan
    };
    void asPlanPart(PlanPart part, std::function<QByteArray(const QByteArray&)> asItRuns);

Q_SIGNALS:
    void changed(const QByteArray& payload);
    // Open request: the project's request item the chosen step runs.
    void openRequest(qint64 id);
    // The name field was left with a new name (the item is renamed to it).
    void renamed(const QString& name);
    // The user asked to run this scenario now.
    void runRequested(const QByteArray& payload);
    // The user asked how much load the target takes (a capacity search of this scenario).
    void capacityRequested(const QByteArray& payload);
    // A check of the scenario landed: the faults and warnings shown are of the scenario as it was then.
    void checked();

private:
    QList<ProjectRequest> projectRequests() const;
    QJsonObject followed(const QJsonObject& step, const QList<ProjectRequest>& requests) const;
    bool requestGone(const QJsonObject& step, const QList<ProjectRequest>& requests) const;
    static qint64 requestItemOf(const QJsonObject& step);
    void showStepRow(int row, const QList<ProjectRequest>& requests);
    void showStepButtons(const QList<ProjectRequest>& requests);
    QLayout* buildSteps();
    QLayout* buildLoad();
    QVBoxLayout* buildStages();
    QLayout* buildVariables();
    QLayout* buildChecks();
    QHBoxLayout* buildHeader();
    void followEdits();
    // Says the scenario's problems under `title` (a run or a search refused): true when it has any.
    bool refusedForProblems(const QString& title);
    void edited();
    void refreshPreview();
    // The engine's checks of the scenario run off the GUI thread, after the edits pause (kCheckPause), one at a
    // time: an edit during a check starts another once it lands. A 1,000,000-request replay takes seconds to
    // decode, and an edit never waits for it.
    static constexpr int kCheckPauseMs = 150;
    void scheduleCheck();
    void startCheck();
    void checkNow();
    struct CheckInput;
    struct CheckOutput;
    CheckInput checkInput() const;
    static CheckOutput runCheck(const CheckInput& in);
    void showCheck(const CheckOutput& out);
    void showScopes(const QList<QPair<QString, QString>>& scopes);
    void exportJson();
    void exportBundle();

    void showReplay();

    QLineEdit* m_name;
    QLineEdit* m_schedule;
    ReplayForm* m_replay;
    class QFormLayout* m_form = nullptr;      // the Load section's
    class QFormLayout* m_stepsForm = nullptr; // the Steps section's
    class QTabWidget* m_sections = nullptr;
    QLabel* m_scopes = nullptr;     // each name's scope (ScenarioCheck::scopes)
    QLabel* m_checksList = nullptr; // each step's checks, in the Checks section
    class QLayout* m_stagesBox = nullptr;
    ScenarioCheck::TrafficSource m_traffic;
    ScenarioCheck::EnvironmentSource m_environments;
    QList<QWidget*> m_loadFields; // the load's fields, hidden for a replay
    QListWidget* m_steps;
    QComboBox* m_model;
    QDoubleSpinBox* m_level;
    QLabel* m_levelLabel;
    QSpinBox* m_connections;
    QSpinBox* m_thinkMs;
    QSpinBox* m_pacingMs;
    QComboBox* m_http;
    QSpinBox* m_streams;
    QCheckBox* m_verifyTls;
    QDoubleSpinBox* m_duration;
    StagesModel* m_stages;
    VariablesModel* m_variables;
    QTableView* m_variablesView;
    QHash<QString, QString> m_inlineCsv; // data carried by the scenario itself, by variable name
    std::function<QString(const QString&)> m_dataSets;
    QTableView* m_stagesView;
    QChartView* m_chart;
    QLineSeries* m_series;
    QPlainTextEdit* m_thresholds;
    BreakerEditor* m_breaker; // the live breaker's rules
    QCheckBox* m_tagOn;
    QCheckBox* m_trace;
    QLineEdit* m_tagHeader;
    QLabel* m_problemsLabel;
    QLabel* m_warningsLabel;
    QStringList m_warnings; // what will fail at run time (used before extracted)
    QJsonObject m_rest;     // fields this editor does not show (variables, ...), kept as they were
    QList<QJsonObject> m_stepObjects;
    StepOptionsForm* m_stepOptions; // the chosen step's group, repeat, onError, retry, rendezvous
    QStringList m_problems;
    RequestSource m_requests;
    QPushButton* m_copyStep = nullptr;
    NotifyTable* m_notify = nullptr;
    QPushButton* m_openStepRequest = nullptr;
    QString m_baseDir;
    bool m_loading = false;
    QPushButton* m_run = nullptr;
    QLabel* m_nameLabel = nullptr;
    QList<QWidget*> m_actions;                           // run, capacity, exports: hidden in a plan's part
    std::function<QByteArray(const QByteArray&)> m_wrap; // a plan's part: its JSON as it compiles there
    QTimer* m_checkPause = nullptr;                      // the edits' pause before a check
    bool m_checkStale = true;                            // edited since the last check began
    bool m_checking = false;                             // a check runs (off the GUI thread)
    JobRunner m_checks{this};
};
