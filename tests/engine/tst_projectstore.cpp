#include "store/projectstore.h"
#include "store/runlog.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <sqlite3.h>

using namespace stampede;

namespace {
QByteArray digest(const QString& path)
{
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}
void sql(const QString& path, const char* statements)
{
    sqlite3* db = nullptr;
    sqlite3_open(path.toUtf8().constData(), &db);
    sqlite3_exec(db, statements, nullptr, nullptr, nullptr);
    sqlite3_close(db);
}
} // namespace

class TestProjectStore : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString path(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }
    static QString fixture()
    {
        return qEnvironmentVariable("STAMPEDE_SOURCE_DIR") + QStringLiteral("/tests/engine/data/project-v4.stampede");
    }

private slots:
    void roundTripOfEveryEntity()
    {
        std::string error;
        const std::string file = path("round.stampede").toStdString();
        {
            auto p = ProjectStore::create(file, error);
            QVERIFY2(p, error.c_str());
            const auto coll = p->addItem(0, ItemKind::Collection, "Shop API", "{}");
            const auto folder = p->addItem(coll, ItemKind::Folder, "Orders", "{}");
            const auto req = p->addItem(folder, ItemKind::Request, "Create order",
                                        "{\"method\": \"POST\", \"url\": \"${base}/orders\"}");
            QVERIFY(p->addItem(coll, ItemKind::Request, "Home", "{\"url\": \"${base}/\"}"));
            QVERIFY(p->addItem(0, ItemKind::Scenario, "Checkout", "{\"name\": \"checkout\"}"));
            QVERIFY(p->addItem(0, ItemKind::DataSet, "users", "{\"csv\": \"id\\n1\\n\"}"));
            QVERIFY(p->addItem(0, ItemKind::Environment, "staging", "{\"base\": \"http://127.0.0.1\"}"));
            QVERIFY(p->rename(req, "Create an order"));
            QVERIFY(p->setPayload(req, "{\"method\": \"PUT\"}"));
            QVERIFY(p->setSetting("environment", "staging"));
            const auto copy = p->duplicate(folder);
            QVERIFY(copy);
            QCOMPARE(p->children(copy).size(), std::size_t(1));
            QCOMPARE(p->count(), 9);
        }
        auto p = ProjectStore::open(file, error);
        QVERIFY2(p, error.c_str());
        const auto root = p->children(0);
        QCOMPARE(root.size(), std::size_t(4));
        QCOMPARE(root[0].name, std::string("Shop API"));
        QCOMPARE(root[1].kind, ItemKind::Scenario);
        QCOMPARE(root[2].payload, std::string("{\"csv\": \"id\\n1\\n\"}"));
        QCOMPARE(root[3].kind, ItemKind::Environment);
        const auto inColl = p->children(root[0].id);
        QCOMPARE(inColl.size(), std::size_t(3));
        QCOMPARE(inColl[0].name, std::string("Orders"));
        QCOMPARE(inColl[1].name, std::string("Orders copy")); // next to the original
        QCOMPARE(inColl[2].name, std::string("Home"));
        const auto reqs = p->children(inColl[0].id);
        QCOMPARE(reqs[0].name, std::string("Create an order"));
        QCOMPARE(reqs[0].payload, std::string("{\"method\": \"PUT\"}"));
        QCOMPARE(p->setting("environment"), std::string("staging"));
        QCOMPARE(p->search("ORDER").size(), std::size_t(4)); // 2 folders, 2 requests
        // move the request out of the copy to the end of the collection, then delete the copy
        QVERIFY(p->move(p->children(inColl[1].id)[0].id, root[0].id, -1));
        QCOMPARE(p->children(root[0].id).back().name, std::string("Create an order"));
        QVERIFY(p->remove(inColl[1].id));
        QCOMPARE(p->children(root[0].id).size(), std::size_t(3));
        QCOMPARE(p->count(), 8);
    }

    // The welcome page's peek: the newest run, read while the project is
    // open (and locked) elsewhere, without changing the file.
    void peeksTheNewestRun()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("p.stampede")).toStdString();
        std::string error;
        auto store = ProjectStore::create(path, error);
        QVERIFY(store);
        auto peek = ProjectStore::peekLastRun(path);
        QVERIFY(peek.project && !peek.any);
        RunLog log(*store);
        QVERIFY(log.begin("st-1", "first", "{}", "{}", {}, {"a"}, {{}}));
        QVERIFY(log.begin("st-2", "second", "{}", "{}", {}, {"a"}, {{}}));
        peek = ProjectStore::peekLastRun(path); // the project is still open here
        QVERIFY(peek.project && peek.any);
        QCOMPARE(peek.name, std::string("second"));
        QCOMPARE(peek.status, std::string("running"));
        QVERIFY(!peek.started.empty());
        const QString other = dir.filePath(QStringLiteral("notes.txt"));
        QFile f(other);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a project");
        f.close();
        QVERIFY(!ProjectStore::peekLastRun(other.toStdString()).project);
        QVERIFY(!ProjectStore::peekLastRun(dir.filePath(QStringLiteral("absent")).toStdString()).project);
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("absent")))); // read-only: nothing made
    }

    void refusesWhatCannotBe()
    {
        std::string error;
        auto p = ProjectStore::create(path("rules.stampede").toStdString(), error);
        QVERIFY(p);
        QCOMPARE(p->addItem(0, ItemKind::Request, "loose", "{}"), 0);
        QCOMPARE(QString::fromStdString(p->lastError()),
                 QStringLiteral("a request cannot be placed in the project root"));
        const auto sc = p->addItem(0, ItemKind::Scenario, "s", "{}");
        QCOMPARE(p->addItem(sc, ItemKind::Request, "r", "{}"), 0);
        const auto coll = p->addItem(0, ItemKind::Collection, "c", "{}");
        const auto folder = p->addItem(coll, ItemKind::Folder, "f", "{}");
        QVERIFY(!p->move(coll, folder, 0)); // not into itself
        QVERIFY(!p->move(folder, folder, 0));
        QVERIFY(!p->rename(coll, ""));
        QVERIFY(!p->setPayload(9999, "{}"));
        QVERIFY(!ProjectStore::create(path("rules.stampede").toStdString(), error)); // never overwrites
    }

    void migratesVersion1AfterABackup()
    {
        const QString file = path("v1.stampede");
        sql(file, "PRAGMA application_id = 1398033744;"
                  "CREATE TABLE items(id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL DEFAULT 0, kind TEXT NOT NULL,"
                  " name TEXT NOT NULL, payload TEXT NOT NULL DEFAULT '{}');"
                  "INSERT INTO items(id, parent_id, kind, name, payload) VALUES (1, 0, 'collection', 'Old API', '{}'),"
                  " (2, 1, 'request', 'second', '{\"url\": \"http://a/2\"}'), (3, 1, 'request', 'third', '{}');"
                  "PRAGMA user_version = 1;");
        const QByteArray before = digest(file);
        std::string error;
        auto p = ProjectStore::open(file.toStdString(), error);
        QVERIFY2(p, error.c_str());
        QCOMPARE(p->schemaVersion(), ProjectStore::kSchemaVersion);
        QVERIFY(QFile::exists(file + QStringLiteral(".v1.bak")));
        QCOMPARE(digest(file + QStringLiteral(".v1.bak")), before);
        const auto reqs = p->children(1);
        QCOMPARE(reqs.size(), std::size_t(2));
        QCOMPARE(reqs[0].payload, std::string("{\"url\": \"http://a/2\"}"));
        QVERIFY(p->setSetting("k", "v")); // the new table exists
        QVERIFY(p->addItem(1, ItemKind::Request, "new", "{}"));
    }

    // A run whose rows cannot be read is an error saying why, not an empty run.
    void unreadableRunsSayWhy()
    {
        const QString file = path("damaged.stampede");
        std::string error;
        auto p = ProjectStore::create(file.toStdString(), error);
        QVERIFY2(p, error.c_str());
        stampede::RunLog log(*p);
        const auto run = log.begin("st-2", "r", "{}", "{}", {}, {"home"});
        stampede::IntervalMetrics second;
        second.second = 1;
        second.steps.resize(1);
        second.steps[0].counters.requests = 3;
        QVERIFY2(log.appendSecond(run, second), log.error().c_str());
        QVERIFY(log.load(run));
        p.reset();
        sql(file, "DROP TABLE run_samples;");
        p = ProjectStore::open(file.toStdString(), error);
        QVERIFY2(p, error.c_str());
        stampede::RunLog again(*p);
        QVERIFY(!again.load(run));
        QVERIFY2(again.error().find("cannot read the error samples of run") != std::string::npos &&
                     again.error().find("no such table: run_samples") != std::string::npos,
                 again.error().c_str());
        QVERIFY(!again.load(run + 100));
        QCOMPARE(again.error(), "no run " + std::to_string(run + 100));
    }

    // A project written by the previous version (project-v4.stampede: the demo
    // scenario on two local engines with two 5xx answers, then a gRPC run with
    // UNAVAILABLE injected) opens, keeps its runs, and is upgraded in one
    // transaction after a backup.
    void version4ProjectIsUpgradedWithItsRuns()
    {
        const QString file = path("v4.stampede");
        QVERIFY(QFile::copy(fixture(), file));
        QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner);
        const QByteArray before = digest(file);
        std::string error;
        auto p = ProjectStore::open(file.toStdString(), error);
        QVERIFY2(p, error.c_str());
        QCOMPARE(p->schemaVersion(), ProjectStore::kSchemaVersion);
        QCOMPARE(digest(file + QStringLiteral(".v4.bak")), before);
        stampede::RunLog log(*p);
        const auto runs = log.runs();
        QCOMPARE(runs.size(), std::size_t(2));
        QCOMPARE(runs[0].status, std::string("completed"));
        QCOMPARE(runs[0].lastSecond, 4u);

        const auto demo = log.load(runs[0].id);
        QVERIFY2(demo, log.error().c_str());
        QCOMPARE(demo->stepNames, (std::vector<std::string>{"home", "login", "search", "order"}));
        QCOMPARE(demo->agents.size(), std::size_t(2));
        StepCounters total;
        for (const auto& st : demo->total.steps)
            total.merge(st.counters);
        QCOMPARE(total.requests, std::uint64_t(4000));
        QCOMPARE(total.errorsByClass[std::size_t(ErrorClass::Http5xx)], std::uint64_t(2));
        QCOMPARE(total.errors, std::uint64_t(2));
        QCOMPARE(total.connects, std::uint64_t(28)); // from the positional `connections` column
        QVERIFY(total.connectNanos > 0);
        QCOMPARE(demo->total.steps[0].latency.count(), std::uint64_t(1000));
        QVERIFY(!demo->agentRows.empty());
        QVERIFY(demo->summaryJson.find("\"run_id\"") != std::string::npos);

        const auto grpc = log.load(runs[1].id);
        QVERIFY2(grpc, log.error().c_str());
        QCOMPARE(grpc->total.steps[0].counters.grpcCodes[14], std::uint64_t(76)); // UNAVAILABLE
        QCOMPARE(grpc->total.steps[0].counters.errorsByClass[std::size_t(ErrorClass::Grpc)], std::uint64_t(76));

        // stored by name now: the counters' columns, and objects for the classes and codes
        sqlite3* db = p->handle();
        auto scalar = [db](const char* q) {
            sqlite3_stmt* st = nullptr;
            sqlite3_prepare_v2(db, q, -1, &st, nullptr);
            std::string out = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0)
                                  ? reinterpret_cast<const char*>(sqlite3_column_text(st, 0))
                                  : "";
            sqlite3_finalize(st);
            return out;
        };
        QCOMPARE(scalar("SELECT count(*) FROM pragma_table_info('run_seconds') WHERE name = 'connections'"),
                 std::string("0"));
        QCOMPARE(scalar("SELECT sum(connects) FROM run_seconds WHERE run = 1 AND step >= 0 AND agent = ''"),
                 std::string("28"));
        QCOMPARE(scalar("SELECT errors_by_class FROM run_seconds WHERE run = 2 AND step = 0 AND second = 1 AND "
                        "agent = ''")
                     .substr(0, 8),
                 std::string("{\"grpc\":"));
        QVERIFY(scalar("SELECT grpc_codes FROM run_seconds WHERE run = 2 AND step = 0 AND second = 1 AND agent = ''")
                    .find("\"UNAVAILABLE\":") != std::string::npos);
        QCOMPARE(scalar("SELECT grpc_codes FROM run_seconds WHERE run = 1 AND step = 0 AND second = 1 AND agent = ''"),
                 std::string("{}"));

        // and new runs go in beside them
        const auto run = log.begin("st-3", "r", "{}", "{}", {}, {"home"});
        QVERIFY2(run, log.error().c_str());
        stampede::IntervalMetrics second;
        second.second = 1;
        second.steps.resize(1);
        second.steps[0].counters.requests = 7;
        second.steps[0].counters.goaways = 2;
        second.steps[0].counters.addGrpcError(4);
        QVERIFY2(log.appendSecond(run, second), log.error().c_str());
        const auto saved = log.load(run);
        QVERIFY2(saved, log.error().c_str());
        QCOMPARE(saved->total.steps[0].counters.goaways, std::uint64_t(2));
        QCOMPARE(saved->total.steps[0].counters.grpcCodes[4], std::uint64_t(1));
    }

    // Files written early in version 4 lack the `connections` and `grpc_codes` columns.
    void earlyVersion4FilesGetTheConnectionsColumn()
    {
        const QString file = path("v4early.stampede");
        QVERIFY(QFile::copy(fixture(), file));
        QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner);
        sql(file, "ALTER TABLE run_seconds DROP COLUMN connections; ALTER TABLE run_seconds DROP COLUMN grpc_codes;");
        std::string error;
        auto p = ProjectStore::open(file.toStdString(), error);
        QVERIFY2(p, error.c_str());
        stampede::RunLog log(*p);
        QVERIFY2(log.load(1), log.error().c_str());
        const auto run = log.begin("st-1", "r", "{}", "{}", {}, {"home"});
        stampede::IntervalMetrics second;
        second.second = 1;
        second.steps.resize(1);
        second.steps[0].counters.requests = 7;
        QVERIFY2(log.appendSecond(run, second), log.error().c_str());
        const auto saved = log.load(run);
        QVERIFY2(saved, log.error().c_str());
        QCOMPARE(saved->rows.size(), std::size_t(2)); // the step and the total
    }

    void negativeVersionIsRefused()
    {
        const QString file = path("minus.stampede");
        QVERIFY(QFile::copy(fixture(), file));
        QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner);
        sql(file, "PRAGMA user_version = -1;");
        std::string error;
        QVERIFY(!ProjectStore::open(file.toStdString(), error));
        QVERIFY2(error.find("its project version is -1") != std::string::npos, error.c_str());
    }

    void refusedFilesAreLeftUnchanged_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("why");
        QTest::addRow("text file") << 0 << "is not a Stampede project (not an SQLite file)"
                                   << int(ProjectStore::OpenError::NotAProject);
        QTest::addRow("foreign database")
            << 1 << "is an SQLite database, but not a Stampede project" << int(ProjectStore::OpenError::NotAProject);
        QTest::addRow("newer version") << 2 << "was written by a newer Stampede (project version 99"
                                       << int(ProjectStore::OpenError::NewerVersion);
        QTest::addRow("corrupt") << 3 << "is damaged" << int(ProjectStore::OpenError::Corrupt);
    }
    void refusedFilesAreLeftUnchanged()
    {
        QFETCH(int, kind);
        QFETCH(QString, message);
        QFETCH(int, why);
        const QString file = path("refused.stampede");
        QFile::remove(file);
        switch (kind) {
        case 0: {
            QFile f(file);
            f.open(QIODevice::WriteOnly);
            f.write("this is a shopping list, not a project\n");
            break;
        }
        case 1:
            sql(file, "CREATE TABLE t(x); INSERT INTO t VALUES (1);");
            break;
        case 2:
            sql(file, "PRAGMA application_id = 1398033744; CREATE TABLE items(x); PRAGMA user_version = 99;");
            break;
        case 3: {
            std::string error;
            {
                auto p = ProjectStore::create(file.toStdString(), error);
                for (int i = 0; i < 200; ++i)
                    p->addItem(0, ItemKind::Environment, "env " + std::to_string(i), std::string(500, 'x'));
            }
            sql(file, "PRAGMA wal_checkpoint(TRUNCATE);");
            QFile f(file);
            f.open(QIODevice::ReadWrite);
            f.seek(4096); // garble the header of the first b-tree page after the schema
            f.write(QByteArray(200, '\x5a'));
            break;
        }
        }
        const QByteArray before = digest(file);
        std::string error;
        ProjectStore::OpenError reason = ProjectStore::OpenError::None;
        QVERIFY(!ProjectStore::open(file.toStdString(), error, &reason));
        QVERIFY2(QString::fromStdString(error).contains(message), error.c_str());
        QCOMPARE(int(reason), why);
        QCOMPARE(digest(file), before);
        QVERIFY(!QFile::exists(file + QStringLiteral("-wal")) || kind == 3);
    }

    void openingTwiceIsRefused()
    {
        std::string error;
        const std::string file = path("twice.stampede").toStdString();
        auto first = ProjectStore::create(file, error);
        QVERIFY(first);
        ProjectStore::OpenError reason;
        QVERIFY(!ProjectStore::open(file, error, &reason));
        QCOMPARE(reason, ProjectStore::OpenError::Locked);
        QVERIFY(QString::fromStdString(error).contains(QStringLiteral("already open")));
        first.reset();
        QVERIFY(ProjectStore::open(file, error));
    }

    void crashSafety()
    {
        // A writer is killed at random points while it commits edits; after
        // every kill the project is intact and holds the last edit it reported.
        const QString file = path("crash.stampede");
        std::string error;
        ProjectStore::create(file.toStdString(), error).reset();
        const QString writer = QCoreApplication::applicationDirPath() + QStringLiteral("/store_crashwriter");
        long next = 0;
        int kills = 0;
        for (int round = 0; round < 12; ++round) {
            QProcess p;
            p.start(writer, {file, QString::number(next)});
            QVERIFY(p.waitForStarted());
            // killed at a random point after its first committed edit (a slow
            // start, as under a sanitizer, must not leave a round without work)
            p.waitForReadyRead(10000);
            QThread::msleep(QRandomGenerator::global()->bounded(2, 50));
            p.kill();
            p.waitForFinished();
            kills += p.exitStatus() == QProcess::CrashExit;
            const QList<QByteArray> lines = p.readAllStandardOutput().split('\n');
            long last = -1;
            for (const auto& l : lines)
                if (!l.isEmpty())
                    last = l.toLong();
            auto store = ProjectStore::open(file.toStdString(), error); // runs integrity_check
            QVERIFY2(store, error.c_str());
            if (last >= 0) {
                QVERIFY2(!store->search("edit " + std::to_string(last)).empty(), qPrintable(QString::number(last)));
                next = last + 1;
            }
            next = std::max<long>(next, long(store->count()));
        }
        QVERIFY(kills >= 8);
        QVERIFY(next > 50);
    }
};

QTEST_GUILESS_MAIN(TestProjectStore)
#include "tst_projectstore.moc"
