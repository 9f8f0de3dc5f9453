#pragma once
// Where a project's runs go: the local pool (engines started on this machine
// for each run) or a list of remote agents, with the token file and the CA that
// authenticate them. Kept in the project's settings (the token itself is not:
// only the path of the file that holds it). The list checks each agent for
// reachability, protocol version and whether it is busy, off the GUI thread.
#include "jobrunner.h"

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>

// stampede-cli (it runs the engines and the mock server): next to this
// program, in the build tree, or on PATH; empty when it is nowhere.
QString findStampedeCli();

namespace stampede {
class ProjectStore;
}

struct EngineSettings
{
    bool remote = false;
    int localEngines = 0; // 0: one per core
    QStringList agents;   // host:port
    QString tokenFile;    // file holding the agents' token
    QString caFile;       // set: TLS, verifying the agents against this CA
    // Live outputs of every run (as --out): empty is off.
    QString prometheus;  // host:port of a /metrics endpoint for Prometheus to scrape
    QString jsonl;       // a file of JSON lines, one per second
    QString remoteWrite; // a Prometheus remote write receiver's URL, every second pushed to it
    // Every run of the project is also judged by error_rate < this ("1%") unless its thresholds judge the error
    // rate already; empty: off (RunRequest::maxErrorRate).
    QString maxErrorRate;
    static EngineSettings load(stampede::ProjectStore& store);
    // The outputs as the run service takes them ("prometheus=…", "jsonl=…").
    QStringList outputs() const;
    // Why the outputs cannot be used (a bad address, a file that is the
    // project itself), in the user's words; empty when they can.
    QString outputsProblem(const QString& projectPath) const;
    bool save(stampede::ProjectStore& store) const;
    // What a Run button says with these engines, and its tooltip: "Run on
    // the local pool (4 engines)", "Run on 3 remote agents".
    QString runLabel() const;
    QString runToolTip() const;
    // The token read from tokenFile; false with `error` when it cannot be read.
    bool readToken(QString& token, QString& error) const;
};

class AgentListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        AddressColumn,
        StatusColumn,
        ColumnCount
    };
    explicit AgentListModel(QObject* parent = nullptr);
    ~AgentListModel() override;

    void setAgents(const QStringList& agents);
    QStringList agents() const; // non-empty addresses, trimmed
    void addAgent(const QString& address);
    void removeAgent(int row);
    // Says hello to every agent (on a thread of its own per agent); the status
    // column shows "checking…", then the agent's name or why it cannot be used.
    // checked() once every answer is in.
    void check(const QString& token, const QString& caFile);
    bool checking() const { return m_pending > 0; }
    // Whether the last check found agent `row` ready.
    bool ready(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void checked();

private:
    void checkDone(int row, quint64 generation, const std::pair<bool, QString>& result);
    struct Row
    {
        QString address;
        QString status;
        bool ready = false;
        quint64 generation = 0; // the check whose answer it waits for
    };
    QList<Row> m_rows;
    int m_pending = 0;
    quint64 m_generation = 0;
    JobRunner m_checks{this};
};

// A host:port (or [v6]:port) that an agent may listen on; false with `error`.
bool validAgentAddress(const QString& address, QString& error);
