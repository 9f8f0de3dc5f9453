// The live breaker (issue "Full-link guard rails"), run by stampede-cli
// against a server in this process that starts failing at a known moment:
// a stop rule ends the run within its bound (exit 1, the event in the
// summary and the saved report), a degrade rule lowers the rate the server
// sees, and a rule that does not parse is bad input.
#include "testsupport.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <map>
#include <mutex>
#include <unistd.h>

using namespace testsupport;
using Clock = std::chrono::steady_clock;

namespace {

// Answers 200 until `failAfter` past its first request, then 500; counts the
// requests of each second since the first.
class FailingServer
{
public:
    explicit FailingServer(std::chrono::milliseconds failAfter)
        : m_failAfter(failAfter), m_server([this](int fd) { serve(fd); })
    {
    }
    int port() const { return m_server.port(); }
    std::map<int, int> perSecond()
    {
        std::lock_guard lock(m_mutex);
        return m_perSecond;
    }

private:
    void serve(int fd)
    {
        for (;;) {
            if (readRequestHead(fd).empty())
                break;
            bool fail = false;
            {
                std::lock_guard lock(m_mutex);
                const auto now = Clock::now();
                if (!m_started)
                    m_started = now;
                ++m_perSecond[int(std::chrono::duration_cast<std::chrono::seconds>(now - *m_started).count())];
                fail = now - *m_started >= m_failAfter;
            }
            static const char ok[] = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
            static const char bad[] = "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 4\r\n\r\nbusy";
            const char* answer = fail ? bad : ok;
            const std::size_t size = fail ? sizeof bad - 1 : sizeof ok - 1;
            if (::write(fd, answer, size) != ssize_t(size))
                break;
        }
        ::close(fd);
    }

    std::chrono::milliseconds m_failAfter;
    std::mutex m_mutex;
    std::optional<Clock::time_point> m_started;
    std::map<int, int> m_perSecond;
    RawServer m_server;
};

} // namespace

class TestGuardRails : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    CliResult run(int port, const QString& duration, const QStringList& breakers, const QString& summary,
                  const QStringList& extra = {})
    {
        QStringList args{QStringLiteral("run"),
                         QStringLiteral("--url"),
                         QStringLiteral("http://127.0.0.1:%1/").arg(port),
                         QStringLiteral("--rate"),
                         QStringLiteral("200"),
                         QStringLiteral("-c"),
                         QStringLiteral("8"),
                         QStringLiteral("-d"),
                         duration,
                         QStringLiteral("--engines"),
                         QStringLiteral("1"),
                         QStringLiteral("-t"),
                         QStringLiteral("1"),
                         QStringLiteral("-q"),
                         QStringLiteral("--summary-json"),
                         summary};
        for (const QString& b : breakers)
            args << QStringLiteral("--breaker") << b;
        return runCli(args + extra);
    }

private slots:
    // Errors from 3 s on, "error_rate > 5% for 2x1s: stop": the run stops
    // within 2 + 1 s of the first failing second, as stopped by the breaker
    // (exit 1, not a crash or a Ctrl-C), with the trip as an event.
    void errorsStopTheRunInTime()
    {
        FailingServer server(std::chrono::milliseconds(3000));
        const QString summary = m_dir.filePath(QStringLiteral("stop.json"));
        const QString report = m_dir.filePath(QStringLiteral("stop.streport"));
        QElapsedTimer wall;
        wall.start();
        auto r = run(server.port(), QStringLiteral("30s"), {QStringLiteral("error_rate > 5% for 2x1s: stop")}, summary,
                     {QStringLiteral("--report"), report});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(wall.elapsed() < 15000, qPrintable(QString::number(wall.elapsed())));
        const QJsonObject s = readJson(summary);
        QCOMPARE(s.value(QStringLiteral("status")).toString(), QStringLiteral("stopped_by_breaker"));
        QVERIFY(s.value(QStringLiteral("reason")).toString().startsWith(QStringLiteral("stopped by breaker: rule")));
        QVERIFY(!s.value(QStringLiteral("passed")).toBool());
        double at = -1;
        for (const auto& e : s.value(QStringLiteral("events")).toArray())
            if (e.toObject().value(QStringLiteral("kind")).toString() == QLatin1String("breaker"))
                at = e.toObject().value(QStringLiteral("at_s")).toDouble();
        // the first failing second is the 4th (3-4 s): the trip comes at most 2 + 1 s after it
        QVERIFY2(at >= 4 && at <= 4 + 2 + 1, qPrintable(QString::number(at)));
        QVERIFY2(s.value(QStringLiteral("duration_s")).toDouble() <= at + 1.5,
                 qPrintable(QString::number(s.value(QStringLiteral("duration_s")).toDouble())));
        QVERIFY(r.err.contains(QStringLiteral("stopped by breaker")));
        // the saved report says the same
        const QString back = m_dir.filePath(QStringLiteral("stop-back.json"));
        QCOMPARE(runCli({QStringLiteral("report"), QStringLiteral("export"), report, QStringLiteral("--format"),
                         QStringLiteral("json"), QStringLiteral("-o"), back})
                     .exitCode,
                 0);
        const QJsonObject saved = readJson(back);
        QCOMPARE(saved.value(QStringLiteral("reason")), s.value(QStringLiteral("reason")));
        QCOMPARE(saved.value(QStringLiteral("status")).toString(), QStringLiteral("stopped_by_breaker"));
    }

    // "degrade 50%" each second that errors stay above 5 %: the server sees
    // the rate halve and halve again, down to a tenth of the plan, never to 0.
    void degradeLowersTheRateTheServerSees()
    {
        FailingServer server(std::chrono::milliseconds(2000));
        const QString summary = m_dir.filePath(QStringLiteral("degrade.json"));
        const auto r = run(server.port(), QStringLiteral("9s"),
                           {QStringLiteral("error_rate > 5% for 1x1s: degrade 50%")}, summary);
        QCOMPARE(r.exitCode, 0); // degraded, not stopped: with no threshold the run passes
        const auto seen = server.perSecond();
        QVERIFY2(seen.count(0) && seen.at(0) >= 180, qPrintable(QString::number(seen.count(0) ? seen.at(0) : -1)));
        int late = 0;
        for (int s = 7; s <= 8; ++s)
            late += seen.count(s) ? seen.at(s) : 0;
        QVERIFY2(late >= 20 && late <= 2 * 200 * 0.2, qPrintable(QString::number(late))); // about 10 % of plan
        QStringList trips;
        for (const auto& e : readJson(summary).value(QStringLiteral("events")).toArray())
            if (e.toObject().value(QStringLiteral("kind")).toString() == QLatin1String("breaker"))
                trips << e.toObject().value(QStringLiteral("detail")).toString();
        QVERIFY2(trips.size() >= 3, qPrintable(trips.join(u'\n')));
        QVERIFY2(trips[0].endsWith(QStringLiteral("the load goes to 50% of plan")), qPrintable(trips[0]));
        QVERIFY2(trips.last().endsWith(QStringLiteral("the load goes to 10% of plan")), qPrintable(trips.last()));
    }

    // The scenario's own rules (its "breaker"), the same as the command line's.
    void scenarioRulesStopTheRun()
    {
        FailingServer server(std::chrono::milliseconds(2000));
        const QString scenario = writeFile(
            m_dir, "breaker.json",
            QStringLiteral("{\"steps\": [{\"name\": \"page\", \"request\": {\"url\": \"http://127.0.0.1:%1/\"}}], "
                           "\"load\": {\"open\": {\"rate\": 100}}, \"connections\": 4, \"duration\": \"30s\", "
                           "\"breaker\": {\"rules\": [{\"name\": \"errors\", \"when\": \"error_rate > 5%\", "
                           "\"window\": \"2s\", \"consecutive\": 2, \"action\": \"stop\", \"step\": \"page\"}]}}")
                .arg(server.port())
                .toUtf8());
        const QString summary = m_dir.filePath(QStringLiteral("scenario-stop.json"));
        const auto r = runCli({QStringLiteral("run"), scenario, QStringLiteral("--engines"), QStringLiteral("1"),
                               QStringLiteral("-q"), QStringLiteral("--summary-json"), summary});
        QCOMPARE(r.exitCode, 1);
        const QJsonObject s = readJson(summary);
        QCOMPARE(s.value(QStringLiteral("status")).toString(), QStringLiteral("stopped_by_breaker"));
        QVERIFY2(s.value(QStringLiteral("reason")).toString().contains(QStringLiteral("rule \"errors\"")),
                 qPrintable(s.value(QStringLiteral("reason")).toString()));
        QVERIFY(s.value(QStringLiteral("duration_s")).toDouble() < 8);
    }

    // The target's own metric, read from an exposition endpoint the test
    // controls: app_load is 10 for the first 3 s, then 95; "server:app_load >
    // 80 for 2x1s: stop" stops the run in time. A source that cannot be read
    // is an event, not a failed run; the summary keeps each metric's mean.
    void serverMetricStopsTheRun()
    {
        FailingServer target(std::chrono::milliseconds(100000)); // never fails
        std::mutex m;
        std::optional<Clock::time_point> first;
        int scrapes = 0;
        RawServer metrics([&](int fd) {
            if (readRequestHead(fd).empty()) {
                ::close(fd);
                return;
            }
            double load = 10;
            {
                std::lock_guard lock(m);
                ++scrapes;
                if (!first)
                    first = Clock::now();
                if (Clock::now() - *first >= std::chrono::milliseconds(3000))
                    load = 95;
            }
            const std::string body = "# TYPE app_load gauge\napp_load{job=\"app\"} " + std::to_string(load) +
                                     "\napp_load{job=\"other\"} 1000\n";
            const std::string answer =
                "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + std::to_string(body.size()) +
                "\r\nConnection: close\r\n\r\n" + body;
            (void)!::write(fd, answer.data(), answer.size());
            ::close(fd);
        });
        const int closedPort = freePort();
        const QString scenario = writeFile(
            m_dir, "server.json",
            QStringLiteral(
                "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1:%1/\"}}], "
                "\"load\": {\"open\": {\"rate\": 50}}, \"connections\": 2, \"duration\": \"30s\", "
                "\"serverMetrics\": [{\"name\": \"app_load\", \"scrape\": \"http://127.0.0.1:%2/metrics\", "
                "\"series\": \"app_load\", \"labels\": {\"job\": \"app\"}}, {\"name\": \"gone\", \"scrape\": "
                "\"http://127.0.0.1:%3/metrics\", \"series\": \"x\"}], "
                "\"breaker\": {\"rules\": [{\"name\": \"app overloaded\", \"when\": \"server:app_load > 80\", "
                "\"window\": \"1s\", \"consecutive\": 2, \"action\": \"stop\"}]}}")
                .arg(target.port())
                .arg(metrics.port())
                .arg(closedPort)
                .toUtf8());
        const QString summary = m_dir.filePath(QStringLiteral("server.json.summary"));
        const auto r = runCli({QStringLiteral("run"), scenario, QStringLiteral("--engines"), QStringLiteral("1"),
                               QStringLiteral("-q"), QStringLiteral("--summary-json"), summary});
        QCOMPARE(r.exitCode, 1);
        const QJsonObject s = readJson(summary);
        QCOMPARE(s.value(QStringLiteral("status")).toString(), QStringLiteral("stopped_by_breaker"));
        QVERIFY2(s.value(QStringLiteral("reason")).toString().contains(QStringLiteral("95 over the last 1 s")),
                 qPrintable(s.value(QStringLiteral("reason")).toString()));
        const double ran = s.value(QStringLiteral("duration_s")).toDouble();
        QVERIFY2(ran >= 4 && ran <= 3 + 2 + 2, qPrintable(QString::number(ran)));
        const double mean = s.value(QStringLiteral("total"))
                                .toObject()
                                .value(QStringLiteral("server"))
                                .toObject()
                                .value(QStringLiteral("app_load"))
                                .toDouble();
        QVERIFY2(mean > 10 && mean < 95, qPrintable(QString::number(mean))); // only job="app", never the 1000
        bool told = false;
        for (const auto& e : s.value(QStringLiteral("events")).toArray())
            told |= e.toObject().value(QStringLiteral("kind")).toString() == QLatin1String("server_metric") &&
                    e.toObject().value(QStringLiteral("detail")).toString().startsWith(QStringLiteral("gone: "));
        QVERIFY(told);
        std::lock_guard lock(m);
        QVERIFY(scrapes >= 4);
    }

    void badRulesAreBadInput_data()
    {
        QTest::addColumn<QString>("rule");
        QTest::addColumn<QString>("message");
        QTest::addRow("no action") << "p99 > 300ms"
                                   << "--breaker \"p99 > 300ms\": expected CONDITION";
        QTest::addRow("window under 1s") << "p99 > 1ms for 3x100ms: stop"
                                         << "a window is whole seconds";
        QTest::addRow("unknown metric") << "latency > 1ms: stop"
                                        << "unknown metric \"latency\"";
        QTest::addRow("unknown step") << "nope: p99 > 1ms: stop"
                                      << "--breaker: no step is named \"nope\"";
    }
    void badRulesAreBadInput()
    {
        QFETCH(QString, rule);
        QFETCH(QString, message);
        FailingServer server(std::chrono::milliseconds(100000));
        const auto r = run(server.port(), QStringLiteral("1s"), {rule}, m_dir.filePath(QStringLiteral("bad.json")));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(server.perSecond().empty()); // nothing was sent
    }
};

QTEST_GUILESS_MAIN(TestGuardRails)
#include "tst_guardrails.moc"
