#pragma once
// Run → Engines: run on the local pool (engines started on this machine for
// each run) or on remote agents, listed with their token file and CA, and
// checked for reachability and version before they are used.
#include "enginesettings.h"

#include <QDialog>

class AgentListModel;
class QLabel;
class QLineEdit;
class QRadioButton;
class QSpinBox;
class QTableView;

class EnginesDialog : public QDialog
{
    Q_OBJECT
public:
    explicit EnginesDialog(const EngineSettings& settings, QWidget* parent = nullptr);
    EngineSettings settings() const;
    AgentListModel* agentModel() const { return m_agents; }
    // Checks the listed agents with the token and CA given (as the Check button does).
    void checkAgents();
    // The project's file: a JSON lines output must not be it.
    void setProjectPath(const QString& path) { m_projectPath = path; }

    void accept() override;

private:
    void updateEnabled();
    QRadioButton* m_local;
    QRadioButton* m_remote;
    QSpinBox* m_localEngines;
    AgentListModel* m_agents;
    QTableView* m_table;
    QLineEdit* m_tokenFile;
    QLineEdit* m_caFile;
    QLineEdit* m_prometheus;
    QLineEdit* m_jsonl;
    QLineEdit* m_remoteWrite;
    QLineEdit* m_maxErrorRate;
    QLabel* m_message;
    QString m_projectPath;
};
