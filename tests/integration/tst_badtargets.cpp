// Targets that misbehave: each failure is counted by class while the run
// finishes normally (exit 0: no threshold was set).
#include "testsupport.h"

#include <QTemporaryDir>
#include <QTest>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace testsupport;

namespace {
void resetMidResponse(int fd)
{
    while (!readRequestHead(fd).empty()) {
        const char partial[] = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly some";
        (void)!::write(fd, partial, sizeof partial - 1);
        linger l{1, 0}; // close with RST
        ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
        break;
    }
    ::close(fd);
}
void garbage(int fd)
{
    while (!readRequestHead(fd).empty()) {
        const char junk[] = "SSH-2.0-OpenSSH_9.2\r\n\r\n";
        if (::write(fd, junk, sizeof junk - 1) < 0)
            break;
    }
    ::close(fd);
}
void silent(int fd)
{
    readRequestHead(fd);
    char buf[256];
    while (::read(fd, buf, sizeof buf) > 0) {
    }
    ::close(fd);
}
} // namespace

class TestBadTargets : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QJsonObject run(const QString& url, const QStringList& extra = {})
    {
        const QString summary = m_dir.filePath(QStringLiteral("s.json"));
        QFile::remove(summary);
        const auto r =
            runCli(QStringList{QStringLiteral("run"), QStringLiteral("--url"), url, QStringLiteral("-c"),
                               QStringLiteral("2"), QStringLiteral("-d"), QStringLiteral("1s"), QStringLiteral("-t"),
                               QStringLiteral("1"), QStringLiteral("-q"), QStringLiteral("--summary-json"), summary} +
                   extra);
        if (r.exitCode != 0)
            qWarning("exit %d: %s", r.exitCode, qPrintable(r.err));
        return readJson(summary)[QStringLiteral("total")].toObject();
    }
    static qint64 errorsOf(const QJsonObject& total, const char* cls)
    {
        return total[QStringLiteral("errors_by_class")].toObject()[QString::fromLatin1(cls)].toInteger();
    }

private slots:
    void connectionRefused()
    {
        const auto t = run(QStringLiteral("http://127.0.0.1:%1/").arg(freePort()));
        QVERIFY(errorsOf(t, "connect") > 0);
        QCOMPARE(t[QStringLiteral("errors")].toInteger(), errorsOf(t, "connect"));
        // failures back off to the next loop turn: bounded, not a busy spin of millions
        QVERIFY(t[QStringLiteral("requests")].toInteger() < 2000000);
    }
    void resetMidResponseIsReset()
    {
        RawServer server(resetMidResponse);
        const auto t = run(QStringLiteral("http://127.0.0.1:%1/").arg(server.port()));
        QVERIFY(errorsOf(t, "reset") > 0);
        QCOMPARE(t[QStringLiteral("errors")].toInteger(), errorsOf(t, "reset"));
    }
    void garbageIsAProtocolError()
    {
        RawServer server(garbage);
        const auto t = run(QStringLiteral("http://127.0.0.1:%1/").arg(server.port()));
        QVERIFY(errorsOf(t, "protocol") > 0);
        QCOMPARE(t[QStringLiteral("errors")].toInteger(), errorsOf(t, "protocol"));
    }
    void silenceIsATimeout()
    {
        RawServer server(silent);
        const auto t = run(QStringLiteral("http://127.0.0.1:%1/").arg(server.port()),
                           {QStringLiteral("--timeout"), QStringLiteral("200ms")});
        // 2 users, 1 s, 200 ms each: about 8 timeouts (5 rounds, minus the drain)
        QVERIFY2(errorsOf(t, "timeout") >= 6 && errorsOf(t, "timeout") <= 12,
                 qPrintable(QString::number(errorsOf(t, "timeout"))));
    }
    void httpErrorsByStatusClass()
    {
        MockProcess mock(QStringLiteral("{\"rules\": [{\"path\": \"/missing\", \"status\": 404},"
                                        "{\"path\": \"/broken\", \"status\": 503}]}"));
        QVERIFY(mock.started());
        auto t = run(mock.url(QStringLiteral("/missing")));
        QCOMPARE(errorsOf(t, "http_4xx"), t[QStringLiteral("requests")].toInteger());
        t = run(mock.url(QStringLiteral("/broken")));
        QCOMPARE(errorsOf(t, "http_5xx"), t[QStringLiteral("requests")].toInteger());
    }
    void stressTagIsSent()
    {
        std::mutex m;
        std::vector<std::string> heads;
        RawServer server([&](int fd) {
            for (;;) {
                const std::string h = readRequestHead(fd);
                if (h.empty())
                    break;
                {
                    std::lock_guard lock(m);
                    heads.push_back(h);
                }
                const char ok[] = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
                if (::write(fd, ok, sizeof ok - 1) < 0)
                    break;
            }
            ::close(fd);
        });
        const QString url = QStringLiteral("http://127.0.0.1:%1/").arg(server.port());
        const QString summary = m_dir.filePath(QStringLiteral("tag.json"));
        runCli({QStringLiteral("run"), QStringLiteral("--url"), url, QStringLiteral("-r"), QStringLiteral("50"),
                QStringLiteral("-c"), QStringLiteral("1"), QStringLiteral("-d"), QStringLiteral("500ms"),
                QStringLiteral("--stress-header"), QStringLiteral("X-Shadow"), QStringLiteral("--summary-json"),
                summary});
        const std::string runId = readJson(summary)[QStringLiteral("run_id")].toString().toStdString();
        QVERIFY(runId.rfind("st-", 0) == 0);
        {
            std::lock_guard lock(m);
            QVERIFY(heads.size() >= 20);
            for (const auto& h : heads)
                QVERIFY2(h.find("\r\nX-Shadow: " + runId + "\r\n") != std::string::npos, h.c_str());
            heads.clear();
        }
        runCli({QStringLiteral("run"), QStringLiteral("--url"), url, QStringLiteral("-r"), QStringLiteral("50"),
                QStringLiteral("-c"), QStringLiteral("1"), QStringLiteral("-d"), QStringLiteral("200ms"),
                QStringLiteral("--no-stress-tag")});
        std::lock_guard lock(m);
        QVERIFY(!heads.empty());
        for (const auto& h : heads)
            QVERIFY(h.find("Stress") == std::string::npos && h.find("X-Shadow") == std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestBadTargets)
#include "tst_badtargets.moc"
