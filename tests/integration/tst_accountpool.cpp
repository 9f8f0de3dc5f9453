// Issue 53: account pools. A data set in CSV_MODE_CHECKOUT is a pool of test
// accounts: each iteration checks out a row no other user holds, on any
// engine, and gives it back when it ends. 10 users on 2 engines draw 5
// accounts: a Python server that sees each account's login and order says no
// account was ever in two iterations at once, and every account was used; a
// pool with no wait fails the iterations it cannot serve, saying why.
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace testsupport;

namespace {

QByteArray scenario(int port, int users, const char* extraCsv)
{
    return QStringLiteral(
               "{\"name\": \"accounts\", \"variables\": [{\"name\": \"acct\", \"csv\": {\"data\": "
               "\"user,password\\nu1,p1\\nu2,p2\\nu3,p3\\nu4,p4\\nu5,p5\\n\", \"mode\": \"CSV_MODE_CHECKOUT\"%1}}], "
               "\"steps\": [{\"name\": \"login\", \"request\": {\"method\": \"GET\", \"url\": "
               "\"http://127.0.0.1:%2/login?acct=${acct.user}\"}}, {\"name\": \"order\", \"request\": {\"method\": "
               "\"GET\", \"url\": \"http://127.0.0.1:%2/order?acct=${acct.user}\"}}], "
               "\"load\": {\"closed\": {\"users\": %3}}, \"connections\": %3, \"threads\": 1}")
        .arg(QString::fromLatin1(extraCsv))
        .arg(port)
        .arg(users)
        .toUtf8();
}

} // namespace

class TestAccountPool : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void tenUsersOnTwoEnginesShareFiveAccounts()
    {
        PeerProcess server(QStringLiteral("/usr/bin/python3"),
                           {sourceDir() + QStringLiteral("/tests/integration/account_server.py")});
        QVERIFY(server.port() > 0);
        const QString file = writeFile(m_dir, "accounts.json", scenario(server.port(), 10, ""));
        const QString summary = m_dir.filePath(QStringLiteral("accounts-summary.json"));
        const CliResult r =
            runCli({QStringLiteral("run"), file, QStringLiteral("-d"), QStringLiteral("4s"), QStringLiteral("-q"),
                    QStringLiteral("--engines"), QStringLiteral("2"), QStringLiteral("--summary-json"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject seen = server.finish();
        QVERIFY2(seen.value(QStringLiteral("clashes")).toArray().isEmpty(),
                 QJsonDocument(seen.value(QStringLiteral("clashes")).toArray()).toJson().constData());
        const QJsonObject logins = seen.value(QStringLiteral("logins")).toObject();
        const QJsonObject orders = seen.value(QStringLiteral("orders")).toObject();
        QCOMPARE(logins.keys(), (QStringList{QStringLiteral("u1"), QStringLiteral("u2"), QStringLiteral("u3"),
                                             QStringLiteral("u4"), QStringLiteral("u5")}));
        qint64 total = 0;
        for (const QString& a : logins.keys()) {
            const int in = logins.value(a).toInt(), out = orders.value(a).toInt();
            QVERIFY2(in > 0 && (in == out || in == out + 1),
                     qPrintable(a + QStringLiteral(": %1 %2").arg(in).arg(out)));
            total += in;
        }
        // never more accounts in use than the pool has; each login held 20 ms, so 5 at most at once
        QVERIFY2(seen.value(QStringLiteral("most_open")).toInt() <= 5, qPrintable(QString::number(total)));
        const QJsonObject s = readJson(summary);
        QCOMPARE(s.value(QStringLiteral("total")).toObject()[QStringLiteral("errors")].toInteger(), qint64(0));
        // ten users, five accounts: about half the users wait at any time, so the rate is the pool's (5 x 1/20 ms),
        // not the users'
        QVERIFY2(total > 20, qPrintable(QString::number(total)));
    }

    // A short wait: 30 users on 5 accounts held 20 ms each; an iteration that finds no row free within 10 ms
    // fails, counted at its first step as `extract` (not sent), the sample saying which pool; none clashes.
    void aShortWaitFailsWhatItCannotServe()
    {
        PeerProcess server(QStringLiteral("/usr/bin/python3"),
                           {sourceDir() + QStringLiteral("/tests/integration/account_server.py")});
        QVERIFY(server.port() > 0);
        const QString file =
            writeFile(m_dir, "nowait.json", scenario(server.port(), 30, ", \"checkoutWait\": \"10ms\""));
        const QString summary = m_dir.filePath(QStringLiteral("nowait-summary.json"));
        const QString report = m_dir.filePath(QStringLiteral("nowait.streport"));
        const CliResult r = runCli({QStringLiteral("run"), file, QStringLiteral("-d"), QStringLiteral("2s"),
                                    QStringLiteral("-q"), QStringLiteral("--engines"), QStringLiteral("1"),
                                    QStringLiteral("--summary-json"), summary, QStringLiteral("--report"), report});
        QVERIFY2(r.exitCode == 0 || r.exitCode == 1, qPrintable(r.err));
        const QJsonObject seen = server.finish();
        QVERIFY(seen.value(QStringLiteral("clashes")).toArray().isEmpty());
        const QJsonObject s = readJson(summary);
        const QJsonObject login = s.value(QStringLiteral("steps")).toArray().at(0).toObject();
        QVERIFY2(login[QStringLiteral("errors_by_class")].toObject()[QStringLiteral("extract")].toInteger() > 0,
                 QJsonDocument(login).toJson().constData());
        // a user tries at most once each 10 ms: 30 users in 2 s fail at most 6,000 times, not as fast as it can
        QVERIFY(login[QStringLiteral("errors_by_class")].toObject()[QStringLiteral("extract")].toInteger() <= 6000);
        const QString json = m_dir.filePath(QStringLiteral("nowait-export.json"));
        const CliResult exported =
            runCli({QStringLiteral("report"), QStringLiteral("export"), report, QStringLiteral("--format"),
                    QStringLiteral("json"), QStringLiteral("-o"), json});
        QFile out(json);
        QVERIFY2(out.open(QIODevice::ReadOnly), qPrintable(exported.err));
        QVERIFY2(QString::fromUtf8(out.readAll())
                     .contains(QStringLiteral("no row of the account pool \\\"acct\\\" was free within 10ms")),
                 qPrintable(exported.err));
    }

    // Refused before any load: a wait on a data set that is no pool, a wait out of range.
    void badPoolsAreRefused()
    {
        const QString notPool = writeFile(
            m_dir, "notpool.json",
            QByteArrayLiteral("{\"name\": \"x\", \"variables\": [{\"name\": \"a\", \"csv\": {\"data\": \"u\\n1\\n\", "
                              "\"checkoutWait\": \"1s\"}}], \"steps\": [{\"name\": \"s\", \"request\": {\"url\": "
                              "\"http://127.0.0.1:9/?a=${a.u}\"}}]}"));
        CliResult r = runCli({QStringLiteral("run"), notPool, QStringLiteral("-d"), QStringLiteral("1s")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("csv.checkoutWait")) &&
                     r.err.contains(QStringLiteral("CSV_MODE_CHECKOUT")),
                 qPrintable(r.err));
        const QString tooLong = writeFile(
            m_dir, "toolong.json",
            QByteArrayLiteral("{\"name\": \"x\", \"variables\": [{\"name\": \"a\", \"csv\": {\"data\": \"u\\n1\\n\", "
                              "\"mode\": \"CSV_MODE_CHECKOUT\", \"checkoutWait\": \"0s\"}}], \"steps\": [{\"name\": "
                              "\"s\", \"request\": {\"url\": \"http://127.0.0.1:9/?a=${a.u}\"}}]}"));
        r = runCli({QStringLiteral("run"), tooLong, QStringLiteral("-d"), QStringLiteral("1s")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("from 10ms to 1h")), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestAccountPool)
#include "tst_accountpool.moc"
