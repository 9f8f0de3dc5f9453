#include "collectionresults.h"

#include "enginetext.h"
#include "report/runsummary.h"

#include <algorithm>

#include <QColor>

using namespace stampede;

namespace {

const QColor kPassColour(0x1e, 0x84, 0x49);
const QColor kFailColour(0xc0, 0x39, 0x2b);

} // namespace

CollectionResultsModel::CollectionResultsModel(QObject* parent) : QAbstractItemModel(parent) {}

quint64 CollectionResultsModel::Request::failures() const
{
    // as newman judges: a request not made or not answered, or a script that threw; an HTTP status alone is no
    // failure, and a failed test is counted as a test
    quint64 n = 0;
    for (int c = 0; c < errorsByClass.size(); ++c)
        if (c != int(ErrorClass::Http4xx) && c != int(ErrorClass::Http5xx) && c != int(ErrorClass::Check))
            n += errorsByClass[c];
    return n;
}

bool CollectionResultsModel::Request::failed() const
{
    return failures() > 0 || std::any_of(tests.begin(), tests.end(), [](const Test& t) { return t.failed > 0; });
}

void CollectionResultsModel::setRequests(const QStringList& names, const QStringList& folders,
                                         const QList<QStringList>& checkNames)
{
    beginResetModel();
    m_requests.clear();
    m_finished = false;
    for (qsizetype i = 0; i < folders.size() && i < names.size(); ++i) {
        Request r;
        r.name = names[i];
        r.folder = folders[i];
        for (const QString& c : checkNames.value(i))
            r.tests.append({c, 0, 0, {}});
        r.planned = int(r.tests.size());
        m_requests.append(r);
    }
    endResetModel();
}

CollectionResultsModel::Test* CollectionResultsModel::testAt(int r, int k, const QStringList& names)
{
    Request& req = m_requests[r];
    if (k < req.tests.size())
        return &req.tests[k];
    const int named = k - req.planned; // a script's test: named by the second
    if (named < 0 || named >= names.size())
        return nullptr;
    beginInsertRows(index(r, 0), int(req.tests.size()), k);
    while (req.tests.size() <= k) {
        const int at = int(req.tests.size()) - req.planned;
        req.tests.append({names.value(at), 0, 0, {}});
    }
    endInsertRows();
    return &req.tests[k];
}

void CollectionResultsModel::addSecond(const RunSecond& second)
{
    for (int r = 0; r < m_requests.size() && r < second.steps.size(); ++r) {
        const RunSecond::Step& st = second.steps[r];
        const QStringList names = second.testNames.value(r);
        for (int k = 0; k < st.checksPassed.size() || k < st.checksFailed.size(); ++k) {
            const quint64 passed = st.checksPassed.value(k), failed = st.checksFailed.value(k);
            if (!passed && !failed)
                continue;
            Test* t = testAt(r, k, names);
            if (!t)
                continue;
            t->passed += passed;
            t->failed += failed;
            if (t->message.isEmpty())
                t->message = st.checkMessages.value(k);
        }
        Request& req = m_requests[r];
        req.sent += st.requests;
        req.errors += st.errors;
        req.errorsByClass.resize(std::max(req.errorsByClass.size(), st.errorsByClass.size()));
        for (int c = 0; c < st.errorsByClass.size(); ++c)
            req.errorsByClass[c] += st.errorsByClass[c];
        if (!req.tests.isEmpty())
            Q_EMIT dataChanged(index(0, 0, index(r, 0)),
                               index(int(req.tests.size()) - 1, ColumnCount - 1, index(r, 0)));
        Q_EMIT dataChanged(index(r, 0), index(r, ColumnCount - 1));
    }
}

void CollectionResultsModel::setSummary(const RunSummary& summary)
{
    beginResetModel();
    m_finished = true;
    m_passed = summary.passed;
    m_reason = engineText(QString::fromStdString(summary.reason));
    const bool fresh = m_requests.isEmpty(); // a saved run: its requests from the summary
    if (fresh)
        for (const MetricsSummary& m : summary.steps)
            m_requests.append({QString::fromStdString(m.name), QString::fromStdString(m.folder), 0, 0, {}, {}, 0});
    for (int r = 0; r < m_requests.size() && r < int(summary.steps.size()); ++r) {
        const MetricsSummary& m = summary.steps[std::size_t(r)];
        Request& req = m_requests[r];
        req.sent = m.requests;
        req.errors = m.errors - std::min(m.errors, m.stray);
        req.errorsByClass.clear();
        for (const std::uint64_t n : m.errorsByClass)
            req.errorsByClass.append(n);
        req.tests.clear();
        const std::string prefix = m.name + "/"; // a check's name in a summary is "step/check"
        for (const auto& c : m.checks) {
            const std::string name = c.name.rfind(prefix, 0) == 0 ? c.name.substr(prefix.size()) : c.name;
            req.tests.append({QString::fromStdString(name), c.passed, c.failed, QString::fromStdString(c.message)});
        }
        req.planned = int(req.tests.size());
    }
    endResetModel();
}

int CollectionResultsModel::requestsSent() const
{
    return int(std::count_if(m_requests.begin(), m_requests.end(), [](const Request& r) { return r.sent > 0; }));
}

int CollectionResultsModel::testCount() const
{
    int n = 0;
    for (const Request& r : m_requests)
        n += int(std::count_if(r.tests.begin(), r.tests.end(), [](const Test& t) { return t.passed + t.failed; }));
    return n;
}

int CollectionResultsModel::testsFailed() const
{
    int n = 0;
    for (const Request& r : m_requests)
        n += int(std::count_if(r.tests.begin(), r.tests.end(), [](const Test& t) { return t.failed > 0; }));
    return n;
}

QString CollectionResultsModel::requestPath(int row) const
{
    const Request& r = m_requests.at(row);
    return r.folder.isEmpty() ? r.name : r.folder + QStringLiteral(" / ") + r.name;
}

QModelIndex CollectionResultsModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row < m_requests.size() ? createIndex(row, column, quintptr(0)) : QModelIndex();
    if (parent.internalId() != 0 || parent.row() >= m_requests.size() || row >= m_requests[parent.row()].tests.size())
        return {};
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex CollectionResultsModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int CollectionResultsModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return int(m_requests.size());
    if (parent.internalId() != 0 || parent.column() != 0 || parent.row() >= m_requests.size())
        return 0;
    return int(m_requests[parent.row()].tests.size());
}

int CollectionResultsModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant CollectionResultsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    if (index.internalId() == 0)
        return index.row() < m_requests.size() ? requestData(m_requests[index.row()], index.column(), role)
                                               : QVariant();
    const int r = int(index.internalId() - 1);
    if (r >= m_requests.size() || index.row() >= m_requests[r].tests.size())
        return {};
    return testData(m_requests[r].tests[index.row()], index.column(), role);
}

QVariant CollectionResultsModel::requestData(const Request& r, int column, int role) const
{
    const bool failed = r.failed();
    if (role == FailedRole)
        return failed;
    if (role == Qt::ForegroundRole && column == Result && (r.sent || failed))
        return failed ? kFailColour : kPassColour;
    quint64 passed = 0, failedTests = 0;
    int testsFailing = 0, testsRun = 0;
    for (const Test& t : r.tests) {
        passed += t.passed;
        failedTests += t.failed;
        testsFailing += t.failed ? 1 : 0;
        testsRun += t.passed + t.failed ? 1 : 0;
    }
    if (role == Qt::ToolTipRole && column == Name)
        return r.folder.isEmpty() ? r.name : r.folder + QStringLiteral(" / ") + r.name;
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case Name:
        return r.folder.isEmpty() ? r.name : r.folder + QStringLiteral(" / ") + r.name;
    case Sent:
        return r.sent;
    case Result:
        if (r.failures())
            return tr("failed: %n error(s)", nullptr, int(r.failures()));
        if (testsFailing)
            return tr("failed: %1 of %2 tests").arg(testsFailing).arg(testsRun);
        return !r.sent  ? (m_finished ? tr("not sent") : tr("not sent yet"))
               : passed ? tr("passed")
                        : tr("sent, no test");
    case Passed:
        return passed;
    case Failed:
        return failedTests;
    case Message: {
        QStringList classes; // its errors by class: "connect 1, http 4xx 2" (failed tests are listed below it)
        for (int c = 0; c < r.errorsByClass.size(); ++c)
            if (r.errorsByClass[c] && c != int(ErrorClass::Check))
                classes << QStringLiteral("%1 %2").arg(errorClassText(c)).arg(r.errorsByClass[c]);
        return classes.join(QStringLiteral(", "));
    }
    default:
        return {};
    }
}

QVariant CollectionResultsModel::testData(const Test& t, int column, int role) const
{
    if (role == FailedRole)
        return t.failed > 0;
    if (role == Qt::ForegroundRole && column == Result && t.passed + t.failed)
        return t.failed ? kFailColour : kPassColour;
    if (role == Qt::ToolTipRole && column == Message && !t.message.isEmpty())
        return t.message;
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case Name:
        return t.name;
    case Result:
        return !(t.passed + t.failed) ? (m_finished ? tr("not run") : tr("not run yet"))
               : t.failed             ? tr("failed")
                                      : tr("passed");
    case Passed:
        return t.passed;
    case Failed:
        return t.failed;
    case Message:
        return t.message;
    default:
        return {};
    }
}

QVariant CollectionResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Request / test");
    case Sent:
        return tr("Sent");
    case Result:
        return tr("Result");
    case Passed:
        return tr("Passed");
    case Failed:
        return tr("Failed");
    case Message:
        return tr("Why it failed");
    default:
        return {};
    }
}
