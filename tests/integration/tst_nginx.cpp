// Against an independent peer: nginx from Debian, with its own access log as
// the count of what it served.
#include "testsupport.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace testsupport;

class TestNginx : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QProcess m_nginx;
    int m_port = 0, m_scriptPort = 0, m_h2Port = 0;
    QString m_log, m_scriptLog;

private slots:
    void initTestCase()
    {
        const QString nginx = QStringLiteral("/usr/sbin/nginx");
        if (!QFile::exists(nginx))
            QFAIL("nginx is not installed: run scripts/install-deps.sh");
        m_port = freePort();
        m_log = m_dir.filePath(QStringLiteral("access.log"));
        const QString conf =
            QStringLiteral(
                "daemon off; worker_processes 1; pid %1/nginx.pid; error_log %1/error.log;\n"
                "events { worker_connections 1024; }\n"
                "http { access_log %2; keepalive_requests 1000000;\n"
                "  client_body_temp_path %1; proxy_temp_path %1; fastcgi_temp_path %1;\n"
                "  uwsgi_temp_path %1; scgi_temp_path %1;\n"
                "  server { listen 127.0.0.1:%3; location / { return 200 \"ok\"; }\n"
                "           location /teapot { return 418; } }\n"
                // what a script sent: its header, the header it replaced, the body's length
                "  log_format sig '$server_protocol $request_method $request_uri|$http_x_sig|$http_x_from|'\n"
                "                 '$content_length';\n"
                "  server { listen 127.0.0.1:%4; listen 127.0.0.1:%5 http2; access_log %6 sig;\n"
                "           location / { default_type application/json;\n"
                "                        return 200 '{\"code\": 0, \"data\": {\"token\": \"t1\"}}'; } } }\n")
                .arg(m_dir.path(), m_log)
                .arg(m_port)
                .arg(m_scriptPort = freePort())
                .arg(m_h2Port = freePort())
                .arg(m_scriptLog = m_dir.filePath(QStringLiteral("scripts.log")));
        QFile f(m_dir.filePath(QStringLiteral("nginx.conf")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(conf.toUtf8());
        f.close();
        m_nginx.start(nginx, {QStringLiteral("-c"), f.fileName(), QStringLiteral("-e"),
                              m_dir.filePath(QStringLiteral("error.log"))});
        QVERIFY(m_nginx.waitForStarted());
        for (int i = 0; i < 50 && httpGet(m_port, "/").empty(); ++i)
            QThread::msleep(100);
        QCOMPARE(httpGet(m_port, "/"), std::string("ok"));
        QFile::resize(m_log, 0);
    }

    void cleanupTestCase()
    {
        if (m_nginx.state() != QProcess::NotRunning) {
            m_nginx.terminate();
            m_nginx.waitForFinished(5000);
        }
    }

    void servedCountEqualsTheAccessLog()
    {
        const QString summary = m_dir.filePath(QStringLiteral("s.json"));
        const auto r =
            runCli({QStringLiteral("run"), QStringLiteral("--url"), QStringLiteral("http://127.0.0.1:%1/").arg(m_port),
                    QStringLiteral("-c"), QStringLiteral("10"), QStringLiteral("-d"), QStringLiteral("1s"),
                    QStringLiteral("-t"), QStringLiteral("1"), QStringLiteral("--summary-json"), summary});
        QCOMPARE(r.exitCode, 0);
        const auto total = readJson(summary)[QStringLiteral("total")].toObject();
        QCOMPARE(total[QStringLiteral("errors")].toInteger(), 0);
        QThread::msleep(200);
        QFile log(m_log);
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QByteArray lines = log.readAll();
        QCOMPARE(qint64(lines.count('\n')), total[QStringLiteral("requests")].toInteger());
        QVERIFY(lines.contains("stampede/"));
        QFile::resize(m_log, 0);
    }

    void openModelAgainstNginx()
    {
        const QString summary = m_dir.filePath(QStringLiteral("o.json"));
        const auto r = runCli({QStringLiteral("run"), QStringLiteral("--url"),
                               QStringLiteral("http://127.0.0.1:%1/teapot").arg(m_port), QStringLiteral("-r"),
                               QStringLiteral("500"), QStringLiteral("-c"), QStringLiteral("5"), QStringLiteral("-d"),
                               QStringLiteral("1s"), QStringLiteral("--summary-json"), summary});
        QCOMPARE(r.exitCode, 1); // every answer a 418: no request succeeded, never a pass
        QVERIFY(
            readJson(summary)[QStringLiteral("reason")].toString().startsWith(QStringLiteral("no request succeeded")));
        const auto total = readJson(summary)[QStringLiteral("total")].toObject();
        QCOMPARE(total[QStringLiteral("requests")].toInteger(), 500);
        QCOMPARE(total[QStringLiteral("errors_by_class")].toObject()[QStringLiteral("http_4xx")].toInteger(), 500);
        QFile::resize(m_log, 0);
    }

    // Issue 28: what a pre-request script changes is what nginx receives, over
    // HTTP/1.1 and HTTP/2 (h2c): a header replaced and one added (a SHA-256
    // of the body as written), the body and the URL; the token the test
    // script took from nginx's answer goes out in the next step.
    void scriptsChangeWhatNginxReceives_data()
    {
        QTest::addColumn<bool>("h2");
        QTest::addRow("HTTP/1.1") << false;
        QTest::addRow("HTTP/2") << true;
    }
    void scriptsChangeWhatNginxReceives()
    {
        QFETCH(bool, h2);
        QFile::resize(m_scriptLog, 0);
        const QByteArray url = "http://127.0.0.1:" + QByteArray::number(h2 ? m_h2Port : m_scriptPort);
        const QString file = writeFile(
            m_dir, "scripts.json",
            "{\"http\": \"" + QByteArray(h2 ? "HTTP_2" : "HTTP_1_1") +
                "\", \"steps\": [{\"name\": \"login\", \"request\": {\"method\": \"POST\", \"url\": \"" + url +
                "/login\", \"body\": \"{\\\"a\\\": 1}\", \"headers\": [{\"name\": \"X-From\", \"value\": "
                "\"written\"}]}, "
                "\"preRequestScript\": \"pm.request.headers.upsert({key: 'X-From', value: 'script'});\\n"
                "pm.request.headers.add({key: 'X-Sig', value: CryptoJS.SHA256(pm.request.body.raw).toString()});\\n"
                "pm.request.body.raw = '0123456789';\\npm.request.url = '" +
                url +
                "/login?by=script';\", \"testScript\": \"pm.test('token', () => "
                "pm.expect(pm.response.json().data.token).to.eql('t1'));\\npm.environment.set('token', "
                "pm.response.json().data.token);\"}, {\"name\": \"next\", \"request\": {\"url\": \"" +
                url + "/next?t=${token}\"}}], \"load\": {\"closed\": {\"users\": 2}}, \"duration\": \"1s\"}");
        const QString summary = m_dir.filePath(QStringLiteral("scripts.summary"));
        const auto r = runCli({QStringLiteral("run"), file, QStringLiteral("--engines"), QStringLiteral("1"),
                               QStringLiteral("-q"), QStringLiteral("--summary-json"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto total = readJson(summary)[QStringLiteral("total")].toObject();
        QCOMPARE(total[QStringLiteral("errors")].toInteger(), 0);
        const qint64 passed = total[QStringLiteral("checks")]
                                  .toObject()[QStringLiteral("login/token")]
                                  .toObject()[QStringLiteral("passed")]
                                  .toInteger();
        QVERIFY(passed > 0);
        QThread::msleep(200);
        QFile log(m_scriptLog);
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = log.readAll().trimmed().split('\n');
        // sha256 of {"a": 1}, the body as written, which the script read before it replaced it
        const QByteArray sig = "f9d86028c6e0d64e225186f96acb69338b2c59764df79162107f5c4bb34d1310";
        qint64 logins = 0, nexts = 0;
        for (const QByteArray& line : lines) {
            const QList<QByteArray> f = line.split('|');
            QCOMPARE(f.size(), 4);
            QVERIFY2(f[0].startsWith(h2 ? "HTTP/2.0 " : "HTTP/1.1 "), line.constData());
            if (f[0].endsWith("POST /login?by=script")) {
                ++logins;
                QCOMPARE(f[1], sig);
                QCOMPARE(f[2], QByteArray("script"));
                // the new body's ten bytes (HTTP/2 frames it without a Content-Length)
                QVERIFY2(f[3] == "10" || (h2 && f[3] == "-"), line.constData());
            } else {
                QCOMPARE(f[0].mid(f[0].indexOf(' ') + 1), QByteArray("GET /next?t=t1"));
                ++nexts;
            }
        }
        QCOMPARE(logins, passed);
        QVERIFY2(nexts <= passed && nexts >= passed - 2, qPrintable(QString::number(nexts))); // 2 users: the last
                                                                                              // may end at login
    }
};

QTEST_GUILESS_MAIN(TestNginx)
#include "tst_nginx.moc"
