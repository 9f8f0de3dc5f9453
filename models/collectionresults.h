#pragma once
// A collection run's results as Postman's Runner lists them: each request (by
// its folders and name) with how often it was sent and whether it passed,
// and under it each test with its passes, failures and the first failure's
// message. Filled live from the run's seconds (RunSecond), then set from the
// run's summary - the same figures its exit code, exports and report judge -
// when it finishes, or from a saved run's summary.
#include <QAbstractItemModel>
#include <QStringList>
#include <QVector>

#include "runsecond.h"

namespace stampede {
struct RunSummary;
}

class CollectionResultsModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column
    {
        Name,    // a request: "Folder / name"; a test: its name
        Sent,    // a request: requests made
        Result,  // "passed", "failed", "not sent yet"...
        Passed,  // a request: its tests' passes; a test: its own
        Failed,  // the same, failed
        Message, // a test: why it first failed; a request: its errors by class
        ColumnCount
    };
    enum Roles
    {
        FailedRole = Qt::UserRole + 1, // bool: the row failed (a test that failed, a request with a failure)
    };
    explicit CollectionResultsModel(QObject* parent = nullptr);

    // The run's requests, in order: their names, the folders each is in and
    // the checks its plan knows (RunSession's stepNames, stepFolders, checkNames);
    // names past `folders`' count (groups) are not requests. Clears what was counted.
    void setRequests(const QStringList& names, const QStringList& folders, const QList<QStringList>& checkNames);
    // Adds a second's counts (tests named by scripts as the second names them).
    void addSecond(const RunSecond& second);
    // The whole run's figures, from its summary (a finished or saved run's): they replace the seconds' sums.
    void setSummary(const stampede::RunSummary& summary);

    int requestCount() const { return int(m_requests.size()); }
    // Requests sent at least once, tests judged (by name; a test of a request is one, whatever the iterations),
    // and of them those that failed at least once.
    int requestsSent() const;
    int testCount() const;
    int testsFailed() const;
    // The run's verdict and why, once its summary is in (the verdict its exit code and exports give).
    bool judged() const { return m_finished; }
    bool passed() const { return m_passed; }
    QString reason() const { return m_reason; }
    // The request `row` as "Folder / name".
    QString requestPath(int row) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Test
    {
        QString name;
        quint64 passed = 0, failed = 0;
        QString message;
    };
    struct Request
    {
        QString name, folder;
        quint64 sent = 0, errors = 0;
        QVector<quint64> errorsByClass;
        QVector<Test> tests;
        int planned = 0;          // the tests its plan knows: the first ones
        quint64 failures() const; // errors that fail it as newman's run (not an HTTP status, not a test)
        bool failed() const;
    };
    QVariant requestData(const Request& r, int column, int role) const;
    QVariant testData(const Test& t, int column, int role) const;
    // The test at check index `k` of request `r`, made when it is new (named by the second's test names).
    Test* testAt(int r, int k, const QStringList& names);
    QVector<Request> m_requests;
    bool m_finished = false; // the summary is in: what was not sent will not be
    bool m_passed = false;
    QString m_reason;
};
