// The engine pool, with real processes on loopback: agents started by the
// test, driven by stampede-cli as controller.
#include "control/controller.h"
#include "stampede/v1/bundle.pb.h"
#include "stampede/v1/control.grpc.pb.h"
#include "testsupport.h"
#include "wire/snapshotcodec.h"

#include <algorithm>

#include <grpcpp/grpcpp.h>

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <csignal>
#include <mutex>
#include <set>
#include <unistd.h>

using namespace testsupport;

class TestPool : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_token;
    QString m_wrongToken;

    QString write(const char* name, const QByteArray& content) { return writeFile(m_dir, name, content); }
    static QString joined(const std::vector<std::unique_ptr<AgentProcess>>& agents)
    {
        QStringList a;
        for (const auto& p : agents)
            a << p->address();
        return a.join(QLatin1Char(','));
    }
    std::vector<std::unique_ptr<AgentProcess>> agents(int n, const QStringList& extra = {})
    {
        std::vector<std::unique_ptr<AgentProcess>> out;
        for (int i = 0; i < n; ++i)
            out.push_back(std::make_unique<AgentProcess>(m_token, QStringLiteral("a%1").arg(i + 1), extra));
        return out;
    }

private slots:
    void initTestCase()
    {
        m_token = write("token", "s3cret-token\n");
        m_wrongToken = write("wrong", "not-the-token\n");
    }

    void csvRowsAreUsedByExactlyOneAgent()
    {
        std::mutex m;
        std::multiset<std::string> ids;
        RawServer server([&](int fd) {
            for (;;) {
                const std::string h = readRequestHead(fd);
                if (h.empty())
                    break;
                const std::size_t a = h.find("/item/") + 6;
                {
                    std::lock_guard lock(m);
                    ids.insert(h.substr(a, h.find(' ', a) - a));
                }
                const char ok[] = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
                if (::write(fd, ok, sizeof ok - 1) < 0)
                    break;
            }
            ::close(fd);
        });
        QByteArray csv = "id\n";
        for (int i = 0; i < 300; ++i)
            csv += QByteArray::number(1000 + i) + '\n';
        write("rows.csv", csv);
        const QString scenario = write(
            "csv.json",
            "{\"variables\": [{\"name\": \"rows\", \"csv\": {\"file\": \"rows.csv\", \"mode\": \"CSV_MODE_STOP\"}}],"
            "\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1:" +
                QByteArray::number(server.port()) +
                "/item/${rows.id}\"}}], \"load\": {\"closed\": {\"users\": 6}}, \"duration\": \"20s\"}");
        auto pool = agents(3);
        const QString summary = m_dir.filePath(QStringLiteral("csv-summary.json"));
        const auto r = runCli({QStringLiteral("run"), scenario, QStringLiteral("--agents"), joined(pool),
                               QStringLiteral("--token-file"), m_token, QStringLiteral("-q"),
                               QStringLiteral("--summary-json"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        std::lock_guard lock(m);
        QCOMPARE(ids.size(), std::size_t(300));
        QCOMPARE(std::set<std::string>(ids.begin(), ids.end()).size(), std::size_t(300));
        QCOMPARE(readJson(summary)[QStringLiteral("total")].toObject()[QStringLiteral("requests")].toInteger(), 300);
        QCOMPARE(readJson(summary)[QStringLiteral("engines")].toArray().size(), 3);
    }

    void countsAndMergedP99()
    {
        MockProcess mock(QStringLiteral(
            "{\"rules\": [{\"path\": \"/*\", \"delay\": {\"uniform\": {\"minMs\": 1, \"maxMs\": 20}}}]}"));
        QVERIFY(mock.started());
        auto pool = agents(3);
        const QString summary = m_dir.filePath(QStringLiteral("p99.json"));
        const auto r =
            runCli({QStringLiteral("run"), QStringLiteral("--url"), mock.url(), QStringLiteral("-r"),
                    QStringLiteral("600"), QStringLiteral("-c"), QStringLiteral("30"), QStringLiteral("-d"),
                    QStringLiteral("3s"), QStringLiteral("--agents"), joined(pool), QStringLiteral("--token-file"),
                    m_token, QStringLiteral("-q"), QStringLiteral("--summary-json"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto s = readJson(summary);
        const auto total = s[QStringLiteral("total")].toObject();
        QCOMPARE(total[QStringLiteral("requests")].toInteger(), 1800);
        QCOMPARE(mock.stats()[QStringLiteral("total")].toInteger(), 1800);

        // The union of the agents' raw histograms, read back from each agent.
        stampede::LatencyHistogram all;
        const std::string runId = s[QStringLiteral("run_id")].toString().toStdString();
        for (const auto& a : pool) {
            auto stub = stampede::v1::EngineControl::NewStub(
                grpc::CreateChannel(a->address().toStdString(), grpc::InsecureChannelCredentials()));
            grpc::ClientContext ctx;
            ctx.AddMetadata("authorization", "Bearer s3cret-token");
            stampede::v1::WatchRequest rq;
            rq.set_run_id(runId);
            auto reader = stub->Watch(&ctx, rq);
            stampede::v1::Snapshot snap;
            int seen = 0;
            while (reader->Read(&snap)) {
                stampede::IntervalMetrics m;
                std::string error;
                QVERIFY(stampede::decodeSnapshot(snap, m, error));
                for (const auto& st : m.steps)
                    all.merge(st.latency);
                ++seen;
            }
            QVERIFY(reader->Finish().ok());
            QVERIFY(seen >= 3);
        }
        QCOMPARE(all.count(), std::uint64_t(1800));
        const double unionP99 = all.percentile(99) / 1000.0;
        const double merged = total[QStringLiteral("latency_ms")].toObject()[QStringLiteral("p99")].toDouble();
        QVERIFY2(std::abs(unionP99 - merged) < 0.0006,
                 qPrintable(QStringLiteral("%1 vs %2").arg(unionP99).arg(merged)));
    }

    void agentKilledMidRun_data()
    {
        QTest::addColumn<QString>("policy");
        QTest::addRow("abort") << "abort";
        QTest::addRow("continue") << "continue";
    }
    void agentKilledMidRun()
    {
        QFETCH(QString, policy);
        MockProcess mock;
        QVERIFY(mock.started());
        auto pool = agents(3);
        const QString summary = m_dir.filePath(QStringLiteral("kill.json"));
        QProcess run;
        QElapsedTimer clock;
        clock.start();
        run.start(cliPath(), {QStringLiteral("run"), QStringLiteral("--url"), mock.url(), QStringLiteral("-r"),
                              QStringLiteral("300"), QStringLiteral("-c"), QStringLiteral("6"), QStringLiteral("-d"),
                              QStringLiteral("8s"), QStringLiteral("--agents"), joined(pool),
                              QStringLiteral("--token-file"), m_token, QStringLiteral("--on-agent-loss"), policy,
                              QStringLiteral("-q"), QStringLiteral("--summary-json"), summary});
        QVERIFY(run.waitForStarted());
        QThread::msleep(2500);
        QVERIFY(signalProcess(pool[1]->pid(), SIGKILL));
        const qint64 killedAt = clock.elapsed();
        QVERIFY(run.waitForFinished(30000));
        const qint64 endedAt = clock.elapsed();
        const auto s = readJson(summary);
        const auto events = s[QStringLiteral("events")].toArray();
        QJsonObject lost; // the first loss (a loaded machine may add a generator_limited warning before it)
        for (const QJsonValue e : events) {
            if (e[QStringLiteral("kind")].toString() == QStringLiteral("generator_limited"))
                qInfo("%s", qPrintable(e[QStringLiteral("detail")].toString()));
            if (lost.isEmpty() && e[QStringLiteral("kind")].toString() == QStringLiteral("agent_lost"))
                lost = e.toObject();
        }
        QCOMPARE(lost[QStringLiteral("kind")].toString(), QStringLiteral("agent_lost"));
        QVERIFY(lost[QStringLiteral("agent")].toString().startsWith(QStringLiteral("a2")));
        QCOMPARE(lost[QStringLiteral("from_second")].toInt(), 1);
        QVERIFY(lost[QStringLiteral("to_second")].toInt() >= 1 && lost[QStringLiteral("to_second")].toInt() <= 3);
        // detected within 3 s (plus the loop's 100 ms and process start-up slack)
        const double detectedAt = lost[QStringLiteral("at_s")].toDouble() * 1000;
        QVERIFY2(detectedAt - double(killedAt) < 3600, qPrintable(QString::number(detectedAt - double(killedAt))));
        if (policy == QLatin1String("abort")) {
            QCOMPARE(run.exitCode(), 3);
            QVERIFY(s[QStringLiteral("aborted")].toBool());
            QVERIFY(endedAt < killedAt + 5000); // stop brings the others to idle
        } else {
            // it went on without the lost engine's share: not as planned, and it says why
            QCOMPARE(run.exitCode(), 1);
            QVERIFY2(s[QStringLiteral("reason")].toString().startsWith(QStringLiteral("not as planned: ")),
                     qPrintable(s[QStringLiteral("reason")].toString()));
            QVERIFY(!s[QStringLiteral("aborted")].toBool());
            QVERIFY(endedAt >= 8000);
        }
        // nothing counted twice: each second once, and the seconds add up to the total
        std::set<int> seconds;
        qint64 sum = 0;
        for (const auto& t : s[QStringLiteral("timeline")].toArray()) {
            QVERIFY(seconds.insert(t.toObject()[QStringLiteral("t")].toInt()).second);
            sum += t.toObject()[QStringLiteral("requests")].toInteger();
        }
        QCOMPARE(sum, s[QStringLiteral("total")].toObject()[QStringLiteral("requests")].toInteger());
        QVERIFY(sum <= mock.stats()[QStringLiteral("total")].toInteger());
    }

    void stoppedAgentIsNotCountedTwice()
    {
        MockProcess mock;
        QVERIFY(mock.started());
        auto pool = agents(3);
        const QString summary = m_dir.filePath(QStringLiteral("stop.json"));
        QProcess run;
        run.start(cliPath(),
                  {QStringLiteral("run"), QStringLiteral("--url"), mock.url(), QStringLiteral("-r"),
                   QStringLiteral("300"), QStringLiteral("-c"), QStringLiteral("6"), QStringLiteral("-d"),
                   QStringLiteral("9s"), QStringLiteral("--agents"), joined(pool), QStringLiteral("--token-file"),
                   m_token, QStringLiteral("--on-agent-loss"), QStringLiteral("continue"), QStringLiteral("-q"),
                   QStringLiteral("--summary-json"), summary});
        QVERIFY(run.waitForStarted());
        QThread::msleep(2000);
        QVERIFY(signalProcess(pool[0]->pid(), SIGSTOP));
        QThread::msleep(5000);
        QVERIFY(signalProcess(pool[0]->pid(), SIGCONT));
        QVERIFY(run.waitForFinished(30000));
        QCOMPARE(run.exitCode(), 1); // a frozen engine's share was not made: not as planned
        const auto s = readJson(summary);
        std::set<int> seconds;
        qint64 sum = 0;
        for (const auto& t : s[QStringLiteral("timeline")].toArray()) {
            QVERIFY(seconds.insert(t.toObject()[QStringLiteral("t")].toInt()).second);
            sum += t.toObject()[QStringLiteral("requests")].toInteger();
        }
        QCOMPARE(sum, s[QStringLiteral("total")].toObject()[QStringLiteral("requests")].toInteger());
        QVERIFY(sum <= mock.stats()[QStringLiteral("total")].toInteger());
        // the loss is said (beside, on a loaded machine, a generator_limited warning)
        const auto events = s[QStringLiteral("events")].toArray();
        QVERIFY(std::any_of(events.begin(), events.end(), [](const QJsonValue& e) {
            return e[QStringLiteral("kind")].toString() == QStringLiteral("agent_lost");
        }));
    }

    void deadControllerStopsTheLoad()
    {
        MockProcess mock;
        QVERIFY(mock.started());
        auto pool = agents(1, {QStringLiteral("--dead-man"), QStringLiteral("2")});
        QProcess run;
        run.start(cliPath(),
                  {QStringLiteral("run"), QStringLiteral("--url"), mock.url(), QStringLiteral("-c"),
                   QStringLiteral("2"), QStringLiteral("-d"), QStringLiteral("60s"), QStringLiteral("--agents"),
                   pool[0]->address(), QStringLiteral("--token-file"), m_token, QStringLiteral("-q")});
        QVERIFY(run.waitForStarted());
        QThread::msleep(1500);
        run.kill(); // SIGKILL: no goodbye
        run.waitForFinished();
        QThread::msleep(3500); // dead-man time, plus margin
        const qint64 a = mock.stats()[QStringLiteral("total")].toInteger();
        QThread::msleep(1000);
        const qint64 b = mock.stats()[QStringLiteral("total")].toInteger();
        QVERIFY(a > 0);
        QCOMPARE(b, a);
    }

    void wrongTokenIsRejected()
    {
        MockProcess mock;
        QVERIFY(mock.started());
        auto pool = agents(1);
        const auto r =
            runCli({QStringLiteral("run"), QStringLiteral("--url"), mock.url(), QStringLiteral("-c"),
                    QStringLiteral("1"), QStringLiteral("-d"), QStringLiteral("1s"), QStringLiteral("--agents"),
                    pool[0]->address(), QStringLiteral("--token-file"), m_wrongToken});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(QStringLiteral("a valid token is required")), qPrintable(r.err));
        QCOMPARE(mock.stats()[QStringLiteral("total")].toInteger(), 0);
    }

    void busyAgentNamesItsHolder()
    {
        MockProcess mock;
        QVERIFY(mock.started());
        auto pool = agents(1);
        QProcess first;
        first.start(cliPath(),
                    {QStringLiteral("run"), QStringLiteral("--url"), mock.url(), QStringLiteral("-c"),
                     QStringLiteral("1"), QStringLiteral("-d"), QStringLiteral("3s"), QStringLiteral("--agents"),
                     pool[0]->address(), QStringLiteral("--token-file"), m_token, QStringLiteral("-q")});
        QVERIFY(first.waitForStarted());
        QThread::msleep(1000);
        const auto r =
            runCli({QStringLiteral("run"), QStringLiteral("--url"), mock.url(), QStringLiteral("-c"),
                    QStringLiteral("1"), QStringLiteral("-d"), QStringLiteral("1s"), QStringLiteral("--agents"),
                    pool[0]->address(), QStringLiteral("--token-file"), m_token});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(QStringLiteral("is busy with run st-")), qPrintable(r.err));
        QVERIFY(r.err.contains(QStringLiteral("for stampede-cli")));
        QVERIFY(first.waitForFinished(10000));
        QCOMPARE(first.exitCode(), 0);
    }

    void unreachableAgentTimesOut()
    {
        const auto r = runCli({QStringLiteral("run"), QStringLiteral("--url"), QStringLiteral("http://127.0.0.1:9/"),
                               QStringLiteral("-d"), QStringLiteral("1s"), QStringLiteral("--agents"),
                               QStringLiteral("127.0.0.1:%1").arg(freePort())});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(QStringLiteral("no answer within the start timeout")), qPrintable(r.err));
    }

    void agentRefusesOpenAddressWithoutTls()
    {
        const auto r = runCli({QStringLiteral("agent"), QStringLiteral("--listen"), QStringLiteral("0.0.0.0:0"),
                               QStringLiteral("--token-file"), m_token});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("needs --token-file and --tls-cert")));
    }

    void tlsAgentAndPrometheusMetrics()
    {
        const QString cert = m_dir.filePath(QStringLiteral("agent.crt"));
        const QString key = m_dir.filePath(QStringLiteral("agent.key"));
        QProcess openssl;
        openssl.start(QStringLiteral("openssl"),
                      {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                       QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-days"),
                       QStringLiteral("1"), QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1"),
                       QStringLiteral("-addext"), QStringLiteral("subjectAltName=IP:127.0.0.1"),
                       QStringLiteral("-keyout"), key, QStringLiteral("-out"), cert});
        QVERIFY(openssl.waitForFinished(30000));
        QCOMPARE(openssl.exitCode(), 0);
        MockProcess mock;
        QVERIFY(mock.started());
        const int metricsPort = freePort();
        AgentProcess agent(m_token, QStringLiteral("tls-agent"),
                           {QStringLiteral("--tls-cert"), cert, QStringLiteral("--tls-key"), key,
                            QStringLiteral("--metrics"), QStringLiteral("127.0.0.1:%1").arg(metricsPort)});
        QVERIFY(!agent.address().isEmpty());
        QTemporaryDir dir;
        const QString summary = dir.filePath(QStringLiteral("s.json"));
        auto r = runCli({QStringLiteral("run"), QStringLiteral("--url"), mock.url(), QStringLiteral("-c"),
                         QStringLiteral("2"), QStringLiteral("-d"), QStringLiteral("1s"), QStringLiteral("--agents"),
                         agent.address(), QStringLiteral("--token-file"), m_token, QStringLiteral("--ca"), cert,
                         QStringLiteral("-q"), QStringLiteral("--summary-json"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // the agent's part of the run in the controller's series (the same names and labels): one agent's part
        // is the whole run
        const QString metrics = QString::fromStdString(httpGet(metricsPort, "/metrics"));
        const qint64 requests =
            readJson(summary)[QStringLiteral("total")].toObject()[QStringLiteral("requests")].toInteger();
        QVERIFY(requests > 0);
        const QRegularExpression line(QStringLiteral("^(stampede_requests_total|stampede_latency_seconds_count)\\{[^}]*"
                                                     "step=\"[^\"]*\"\\} (\\d+)$"),
                                      QRegularExpression::MultilineOption);
        int seen = 0;
        for (auto it = line.globalMatch(metrics); it.hasNext(); ++seen) {
            const auto m = it.next();
            QCOMPARE(m.captured(2).toLongLong(), requests);
        }
        QVERIFY2(seen == 2, qPrintable(metrics));
        QVERIFY(metrics.contains(QStringLiteral("# TYPE stampede_latency_seconds histogram")));
        QVERIFY(!metrics.contains(QStringLiteral("stampede_latency_p99_seconds"))); // no quantile in a name
        // Kubernetes' probes on the same port: alive, and ready (idle once its run ended)
        const std::string healthz = httpGet(metricsPort, "/healthz");
        QVERIFY2(healthz.find("ok") != std::string::npos, healthz.c_str());
        const std::string readyz = httpGet(metricsPort, "/readyz");
        QVERIFY2(readyz.find("ready: idle") != std::string::npos, readyz.c_str());
        QVERIFY(httpGet(metricsPort, "/nothing").find("ready") == std::string::npos);
        // a wrong token is refused by the TLS agent's auth hook, before any payload
        r = runCli({QStringLiteral("run"), QStringLiteral("--url"), mock.url(), QStringLiteral("-c"),
                    QStringLiteral("1"), QStringLiteral("-d"), QStringLiteral("1s"), QStringLiteral("--agents"),
                    agent.address(), QStringLiteral("--token-file"), m_wrongToken, QStringLiteral("--ca"), cert});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(QStringLiteral("a valid token is required")), qPrintable(r.err));
        // without TLS the agent is not reachable: a plaintext controller gets no answer
        r = runCli({QStringLiteral("run"), QStringLiteral("--url"), mock.url(), QStringLiteral("-c"),
                    QStringLiteral("1"), QStringLiteral("-d"), QStringLiteral("1s"), QStringLiteral("--agents"),
                    agent.address(), QStringLiteral("--token-file"), m_token});
        QCOMPARE(r.exitCode, 3);
    }

    void adjustTheRateWhileRunning()
    {
        MockProcess mock;
        QVERIFY(mock.started());
        auto pool = agents(2);
        stampede::v1::Bundle bundle;
        auto* sc = bundle.mutable_scenario();
        sc->add_steps()->mutable_request()->set_url(mock.url().toStdString());
        sc->mutable_load()->mutable_open()->set_rate(200);
        sc->set_connections(10);
        sc->set_threads(1);
        sc->mutable_duration()->set_seconds(4);
        stampede::ControllerOptions options;
        options.token = "s3cret-token";
        stampede::Controller controller({pool[0]->address().toStdString(), pool[1]->address().toStdString()}, options);
        std::string error;
        QVERIFY2(controller.connect(error), error.c_str());
        std::atomic<bool> adjusted{false};
        std::thread adjuster([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(2000));
            std::string e;
            adjusted = controller.adjust(2.0, e);
        });
        const auto result = controller.run(bundle, "st-adjust", 1, {});
        adjuster.join();
        QVERIFY(adjusted);
        QVERIFY(result.ok);
        QVERIFY(result.timeline.size() >= 4);
        const auto first = result.timeline[0].requests;
        const auto last = result.timeline[3].requests;
        QVERIFY2(first >= 195 && first <= 205, qPrintable(QString::number(first)));
        QVERIFY2(last >= 390 && last <= 410, qPrintable(QString::number(last)));
    }

    void bundlesRunAnywhere()
    {
        const QString demo = sourceDir() + QStringLiteral("/resources/demo/");
        const QString bundle = m_dir.filePath(QStringLiteral("demo.stbundle"));
        auto r =
            runCli({QStringLiteral("bundle"), demo + QStringLiteral("scenario.json"), QStringLiteral("-o"), bundle});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // run from another directory: the CSV travels inside the bundle
        r = runCli({QStringLiteral("run"), bundle, QStringLiteral("--mock"), demo + QStringLiteral("mock-rules.json"),
                    QStringLiteral("-d"), QStringLiteral("2s"), QStringLiteral("-q")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.out.contains(QStringLiteral("login")));

        QFile f(bundle);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray bytes = f.readAll();
        f.close();
        bytes[bytes.size() - 10] = char(bytes[bytes.size() - 10] ^ 1);
        const QString flipped = write("flipped.stbundle", bytes);
        r = runCli({QStringLiteral("run"), flipped});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("altered bundle")));
        const QString cut = write("cut.stbundle", bytes.left(bytes.size() / 2));
        r = runCli({QStringLiteral("run"), cut});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("truncated bundle")));
    }
};

QTEST_GUILESS_MAIN(TestPool)
#include "tst_pool.moc"
