// Digest authentication against an independent peer: lighttpd from Debian
// (mod_auth, its own nonces and checks), with its access log as the count of
// what it answered 401 and 200. Runs over HTTP/1.1 and HTTP/2 (h2c), and the
// workbench's Send (engine/send/sendonce.h).
#include "send/sendonce.h"
#include "testsupport.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace testsupport;

class TestDigest : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QProcess m_lighttpd;
    int m_port = 0;
    QString m_log;
    int m_seen = 0; // access log lines read

    // The access log's lines since it was last read, by status ("401 GET /md5/x HTTP/1.1"), once it has
    // `expected` of them: lighttpd writes its log about once a second. A second more shows any line too many.
    QMap<QByteArray, int> served(int expected)
    {
        QList<QByteArray> lines;
        const auto read = [&] {
            QFile log(m_log);
            if (!log.open(QIODevice::ReadOnly))
                return;
            lines = log.readAll().split('\n');
            lines.removeAll(QByteArray());
            lines = lines.mid(m_seen);
        };
        for (int i = 0; i < 150 && (read(), lines.size() < expected); ++i)
            QThread::msleep(100);
        QThread::msleep(1200);
        read();
        m_seen += int(lines.size());
        QMap<QByteArray, int> byStatus;
        for (const QByteArray& line : lines)
            ++byStatus[line.left(3)];
        return byStatus;
    }

    QString scenario(const char* name, const QByteArray& path, const QByteArray& password, bool h2, int users,
                     int iterations)
    {
        return writeFile(m_dir, name,
                         "{\"name\": \"digest\", \"http\": \"" + QByteArray(h2 ? "HTTP_2" : "HTTP_1_1") +
                             "\", \"load\": {\"closed\": {\"users\": " + QByteArray::number(users) +
                             "}}, \"iterations\": " + QByteArray::number(iterations) +
                             ", \"steps\": [{\"name\": \"page\", \"request\": {\"url\": \"http://127.0.0.1:" +
                             QByteArray::number(m_port) + path +
                             "\", \"auth\": {\"digest\": {\"user\": \"${user}\", \"password\": \"" + password +
                             "\"}}}, \"checks\": [{\"status\": [200]}]}],"
                             " \"variables\": [{\"name\": \"user\", \"constant\": {\"value\": \"alice\"}}]}");
    }

private slots:
    void initTestCase()
    {
        const QString lighttpd = QStringLiteral("/usr/sbin/lighttpd");
        if (!QFile::exists(lighttpd))
            QFAIL("lighttpd is not installed: run scripts/install-deps.sh");
        m_port = freePort();
        m_log = m_dir.filePath(QStringLiteral("access.log"));
        const QString www = m_dir.filePath(QStringLiteral("www"));
        for (const char* area : {"both", "md5", "sha256"}) {
            QVERIFY(QDir().mkpath(www + QLatin1Char('/') + QLatin1String(area)));
            writeFile(m_dir, QByteArray(QByteArray("www/") + area + "/page.txt").constData(), "secret page\n");
        }
        writeFile(m_dir, "users", "alice:wonder land\n");
        // "both" offers SHA-256 and MD5 as two challenges (lighttpd sends them as two headers over HTTP/1.1,
        // and as one broken field over HTTP/2, which nghttp2 refuses: HTTP/1.1 only)
        const QString conf =
            QStringLiteral(
                "server.document-root = \"%1\"\nserver.port = %2\nserver.bind = \"127.0.0.1\"\n"
                "server.errorlog = \"%3/error.log\"\nserver.modules = (\"mod_auth\", \"mod_authn_file\", "
                "\"mod_accesslog\")\naccesslog.filename = \"%4\"\naccesslog.format = \"%s %r\"\n"
                "auth.backend = \"plain\"\nauth.backend.plain.userfile = \"%3/users\"\n"
                "auth.require = (\n"
                " \"/both/\" => (\"method\" => \"digest\", \"realm\" => \"stampede\", \"require\" => \"valid-user\","
                " \"algorithm\" => \"SHA-256|MD5\"),\n"
                " \"/md5/\" => (\"method\" => \"digest\", \"realm\" => \"md5 area\", \"require\" => \"valid-user\","
                " \"algorithm\" => \"MD5\"),\n"
                " \"/sha256/\" => (\"method\" => \"digest\", \"realm\" => \"sha area\", \"require\" => \"valid-user\","
                " \"algorithm\" => \"SHA-256\"))\n")
                .arg(www)
                .arg(m_port)
                .arg(m_dir.path(), m_log);
        const QString file = writeFile(m_dir, "lighttpd.conf", conf.toUtf8());
        m_lighttpd.start(lighttpd, {QStringLiteral("-D"), QStringLiteral("-f"), file});
        QVERIFY(m_lighttpd.waitForStarted());
        for (int i = 0; i < 50 && httpGet(m_port, "/md5/page.txt").empty(); ++i)
            QThread::msleep(100);
        QVERIFY2(m_lighttpd.state() == QProcess::Running, m_lighttpd.readAllStandardError().constData());
        served(1);
    }

    void cleanupTestCase()
    {
        if (m_lighttpd.state() != QProcess::NotRunning) {
            m_lighttpd.terminate();
            m_lighttpd.waitForFinished(5000);
        }
    }

    // Each user is challenged once, then answers every send at once: 2 users x 5 iterations are 12 requests
    // (2 challenges' 401s counted as requests and as auth_challenges), no error, and lighttpd served 10 pages.
    void eachUserAnswersItsChallenge_data()
    {
        QTest::addColumn<QByteArray>("path");
        QTest::addColumn<bool>("h2");
        QTest::addRow("SHA-256 of two challenges, HTTP/1.1") << QByteArray("/both/page.txt") << false;
        QTest::addRow("MD5, HTTP/1.1") << QByteArray("/md5/page.txt?q=a%20b") << false;
        QTest::addRow("MD5, HTTP/2") << QByteArray("/md5/page.txt") << true;
        QTest::addRow("SHA-256, HTTP/2") << QByteArray("/sha256/page.txt?x=1") << true;
    }
    void eachUserAnswersItsChallenge()
    {
        QFETCH(QByteArray, path);
        QFETCH(bool, h2);
        const QString summary = m_dir.filePath(QStringLiteral("s.json"));
        const auto r = runCli({QStringLiteral("run"), scenario("ok.json", path, "wonder land", h2, 2, 5),
                               QStringLiteral("--summary-json"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const auto total = readJson(summary)[QStringLiteral("total")].toObject();
        QCOMPARE(total[QStringLiteral("requests")].toInteger(), 12);
        QCOMPARE(total[QStringLiteral("errors")].toInteger(), 0);
        QCOMPARE(total[QStringLiteral("auth_challenges")].toInteger(), 2);
        const auto log = served(12);
        QCOMPARE(log.value("401"), 2);
        QCOMPARE(log.value("200"), 10);
    }

    // A wrong password: each send goes at most twice (the challenge's answer refused is the answer, an http_4xx
    // error), never more; 3 iterations are 6 requests, all 401 at lighttpd.
    void aWrongPasswordIsSentAtMostTwice()
    {
        const QString summary = m_dir.filePath(QStringLiteral("w.json"));
        const auto r = runCli({QStringLiteral("run"), scenario("bad.json", "/md5/page.txt", "wrong", false, 1, 3),
                               QStringLiteral("--summary-json"), summary});
        QCOMPARE(r.exitCode, 1);
        const auto total = readJson(summary)[QStringLiteral("total")].toObject();
        QCOMPARE(total[QStringLiteral("requests")].toInteger(), 6);
        QCOMPARE(total[QStringLiteral("errors")].toInteger(), 3);
        QCOMPARE(total[QStringLiteral("errors_by_class")].toObject()[QStringLiteral("http_4xx")].toInteger(), 3);
        QCOMPARE(total[QStringLiteral("auth_challenges")].toInteger(), 3);
        const auto log = served(6);
        QCOMPARE(log.value("401"), 6);
        QCOMPARE(log.value("200"), 0);
    }

    // The workbench's Send answers the challenge as a run does, and shows the request that went with its answer.
    void sendAnswersTheChallenge()
    {
        stampede::SendOnceRequest rq;
        rq.stepJson = "{\"name\": \"page\", \"request\": {\"url\": \"http://127.0.0.1:" + std::to_string(m_port) +
                      "/sha256/page.txt\", \"auth\": {\"digest\": {\"user\": \"${u}\", \"password\": \"wonder "
                      "land\"}}}}";
        rq.values = {{"u", "alice"}};
        const auto r = stampede::sendOnce(rq);
        QVERIFY2(r.error.empty(), r.error.c_str());
        QVERIFY2(r.http.ok, r.http.error.c_str());
        QCOMPARE(r.http.status, 200);
        QCOMPARE(r.http.body, std::string("secret page\n"));
        bool answered = false;
        for (const auto& [name, value] : r.sent.headers)
            answered |= name == "Authorization" && value.rfind("Digest username=\"alice\", realm=\"sha area\"", 0) == 0;
        QVERIFY(answered);
        const auto log = served(2);
        QCOMPARE(log.value("401"), 1);
        QCOMPARE(log.value("200"), 1);
        rq.stepJson.replace(rq.stepJson.find("wonder land"), 11, "nope");
        const auto refused = stampede::sendOnce(rq);
        QCOMPARE(refused.http.status, 401); // sent twice, then the refusal is what Send shows
        QCOMPARE(served(2).value("401"), 2);
    }
};

QTEST_MAIN(TestDigest)
#include "tst_digest.moc"
