// `stampede-cli import` (issue "Traffic replay"): an access log with phone
// numbers, ID numbers and tokens imported with masks — no original reaches
// the project file, and the stored requests carry the same hash for the same
// value; lines that do not parse are reported with their numbers; a HAR file
// imports; bad input exits 2 and leaves no traffic set.
#include "testsupport.h"

#include "store/projectstore.h"
#include "traffic/trafficstore.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <map>
#include <set>

using namespace testsupport;

class TestImport : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void maskedFieldsNeverReachTheProject()
    {
        QByteArray log;
        std::set<std::string> originals;
        for (int i = 0; i < 3000; ++i) {
            const std::string phone = "139" + std::to_string(10000000 + (i % 500) * 7919 % 89999999);
            const std::string id =
                "4403011990" + std::string(i % 2 ? "0101" : "1231") + std::to_string(1000 + i % 900) + "X";
            const std::string token = "tok" + std::to_string(900000 + i * 37);
            originals.insert(phone);
            originals.insert(id);
            originals.insert(token);
            log += QByteArray::fromStdString(
                "10.0.0." + std::to_string(i % 200) + " - - [01/Dec/2026:10:00:" + (i / 100 < 10 ? "0" : "") +
                std::to_string(i / 100) + " +0800] \"GET /api/orders?phone=" + phone + "&id=" + id + "&page=" +
                std::to_string(i % 9) + " HTTP/1.1\" 200 10 \"-\" \"app " + token + "\" \"Bearer " + token + "\"\n");
            if (i == 10 || i == 2000)
                log += "not a log line " + QByteArray::number(i) + "\n";
        }
        const QString file = writeFile(m_dir, "access.log", log);
        const QString project = m_dir.filePath(QStringLiteral("shop.stampede"));
        const auto r = runCli(
            {QStringLiteral("import"), file, QStringLiteral("--project"), project, QStringLiteral("--format"),
             QStringLiteral("log_format main '$remote_addr - $remote_user [$time_local] \"$request\" "
                            "$status $body_bytes_sent \"$http_referer\" \"$http_user_agent\" "
                            "\"$http_authorization\"';"),
             QStringLiteral("--mask"), QStringLiteral("preset:cn-mobile"), QStringLiteral("--mask"),
             QStringLiteral("query:id=hash"), QStringLiteral("--mask"), QStringLiteral("header:user-agent=replace:app"),
             QStringLiteral("--mask"), QStringLiteral("preset:bearer"), QStringLiteral("-q")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("read 3002 lines (2 could not be read); stored 3000 requests")),
                 qPrintable(r.out));
        QVERIFY2(r.err.contains(QStringLiteral("line 12: ")) && r.err.contains(QStringLiteral("line 2003: ")),
                 qPrintable(r.err));
        // the file, WAL included, never holds an original
        QByteArray bytes;
        for (const QString& f : QStringList{project, project + QStringLiteral("-wal")}) {
            QFile in(f);
            if (in.open(QIODevice::ReadOnly))
                bytes += in.readAll();
        }
        for (const auto& o : originals)
            QVERIFY2(!bytes.contains(QByteArray::fromStdString(o)), o.c_str());
        // nor do the requests stored, decompressed; the same phone gives the same hash
        std::string error;
        auto store = stampede::ProjectStore::open(project.toStdString(), error);
        QVERIFY2(store, error.c_str());
        const auto sets = store->children(0);
        QCOMPARE(sets.size(), std::size_t(1));
        std::vector<stampede::TrafficRecord> stored;
        QVERIFY(stampede::TrafficStore(*store).load(sets[0].id, stored));
        QCOMPARE(stored.size(), std::size_t(3000));
        // each line's phone is person (i % 500) of line i, found again by its second and client: line i was
        // sent at second i / 100 from 10.0.0.(i % 200), so (second, client) names one line
        const std::int64_t first = std::min_element(stored.begin(), stored.end(), [](const auto& a, const auto& b) {
                                       return a.atNanos < b.atNanos;
                                   })->atNanos;
        std::map<int, std::set<std::string>> hashesOfPerson;
        std::set<std::string> hashedPhones;
        for (const auto& rec : stored) {
            for (const auto& o : originals)
                QVERIFY2(rec.target.find(o) == std::string::npos, rec.target.c_str());
            for (const auto& [n, v] : rec.headers)
                for (const auto& o : originals)
                    QVERIFY2(v.find(o) == std::string::npos, v.c_str());
            const auto at = rec.target.find("phone=");
            const std::string hashed = rec.target.substr(at + 6, 11);
            hashedPhones.insert(hashed);
            const int second = int((rec.atNanos - first) / 1000000000);
            const int client = std::stoi(rec.client.substr(rec.client.rfind('.') + 1));
            const int line = 100 * second + ((client - 100 * second) % 200 + 200) % 200;
            hashesOfPerson[line % 500].insert(hashed);
        }
        // the same phone gives the same hash, everywhere it was
        QCOMPARE(hashesOfPerson.size(), std::size_t(500));
        for (const auto& [person, hashes] : hashesOfPerson)
            QVERIFY2(hashes.size() == 1, qPrintable(QString::number(person)));
        // and 500 people stay 500 people, but for the keyed hash's rare collision: 8 digits of 11 are hashed (a
        // mobile number keeps its network), so two of 500 phones share one with a chance of 500^2 / 2e8, ~0.1 %
        QVERIFY2(hashedPhones.size() >= 499, qPrintable(QString::number(hashedPhones.size())));
        QVERIFY(stored.front().target.find("&page=") != std::string::npos);
    }

    void harImports()
    {
        const QString project = m_dir.filePath(QStringLiteral("har.stampede"));
        const auto r =
            runCli({QStringLiteral("import"),
                    qEnvironmentVariable("STAMPEDE_SOURCE_DIR") + QStringLiteral("/tests/engine/data/browser.har"),
                    QStringLiteral("--project"), project, QStringLiteral("--name"), QStringLiteral("checkout"),
                    QStringLiteral("--mask"), QStringLiteral("json:pw=hash")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("read 3 lines (1 could not be read); stored 2 requests")),
                 qPrintable(r.out));
        QVERIFY(r.err.contains(QStringLiteral("line 3: entries[2]: startedDateTime")));
        std::string error;
        auto store = stampede::ProjectStore::open(project.toStdString(), error);
        std::vector<stampede::TrafficRecord> stored;
        QVERIFY(stampede::TrafficStore(*store).load(store->children(0).at(0).id, stored));
        QCOMPARE(stored.size(), std::size_t(2));
        QCOMPARE(stored[1].method, std::string("POST"));
        QVERIFY(stored[1].body.find("secret") == std::string::npos);
        QVERIFY(stored[1].body.find("\"user\":\"a\"") != std::string::npos);
    }

    void badInputStoresNothing_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown variable")
            << QStringList{QStringLiteral("--format"), QStringLiteral("$request $nope")} << "unknown variable $nope";
        QTest::newRow("bad mask") << QStringList{QStringLiteral("--mask"), QStringLiteral("query:x=scramble")}
                                  << "the action is hash, drop or replace:TEXT";
        QTest::newRow("nothing readable") << QStringList{QStringLiteral("--format"), QStringLiteral("$msec $request")}
                                          << "nothing to import: none of the 2 lines could be read";
        QTest::newRow("no project") << QStringList{QStringLiteral("--project=")} << "--project";
    }
    void badInputStoresNothing()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const QString file =
            writeFile(m_dir, "two.log",
                      "10.0.0.1 - - [01/Dec/2026:10:00:00 +0800] \"GET / HTTP/1.1\" 200 1 \"-\" \"-\"\n"
                      "10.0.0.1 - - [01/Dec/2026:10:00:01 +0800] \"GET / HTTP/1.1\" 200 1 \"-\" \"-\"\n");
        const QString project =
            m_dir.filePath(QStringLiteral("bad-%1.stampede").arg(QString::fromLatin1(QTest::currentDataTag())));
        const auto r = runCli(QStringList{QStringLiteral("import"), file, QStringLiteral("--project"), project} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(!QFile::exists(project)); // refused before the project was touched
    }
};

QTEST_GUILESS_MAIN(TestImport)
#include "tst_import.moc"
