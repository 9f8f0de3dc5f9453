// The target's own metrics from real components (issue "Full-link guard
// rails"): Debian's prometheus, started on loopback with its own config and a
// temporary data folder, scrapes Debian's prometheus-node-exporter and an
// exposition endpoint whose values this test controls. A run reads them each
// second (through Prometheus's query API, and the endpoint directly), saves
// them per second in the project exactly as served, trips a server: rule on
// them, and a PromQL error is bad input with Prometheus's own message.
#include "testsupport.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QUrl>

#include <chrono>
#include <csignal>
#include <mutex>
#include <set>
#include <unistd.h>

using namespace testsupport;
using Clock = std::chrono::steady_clock;

namespace {

// A child process on loopback that is stopped with the test.
class Child
{
public:
    ~Child()
    {
        if (m_process.state() != QProcess::NotRunning) {
            signalProcess(m_process.processId(), SIGTERM);
            if (!m_process.waitForFinished(5000))
                m_process.kill();
            m_process.waitForFinished(2000);
        }
    }
    bool start(const QString& program, const QStringList& args)
    {
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.start(program, args);
        return m_process.waitForStarted(5000);
    }
    QString output() { return QString::fromUtf8(m_process.readAll()); }
    bool running() const { return m_process.state() == QProcess::Running; }

private:
    QProcess m_process;
};

// Waits up to `ms` for `path` on `port` to answer with a body containing `needle`.
bool waitFor(int port, const std::string& path, const std::string& needle, int ms)
{
    const auto until = Clock::now() + std::chrono::milliseconds(ms);
    while (Clock::now() < until) {
        if (httpGet(port, path).find(needle) != std::string::npos)
            return true;
        QThread::msleep(200);
    }
    return false;
}

} // namespace

class TestPrometheus : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    Child m_prometheus, m_exporter;
    int m_promPort = 0, m_exporterPort = 0;
    int m_outPort = 0; // where a run's --out prometheus listens, scraped as job "stampede"
    std::unique_ptr<RawServer> m_app;
    std::mutex m_mutex;
    std::optional<Clock::time_point> m_first;
    std::set<int> m_served; // every value the endpoint gave

    // app_value{job="app"}: 10 times the whole seconds since the first scrape.
    void serveApp(int fd)
    {
        if (readRequestHead(fd).empty()) {
            ::close(fd);
            return;
        }
        int value = 0;
        {
            std::lock_guard lock(m_mutex);
            if (!m_first)
                m_first = Clock::now();
            value = 10 * int(std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - *m_first).count());
            m_served.insert(value);
        }
        const std::string body = "# HELP app_value A value the test controls.\n# TYPE app_value gauge\n"
                                 "app_value{job=\"app\"} " +
                                 std::to_string(value) + "\napp_value{job=\"other\"} 5000\n";
        const std::string answer = "HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4\r\nContent-Length: " +
                                   std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
        (void)!::write(fd, answer.data(), answer.size());
        ::close(fd);
    }

    QString scenario(const char* name, const QString& serverMetrics, const QString& breaker, int targetPort)
    {
        return writeFile(m_dir, name,
                         QStringLiteral("{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1:%1/\"}}], "
                                        "\"load\": {\"open\": {\"rate\": 50}}, \"connections\": 2, \"duration\": "
                                        "\"40s\", \"serverMetrics\": [%2]%3}")
                             .arg(targetPort)
                             .arg(serverMetrics, breaker)
                             .toUtf8());
    }

private slots:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("prometheus")).isEmpty() ||
            QStandardPaths::findExecutable(QStringLiteral("prometheus-node-exporter")).isEmpty())
            QFAIL("prometheus and prometheus-node-exporter are needed (scripts/install-deps.sh installs them)");
        m_app = std::make_unique<RawServer>([this](int fd) { serveApp(fd); });
        m_exporterPort = freePort();
        QVERIFY(m_exporter.start(QStringLiteral("prometheus-node-exporter"),
                                 {QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(m_exporterPort),
                                  QStringLiteral("--collector.disable-defaults"), QStringLiteral("--collector.cpu"),
                                  QStringLiteral("--collector.meminfo")}));
        m_promPort = freePort();
        m_outPort = freePort();
        const QString config = writeFile(m_dir, "prometheus.yml",
                                         QStringLiteral("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                                                        "scrape_configs:\n"
                                                        "  - job_name: node\n    static_configs:\n"
                                                        "      - targets: ['127.0.0.1:%1']\n"
                                                        "  - job_name: app\n    static_configs:\n"
                                                        "      - targets: ['127.0.0.1:%2']\n"
                                                        "  - job_name: stampede\n    static_configs:\n"
                                                        "      - targets: ['127.0.0.1:%3']\n")
                                             .arg(m_exporterPort)
                                             .arg(m_app->port())
                                             .arg(m_outPort)
                                             .toUtf8());
        QVERIFY(m_prometheus.start(QStringLiteral("prometheus"),
                                   {QStringLiteral("--config.file=") + config,
                                    QStringLiteral("--storage.tsdb.path=") + m_dir.filePath(QStringLiteral("data")),
                                    QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(m_promPort),
                                    QStringLiteral("--web.enable-remote-write-receiver"),
                                    QStringLiteral("--log.level=warn")}));
        // ready, and both targets scraped at least twice (a rate over them has a value)
        QVERIFY2(waitFor(m_promPort, "/-/ready", "Ready", 30000), qPrintable(m_prometheus.output()));
        QVERIFY2(
            waitFor(m_promPort, "/api/v1/query?query=count(count_over_time(up%5B30s%5D)%3E%3D2)", "\"value\":[", 30000),
            qPrintable(m_prometheus.output()));
    }

    // Through Prometheus (the node exporter's CPU and the app's value) and
    // directly from the endpoint: each second's saved value is one the endpoint
    // served, in order; a server: rule on the direct value stops the run.
    void savedValuesAreWhatWasServed()
    {
        MockProcess target;
        QVERIFY(target.started());
        const QString prom = QStringLiteral("http://127.0.0.1:%1").arg(m_promPort);
        const QString metrics =
            QStringLiteral(
                "{\"name\": \"node_cpu\", \"prometheus\": \"%1\", \"query\": \"100 * (1 - "
                "avg(rate(node_cpu_seconds_total{mode=\\\"idle\\\"}[5s])))\"}, "
                "{\"name\": \"app_prom\", \"prometheus\": \"%1\", \"query\": \"app_value{job=\\\"app\\\"}\"}, "
                "{\"name\": \"app_direct\", \"scrape\": \"http://127.0.0.1:%2/metrics\", \"series\": "
                "\"app_value\", \"labels\": {\"job\": \"app\"}}")
                .arg(prom)
                .arg(m_app->port());
        int started = 0;
        {
            std::lock_guard lock(m_mutex);
            started = 10 * int(std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - *m_first).count());
        }
        const int limit = started + 60; // trips about 6 s into the run
        const QString file = scenario(
            "prom.json", metrics,
            QStringLiteral(", \"breaker\": {\"rules\": [{\"name\": \"app high\", \"when\": \"server:app_direct > %1\", "
                           "\"window\": \"1s\", \"consecutive\": 1, \"action\": \"stop\"}]}")
                .arg(limit),
            target.port());
        const QString summary = m_dir.filePath(QStringLiteral("prom-summary.json"));
        const QString project = m_dir.filePath(QStringLiteral("prom.stampede"));
        const auto r =
            runCli({QStringLiteral("run"), file, QStringLiteral("--engines"), QStringLiteral("1"), QStringLiteral("-q"),
                    QStringLiteral("--summary-json"), summary, QStringLiteral("--project"), project});
        QVERIFY2(r.exitCode == 1, qPrintable(r.err));
        const QJsonObject s = readJson(summary);
        QCOMPARE(s.value(QStringLiteral("status")).toString(), QStringLiteral("stopped_by_breaker"));
        QVERIFY2(s.value(QStringLiteral("reason")).toString().contains(QStringLiteral("app high")),
                 qPrintable(s.value(QStringLiteral("reason")).toString()));
        QVERIFY(s.value(QStringLiteral("duration_s")).toDouble() < 15);

        // the saved seconds, as exported from the project
        const QString csv = m_dir.filePath(QStringLiteral("prom.csv"));
        const auto e = runCli({QStringLiteral("report"), QStringLiteral("export"), project, QStringLiteral("--format"),
                               QStringLiteral("csv"), QStringLiteral("-o"), csv});
        QVERIFY2(e.exitCode == 0, qPrintable(e.err));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const QStringList header = lines.first().split(QLatin1Char(','));
        const int cpu = int(header.indexOf(QStringLiteral("server_node_cpu")));
        const int viaProm = int(header.indexOf(QStringLiteral("server_app_prom")));
        const int direct = int(header.indexOf(QStringLiteral("server_app_direct")));
        QVERIFY2(cpu > 0 && viaProm > 0 && direct > 0, qPrintable(lines.first()));
        std::set<int> served;
        {
            std::lock_guard lock(m_mutex);
            served = m_served;
        }
        int directSeen = 0, promSeen = 0, cpuSeen = 0;
        double lastDirect = -1;
        for (const QString& line : lines.mid(1)) {
            const QStringList cells = line.split(QLatin1Char(','));
            if (cells.value(1) != QLatin1String("total"))
                continue;
            if (!cells.value(direct).isEmpty()) {
                const double v = cells.value(direct).toDouble();
                QVERIFY2(served.count(int(v)) && v == double(int(v)), qPrintable(line)); // exactly a value served
                QVERIFY(v >= lastDirect);                                                // in order
                lastDirect = v;
                ++directSeen;
            }
            if (!cells.value(viaProm).isEmpty()) {
                const double v = cells.value(viaProm).toDouble();
                QVERIFY2(served.count(int(v)), qPrintable(line)); // Prometheus's latest sample of it
                ++promSeen;
            }
            if (!cells.value(cpu).isEmpty()) {
                const double v = cells.value(cpu).toDouble();
                QVERIFY2(v >= 0 && v <= 100, qPrintable(line));
                ++cpuSeen;
            }
        }
        QVERIFY2(directSeen >= 4 && promSeen >= 4 && cpuSeen >= 3,
                 qPrintable(QStringLiteral("%1 %2 %3").arg(directSeen).arg(promSeen).arg(cpuSeen)));
        QVERIFY(lastDirect > limit); // the value that tripped the rule was saved too
        // the summary's timeline carries the same readings
        int timelineServer = 0;
        for (const auto& t : s.value(QStringLiteral("timeline")).toArray())
            timelineServer += t.toObject().contains(QStringLiteral("server"));
        QVERIFY(timelineServer >= 4);
    }

    // Issue 30: `--out prometheus-rw`: every second pushed to Prometheus'
    // remote write receiver; each second's stored count is the run's, the
    // last one included; a receiver that is not there fails the output (not the run's
    // figures), saying so.
    void outRemoteWrite()
    {
        const QString summary = m_dir.filePath(QStringLiteral("rw-summary.json"));
        const auto r =
            runCli({QStringLiteral("run"), QStringLiteral("--url"), QStringLiteral("${mock_url}/"),
                    QStringLiteral("--mock"), QStringLiteral("--rate"), QStringLiteral("200"), QStringLiteral("-c"),
                    QStringLiteral("4"), QStringLiteral("-d"), QStringLiteral("6s"), QStringLiteral("--engines"),
                    QStringLiteral("1"), QStringLiteral("-q"), QStringLiteral("--out"),
                    QStringLiteral("prometheus-rw=http://127.0.0.1:%1/api/v1/write").arg(m_promPort),
                    QStringLiteral("--summary-json"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject s = readJson(summary);
        const QString runId = s.value(QStringLiteral("run_id")).toString();
        const qint64 requests =
            s.value(QStringLiteral("total")).toObject().value(QStringLiteral("requests")).toInteger();
        QVERIFY(requests > 1000);
        const auto query = [&](const QString& promql) {
            const std::string answer =
                httpGet(m_promPort,
                        QByteArray(QByteArray("/api/v1/query?query=") + QUrl::toPercentEncoding(promql)).toStdString());
            return QJsonDocument::fromJson(QByteArray::fromStdString(answer))
                .object()
                .value(QStringLiteral("data"))
                .toObject()
                .value(QStringLiteral("result"))
                .toArray();
        };
        // the last second's cumulative count is the run's total
        const QJsonArray total =
            query(QStringLiteral("max_over_time(stampede_requests_total{run_id=\"%1\"}[5m])").arg(runId));
        QCOMPARE(total.size(), 1);
        QCOMPARE(qint64(total[0].toObject().value(QStringLiteral("value")).toArray()[1].toString().toDouble()),
                 requests);
        // one sample per second of the run: its timeline's 6 (an answer that lands after the plan's end counts in
        // its last second, not in a 7th)
        const QJsonArray timeline = s.value(QStringLiteral("timeline")).toArray();
        QCOMPARE(timeline.size(), 6);
        const QJsonArray seconds =
            query(QStringLiteral("count_over_time(stampede_requests_total{run_id=\"%1\"}[5m])").arg(runId));
        QCOMPARE(seconds.size(), 1);
        QCOMPARE(seconds[0].toObject().value(QStringLiteral("value")).toArray()[1].toString().toInt(),
                 int(timeline.size()));
        // the pull endpoint's series: the latency histogram's count is the total, the error classes are labelled
        const QJsonArray count =
            query(QStringLiteral("max_over_time(stampede_latency_seconds_count{run_id=\"%1\"}[5m])").arg(runId));
        QCOMPARE(count.size(), 1);
        QCOMPARE(qint64(count[0].toObject().value(QStringLiteral("value")).toArray()[1].toString().toDouble()),
                 requests);
        QCOMPARE(query(QStringLiteral("stampede_errors_total{run_id=\"%1\",class=\"http_5xx\"}[5m]").arg(runId)).size(),
                 1);
        const QJsonArray p99 =
            query(QStringLiteral(
                      "histogram_quantile(0.99, max_over_time(stampede_latency_seconds_bucket{run_id=\"%1\"}[5m]))")
                      .arg(runId));
        QVERIFY2(p99.size() == 1 &&
                     p99[0].toObject().value(QStringLiteral("value")).toArray()[1].toString().toDouble() > 0,
                 QJsonDocument(p99).toJson().constData());
        // packaging/grafana's dashboard reads these series: each panel's query, its variables given this run,
        // answered by Prometheus with a value
        QFile dashboardFile(sourceDir() + QStringLiteral("/packaging/grafana/stampede-dashboard.json"));
        QVERIFY(dashboardFile.open(QIODevice::ReadOnly));
        const QJsonObject dashboard = QJsonDocument::fromJson(dashboardFile.readAll()).object();
        QVERIFY(!dashboard.value(QStringLiteral("uid")).toString().isEmpty());
        QStringList variables;
        for (const QJsonValue& v :
             dashboard.value(QStringLiteral("templating")).toObject().value(QStringLiteral("list")).toArray())
            variables << v.toObject().value(QStringLiteral("name")).toString();
        QCOMPARE(variables, QStringList({QStringLiteral("datasource"), QStringLiteral("run_id")}));
        std::set<int> ids;
        int queries = 0;
        for (const QJsonValue& panel : dashboard.value(QStringLiteral("panels")).toArray()) {
            const QJsonObject o = panel.toObject();
            QVERIFY(ids.insert(o.value(QStringLiteral("id")).toInt()).second);
            QVERIFY(o.value(QStringLiteral("gridPos")).toObject().value(QStringLiteral("w")).toInt() > 0);
            for (const QJsonValue& target : o.value(QStringLiteral("targets")).toArray()) {
                QString expr = target.toObject().value(QStringLiteral("expr")).toString();
                expr.replace(QStringLiteral("$run_id"), runId)
                    .replace(QStringLiteral("$__rate_interval"), QStringLiteral("5m"));
                const QJsonObject answer =
                    QJsonDocument::fromJson(
                        QByteArray::fromStdString(httpGet(
                            m_promPort, QByteArray(QByteArray("/api/v1/query?query=") + QUrl::toPercentEncoding(expr))
                                            .toStdString())))
                        .object();
                const QString what = o.value(QStringLiteral("title")).toString() + QStringLiteral(": ") + expr;
                QVERIFY2(answer.value(QStringLiteral("status")).toString() == QStringLiteral("success"),
                         qPrintable(what));
                // this run has no checks: their panel alone has nothing to show
                QVERIFY2(!answer.value(QStringLiteral("data"))
                                 .toObject()
                                 .value(QStringLiteral("result"))
                                 .toArray()
                                 .isEmpty() ||
                             expr.contains(QStringLiteral("stampede_checks_total")),
                         qPrintable(what));
                ++queries;
            }
        }
        QVERIFY(queries >= 10);
        // a receiver that is not there: the run says so, and exits 3
        const auto gone =
            runCli({QStringLiteral("run"), QStringLiteral("--url"), QStringLiteral("${mock_url}/"),
                    QStringLiteral("--mock"), QStringLiteral("-d"), QStringLiteral("1s"), QStringLiteral("--engines"),
                    QStringLiteral("1"), QStringLiteral("-q"), QStringLiteral("--out"),
                    QStringLiteral("prometheus-rw=http://127.0.0.1:%1/api/v1/write").arg(freePort())});
        QVERIFY2(gone.exitCode != 0 && gone.err.contains(QStringLiteral("not accepted")), qPrintable(gone.err));
        const auto bad = runCli({QStringLiteral("run"), QStringLiteral("--url"), QStringLiteral("http://127.0.0.1:9/"),
                                 QStringLiteral("--out"), QStringLiteral("prometheus-rw=127.0.0.1:9090")});
        QVERIFY2(bad.exitCode == 2 && bad.err.contains(QStringLiteral("http://")), qPrintable(bad.err));
    }

    // A query Prometheus refuses: exit 2 before any load, with its message.
    // `--out prometheus`: Prometheus scrapes the run as it goes; the request
    // rate it computes over the middle of the run is the summary's, within 2 %;
    // the per-second JSON lines written beside it add up to the summary.
    void outPrometheusIsScraped()
    {
        // a second Prometheus, as in an HA pair, scraping the run's endpoint alone at its own interval
        Child second;
        const int secondPort = freePort();
        const QString secondConfig =
            writeFile(m_dir, "second.yml",
                      QStringLiteral("global:\n  scrape_interval: 2s\n"
                                     "scrape_configs:\n  - job_name: stampede\n    static_configs:\n"
                                     "      - targets: ['127.0.0.1:%1']\n")
                          .arg(m_outPort)
                          .toUtf8());
        QVERIFY(second.start(QStringLiteral("prometheus"),
                             {QStringLiteral("--config.file=") + secondConfig,
                              QStringLiteral("--storage.tsdb.path=") + m_dir.filePath(QStringLiteral("data2")),
                              QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(secondPort),
                              QStringLiteral("--log.level=warn")}));
        QVERIFY2(waitFor(secondPort, "/-/ready", "Ready", 30000), qPrintable(second.output()));
        const QString summary = m_dir.filePath(QStringLiteral("out-summary.json"));
        const QString lines = m_dir.filePath(QStringLiteral("out.jsonl"));
        const auto r =
            runCli({QStringLiteral("run"), QStringLiteral("--url"), QStringLiteral("${mock_url}/"),
                    QStringLiteral("--mock"), QStringLiteral("--rate"), QStringLiteral("400"), QStringLiteral("-c"),
                    QStringLiteral("8"), QStringLiteral("-d"), QStringLiteral("24s"), QStringLiteral("--engines"),
                    QStringLiteral("1"), QStringLiteral("-q"), QStringLiteral("--out"),
                    QStringLiteral("prometheus=127.0.0.1:%1,linger=5s").arg(m_outPort), QStringLiteral("--out"),
                    QStringLiteral("jsonl=") + lines, QStringLiteral("--summary-json"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject total = readJson(summary).value(QStringLiteral("total")).toObject();
        const double rate = total.value(QStringLiteral("rate")).toDouble();
        QVERIFY2(rate > 380, qPrintable(QString::number(rate)));

        // the JSON lines: start, 24 seconds, end; the seconds add up to the total
        QFile f(lines);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QList<QJsonObject> objects;
        for (const QByteArray& line : f.readAll().split('\n'))
            if (!line.isEmpty())
                objects << QJsonDocument::fromJson(line).object();
        QVERIFY(objects.size() >= 26);
        QCOMPARE(objects.first().value(QStringLiteral("type")).toString(), QStringLiteral("start"));
        QCOMPARE(objects.last().value(QStringLiteral("type")).toString(), QStringLiteral("end"));
        qint64 sum = 0;
        QDateTime middle;
        for (const QJsonObject& o : objects) {
            if (o.value(QStringLiteral("type")).toString() != QStringLiteral("second"))
                continue;
            sum += o.value(QStringLiteral("total")).toObject().value(QStringLiteral("requests")).toInteger();
            if (o.value(QStringLiteral("t")).toInt() == 18)
                middle = QDateTime::fromString(o.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs);
        }
        QCOMPARE(sum, total.value(QStringLiteral("requests")).toInteger());
        QVERIFY(middle.isValid());

        // Prometheus' rate over seconds 4..20 (half a second past the 20th's end): the samples carry no time of
        // their own (Prometheus' rule), so a scrape's phase may move one second's count into the next: within
        // one second's worth over the 16 s
        const QString query =
            QStringLiteral(
                "/api/v1/query?query=sum(rate(stampede_requests_total%7Bjob%3D%22stampede%22%7D%5B16s%5D))&time=%1")
                .arg(double(middle.toMSecsSinceEpoch()) / 1000.0 + 2.5, 0, 'f', 3);
        const std::string answer = httpGet(m_promPort, query.toStdString());
        const QJsonObject body = QJsonDocument::fromJson(QByteArray::fromStdString(answer)).object();
        const QJsonArray result =
            body.value(QStringLiteral("data")).toObject().value(QStringLiteral("result")).toArray();
        QVERIFY2(result.size() == 1, answer.c_str());
        const double scraped = result[0].toObject().value(QStringLiteral("value")).toArray()[1].toString().toDouble();
        qInfo("rate: Prometheus %.2f/s, summary %.2f/s", scraped, rate);
        QVERIFY2(std::abs(scraped - rate) <= rate / 15 + 0.02 * rate,
                 qPrintable(QStringLiteral("Prometheus %1/s, summary %2/s").arg(scraped).arg(rate)));
        // and the errors by class are there, at zero
        const std::string errors =
            httpGet(m_promPort,
                    QStringLiteral(
                        "/api/v1/query?query=count(stampede_errors_total%7Bclass%3D%22http_5xx%22%7D%3D%3D0)&time=%1")
                        .arg(double(middle.toMSecsSinceEpoch()) / 1000.0, 0, 'f', 3)
                        .toStdString());
        QVERIFY2(errors.find("\"value\":[") != std::string::npos, errors.c_str());
        // the last second too, in both Prometheus: the endpoint kept the final figures for its linger, whoever
        // scraped (Prometheus stores a scrape a moment after reading it: asked again for up to 5 s)
        for (const int port : {m_promPort, secondPort}) {
            qint64 last = -1;
            for (int i = 0; i < 50 && last != total.value(QStringLiteral("requests")).toInteger(); ++i) {
                if (i)
                    QThread::msleep(100);
                const std::string answer = httpGet(
                    port, "/api/v1/"
                          "query?query=sum(max_over_time(stampede_requests_total%7Bjob%3D%22stampede%22%7D%5B2m%5D))");
                const QJsonArray res = QJsonDocument::fromJson(QByteArray::fromStdString(answer))
                                           .object()
                                           .value(QStringLiteral("data"))
                                           .toObject()
                                           .value(QStringLiteral("result"))
                                           .toArray();
                if (res.size() == 1)
                    last = qint64(res[0].toObject().value(QStringLiteral("value")).toArray()[1].toString().toDouble());
            }
            QCOMPARE(last, total.value(QStringLiteral("requests")).toInteger());
        }
    }

    void promqlErrorIsBadInput()
    {
        MockProcess target;
        QVERIFY(target.started());
        const QString file = scenario(
            "badquery.json",
            QStringLiteral("{\"name\": \"broken\", \"prometheus\": \"http://127.0.0.1:%1\", \"query\": \"rate(up[\"}")
                .arg(m_promPort),
            QString(), target.port());
        const auto r = runCli(
            {QStringLiteral("run"), file, QStringLiteral("--engines"), QStringLiteral("1"), QStringLiteral("-q")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("serverMetrics[0] broken: query: Prometheus says: ")) &&
                     r.err.contains(QStringLiteral("parse error")),
                 qPrintable(r.err));
        QCOMPARE(target.stats().value(QStringLiteral("total")).toInt(), 0);
    }

    // A source that is down before the run is a warning, and the run goes on.
    void anUnreachableSourceIsAWarning()
    {
        MockProcess target;
        QVERIFY(target.started());
        const QString file =
            scenario("down.json",
                     QStringLiteral("{\"name\": \"down\", \"prometheus\": \"http://127.0.0.1:%1\", \"query\": \"up\"}")
                         .arg(freePort()),
                     QString(), target.port());
        const auto r = runCli({QStringLiteral("run"), file, QStringLiteral("--engines"), QStringLiteral("1"),
                               QStringLiteral("-q"), QStringLiteral("-d"), QStringLiteral("2s")});
        QVERIFY2(r.err.contains(QStringLiteral("warning: serverMetrics[0] down: not readable before the run")),
                 qPrintable(r.err));
        QVERIFY(target.stats().value(QStringLiteral("total")).toInt() > 0);
    }
};

QTEST_GUILESS_MAIN(TestPrometheus)
#include "tst_prometheus.moc"
