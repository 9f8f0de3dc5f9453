#pragma once
// A scenario's notifications (its "notify" list, output/notify.h) in the designer: a row per webhook (URL, kind,
// secret, when), and Test, which posts a test message to the chosen row's webhook off the GUI thread and says
// what came back.
#include "jobrunner.h"
#include "scenariocheck.h"

#include <QJsonArray>
#include <QWidget>

#include <functional>

class QLabel;
class QPushButton;
class QTableWidget;

class NotifyTable : public QWidget
{
    Q_OBJECT
public:
    explicit NotifyTable(QWidget* parent = nullptr);
    void fromJson(const QJsonArray& notify);
    QJsonArray toJson() const;
    // What Test posts with: the scenario as the designer holds it (its constants), the environments.
    void setSources(std::function<QByteArray()> scenario, ScenarioCheck::EnvironmentSource environments)
    {
        m_scenario = std::move(scenario);
        m_environments = std::move(environments);
    }
    // The last Test's outcome, as shown.
    QString testResult() const;
    bool testRunning() const { return m_testing; }

Q_SIGNALS:
    void changed();

private:
    void addRow(const QJsonObject& entry);
    void test();
    QTableWidget* m_table;
    QPushButton* m_test;
    QLabel* m_result;
    bool m_loading = false;
    bool m_testing = false;
    std::function<QByteArray()> m_scenario;
    ScenarioCheck::EnvironmentSource m_environments;
    JobRunner m_jobs{this};
};
