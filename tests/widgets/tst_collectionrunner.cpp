// The workbench's collection runner, as a user of Postman's Runner uses it:
// a collection with folders, an environment and a data file, run by the
// engines; each request and each test listed with its result and message,
// live and then as the run's summary judges them; the saved run's report
// lists the same; --bail's "stop at the first failure"; bad data refused.
#include "collectionresults.h"
#include "collectionrun.h"
#include "collectionrunner.h"
#include "mainwindow.h"
#include "projecttreemodel.h"
#include "reportview.h"
#include "runsession.h"

#include "../integration/testsupport.h"

#include <QCheckBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using stampede::ItemKind;

namespace {

QString data(const char* name)
{
    return qEnvironmentVariable("STAMPEDE_SOURCE_DIR") + QStringLiteral("/tests/widgets/data/") + QLatin1String(name);
}

// The test `name` of request row `r`: {passed, failed, message}.
struct TestRow
{
    quint64 passed = 0, failed = 0;
    QString message, result;
};
TestRow testOf(const CollectionResultsModel& m, int r, const QString& name)
{
    const QModelIndex req = m.index(r, 0);
    for (int t = 0; t < m.rowCount(req); ++t)
        if (m.index(t, CollectionResultsModel::Name, req).data().toString() == name)
            return {m.index(t, CollectionResultsModel::Passed, req).data().toULongLong(),
                    m.index(t, CollectionResultsModel::Failed, req).data().toULongLong(),
                    m.index(t, CollectionResultsModel::Message, req).data().toString(),
                    m.index(t, CollectionResultsModel::Result, req).data().toString()};
    return {~0ull, ~0ull, QStringLiteral("no test named ") + name, {}};
}

} // namespace

class TestCollectionRunner : public QObject
{
    Q_OBJECT

    // A project with the Runner collection imported and an environment "Local" pointing at `url`;
    // the collection's id.
    qint64 setUp(MainWindow& w, const QTemporaryDir& dir, const QString& url)
    {
        if (!w.newProject(dir.filePath(QStringLiteral("runner.stampede"))))
            return 0;
        QString report;
        if (!w.importCollectionFile(data("runner.postman_collection.json"), &report))
            return 0;
        const QModelIndex env = w.treeModel()->addItem({}, ItemKind::Environment, QStringLiteral("Local"));
        w.treeModel()->setPayload(env, QStringLiteral("{\"base\": \"%1\"}").arg(url).toUtf8());
        for (int r = 0; r < w.treeModel()->rowCount(); ++r) {
            const QModelIndex i = w.treeModel()->index(r, 0);
            if (i.data().toString() == QLatin1String("Runner") &&
                i.data(ProjectTreeModel::KindRole).toInt() == int(ItemKind::Collection))
                return i.data(ProjectTreeModel::IdRole).toLongLong();
        }
        return 0;
    }

    static RunSession* waitForRun(MainWindow& w, int runs)
    {
        const auto sessions = w.findChildren<RunSession*>();
        if (sessions.size() != runs)
            return nullptr;
        RunSession* s = sessions.back();
        QSignalSpy finished(s, &RunSession::finished);
        if (s->isRunning() && !finished.wait(60000))
            return nullptr;
        return s;
    }

private Q_SLOTS:
    // Two iterations from the data file, every request sent in order whatever failed; each test counted with
    // its message; the verdict the run's own (FAILED: a test failed), in the view and in the saved report.
    void runsEveryRequestAndListsEachTest()
    {
        testsupport::RecordingServer server;
        QTemporaryDir dir;
        MainWindow w;
        const qint64 id = setUp(w, dir, server.url());
        QVERIFY(id);
        CollectionRunChoice choice;
        choice.environment = QStringLiteral("Local");
        choice.dataFile = data("runner-data.csv");
        QString error;
        QVERIFY2(w.runCollection(id, choice, &error), qPrintable(error));
        auto* view = w.findChild<CollectionRunView*>();
        QVERIFY(view);
        const CollectionResultsModel& m = *view->results();
        QCOMPARE(m.requestCount(), 3);
        QCOMPARE(m.requestPath(1), QStringLiteral("Shop / Admin / create"));
        QVERIFY(!m.judged());
        QVERIFY(waitForRun(w, 1));
        QTRY_VERIFY(m.judged());
        // the wire: a row an iteration, each iteration's requests in order, the failed test stopping nothing
        QStringList lines;
        for (const auto& r : server.requests())
            lines << QString::fromStdString(r.line);
        QCOMPARE(lines,
                 QStringList({QStringLiteral("GET /list?user=ann HTTP/1.1"), QStringLiteral("POST /create HTTP/1.1"),
                              QStringLiteral("GET /after HTTP/1.1"), QStringLiteral("GET /list?user=bob HTTP/1.1"),
                              QStringLiteral("POST /create HTTP/1.1"), QStringLiteral("GET /after HTTP/1.1")}));
        QCOMPARE(server.requests()[1].body, std::string("{\"user\": \"ann\"}"));
        // each test, its counts and why it failed, as chai says it
        QCOMPARE(testOf(m, 0, QStringLiteral("status is 200")).passed, 2u);
        QCOMPARE(testOf(m, 0, QStringLiteral("code is 0")).passed, 2u);
        const TestRow created = testOf(m, 1, QStringLiteral("created"));
        QCOMPARE(created.failed, 2u);
        QCOMPARE(created.passed, 0u);
        QCOMPARE(created.message, QStringLiteral("expected response to have status code 201 but got 200"));
        QCOMPARE(testOf(m, 2, QStringLiteral("user ann")).passed, 1u);
        QCOMPARE(testOf(m, 2, QStringLiteral("user bob")).passed, 1u);
        QCOMPARE(m.testCount(), 5);
        QCOMPARE(m.testsFailed(), 1);
        QCOMPARE(m.index(1, CollectionResultsModel::Sent).data().toULongLong(), 2u);
        QVERIFY(m.index(1, 0).data(CollectionResultsModel::FailedRole).toBool());
        QVERIFY(!m.index(0, 0).data(CollectionResultsModel::FailedRole).toBool());
        QCOMPARE(m.index(1, CollectionResultsModel::Result).data().toString(), QStringLiteral("failed: 1 of 1 tests"));
        QVERIFY(!m.passed());
        QVERIFY2(view->statusText() == QStringLiteral("Requests sent: 3 of 3 · tests: 5, failed: 1"),
                 qPrintable(view->statusText()));
        QCOMPARE(view->findChild<QLabel*>(QStringLiteral("collectionVerdict"))->text(), QStringLiteral("FAILED"));
        // "Failures only" leaves the failed request and its failed test
        view->findChild<QCheckBox*>()->setChecked(true);
        QAbstractItemModel* shown = view->tree()->model();
        QCOMPARE(shown->rowCount(), 1);
        QCOMPARE(shown->index(0, 0).data().toString(), QStringLiteral("Shop / Admin / create"));
        QCOMPARE(shown->rowCount(shown->index(0, 0)), 1);
        // the saved run lists the same, judged the same
        QVERIFY(w.openRunReport(0));
        auto* report = w.findChild<ReportView*>();
        QVERIFY(report);
        auto* saved = report->findChild<CollectionRunView*>();
        QVERIFY(saved);
        const CollectionResultsModel& s = *saved->results();
        QCOMPARE(s.requestCount(), 3);
        QCOMPARE(s.requestPath(1), QStringLiteral("Shop / Admin / create"));
        QCOMPARE(testOf(s, 1, QStringLiteral("created")).message, created.message);
        QCOMPARE(testOf(s, 2, QStringLiteral("user bob")).passed, 1u);
        QCOMPARE(s.testsFailed(), 1);
        QVERIFY(s.judged() && !s.passed());
    }

    // Stop at the first failure: the request after the failed test is never sent, and says so.
    void bailStopsAtTheFirstFailure()
    {
        testsupport::RecordingServer server;
        QTemporaryDir dir;
        MainWindow w;
        const qint64 id = setUp(w, dir, server.url());
        QVERIFY(id);
        CollectionRunChoice choice;
        choice.environment = QStringLiteral("Local");
        choice.iterations = 3;
        choice.bail = true;
        QString error;
        QVERIFY2(w.runCollection(id, choice, &error), qPrintable(error));
        QVERIFY(waitForRun(w, 1));
        const CollectionResultsModel& m = *w.findChild<CollectionRunView*>()->results();
        QTRY_VERIFY(m.judged());
        QStringList lines;
        for (const auto& r : server.requests())
            lines << QString::fromStdString(r.line);
        QCOMPARE(lines, QStringList({QStringLiteral("GET /list?user=%7B%7Buser%7D%7D HTTP/1.1"),
                                     QStringLiteral("POST /create HTTP/1.1")})); // create's test failed
        QCOMPARE(m.index(2, CollectionResultsModel::Sent).data().toULongLong(), 0u);
        QCOMPARE(m.index(2, CollectionResultsModel::Result).data().toString(), QStringLiteral("not sent"));
        QVERIFY(!m.passed());
    }

    // A folder runs alone; with every test passing the run passes.
    void aFolderRunsAloneAndPasses()
    {
        testsupport::RecordingServer server;
        QTemporaryDir dir;
        MainWindow w;
        const qint64 id = setUp(w, dir, server.url());
        QVERIFY(id);
        const QModelIndex shop = w.treeModel()->index(0, 0, w.treeModel()->indexForId(id));
        QCOMPARE(shop.data().toString(), QStringLiteral("Shop"));
        const QModelIndex list = w.treeModel()->index(0, 0, shop);
        QCOMPARE(list.data().toString(), QStringLiteral("list"));
        // a request stands for the folder it is in
        w.treeModel()->removeItem(w.treeModel()->index(1, 0, shop)); // Admin (its failing test) goes
        CollectionRunChoice choice;
        choice.environment = QStringLiteral("Local");
        choice.delayMs = 50;
        QString error;
        QVERIFY2(w.runCollection(list.data(ProjectTreeModel::IdRole).toLongLong(), choice, &error), qPrintable(error));
        QVERIFY(waitForRun(w, 1));
        const CollectionResultsModel& m = *w.findChild<CollectionRunView*>()->results();
        QTRY_VERIFY(m.judged());
        QCOMPARE(m.requestCount(), 1);
        QCOMPARE(m.requestPath(0), QStringLiteral("Shop / list"));
        QCOMPARE(server.requests().size(), std::size_t(1));
        QVERIFY2(m.passed(), qPrintable(m.reason()));
        QCOMPARE(w.findChild<CollectionRunView*>()->findChild<QLabel*>(QStringLiteral("collectionVerdict"))->text(),
                 QStringLiteral("PASSED"));
    }

    // A data file that cannot be read never runs as if there were none: the dialog's Run is off, and a run is
    // refused with the file's line; an item that is no collection is refused.
    void badInputIsRefused()
    {
        testsupport::RecordingServer server;
        QTemporaryDir dir;
        MainWindow w;
        const qint64 id = setUp(w, dir, server.url());
        QVERIFY(id);
        CollectionRunChoice choice;
        choice.dataFile = data("runner-bad.csv");
        QString error;
        QVERIFY(!w.runCollection(id, choice, &error));
        QVERIFY2(error.contains(QLatin1String("runner-bad.csv")) && error.contains(QLatin1String("line")),
                 qPrintable(error));
        choice.dataFile = dir.filePath(QStringLiteral("missing.csv"));
        QVERIFY(!w.runCollection(id, choice, &error));
        QVERIFY2(error.contains(QLatin1String("missing.csv")), qPrintable(error));
        QVERIFY(!w.runCollection(0, {}, &error));
        QVERIFY(w.findChildren<RunSession*>().isEmpty());
        QVERIFY(server.requests().empty());

        CollectionRunDialog dialog(QStringLiteral("Runner"), {QStringLiteral("Local")}, QStringLiteral("Local"));
        auto* run = [&] {
            for (auto* b : dialog.findChildren<QPushButton*>())
                if (b->text() == QLatin1String("Run"))
                    return b;
            return static_cast<QPushButton*>(nullptr);
        }();
        QVERIFY(run);
        QVERIFY(dialog.setDataFile(data("runner-data.csv")));
        QCOMPARE(dialog.findChild<QSpinBox*>(QStringLiteral("runIterations"))->value(), 2); // a row an iteration
        QVERIFY2(dialog.dataStatus() == QStringLiteral("Rows: 2 · columns: user"), qPrintable(dialog.dataStatus()));
        QVERIFY(run->isEnabled());
        QCOMPARE(dialog.choice().environment, QStringLiteral("Local"));
        QCOMPARE(dialog.choice().iterations, 2);
        QVERIFY(!dialog.setDataFile(data("runner-bad.csv")));
        QVERIFY(!run->isEnabled());
        QVERIFY(dialog.setDataFile(QString()));
        QVERIFY(run->isEnabled());
    }
};

QTEST_MAIN(TestCollectionRunner)
#include "tst_collectionrunner.moc"
