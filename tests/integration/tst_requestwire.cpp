// What goes on the wire is what the rule allows, whoever wrote it (issue "The
// engine holds against servers that misbehave, and no data can smuggle a
// request"): no CR, LF or NUL from a URL, a --var, a data set or an extracted
// value ever reaches the server as a line of its own; targets are encoded as
// a browser sends them; answers nobody asked for end no run; a server that
// closes idle connections is not blamed for the client reusing them.
#include "conformancetarget.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QTest>
#include <sqlite3.h>

#include <chrono>
#include <thread>

using namespace testsupport;
using conformance::Peer;
using conformance::Target;

namespace {
const std::string kOk = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello";

void answerEach(Peer& p)
{
    while (!p.readRequest().empty())
        if (!p.write(kOk))
            return;
}

// Whether any request the target read has `text` at the start of a line (a header line of its own).
bool anyLineStartsWith(const Target& t, const std::string& text)
{
    for (const std::string& r : t.received())
        if (r.rfind(text, 0) == 0 || r.find("\n" + text) != std::string::npos)
            return true;
    return false;
}

qint64 errorsOf(const QJsonObject& total, const char* cls)
{
    return total[QStringLiteral("errors_by_class")].toObject()[QString::fromLatin1(cls)].toInteger();
}

// The details of the run's kept error samples of `cls`, from the project file.
QStringList sampleDetails(const QString& project, const char* cls)
{
    QStringList out;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(project.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK)
        return out;
    const char* names[] = {"connect", "reset", "timeout", "http_4xx", "http_5xx", "protocol",
                           "tls",     "grpc",  "check",   "extract",  "render",   "script"};
    int index = -1;
    for (int i = 0; i < int(std::size(names)); ++i)
        if (std::string(names[i]) == cls)
            index = i;
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db, "SELECT detail, head FROM run_samples WHERE error_class = ?", -1, &s, nullptr);
    sqlite3_bind_int(s, 1, index);
    while (sqlite3_step(s) == SQLITE_ROW)
        out << QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(s, 0))) + QStringLiteral(" | ") +
                   QString::fromUtf8(static_cast<const char*>(sqlite3_column_blob(s, 1)), sqlite3_column_bytes(s, 1));
    sqlite3_finalize(s);
    sqlite3_close(db);
    return out;
}
} // namespace

class TestRequestWire : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString summary() const { return m_dir.filePath(QStringLiteral("s.json")); }
    QString url(const Target& t, const char* path) const
    {
        return QStringLiteral("http://127.0.0.1:%1%2").arg(t.port()).arg(QString::fromUtf8(path));
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // A 2 s open-model run against a target that answers what nobody asked
    // for ends on time with a summary: every request counted, one protocol
    // error per stray answer, and no heap corruption (tst_requestwire runs
    // under AddressSanitizer in `make asan`).
    void strayAnswersEndTheRun_data()
    {
        QTest::addColumn<int>("shape");
        QTest::newRow("a second 200 30 ms after a valid one") << 0;
        QTest::newRow("an answer before the request is read") << 1;
    }
    void strayAnswersEndTheRun()
    {
        QFETCH(int, shape);
        std::atomic<int> answered{0};
        Target target([&](Peer& p) {
            if (shape == 1) {
                p.write(kOk);
                ++answered;
            }
            while (!p.readRequest().empty()) {
                if (!p.write(kOk))
                    return;
                ++answered;
                if (shape == 0) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(30));
                    if (!p.write(kOk))
                        return;
                }
            }
        });
        QElapsedTimer clock;
        clock.start();
        const auto r =
            runCli({QStringLiteral("run"), QStringLiteral("--url"), url(target, "/"), QStringLiteral("--rate"),
                    QStringLiteral("20"), QStringLiteral("-d"), QStringLiteral("2s"), QStringLiteral("--timeout"),
                    QStringLiteral("1s"), QStringLiteral("--engines"), QStringLiteral("2"), QStringLiteral("-q"),
                    QStringLiteral("--summary-json"), summary()},
                   30000);
        QVERIFY2(clock.elapsed() < 2000 + 1000 + 2000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(!r.err.contains(QStringLiteral("tcache")) && !r.err.contains(QStringLiteral("AddressSanitizer")),
                 qPrintable(r.err));
        const QJsonObject total = readJson(summary())[QStringLiteral("total")].toObject();
        QCOMPARE(total[QStringLiteral("requests")].toInteger(), 40);
        // each request was answered (the first answer on its connection), each stray closed its connection
        QCOMPARE(total[QStringLiteral("errors")].toInteger(), errorsOf(total, "protocol"));
        QCOMPARE(errorsOf(total, "protocol"), 40);
    }

    // The URL as written is checked: a CR LF in it is bad input naming the
    // field, and nothing reaches the server.
    void lineBreakInTheUrlIsBadInput()
    {
        Target target(answerEach);
        const QString smuggling = url(target, "/x HTTP/1.1\r\nX-Smug: 1\r\n\r\nGET /y");
        const auto r =
            runOneEngine(summary(), {QStringLiteral("--url"), smuggling, QStringLiteral("-d"), QStringLiteral("300ms"),
                                     QStringLiteral("--rate"), QStringLiteral("10")});
        QCOMPARE(r.cli.exitCode, 2);
        QVERIFY2(r.cli.err.contains(QStringLiteral("url")) && r.cli.err.contains(QStringLiteral("line break")),
                 qPrintable(r.cli.err));
        QCOMPARE(target.requests(), 0);
    }

    // A --var is folded in before the run: a line break in it is bad input too.
    void lineBreakInAVarIsBadInput_data()
    {
        QTest::addColumn<QString>("where");
        QTest::newRow("url") << QStringLiteral("url");
        QTest::newRow("header") << QStringLiteral("header");
    }
    void lineBreakInAVarIsBadInput()
    {
        QFETCH(QString, where);
        Target target(answerEach);
        QStringList args{
            QStringLiteral("--url"),  where == QLatin1String("url") ? url(target, "/${v}") : url(target, "/"),
            QStringLiteral("--var"),  QStringLiteral("v=a\r\nX-Smug: 1"),
            QStringLiteral("-d"),     QStringLiteral("300ms"),
            QStringLiteral("--rate"), QStringLiteral("10")};
        if (where == QLatin1String("header"))
            args << QStringLiteral("-H") << QStringLiteral("X-Token: ${v}");
        const auto r = runOneEngine(summary(), args);
        QCOMPARE(r.cli.exitCode, 2);
        QVERIFY2(r.cli.err.contains(QStringLiteral("line break")), qPrintable(r.cli.err));
        QCOMPARE(target.requests(), 0);
    }

    // Values that arrive while the run goes on (a data set's rows) are checked
    // as each request is rendered: that request fails as `render`, naming the
    // variable, the run goes on, and the server never sees the injected line.
    void lineBreakInDataFailsThatRequest_data()
    {
        QTest::addColumn<QString>("http");
        QTest::newRow("HTTP/1.1") << QStringLiteral("1.1");
        QTest::newRow("HTTP/2") << QStringLiteral("2");
    }
    void lineBreakInDataFailsThatRequest()
    {
        QFETCH(QString, http);
        // HTTP/2 goes to the mock server (h2c); HTTP/1.1 to the recording target
        Target target(answerEach);
        MockProcess mock;
        QVERIFY(mock.started());
        const QString base = http == QLatin1String("2") ? QStringLiteral("http://127.0.0.1:%1").arg(mock.port())
                                                        : QStringLiteral("http://127.0.0.1:%1").arg(target.port());
        writeFile(
            m_dir, "rows.csv",
            "path,token\ngood,t1\n\"bad\r\nX-Smug: 1\",t2\nfine,\"t3\r\nX-Smug: 2\"\n\"with space/\xc3\xbc\",t4\n");
        const QByteArray scenario =
            QStringLiteral(R"({"name": "data", "http": "%1",
            "variables": [{"name": "rows", "csv": {"file": "rows.csv", "mode": "CSV_MODE_STOP"}}],
            "steps": [{"name": "get", "request": {"url": "%2/item/${rows.path}",
                       "headers": [{"name": "X-Token", "value": "${rows.token}"}]}}],
            "load": {"open": {"rate": 20}, "stages": [{"duration": "1s"}]}, "connections": 1})")
                .arg(http == QLatin1String("2") ? QStringLiteral("HTTP_2") : QStringLiteral("HTTP_1_1"), base)
                .toUtf8();
        const QString file = writeFile(m_dir, "data.json", scenario);
        const QString project = m_dir.filePath(QStringLiteral("data-%1.stampede").arg(http));
        QFile::remove(project);
        const auto r = runOneEngine(summary(), {file, QStringLiteral("--project"), project});
        QVERIFY2(!r.total.isEmpty(), qPrintable(r.cli.err));
        QCOMPARE(r.total[QStringLiteral("requests")].toInteger(), 4);
        QCOMPARE(errorsOf(r.total, "render"), 2);
        QCOMPARE(r.total[QStringLiteral("errors")].toInteger(), 2);
        const QStringList samples = sampleDetails(project, "render");
        QVERIFY2(samples.size() == 2, qPrintable(samples.join(QLatin1Char('\n'))));
        QVERIFY2(samples.join(QLatin1Char('\n')).contains(QStringLiteral("${rows.path} holds a line break (CR)")),
                 qPrintable(samples.join(QLatin1Char('\n'))));
        QVERIFY2(samples.join(QLatin1Char('\n')).contains(QStringLiteral("${rows.token} holds a line break (CR)")),
                 qPrintable(samples.join(QLatin1Char('\n'))));
        if (http == QLatin1String("1.1")) {
            QCOMPARE(target.requests(), 2);
            QVERIFY(!anyLineStartsWith(target, "X-Smug"));
            // the good rows went, the one with a space and a non-ASCII letter encoded
            const auto got = target.received();
            QVERIFY(got[0].rfind("GET /item/good HTTP/1.1\r\n", 0) == 0);
            QVERIFY2(got[1].rfind("GET /item/with%20space/%C3%BC HTTP/1.1\r\n", 0) == 0, got[1].c_str());
        }
    }

    // An extracted value is checked when the step that uses it is rendered.
    void lineBreakInAnExtractedValueFailsThatRequest()
    {
        Target target([](Peer& p) {
            for (;;) {
                const std::string rq = p.readRequest();
                if (rq.empty())
                    return;
                const std::string body = rq.rfind("GET /login", 0) == 0 ? R"({"token": "abc\r\nX-Smug: 1"})" : "{}";
                p.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                        std::to_string(body.size()) + "\r\n\r\n" + body);
            }
        });
        const QByteArray scenario = QStringLiteral(R"({"name": "extract",
            "steps": [{"name": "login", "request": {"url": "%1/login"},
                       "extract": [{"name": "token", "jsonPath": "$.token"}]},
                      {"name": "use", "request": {"url": "%1/use",
                       "headers": [{"name": "Authorization", "value": "Bearer ${token}"}]}}],
            "load": {"open": {"rate": 10}, "stages": [{"duration": "500ms"}]}, "connections": 1})")
                                        .arg(url(target, ""))
                                        .toUtf8();
        const QString file = writeFile(m_dir, "extract.json", scenario);
        const auto r = runOneEngine(summary(), {file});
        QVERIFY2(!r.total.isEmpty(), qPrintable(r.cli.err));
        QCOMPARE(errorsOf(r.total, "render"), 5);
        QCOMPARE(r.total[QStringLiteral("requests")].toInteger(), 10);
        QCOMPARE(target.requests(), 5); // the logins only
        QVERIFY(!anyLineStartsWith(target, "X-Smug"));
    }

    // Request lines byte for byte: spaces, quotes and non-ASCII letters
    // encoded as a browser sends them, an existing %XX kept, the fragment not sent.
    void requestLinesAreEncoded()
    {
        Target target(answerEach);
        const QString written = url(target, "/a b/\xc3\xbc/c%20d?q=x y&k=\"v\"&e=\xe2\x82\xac#frag ment");
        const auto r = runOneEngine(summary(), {QStringLiteral("--url"), written, QStringLiteral("--rate"),
                                                QStringLiteral("5"), QStringLiteral("-d"), QStringLiteral("400ms")});
        QVERIFY2(r.cli.exitCode == 0, qPrintable(r.cli.err));
        QVERIFY(target.requests() >= 1);
        const std::string first = target.received().front();
        const std::string line = first.substr(0, first.find("\r\n"));
        QCOMPARE(QString::fromStdString(line),
                 QStringLiteral("GET /a%20b/%C3%BC/c%20d?q=x%20y&k=%22v%22&e=%E2%82%AC HTTP/1.1"));
    }

    // A server that closes kept-alive connections when it likes (nginx after
    // keepalive_timeout, Node after 5 s; here after 200 ms, racing the next
    // request at 5/s, and one that closes when the request has just arrived):
    // no error, and what the server answered is what the summary counts.
    void idleClosesAreNotErrors_data()
    {
        QTest::addColumn<int>("idleMs");
        QTest::addColumn<bool>("closeOnArrival");
        QTest::newRow("keep-alive timeout 200 ms at 5/s") << 200 << false;
        QTest::newRow("keep-alive timeout 199 ms at 5/s") << 199 << false;
        QTest::newRow("closed as the second request arrives") << 0 << true;
    }
    void idleClosesAreNotErrors()
    {
        QFETCH(int, idleMs);
        QFETCH(bool, closeOnArrival);
        std::atomic<int> answered{0};
        Target target([&](Peer& p) {
            for (int n = 0;; ++n) {
                if (p.readRequest().empty())
                    return;
                if (closeOnArrival && n == 1) { // the close an idle timeout makes just as a request comes
                    p.reset();
                    return;
                }
                if (!p.write(kOk))
                    return;
                ++answered;
                if (!closeOnArrival && !p.waitReadable(idleMs)) {
                    p.close();
                    return;
                }
            }
        });
        const auto r = runOneEngine(summary(), {QStringLiteral("--url"), url(target, "/"), QStringLiteral("--rate"),
                                                QStringLiteral("5"), QStringLiteral("-d"), QStringLiteral("2s"),
                                                QStringLiteral("-c"), QStringLiteral("1")});
        QVERIFY2(!r.total.isEmpty(), qPrintable(r.cli.err));
        QCOMPARE(r.total[QStringLiteral("errors")].toInteger(), 0);
        QCOMPARE(r.total[QStringLiteral("requests")].toInteger(), 10);
        QCOMPARE(r.total[QStringLiteral("requests")].toInteger(), qint64(answered.load()));
        if (closeOnArrival) // every request after a connection's first met the close, and went again
            QCOMPARE(r.total[QStringLiteral("retried_on_idle_close")].toInteger(), 9);
    }

    // Not idempotent: a POST that met a close is not sent twice; it is a reset.
    void aPostIsNotRetried()
    {
        Target target([](Peer& p) {
            if (p.readRequest().empty() || !p.write(kOk))
                return;
            if (!p.readRequest().empty())
                p.reset(); // the second request on a connection meets a close
        });
        const auto r = runOneEngine(summary(), {QStringLiteral("--url"), url(target, "/"), QStringLiteral("--method"),
                                                QStringLiteral("POST"), QStringLiteral("--body"), QStringLiteral("{}"),
                                                QStringLiteral("--rate"), QStringLiteral("10"), QStringLiteral("-d"),
                                                QStringLiteral("1s"), QStringLiteral("-c"), QStringLiteral("1")});
        QVERIFY2(!r.total.isEmpty(), qPrintable(r.cli.err));
        QCOMPARE(r.total[QStringLiteral("requests")].toInteger(), 10);
        QCOMPARE(errorsOf(r.total, "reset"), 5);
        QCOMPARE(r.total[QStringLiteral("retried_on_idle_close")].toInteger(), 0);
        QCOMPARE(target.requests(), 10);
    }
};

QTEST_GUILESS_MAIN(TestRequestWire)
#include "tst_requestwire.moc"
