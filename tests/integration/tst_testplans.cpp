// Test plans (issue "Test plans"), run by stampede-cli on two engines
// against a target the test starts: scenarios side by side at their own
// rates, a setup whose token reaches every request and a teardown that runs
// once (after a Ctrl-C too), a group timed as its steps' server delays
// together, and what a step's error does to the rest of its iteration.
#include "testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <map>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace testsupport;

namespace {

// An HTTP/1.1 keep-alive target: POST /login answers a token, /slow/N waits N
// ms, /fail answers 500, anything else 200 {"code": 0}; it keeps each
// request's target and Authorization, and when it came.
class PlanTarget
{
public:
    struct Seen
    {
        std::string target;
        std::string authorization;
        std::chrono::steady_clock::time_point at;
    };
    PlanTarget() : m_server([this](int fd) { serve(fd); }) {}
    int port() const { return m_server.port(); }
    QByteArray base() const { return "http://127.0.0.1:" + QByteArray::number(m_server.port()); }
    std::vector<Seen> seen() const
    {
        std::lock_guard lock(m_mutex);
        return m_seen;
    }
    std::size_t count(const std::string& prefix) const
    {
        std::size_t n = 0;
        for (const Seen& s : seen())
            n += s.target.rfind(prefix, 0) == 0;
        return n;
    }

private:
    void serve(int fd)
    {
        std::string in;
        for (RecordingServer::Request r; readRequest(fd, in, r);) {
            Seen s;
            s.at = std::chrono::steady_clock::now();
            const std::size_t sp = r.line.find(' ');
            s.target = r.line.substr(sp + 1, r.line.find(' ', sp + 1) - sp - 1);
            s.authorization = r.header("authorization");
            {
                std::lock_guard lock(m_mutex);
                m_seen.push_back(s);
            }
            if (s.target.rfind("/slow/", 0) == 0)
                std::this_thread::sleep_for(std::chrono::milliseconds(std::stoi(s.target.substr(6))));
            const bool fail = s.target.rfind("/fail", 0) == 0;
            const std::string body = s.target == "/login" ? R"({"data": {"token": "tok-123"}})" : R"({"code": 0})";
            const std::string answer =
                std::string(fail ? "HTTP/1.1 500 Internal Server Error" : "HTTP/1.1 200 OK") +
                "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" +
                body;
            if (::send(fd, answer.data(), answer.size(), MSG_NOSIGNAL) < 0)
                break;
        }
        ::close(fd);
    }

    mutable std::mutex m_mutex;
    std::vector<Seen> m_seen;
    RawServer m_server;
};

// JSON written with single quotes (a test reads better without escapes).
QByteArray q(QByteArray json)
{
    json.replace('\'', '"');
    return json;
}

} // namespace

class TestPlans : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Two scenarios at 40/s and 10/s on two engines: each sends its rate
    // (the open model's promise, per scenario). What a busy machine cannot
    // change is exact: every arrival of the 3 s was sent or counted dropped.
    // Each second's count is within a quarter of the rate: an arrival that
    // a busy machine sends a little late is counted in the next second.
    void twoScenariosDeliverTheirRates()
    {
        PlanTarget target;
        QTemporaryDir dir;
        const QString plan =
            writeFile(dir, "plan.json",
                      q("{'name': 'mix', 'variables': [{'name': 'base', 'constant': {'value': '" + target.base() +
                        "'}}], 'scenarios': ["
                        "{'name': 'browse', 'steps': [{'name': 'home', 'request': {'url': '${base}/home'}}],"
                        " 'load': {'open': {'rate': 40}}, 'duration': '3s'},"
                        "{'name': 'order', 'steps': [{'name': 'pay', 'request': {'url': '${base}/pay'}}],"
                        " 'load': {'open': {'rate': 10}}, 'duration': '3s'}]}"));
        const QString lines = dir.filePath(QStringLiteral("seconds.jsonl"));
        const QString summary = dir.filePath(QStringLiteral("summary.json"));
        const CliResult r = runCli({QStringLiteral("run"), plan, QStringLiteral("--engines"), QStringLiteral("2"),
                                    QStringLiteral("-q"), QStringLiteral("--out"), QStringLiteral("jsonl=") + lines,
                                    QStringLiteral("--summary-json"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QFile f(lines);
        QVERIFY(f.open(QIODevice::ReadOnly));
        int seconds = 0;
        while (!f.atEnd()) {
            const QJsonObject line = QJsonDocument::fromJson(f.readLine()).object();
            if (line.value(QStringLiteral("type")) != QLatin1String("second") ||
                line.value(QStringLiteral("t")).toInt() > 3)
                continue;
            std::map<QString, int> sent;
            for (const QJsonValue& st : line.value(QStringLiteral("steps")).toArray())
                sent[st.toObject().value(QStringLiteral("step")).toString()] =
                    st.toObject().value(QStringLiteral("sent")).toInt();
            QVERIFY2(std::abs(sent[QStringLiteral("browse/home")] - 40) <= 10,
                     qPrintable(QString::number(sent[QStringLiteral("browse/home")])));
            QVERIFY2(std::abs(sent[QStringLiteral("order/pay")] - 10) <= 3,
                     qPrintable(QString::number(sent[QStringLiteral("order/pay")])));
            ++seconds;
        }
        QCOMPARE(seconds, 3);
        std::map<QString, int> dropped;
        for (const QJsonValue& st : readJson(summary).value(QStringLiteral("steps")).toArray())
            dropped[st.toObject().value(QStringLiteral("name")).toString()] =
                st.toObject().value(QStringLiteral("dropped")).toInt();
        QCOMPARE(int(target.count("/home")) + dropped[QStringLiteral("browse/home")], 120);
        QCOMPARE(int(target.count("/pay")) + dropped[QStringLiteral("order/pay")], 30);
        QVERIFY(target.count("/home") >= 100 && target.count("/pay") >= 25);
    }

    // The setup logs in once; its token is a constant of every request of
    // both scenarios, and of the teardown, which runs once after the load.
    void setupValuesReachEveryRequest()
    {
        PlanTarget target;
        QTemporaryDir dir;
        const QString plan = writeFile(
            dir, "plan.json",
            q("{'name': 'sale', 'variables': [{'name': 'base', 'constant': {'value': '" + target.base() +
              "'}}],"
              "'setup': [{'name': 'admin', 'request': {'method': 'POST', 'url': '${base}/login', 'body': '{}'},"
              "  'extract': [{'name': 'token', 'jsonPath': '$.data.token'}]}],"
              "'scenarios': ["
              "{'name': 'browse', 'steps': [{'request': {'url': '${base}/home', 'headers': "
              "  [{'name': 'Authorization', 'value': 'Bearer ${token}'}]}}], 'load': {'open': {'rate': 20}}, "
              "  'duration': '2s'},"
              "{'name': 'order', 'steps': [{'request': {'url': '${base}/cart', 'headers': "
              "  [{'name': 'Authorization', 'value': 'Bearer ${token}'}]}}], 'load': {'closed': {'users': 2}}, "
              "  'duration': '2s', 'startAfter': '500ms'}],"
              "'teardown': [{'name': 'logout', 'request': {'url': '${base}/logout', 'headers': "
              "  [{'name': 'Authorization', 'value': 'Bearer ${token}'}]}}]}"));
        const QString summary = dir.filePath(QStringLiteral("s.json"));
        const CliResult r = runCli({QStringLiteral("run"), plan, QStringLiteral("--engines"), QStringLiteral("2"),
                                    QStringLiteral("-q"), QStringLiteral("--summary-json"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QCOMPARE(target.count("/login"), std::size_t(1));
        QCOMPARE(target.count("/logout"), std::size_t(1));
        std::size_t load = 0;
        for (const auto& s : target.seen()) {
            if (s.target == "/login")
                continue;
            QCOMPARE(QString::fromStdString(s.authorization), QStringLiteral("Bearer tok-123"));
            load += s.target != "/logout";
        }
        QVERIFY(load > 40);
        const QJsonObject s = readJson(summary);
        QVERIFY(s.value(QStringLiteral("setup")).toObject().value(QStringLiteral("ok")).toBool());
        QCOMPARE(
            s.value(QStringLiteral("setup")).toObject().value(QStringLiteral("values")).toArray().first().toString(),
            QStringLiteral("token"));
        QVERIFY(s.value(QStringLiteral("teardown")).toObject().value(QStringLiteral("ok")).toBool());
        QCOMPARE(s.value(QStringLiteral("scenarios")).toArray().size(), 2);
        // the teardown came after the last request of the load
        const auto seen = target.seen();
        QCOMPARE(seen.back().target, std::string("/logout"));
    }

    // Ctrl-C in a terminal (the whole process group): the load stops, and the
    // teardown still runs, once.
    void teardownRunsOnceAfterCtrlC()
    {
        PlanTarget target;
        QTemporaryDir dir;
        const QString plan =
            writeFile(dir, "plan.json",
                      q("{'name': 'long', 'variables': [{'name': 'base', 'constant': {'value': '" + target.base() +
                        "'}}], 'scenarios': [{'name': 'a', 'steps': [{'request': {'url': '${base}/a'}}],"
                        " 'load': {'open': {'rate': 20}}, 'duration': '20s'}],"
                        "'teardown': [{'request': {'url': '${base}/clean'}}]}"));
        const QString summary = dir.filePath(QStringLiteral("s.json"));
        QProcess cli;
        cli.setChildProcessModifier([] { ::setpgid(0, 0); }); // a group of its own, as a shell's job
        cli.start(cliPath(), {QStringLiteral("run"), plan, QStringLiteral("--engines"), QStringLiteral("2"),
                              QStringLiteral("-q"), QStringLiteral("--summary-json"), summary});
        QVERIFY(cli.waitForStarted());
        QTest::qWait(2000);
        QVERIFY(cli.processId() > 0 && ::kill(-pid_t(cli.processId()), SIGINT) == 0);
        QVERIFY(cli.waitForFinished(15000));
        QCOMPARE(target.count("/clean"), std::size_t(1));
        const QJsonObject s = readJson(summary);
        QCOMPARE(s.value(QStringLiteral("status")).toString(), QStringLiteral("stopped"));
        QVERIFY(s.value(QStringLiteral("teardown")).toObject().value(QStringLiteral("ok")).toBool());
        QVERIFY(target.count("/a") < 100); // stopped long before its 400
    }

    // A group's time per iteration is its steps' server delays together (30
    // ms and 50 ms); the think time after it is not part of it.
    void aGroupIsItsStepsTogether()
    {
        PlanTarget target;
        QTemporaryDir dir;
        const QString scenario = writeFile(dir, "s.json",
                                           q("{'name': 'g', 'steps': ["
                                             "{'name': 'cart', 'request': {'url': '" +
                                             target.base() +
                                             "/slow/30'}, 'group': 'checkout'},"
                                             "{'name': 'pay', 'request': {'url': '" +
                                             target.base() +
                                             "/slow/50'}, 'group': 'checkout', "
                                             " 'thinkTime': {'fixed': '100ms'}},"
                                             "{'name': 'done', 'request': {'url': '" +
                                             target.base() +
                                             "/done'}}],"
                                             "'load': {'closed': {'users': 2}}, 'duration': '3s',"
                                             "'thresholds': [{'expr': 'group checkout: p50 < 95ms'}]}"));
        const QString summary = dir.filePath(QStringLiteral("s.json.out"));
        const CliResult r = runCli({QStringLiteral("run"), scenario, QStringLiteral("--engines"), QStringLiteral("2"),
                                    QStringLiteral("-q"), QStringLiteral("--summary-json"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const QJsonObject g = readJson(summary).value(QStringLiteral("groups")).toArray().first().toObject();
        QCOMPARE(g.value(QStringLiteral("name")).toString(), QStringLiteral("checkout"));
        const double p50 = g.value(QStringLiteral("latency_ms")).toObject().value(QStringLiteral("p50")).toDouble();
        QVERIFY2(p50 >= 80 && p50 < 90, qPrintable(QString::number(p50)));
        QVERIFY(g.value(QStringLiteral("requests")).toInt() >= 2 * 10); // ~185 ms an iteration, 3 s, 2 users
    }

    // A group in a scenario that runs for the last second of three: its
    // rate is over that scenario's second, in the summary and the saved run.
    void aGroupsRateIsOverItsScenariosSeconds()
    {
        PlanTarget target;
        QTemporaryDir dir;
        const QString plan =
            writeFile(dir, "plan.json",
                      q("{'name': 'late', 'variables': [{'name': 'base', 'constant': {'value': '" + target.base() +
                        "'}}], 'scenarios': ["
                        "{'name': 'a', 'steps': [{'request': {'url': '${base}/a'}}], 'load': {'open': {'rate': 10}},"
                        " 'duration': '3s'},"
                        "{'name': 'b', 'startAfter': '2s', 'duration': '1s', 'load': {'open': {'rate': 20}},"
                        " 'steps': [{'name': 'cart', 'group': 'buy', 'request': {'url': '${base}/cart'}},"
                        "           {'name': 'pay', 'group': 'buy', 'request': {'url': '${base}/pay'}}]}]}"));
        const QString summary = dir.filePath(QStringLiteral("s.json"));
        const QString project = dir.filePath(QStringLiteral("p.stampede"));
        const CliResult r = runCli({QStringLiteral("run"), plan, QStringLiteral("-q"), QStringLiteral("--summary-json"),
                                    summary, QStringLiteral("--project"), project});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const QString back = dir.filePath(QStringLiteral("back.json"));
        const CliResult e = runCli({QStringLiteral("report"), QStringLiteral("export"), project,
                                    QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("-o"), back});
        QVERIFY2(e.exitCode == 0, qPrintable(e.err));
        for (const QString& file : {summary, back}) {
            const QJsonObject g = readJson(file).value(QStringLiteral("groups")).toArray().first().toObject();
            QCOMPARE(g.value(QStringLiteral("name")).toString(), QStringLiteral("buy"));
            QCOMPARE(g.value(QStringLiteral("requests")).toInt(), 20);
            QVERIFY2(std::abs(g.value(QStringLiteral("rate")).toDouble() - 20) < 0.5,
                     qPrintable(QString(file)
                                    .append(QStringLiteral(": "))
                                    .append(QString::number(g.value(QStringLiteral("rate")).toDouble()))));
        }
        // compare sets each scenario and group of two runs side by side
        QCOMPARE(
            runCli({QStringLiteral("run"), plan, QStringLiteral("-q"), QStringLiteral("--project"), project}).exitCode,
            0);
        const CliResult c = runCli({QStringLiteral("report"), QStringLiteral("compare"), project + QStringLiteral("@1"),
                                    project + QStringLiteral("@2")});
        QVERIFY2(c.out.contains(QStringLiteral("scenario a ")) && c.out.contains(QStringLiteral("scenario b ")),
                 qPrintable(c.out));
        QVERIFY2(c.out.contains(QStringLiteral("group buy ")), qPrintable(c.out));
    }

    // A rendezvous of 10 users on two engines: they reach it over half a
    // second (a random think time), and the target sees all 10 together
    // (within 10 ms on a quiet machine; within a fifth of the spread they came
    // over on a busy one, where a thread may wait its turn for the CPU).
    void aRendezvousArrivesTogether()
    {
        PlanTarget target;
        QTemporaryDir dir;
        const QString scenario = writeFile(dir, "s.json",
                                           q("{'steps': [{'request': {'url': '" + target.base() +
                                             "/warm'}, "
                                             "'thinkTime': {'uniform': ['10ms', '500ms']}},"
                                             "{'request': {'url': '" +
                                             target.base() +
                                             "/sale'}, 'rendezvous': {'users': 10, 'timeout': '5s'}}],"
                                             "'load': {'closed': {'users': 10}}, 'iterations': 1}"));
        const QString summary = dir.filePath(QStringLiteral("s.json.out"));
        const CliResult r = runCli({QStringLiteral("run"), scenario, QStringLiteral("--engines"), QStringLiteral("2"),
                                    QStringLiteral("-q"), QStringLiteral("--summary-json"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        std::vector<std::chrono::steady_clock::time_point> sales;
        for (const auto& s : target.seen())
            if (s.target == "/sale")
                sales.push_back(s.at);
        QCOMPARE(sales.size(), std::size_t(10));
        const auto [first, last] = std::minmax_element(sales.begin(), sales.end());
        const auto spread = std::chrono::duration_cast<std::chrono::microseconds>(*last - *first).count();
        qInfo("10 users at the target within %lld us", static_cast<long long>(spread));
        QVERIFY2(spread <= 100000, qPrintable(QStringLiteral("%1 us").arg(spread)));
        const QJsonObject total = readJson(summary).value(QStringLiteral("total")).toObject();
        QCOMPARE(total.value(QStringLiteral("rendezvous")).toInt(), 10);
        QCOMPARE(total.value(QStringLiteral("rendezvous_timeouts")).toInt(), 0);
    }

    // An error ends the iteration by default (nextIteration): the step after
    // it is never sent; with onError continue it is sent every time.
    void anErrorDecidesTheRestOfTheIteration_data()
    {
        QTest::addColumn<QString>("onError");
        QTest::addColumn<bool>("afterSent");
        QTest::newRow("nextIteration (the default)") << QString() << false;
        QTest::newRow("continue") << QStringLiteral("continue") << true;
    }
    void anErrorDecidesTheRestOfTheIteration()
    {
        QFETCH(QString, onError);
        QFETCH(bool, afterSent);
        PlanTarget target;
        QTemporaryDir dir;
        const QByteArray action = onError.isEmpty() ? QByteArray() : ", 'onError': '" + onError.toUtf8() + "'";
        const QString scenario = writeFile(dir, "s.json",
                                           q("{'steps': [{'request': {'url': '" + target.base() + "/fail'}" + action +
                                             "},"
                                             "{'request': {'url': '" +
                                             target.base() +
                                             "/after'}}],"
                                             "'load': {'closed': {'users': 1}}, 'iterations': 5}"));
        const CliResult r = runCli(
            {QStringLiteral("run"), scenario, QStringLiteral("--engines"), QStringLiteral("1"), QStringLiteral("-q")});
        QCOMPARE(r.exitCode, afterSent ? 0 : 1); // no thresholds: it fails when no request succeeded
        QCOMPARE(target.count("/fail"), std::size_t(5));
        QCOMPARE(target.count("/after"), std::size_t(afterSent ? 5 : 0));
    }
};

QTEST_GUILESS_MAIN(TestPlans)
#include "tst_testplans.moc"
