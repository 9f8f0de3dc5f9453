// HTTP/2 against an independent peer: nginx from Debian, over h2c with prior
// knowledge and over TLS with ALPN, its access log the count of what it served.
#include "store/projectstore.h"
#include "store/runlog.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace testsupport;

class TestHttp2 : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    Nginx m_nginx;
    int m_h2c = 0, m_goaway = 0, m_h2tls = 0, m_h1tls = 0, m_h1 = 0;

    QString file(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }
    static QString at(const char* scheme, int port, const char* path = "/")
    {
        return QStringLiteral("%1://127.0.0.1:%2%3")
            .arg(QString::fromLatin1(scheme))
            .arg(port)
            .arg(QString::fromLatin1(path));
    }
    RunOutcome run(const QStringList& args) { return runOneEngine(file("s.json"), args); }
    static qint64 num(const QJsonObject& o, const char* key) { return o[QString::fromLatin1(key)].toInteger(); }
    static qint64 byClass(const QJsonObject& total, const char* c)
    {
        return total[QStringLiteral("errors_by_class")].toObject()[QString::fromLatin1(c)].toInteger();
    }
    qint64 served() { return m_nginx.takeServedCount(); }
    std::string firstSampleDetail(const QString& report)
    {
        std::string error;
        auto store = stampede::ProjectStore::open(report.toStdString(), error);
        if (!store)
            return error;
        stampede::RunLog log(*store);
        const auto saved = log.load(log.runs().at(0).id);
        return saved && !saved->samples.empty() ? saved->samples[0].detail : std::string();
    }

private slots:
    void initTestCase()
    {
        if (!Nginx::installed())
            QFAIL("nginx is not installed: run scripts/install-deps.sh");
        const QString made = makeCertificates(m_dir.path());
        QVERIFY2(made.isEmpty(), qPrintable(made));
        m_h2c = freePort();
        m_goaway = freePort();
        m_h2tls = freePort();
        m_h1tls = freePort();
        m_h1 = freePort();
        const QString servers =
            QStringLiteral("  ssl_certificate %1/server.pem; ssl_certificate_key %1/server.key;\n"
                           "  server { listen 127.0.0.1:%2 http2; location / { return 200 \"ok\"; }\n"
                           "           location /drop { return 444; } }\n"
                           "  server { listen 127.0.0.1:%3 http2; keepalive_requests 50; location / { return 200 "
                           "\"ok\"; } }\n"
                           "  server { listen 127.0.0.1:%4 ssl http2; location / { return 200 \"ok\"; } }\n"
                           "  server { listen 127.0.0.1:%5 ssl; location / { return 200 \"ok\"; } }\n"
                           "  server { listen 127.0.0.1:%6; location / { return 200 \"ok\"; } }\n")
                .arg(m_dir.path())
                .arg(m_h2c)
                .arg(m_goaway)
                .arg(m_h2tls)
                .arg(m_h1tls)
                .arg(m_h1);
        QVERIFY2(m_nginx.start(m_dir.path(), servers, m_h1), qPrintable(m_nginx.error()));
    }

    void h2cCountsEqualTheAccessLog()
    {
        // closed model: 8 users, 4 streams to a connection
        auto o = run({QStringLiteral("--url"), at("http", m_h2c), QStringLiteral("--http"), QStringLiteral("2"),
                      QStringLiteral("--streams"), QStringLiteral("4"), QStringLiteral("-c"), QStringLiteral("8"),
                      QStringLiteral("-d"), QStringLiteral("1s")});
        QVERIFY2(o.cli.exitCode == 0, qPrintable(o.cli.err));
        QVERIFY2(o.cli.err.contains(QLatin1String("HTTP/2 (4 streams per connection)")), qPrintable(o.cli.err));
        QCOMPARE(num(o.total, "errors"), 0);
        QVERIFY(num(o.total, "requests") > 1000);
        QCOMPARE(served(), num(o.total, "requests"));
        QCOMPARE(o.total[QStringLiteral("connections")].toObject()[QStringLiteral("opened")].toInteger(), 2);
        // open model: 2,000 arrivals a second over 2 connections x 4 streams
        o = run({QStringLiteral("--url"), at("http", m_h2c), QStringLiteral("--http"), QStringLiteral("2"),
                 QStringLiteral("--streams"), QStringLiteral("4"), QStringLiteral("-c"), QStringLiteral("2"),
                 QStringLiteral("-r"), QStringLiteral("2000"), QStringLiteral("-d"), QStringLiteral("1s")});
        QVERIFY2(o.cli.exitCode == 0, qPrintable(o.cli.err));
        // every arrival sent, or (8 streams busy at the end: a machine loaded by
        // other tests) dropped and counted, never lost
        const qint64 sent = num(o.total, "requests");
        QCOMPARE(sent + num(o.total, "dropped"), 2000);
        QVERIFY2(sent >= 1900, qPrintable(QString::number(sent)));
        QCOMPARE(num(o.total, "errors"), 0);
        QCOMPARE(served(), sent);
    }

    // Steps to two servers: each has its own connections, every stream goes
    // to the server its step names.
    void stepsToTwoServers()
    {
        const QString scenario = QStringLiteral("{\"http\": \"HTTP_2\", \"streams\": 4, \"steps\": ["
                                                "{\"name\": \"a\", \"request\": {\"url\": \"%1\"}},"
                                                "{\"name\": \"b\", \"request\": {\"url\": \"%2\"}}],"
                                                " \"load\": {\"closed\": {\"users\": 8}}, \"duration\": \"1s\"}")
                                     .arg(at("http", m_h2c, "/a"), at("http", m_goaway, "/b"));
        QFile f(file("two.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(scenario.toUtf8());
        f.close();
        const auto o = run({file("two.json")});
        QVERIFY2(o.cli.exitCode == 0, qPrintable(o.cli.err));
        QCOMPARE(num(o.total, "errors"), 0);
        const QJsonArray steps = readJson(file("s.json"))[QStringLiteral("steps")].toArray();
        const qint64 a = num(steps[0].toObject(), "requests"), b = num(steps[1].toObject(), "requests");
        QVERIFY(b > 300);
        QVERIFY2(a - b >= 0 && a - b <= 8, qPrintable(QStringLiteral("%1 %2").arg(a).arg(b)));
        QCOMPARE(served(), a + b);
        // two connections (8 users, 4 streams each) to each server, and more after its GOAWAYs
        QVERIFY(o.total[QStringLiteral("connections")].toObject()[QStringLiteral("opened")].toInteger() >= 4);
    }

    void goawayStartsANewConnectionWithoutErrors()
    {
        // this server says GOAWAY after 50 requests on a connection
        const auto o = run({QStringLiteral("--url"), at("http", m_goaway), QStringLiteral("--http"),
                            QStringLiteral("2"), QStringLiteral("--streams"), QStringLiteral("8"), QStringLiteral("-c"),
                            QStringLiteral("8"), QStringLiteral("-d"), QStringLiteral("1s")});
        QVERIFY2(o.cli.exitCode == 0, qPrintable(o.cli.err));
        QCOMPARE(num(o.total, "errors"), 0);
        const qint64 requests = num(o.total, "requests");
        QVERIFY(requests > 500);
        QCOMPARE(served(), requests);
        const auto conns = o.total[QStringLiteral("connections")].toObject();
        QVERIFY(conns[QStringLiteral("http2_goaways")].toInteger() >= requests / 50 - 1);
    }

    void alpnSettlesOnHttp2OverTls()
    {
        auto o = run({QStringLiteral("--url"), at("https", m_h2tls), QStringLiteral("--cacert"), file("ca.pem"),
                      QStringLiteral("-c"), QStringLiteral("4"), QStringLiteral("-d"), QStringLiteral("1s")});
        QVERIFY2(o.cli.exitCode == 0, qPrintable(o.cli.err));
        QVERIFY2(o.cli.err.contains(QLatin1String("HTTP/2")), qPrintable(o.cli.err));
        QCOMPARE(num(o.total, "errors"), 0);
        QCOMPARE(served(), num(o.total, "requests"));
        QCOMPARE(o.total[QStringLiteral("connections")].toObject()[QStringLiteral("tls_handshakes")].toInteger(), 4);
        // forced to HTTP/1.1, the same server answers that way
        o = run({QStringLiteral("--url"), at("https", m_h2tls), QStringLiteral("--cacert"), file("ca.pem"),
                 QStringLiteral("--http"), QStringLiteral("1.1"), QStringLiteral("-c"), QStringLiteral("2"),
                 QStringLiteral("-d"), QStringLiteral("1s")});
        QVERIFY2(o.cli.err.contains(QLatin1String("HTTP/1.1")), qPrintable(o.cli.err));
        QCOMPARE(num(o.total, "errors"), 0);
        served();
        // a TLS server without HTTP/2: auto falls back to HTTP/1.1 ...
        o = run({QStringLiteral("--url"), at("https", m_h1tls), QStringLiteral("--cacert"), file("ca.pem"),
                 QStringLiteral("-c"), QStringLiteral("2"), QStringLiteral("-d"), QStringLiteral("1s")});
        QVERIFY2(o.cli.err.contains(QLatin1String("HTTP/1.1")), qPrintable(o.cli.err));
        QCOMPARE(num(o.total, "errors"), 0);
        served();
    }

    void serversThatDoNotSpeakHttp2()
    {
        // ... while forcing HTTP/2 against it fails every request, and says why
        const QString report = file("no-h2.streport");
        auto o = run({QStringLiteral("--url"), at("https", m_h1tls), QStringLiteral("--cacert"), file("ca.pem"),
                      QStringLiteral("--http"), QStringLiteral("2"), QStringLiteral("-c"), QStringLiteral("2"),
                      QStringLiteral("-r"), QStringLiteral("20"), QStringLiteral("-d"), QStringLiteral("1s"),
                      QStringLiteral("--report"), report});
        QVERIFY(num(o.total, "requests") > 0);
        QCOMPARE(byClass(o.total, "tls"), num(o.total, "requests"));
        QVERIFY2(QString::fromStdString(firstSampleDetail(report)).contains(QLatin1String("ALPN")),
                 firstSampleDetail(report).c_str());
        // h2c with prior knowledge to an HTTP/1.1 server
        const QString report2 = file("h1.streport");
        o = run({QStringLiteral("--url"), at("http", m_h1), QStringLiteral("--http"), QStringLiteral("2"),
                 QStringLiteral("-c"), QStringLiteral("2"), QStringLiteral("-r"), QStringLiteral("20"),
                 QStringLiteral("-d"), QStringLiteral("1s"), QStringLiteral("--report"), report2});
        QVERIFY(num(o.total, "requests") > 0);
        QCOMPARE(byClass(o.total, "protocol"), num(o.total, "requests"));
        QVERIFY2(QString::fromStdString(firstSampleDetail(report2)).contains(QLatin1String("does not speak HTTP/2")),
                 firstSampleDetail(report2).c_str());
        served();
    }

    void resetStreamsAreCounted()
    {
        // nginx resets the stream for "return 444"
        const auto o =
            run({QStringLiteral("--url"), at("http", m_h2c, "/drop"), QStringLiteral("--http"), QStringLiteral("2"),
                 QStringLiteral("--streams"), QStringLiteral("2"), QStringLiteral("-c"), QStringLiteral("2"),
                 QStringLiteral("-r"), QStringLiteral("100"), QStringLiteral("-d"), QStringLiteral("1s")});
        QCOMPARE(num(o.total, "requests"), 100);
        QCOMPARE(byClass(o.total, "reset"), 100);
        served();
    }

    void streamsNeedHttp2()
    {
        const auto r =
            runCli({QStringLiteral("run"), QStringLiteral("--url"), at("http", m_h1), QStringLiteral("--streams"),
                    QStringLiteral("4"), QStringLiteral("-d"), QStringLiteral("1s")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("streams")), qPrintable(r.err));
        const auto bad =
            runCli({QStringLiteral("run"), QStringLiteral("--url"), at("http", m_h1), QStringLiteral("--http"),
                    QStringLiteral("3"), QStringLiteral("-d"), QStringLiteral("1s")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(QLatin1String("--http")), qPrintable(bad.err));
    }
};

QTEST_MAIN(TestHttp2)
#include "tst_http2.moc"
