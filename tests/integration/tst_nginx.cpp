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
    int m_port = 0;
    QString m_log;

private slots:
    void initTestCase()
    {
        const QString nginx = QStringLiteral("/usr/sbin/nginx");
        if (!QFile::exists(nginx))
            QFAIL("nginx is not installed: run scripts/install-deps.sh");
        m_port = freePort();
        m_log = m_dir.filePath(QStringLiteral("access.log"));
        const QString conf =
            QStringLiteral("daemon off; worker_processes 1; pid %1/nginx.pid; error_log %1/error.log;\n"
                           "events { worker_connections 1024; }\n"
                           "http { access_log %2; keepalive_requests 1000000;\n"
                           "  client_body_temp_path %1; proxy_temp_path %1; fastcgi_temp_path %1;\n"
                           "  uwsgi_temp_path %1; scgi_temp_path %1;\n"
                           "  server { listen 127.0.0.1:%3; location / { return 200 \"ok\"; }\n"
                           "           location /teapot { return 418; } } }\n")
                .arg(m_dir.path(), m_log)
                .arg(m_port);
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
};

QTEST_GUILESS_MAIN(TestNginx)
#include "tst_nginx.moc"
