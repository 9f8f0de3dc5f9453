#include "projecttreemodel.h"
#include "store/projectstore.h"
#include "store/runlog.h"

#include <QAbstractItemModelTester>
#include <QIcon>
#include <QImage>
#include <QMimeData>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using stampede::ItemKind;
using stampede::ProjectStore;

class TestProjectTreeModel : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<ProjectStore> m_store;

private slots:
    // One wording of a run's status for the tree, the report's title, the
    // dashboard and the recent projects (translated there, never the raw key).
    void statusWords()
    {
        QCOMPARE(ProjectTreeModel::statusText("completed"), QStringLiteral("completed"));
        QCOMPARE(ProjectTreeModel::statusText("stopped_by_breaker"), QStringLiteral("stopped by the breaker"));
        QCOMPARE(ProjectTreeModel::statusText("failed"), QStringLiteral("failed"));
        QCOMPARE(ProjectTreeModel::statusText("something new"), QStringLiteral("something new"));
    }

    void init()
    {
        QFile::remove(m_dir.filePath(QStringLiteral("t.stampede")));
        std::string error;
        m_store = ProjectStore::create(m_dir.filePath(QStringLiteral("t.stampede")).toStdString(), error);
        QVERIFY(m_store);
        const auto coll = m_store->addItem(0, ItemKind::Collection, "API", "{}");
        m_store->addItem(coll, ItemKind::Request, "one", "{}");
        m_store->addItem(coll, ItemKind::Request, "two", "{}");
        m_store->addItem(0, ItemKind::Environment, "dev", "{}");
    }
    void cleanup() { m_store.reset(); }

    // Issue 52: a new item's default name is one no item has yet
    void newNamesAreUnique()
    {
        ProjectTreeModel m;
        m.setStore(m_store.get());
        QCOMPARE(m.uniqueName(QStringLiteral("New request")), QStringLiteral("New request"));
        const QModelIndex c = m.addItem({}, stampede::ItemKind::Collection, QStringLiteral("New request"));
        QVERIFY(c.isValid());
        m.addItem(c, stampede::ItemKind::Request, QStringLiteral("New request 2"));
        QCOMPARE(m.uniqueName(QStringLiteral("New request")), QStringLiteral("New request 3"));
        QCOMPARE(m.uniqueName(QStringLiteral("login")), QStringLiteral("login"));
    }

    void editsGoToTheStore()
    {
        ProjectTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setStore(m_store.get());
        QCOMPARE(model.rowCount(), 3); // API, an environment, and the Runs branch
        const QModelIndex api = model.index(0, 0);
        QCOMPARE(model.data(api).toString(), QStringLiteral("API"));
        QCOMPARE(model.rowCount(api), 2);
        QCOMPARE(model.rowCount(model.index(1, 0)), 0); // an environment has no children

        QVERIFY(model.setData(model.index(0, 0, api), QStringLiteral("first")));
        QCOMPARE(m_store->children(api.data(ProjectTreeModel::IdRole).toLongLong())[0].name, std::string("first"));

        const QModelIndex folder = model.addItem(api, ItemKind::Folder, QStringLiteral("Orders"));
        QVERIFY(folder.isValid());
        const QModelIndex req = model.addItem(folder, ItemKind::Request, QStringLiteral("create"),
                                              QByteArrayLiteral("{\"method\": \"POST\"}"));
        QVERIFY(req.isValid());
        QCOMPARE(model.rowCount(folder), 1);
        QCOMPARE(req.data(ProjectTreeModel::PayloadRole).toByteArray(), QByteArrayLiteral("{\"method\": \"POST\"}"));

        QSignalSpy failed(&model, &ProjectTreeModel::editFailed);
        QVERIFY(!model.addItem(model.index(1, 0), ItemKind::Request, QStringLiteral("x")).isValid());
        QCOMPARE(failed.count(), 1);

        const QModelIndex copy = model.duplicateItem(folder);
        QVERIFY(copy.isValid());
        QCOMPARE(copy.data().toString(), QStringLiteral("Orders copy"));
        QCOMPARE(model.rowCount(copy), 1);

        QVERIFY(model.setPayload(req, QByteArrayLiteral("{}")));
        QVERIFY(model.removeItem(copy));
        QCOMPARE(model.rowCount(api), 3);
        QCOMPARE(m_store->count(), 6);
    }

    void dragAndDropMoves()
    {
        ProjectTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setStore(m_store.get());
        const QModelIndex api = model.index(0, 0);
        const QModelIndex folder = model.addItem(api, ItemKind::Folder, QStringLiteral("F"));
        std::unique_ptr<QMimeData> mime(model.mimeData({model.index(1, 0, api)})); // "two"
        QVERIFY(model.canDropMimeData(mime.get(), Qt::MoveAction, 0, 0, folder));
        // a request cannot go to the root
        QVERIFY(!model.canDropMimeData(mime.get(), Qt::MoveAction, 0, 0, QModelIndex()));
        model.dropMimeData(mime.get(), Qt::MoveAction, 0, 0, folder);
        const QModelIndex api2 = model.index(0, 0);
        QCOMPARE(model.rowCount(api2), 2); // one, F
        const QModelIndex f2 = model.index(1, 0, api2);
        QCOMPARE(f2.data().toString(), QStringLiteral("F"));
        QCOMPARE(model.rowCount(f2), 1);
        QCOMPARE(model.index(0, 0, f2).data().toString(), QStringLiteral("two"));
        QVERIFY(model.indexForId(model.index(0, 0, f2).data(ProjectTreeModel::IdRole).toLongLong()).isValid());
    }

    void undoAndRedoEveryStructureEdit()
    {
        ProjectTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setStore(m_store.get());
        QUndoStack* undo = model.undoStack();
        const QModelIndex api = model.index(0, 0);
        const QModelIndex folder = model.addItem(api, ItemKind::Folder, QStringLiteral("Orders"));
        model.addItem(folder, ItemKind::Request, QStringLiteral("create"), QByteArrayLiteral("{\"m\": 1}"));
        QVERIFY(model.setData(model.index(0, 0, model.index(0, 0)), QStringLiteral("first")));
        QVERIFY(model.removeItem(model.indexForId(m_store->search("Orders")[0].id)));
        QCOMPARE(undo->count(), 4);
        QCOMPARE(m_store->count(), 4);
        QVERIFY(m_store->search("create").empty());

        undo->undo(); // the delete: the folder comes back with its request and payload
        QCOMPARE(m_store->count(), 6);
        const auto back = m_store->search("create");
        QCOMPARE(back.size(), std::size_t(1));
        QCOMPARE(back[0].payload, std::string("{\"m\": 1}"));
        undo->undo(); // the rename
        QCOMPARE(m_store->children(m_store->children(0)[0].id)[0].name, std::string("one"));
        undo->undo(); // the request's add (it was given a new id by the restore: found by alias)
        QVERIFY(m_store->search("create").empty());
        undo->undo(); // the folder's add
        QCOMPARE(m_store->count(), 4);
        QCOMPARE(model.rowCount(model.index(0, 0)), 2);

        undo->redo();
        undo->redo();
        undo->redo();
        undo->redo();
        QCOMPARE(m_store->count(), 4); // added, added, renamed, deleted again
        QCOMPARE(m_store->search("first").size(), std::size_t(1));
        QVERIFY(m_store->search("Orders").empty());

        // a refused edit is not kept for undo
        const int before = undo->count();
        QVERIFY(!model.addItem(model.index(1, 0), ItemKind::Request, QStringLiteral("nope")).isValid());
        QCOMPARE(undo->count(), before);
        // moves undo too
        const QModelIndex two = model.index(1, 0, model.index(0, 0));
        QVERIFY(model.moveItem(two, model.index(0, 0), 0));
        QCOMPARE(m_store->children(m_store->children(0)[0].id)[0].name, std::string("two"));
        undo->undo();
        QCOMPARE(m_store->children(m_store->children(0)[0].id)[0].name, std::string("first"));
    }

    void runsAreListedLast()
    {
        ProjectTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setStore(m_store.get());
        const QModelIndex runs = model.runsIndex();
        QCOMPARE(runs.row(), model.rowCount() - 1);
        QCOMPARE(model.rowCount(runs), 0);
        QCOMPARE(runs.data(ProjectTreeModel::KindRole).toInt(), -1);
        QVERIFY(!(model.flags(runs) & Qt::ItemIsEditable));
        QVERIFY(!(model.flags(runs) & Qt::ItemIsDropEnabled));

        stampede::RunLog log(*m_store);
        const auto first = log.begin("st-1", "checkout", "{}", "{}", {}, {"home"});
        const auto second = log.begin("st-2", "search", "{}", "{}", {}, {"home"});
        log.finish(first, "completed", "{}");
        model.refreshRuns();
        QCOMPARE(model.rowCount(runs), 2);
        const QModelIndex newest = model.index(0, 0, runs);
        QCOMPARE(newest.data(ProjectTreeModel::RunRole).toLongLong(), qint64(second));
        QVERIFY(newest.data().toString().contains(QLatin1String("search")));
        QVERIFY(newest.data().toString().contains(QLatin1String("running")));
        QVERIFY(model.index(1, 0, runs).data().toString().contains(QLatin1String("completed")));
        // once a run has its stored verdict, the tree shows it, as the exit code and the report do
        log.finish(second, "completed",
                   "{\"passed\": false, \"reason\": \"no request succeeded (12 failed)\", \"duration_s\": 2}");
        log.finish(first, "completed", "{\"passed\": true, \"duration_s\": 2}");
        model.refreshRuns();
        QVERIFY2(model.index(0, 0, runs).data().toString().endsWith(QLatin1String("not passed")),
                 qPrintable(model.index(0, 0, runs).data().toString()));
        QVERIFY(
            model.index(0, 0, runs).data(Qt::ToolTipRole).toString().contains(QLatin1String("no request succeeded")));
        QVERIFY(model.index(1, 0, runs).data().toString().endsWith(QLatin1String("passed")));
        const QImage failedIcon = model.index(0, 0, runs).data(Qt::DecorationRole).value<QIcon>().pixmap(32).toImage();
        const QImage passedIcon = model.index(1, 0, runs).data(Qt::DecorationRole).value<QIcon>().pixmap(32).toImage();
        QVERIFY(failedIcon.pixelColor(16, 16).red() > failedIcon.pixelColor(16, 16).green()); // red
        QVERIFY(passedIcon.pixelColor(16, 16).green() > passedIcon.pixelColor(16, 16).red()); // green
        // the refresh replaced the rows: an index taken before it is stale (make asan read a freed node through
        // it), so the newest run's row is taken again
        const QModelIndex run = model.index(0, 0, runs);
        QCOMPARE(run.parent(), runs);
        // runs are not items: no rename, no delete, no drag, no drop into them
        QVERIFY(!model.setData(run, QStringLiteral("x")));
        QVERIFY(!model.removeItem(run));
        QVERIFY(!(model.flags(run) & Qt::ItemIsDragEnabled));
        std::unique_ptr<QMimeData> mime(model.mimeData({model.index(0, 0)}));
        QVERIFY(!model.canDropMimeData(mime.get(), Qt::MoveAction, 0, 0, runs));
        // a new collection goes above the branch, which stays last
        const QModelIndex added = model.addItem({}, ItemKind::Collection, QStringLiteral("More"));
        QVERIFY(added.isValid());
        QCOMPARE(model.runsIndex().row(), model.rowCount() - 1);
        QCOMPARE(model.rowCount(model.runsIndex()), 2);
    }

    void emptyWithoutAStore()
    {
        ProjectTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(!model.addItem({}, ItemKind::Collection, QStringLiteral("x")).isValid());
    }
};

QTEST_MAIN(TestProjectTreeModel) // a GUI application: the run icons are drawn
#include "tst_projecttreemodel.moc"
