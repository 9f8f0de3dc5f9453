#pragma once
// The test plan designer: a plan's parts in a list - its own defaults and
// judges (variables, thresholds, breaker, schedule), the setup, each scenario
// with when it starts, the teardown - each edited by the scenario designer
// showing what that part says, checked as it compiles within the plan.
// Saved as the proto3 JSON of stampede.v1.Scenario with `scenarios`.
#include "scenarioeditor.h"

#include <QJsonObject>
#include <QWidget>

#include <functional>

class QDoubleSpinBox;
class QLineEdit;
class QListWidget;
class QPushButton;
class QStackedWidget;

class PlanEditor : public QWidget
{
    Q_OBJECT
public:
    // The "Plan:" field, as the tree names the plan (a rename there shows here, and is saved with the plan).
    QString name() const;
    void setName(const QString& name);
    explicit PlanEditor(QWidget* parent = nullptr);
    // Called on each part's designer as it is made: its sources (requests, data sets, environments...).
    void setEditorSetup(std::function<void(ScenarioEditor*)> setup) { m_setup = std::move(setup); }
    void setJson(const QByteArray& payload);
    QByteArray json() const;
    // The parts as the list shows them: "Plan", "Setup", each scenario's name, "Teardown".
    QStringList parts() const;
    // The designer of part `i` (as parts() lists them) is shown.
    void showPart(int i);
    ScenarioEditor* partEditor(int i) const;
    int scenarioCount() const { return int(m_scenarios.size()); }
    void addScenario();
    void removeScenario(int scenario);
    void moveScenario(int scenario, int by);
    // Every part's faults, each under its part's name.
    QStringList problems() const;
    // What the Run button says: the engines it will use.
    void setEngines(const QString& label, const QString& toolTip);

Q_SIGNALS:
    void changed(const QByteArray& payload);
    // The name field was left with a new name (the item is renamed to it).
    void renamed(const QString& name);
    void runRequested(const QByteArray& payload);

private:
    struct ScenarioPart
    {
        ScenarioEditor* editor = nullptr;
        QWidget* page = nullptr;
        QDoubleSpinBox* startAfter = nullptr;
    };
    ScenarioEditor* makeEditor(ScenarioEditor::PlanPart part, std::function<QByteArray()> asItRuns);
    ScenarioPart makeScenario(const QJsonObject& scenario);
    void rebuildList();
    void edited();
    void recheckAll();

    std::function<void(ScenarioEditor*)> m_setup;
    QLineEdit* m_name;
    QPushButton* m_run;
    QListWidget* m_list;
    QStackedWidget* m_stack;
    QLabel* m_problems;
    ScenarioEditor* m_plan = nullptr; // the plan's own fields
    ScenarioEditor* m_setupSteps = nullptr;
    ScenarioEditor* m_teardownSteps = nullptr;
    QList<ScenarioPart> m_scenarios;
    QJsonObject m_rest; // what no part shows (http, tls, cookies...), kept as it came
    bool m_loading = false;
};
