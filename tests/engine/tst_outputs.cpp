// A run's live outputs (--out): the Prometheus exposition a scrape reads
// (counters that add up over seconds, every error class, quantiles in
// seconds, labels escaped, the second's end as the sample's time), the JSON
// lines file (one valid object per line, FILE.part while the run goes on and
// FILE after, a second writer refused), and bad specs refused.
#include "metrics/promtext.h"
#include "output/jsonloutput.h"
#include "output/promoutput.h"
#include "output/remotewrite.h"
#include "stampede/v1/remotewrite.pb.h"
#include "store/runlog.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <chrono>
#include <map>
#include <thread>

using namespace stampede;

namespace {

ScenarioPlan twoSteps()
{
    ScenarioPlan plan;
    plan.name = "shop";
    plan.runId = "st-test";
    PlannedStep login;
    login.name = "login \"v2\"";
    Check ok;
    ok.name = "status 200";
    login.checks.push_back(ok);
    PlannedStep browse;
    browse.name = "browse";
    plan.steps = {login, browse};
    return plan;
}

// Second `n`: step 0 has `requests` of which 2 are 5xx and 1 a timeout, and
// its check passed for the answered ones; step 1 has 10, one at 250 ms.
PreparedSecond second(std::uint32_t n, std::uint64_t requests)
{
    IntervalMetrics m;
    m.second = n;
    m.steps.resize(2);
    m.steps[0].counters.sent = requests;
    m.steps[0].counters.requests = requests;
    m.steps[0].counters.addError(ErrorClass::Http5xx);
    m.steps[0].counters.addError(ErrorClass::Http5xx);
    m.steps[0].counters.addError(ErrorClass::Timeout);
    m.steps[0].checks.resize(1);
    m.steps[0].checks[0].passed = requests - 3;
    m.steps[0].latency.recordCount(2000, requests);
    m.steps[1].counters.requests = 10;
    m.steps[1].latency.recordCount(1000, 9);
    m.steps[1].latency.record(250000);
    m.openConnections = 7;
    return RunLog::prepare(m);
}

SecondSummary summaryOf(std::uint32_t n)
{
    SecondSummary s;
    s.second = n;
    return s;
}

double value(const PromParse& p, const char* name, std::vector<std::pair<std::string, std::string>> labels)
{
    const auto v = promValue(p, name, labels);
    return v ? *v : -1;
}

} // namespace

class TestOutputs : public QObject
{
    Q_OBJECT
private slots:
    // Issue 30: a second as remote write encodes it: every series' labels
    // sorted by name with __name__, run_id, scenario and step; counters
    // since the run began; the second's end as the time.
    void remoteWriteEncodesASecond()
    {
        RemoteWriteOutput out("http://127.0.0.1:9/api/v1/write");
        PreparedSecond merged;
        merged.openConnections = 3;
        PreparedSecond::Row row;
        row.step = 1;
        row.counters.requests = 10;
        row.counters.errors = 2;
        row.percentilesMs = {1, 2, 3, 4, 5, 6};
        merged.rows.push_back(row);
        std::string error;
        QVERIFY2(out.open(twoSteps(), error), error.c_str());
        out.encode(1, 1000, merged);
        v1::RemoteWriteRequest rq;
        QVERIFY(rq.ParseFromString(out.encode(2, 2000, merged)));
        std::map<std::string, double> byName; // "name step quantile" -> value
        for (const auto& ts : rq.timeseries()) {
            std::string previous;
            std::map<std::string, std::string> labels;
            for (const auto& l : ts.labels()) {
                QVERIFY2(previous < l.name(), l.name().c_str()); // sorted, each once
                previous = l.name();
                labels[l.name()] = l.value();
            }
            QCOMPARE(labels["run_id"], twoSteps().runId);
            std::string key = labels["__name__"];
            for (const char* extra : {"step", "quantile"})
                if (labels.count(extra))
                    key += " " + labels[extra];
            QCOMPARE(ts.samples_size(), 1);
            QCOMPARE(ts.samples(0).timestamp(), std::int64_t(2000));
            byName[key] = ts.samples(0).value();
        }
        const std::string second = twoSteps().steps[1].name;
        QCOMPARE(byName.at("stampede_requests_total " + second), 20.0); // two seconds of 10
        QCOMPARE(byName.at("stampede_errors_total " + second), 4.0);
        QCOMPARE(byName.at("stampede_requests_per_second " + second), 10.0);
        QCOMPARE(byName.at("stampede_latency_seconds " + second + " 0.99"), 0.004);
        QCOMPARE(byName.at("stampede_requests_total " + twoSteps().steps[0].name), 0.0); // no requests: still there
        QCOMPARE(byName.at("stampede_open_connections"), 3.0);
    }

    // A run's seconds are stamped at their ends as the first one told places them, but never later than when
    // they are told: a first second told late (a busy machine) stamped the later ones in the future, and
    // Prometheus, queried right after the run, did not see the last one (its count was the second before's).
    void secondsAreNeverStampedInTheFuture()
    {
        SecondStamps on;
        QCOMPARE(on.last(), std::int64_t(0));
        QCOMPARE(on.stamp(1, 10'000), std::int64_t(10'000)); // second 1 told at its end
        QCOMPARE(on.stamp(2, 11'020), std::int64_t(11'000)); // told 20 ms after its end: stamped at it
        QCOMPARE(on.stamp(3, 12'005), std::int64_t(12'000));
        QCOMPARE(on.last(), std::int64_t(12'000));
        SecondStamps late; // second 1 told 900 ms late, the others on time
        QCOMPARE(late.stamp(1, 10'900), std::int64_t(10'900));
        QCOMPARE(late.stamp(2, 11'000), std::int64_t(11'000)); // not 11'900, a time still to come
        QCOMPARE(late.stamp(3, 12'000), std::int64_t(12'000));
        SecondStamps together; // seconds told in one go: each still after the one before
        QCOMPARE(together.stamp(4, 5'000), std::int64_t(5'000));
        QCOMPARE(together.stamp(5, 5'000), std::int64_t(5'001));
        QCOMPARE(together.stamp(6, 5'000), std::int64_t(5'002));
    }

    void specsAreChecked()
    {
        OutputSpec spec;
        std::string error;
        QVERIFY(parseOutputSpec("prometheus=127.0.0.1:9465", spec, error));
        QCOMPARE(int(spec.kind), int(OutputSpec::Kind::Prometheus));
        QCOMPARE(spec.target, std::string("127.0.0.1:9465"));
        QVERIFY(parseOutputSpec("jsonl=a=b.jsonl", spec, error));
        QCOMPARE(spec.target, std::string("a=b.jsonl"));
        QVERIFY(!parseOutputSpec("csv=x.csv", spec, error));
        QVERIFY2(error.find("prometheus=HOST:PORT, prometheus-rw=URL or jsonl=FILE") != std::string::npos,
                 error.c_str());
        QVERIFY(parseOutputSpec("prometheus-rw=http://127.0.0.1:9090/api/v1/write", spec, error));
        QCOMPARE(int(spec.kind), int(OutputSpec::Kind::RemoteWrite));
        QVERIFY(!parseOutputSpec("prometheus-rw=127.0.0.1:9090", spec, error));
        QVERIFY2(error.find("starts with http://") != std::string::npos, error.c_str());
        QVERIFY(!parseOutputSpec("prometheus-rw=", spec, error));
        QVERIFY2(error.find("give the receiver's URL") != std::string::npos, error.c_str());
        QVERIFY(!parseOutputSpec("jsonl=", spec, error));
        QVERIFY2(error.find("give the file") != std::string::npos, error.c_str());
        QVERIFY(!parseOutputSpec("prometheus", spec, error));
        QVERIFY(!parseOutputSpec("", spec, error));
        PrometheusOutput bad("127.0.0.1:99999");
        QVERIFY(!bad.open(twoSteps(), error));
        QVERIFY2(error.find("--out prometheus port") != std::string::npos, error.c_str());
    }

    void prometheusCountsAddUp()
    {
        PrometheusOutput out("127.0.0.1:0", 0); // no linger: nothing scrapes here
        std::string error;
        QVERIFY2(out.open(twoSteps(), error), error.c_str());
        PromParse p = parsePromText(out.text());
        QCOMPARE(p.badLines, std::size_t(0));
        QCOMPARE(value(p, "stampede_run_info", {{"run_id", "st-test"}, {"scenario", "shop"}}), 1.0);
        QCOMPARE(value(p, "stampede_run_active", {}), 0.0);
        QCOMPARE(value(p, "stampede_requests_total", {}), -1.0); // no second yet: no figure

        out.second(summaryOf(1), second(1, 100));
        out.second(summaryOf(2), second(2, 50));
        const std::string text = out.text();
        p = parsePromText(text);
        QCOMPARE(p.badLines, std::size_t(0));
        QCOMPARE(value(p, "stampede_run_active", {}), 1.0);
        QCOMPARE(value(p, "stampede_run_seconds", {}), 2.0);
        QCOMPARE(value(p, "stampede_requests_total", {{"step", "login \"v2\""}}), 150.0);
        QCOMPARE(value(p, "stampede_requests_total", {{"step", "browse"}}), 20.0);
        QCOMPARE(value(p, "stampede_requests_per_second", {{"step", "login \"v2\""}}), 50.0);
        QCOMPARE(value(p, "stampede_errors_total", {{"step", "login \"v2\""}, {"class", "http_5xx"}}), 4.0);
        QCOMPARE(value(p, "stampede_errors_total", {{"step", "login \"v2\""}, {"class", "timeout"}}), 2.0);
        QCOMPARE(value(p, "stampede_errors_total", {{"step", "browse"}, {"class", "connect"}}), 0.0); // listed at 0
        QCOMPARE(value(p, "stampede_errors_total", {}), 6.0);
        QCOMPARE(value(p, "stampede_checks_total", {{"check", "status 200"}, {"result", "passed"}}), 144.0);
        QCOMPARE(value(p, "stampede_checks_total", {{"check", "status 200"}, {"result", "failed"}}), 0.0);
        QCOMPARE(value(p, "stampede_open_connections", {}), 7.0);
        // quantiles of the last second, in seconds: browse's max is its 250 ms request
        const double max = value(p, "stampede_latency_seconds", {{"step", "browse"}, {"quantile", "1"}});
        QVERIFY2(max > 0.24 && max < 0.26, QByteArray::number(max));
        const double p50 = value(p, "stampede_latency_seconds", {{"step", "browse"}, {"quantile", "0.5"}});
        QVERIFY2(p50 > 0.0009 && p50 < 0.0011, QByteArray::number(p50));
        QVERIFY(text.find("step=\"login \\\"v2\\\"\"") != std::string::npos); // the quote escaped
        // the samples carry the second's end, never a time still to come (SecondStamps)
        const auto stampOf = [&](const std::string& t) {
            const auto at = t.find("\nstampede_run_seconds ") + 1;
            const auto line = t.substr(at, t.find('\n', at) - at);
            return std::stoll(line.substr(line.rfind(' ') + 1));
        };
        const long long second2 = stampOf(text);
        out.second(summaryOf(3), second(3, 10));
        QVERIFY(stampOf(out.text()) > second2);
        QVERIFY(stampOf(out.text()) <= wallMillis() + 2); // three seconds told in one millisecond: 1 ms apart
        QVERIFY(out.finish(RunSummary{}, error));
        p = parsePromText(out.text());
        QCOMPARE(value(p, "stampede_run_active", {}), 0.0);
        QCOMPARE(value(p, "stampede_requests_total", {{"step", "login \"v2\""}}), 160.0); // kept after the end
        // the quantiles are a summary, with their count: what promtool accepts
        QVERIFY(out.text().find("# TYPE stampede_latency_seconds summary\n") != std::string::npos);
        QProcess promtool;
        promtool.start(QStringLiteral("promtool"), {QStringLiteral("check"), QStringLiteral("metrics")});
        if (promtool.waitForStarted(5000)) { // Debian's prometheus ships it (scripts/install-deps.sh)
            promtool.write(QByteArray::fromStdString(text));
            promtool.closeWriteChannel();
            QVERIFY(promtool.waitForFinished(20000));
            QVERIFY2(promtool.exitCode() == 0, promtool.readAllStandardError().constData());
        } else {
            QFAIL("promtool is missing: run scripts/install-deps.sh");
        }
        QCOMPARE(value(p, "stampede_latency_seconds_count", {{"step", "browse"}}), 10.0);
    }

    // After the run the final figures stay until a scrape has read them, or
    // until the linger has passed (9,500 of 10,000 requests were seen when
    // the endpoint closed with the run).
    void prometheusLingersForTheLastScrape()
    {
        std::string error;
        {
            PrometheusOutput out("127.0.0.1:0", 300 * kNanosPerMilli);
            QVERIFY2(out.open(twoSteps(), error), error.c_str());
            out.second(summaryOf(1), second(1, 100));
            QElapsedTimer clock;
            clock.start();
            QVERIFY(out.finish(RunSummary{}, error)); // nobody scrapes: the linger ends it
            QVERIFY2(clock.elapsed() >= 290 && clock.elapsed() < 2000, qPrintable(QString::number(clock.elapsed())));
        }
        PrometheusOutput out("127.0.0.1:0", 20 * kNanosPerSecond);
        QVERIFY2(out.open(twoSteps(), error), error.c_str());
        out.second(summaryOf(1), second(1, 100));
        std::string scraped;
        std::thread scraper([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(400));
            scraped = testsupport::httpGet(out.port(), "/metrics");
        });
        QElapsedTimer clock;
        clock.start();
        QVERIFY(out.finish(RunSummary{}, error)); // a scrape after the end ends it
        scraper.join();
        QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY2(scraped.find("stampede_run_active 0") != std::string::npos, scraped.c_str());
        QVERIFY2(scraped.find("stampede_requests_total{step=\"browse\"} 10 ") != std::string::npos, scraped.c_str());
        // the option
        OutputSpec spec;
        QVERIFY(parseOutputSpec("prometheus=127.0.0.1:9465,linger=2s", spec, error));
        QCOMPARE(spec.target, std::string("127.0.0.1:9465"));
        QCOMPARE(spec.linger, 2 * kNanosPerSecond);
        QVERIFY(!parseOutputSpec("prometheus=127.0.0.1:9465,linger=1h", spec, error));
        QVERIFY(!parseOutputSpec("prometheus=127.0.0.1:9465,stay", spec, error));
    }

    void prometheusServesScrapes()
    {
        PrometheusOutput out("127.0.0.1:0");
        std::string error;
        QVERIFY2(out.open(twoSteps(), error), error.c_str());
        QVERIFY(out.port() > 0);
        PrometheusOutput busy("127.0.0.1:" + std::to_string(out.port()));
        QVERIFY(!busy.open(twoSteps(), error));
        QVERIFY2(error.find("cannot listen") != std::string::npos, error.c_str());
    }

    void jsonLinesAreWholeAndRenamed()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("run.jsonl")).toStdString();
        std::string error;
        {
            JsonlOutput out(path);
            QVERIFY2(out.open(twoSteps(), error), error.c_str());
            JsonlOutput second(path);
            QVERIFY(!second.open(twoSteps(), error)); // one writer at a time
            QVERIFY2(error.find("another run") != std::string::npos, error.c_str());
            out.started({"local-1"});
            out.second(summaryOf(1), ::second(1, 100));
            out.event({1.5, "breaker", "", "p99 > 1ms", 0, 0});
            QVERIFY(QFile::exists(QString::fromStdString(path + ".part")));
            QVERIFY(!QFile::exists(QString::fromStdString(path)));
            RunSummary s;
            s.status = "completed";
            s.runId = "st-test";
            s.reason = "line\nbreak";
            QVERIFY2(out.finish(s, error), error.c_str());
        }
        QVERIFY(!QFile::exists(QString::fromStdString(path + ".part")));
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        QCOMPARE(lines.size(), 5); // four lines and the empty rest after the last line break
        QVERIFY(lines.last().isEmpty());
        QStringList types;
        for (int i = 0; i < 4; ++i) {
            QJsonParseError pe;
            const QJsonObject o = QJsonDocument::fromJson(lines[i], &pe).object();
            QVERIFY2(pe.error == QJsonParseError::NoError, lines[i].constData());
            types << o.value(QLatin1String("type")).toString();
        }
        QCOMPARE(types, QStringList({QStringLiteral("start"), QStringLiteral("second"), QStringLiteral("event"),
                                     QStringLiteral("end")}));
        const QJsonObject sec = QJsonDocument::fromJson(lines[1]).object();
        QCOMPARE(sec.value(QLatin1String("t")).toInt(), 1);
        QCOMPARE(sec.value(QLatin1String("total")).toObject().value(QLatin1String("requests")).toInt(), 110);
        const QJsonObject login = sec.value(QLatin1String("steps")).toArray()[0].toObject();
        QCOMPARE(login.value(QLatin1String("step")).toString(), QStringLiteral("login \"v2\""));
        QCOMPARE(login.value(QLatin1String("errors_by_class")).toObject().value(QLatin1String("http_5xx")).toInt(), 2);
        QCOMPARE(login.value(QLatin1String("checks"))
                     .toObject()
                     .value(QLatin1String("status 200"))
                     .toObject()
                     .value(QLatin1String("passed"))
                     .toInt(),
                 97);
        QVERIFY(sec.value(QLatin1String("time")).toString().endsWith(QLatin1Char('Z')));
        const QJsonObject end = QJsonDocument::fromJson(lines[3]).object();
        QCOMPARE(end.value(QLatin1String("status")).toString(), QStringLiteral("completed"));
        QCOMPARE(end.value(QLatin1String("summary")).toObject().value(QLatin1String("reason")).toString(),
                 QStringLiteral("line\nbreak"));
    }

    void jsonLinesRefuseAMissingFolder()
    {
        JsonlOutput out("/nonexistent-folder/run.jsonl");
        std::string error;
        QVERIFY(!out.open(twoSteps(), error));
        QVERIFY2(
            error.find(
                "cannot write \"/nonexistent-folder/run.jsonl\": the folder \"/nonexistent-folder\" does not exist") !=
                std::string::npos,
            error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestOutputs)
#include "tst_outputs.moc"
