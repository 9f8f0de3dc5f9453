// A run's live outputs (--out): the Prometheus exposition a scrape reads
// (counters that add up over seconds, every error class, the latency a
// histogram in seconds, labels escaped, no timestamps), the JSON
// lines file (one valid object per line, FILE.part while the run goes on and
// FILE after, a second writer refused), and bad specs refused.
#include "core/utf8.h"
#include "metrics/promtext.h"
#include "output/jsonloutput.h"
#include "output/promoutput.h"
#include "output/remotewrite.h"
#include "report/baseline.h"
#include "report/reportsections.h"
#include "report/savedreport.h"
#include "stampede/v1/remotewrite.pb.h"
#include "store/runlog.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <chrono>
#include <cmath>
#include <map>
#include <set>
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
    // Issue 53: "p99 < baseline + 3 sigma" from five runs: the limit is their mean plus three sample standard
    // deviations, the expression says so; a sixth run 4 sigma out fails it; fewer than five runs are refused.
    void baselineOfFiveRuns()
    {
        std::vector<stampede::RunSummary> history;
        for (const double p99 : {20.0, 22.0, 21.0, 19.0, 18.0}) {
            stampede::RunSummary s;
            s.total.requests = 100;
            s.total.answered = 100;
            s.total.latency.p99 = p99;
            history.push_back(s);
        }
        std::string err;
        auto t = stampede::Threshold::parse("p99 < baseline + 3 sigma", err);
        QVERIFY(t);
        QVERIFY2(stampede::resolveBaseline(*t, history, "checkout", err), err.c_str());
        // mean 20, sample sigma sqrt(10/4) = 1.5811: 20 + 4.7434
        QVERIFY2(std::abs(t->limit - 24.7434) < 1e-3, std::to_string(t->limit).c_str());
        QVERIFY2(t->expr.rfind("p99 < baseline + 3 sigma (= 24.74341649ms: mean 20 ms + 3 sigma of 1.581 ms over 5 "
                               "runs)",
                               0) == 0,
                 t->expr.c_str());
        QVERIFY(t->holds(20 + 2 * 1.5811) && !t->holds(20 + 4 * 1.5811));
        auto again = stampede::Threshold::parse(t->expr, err); // as the record keeps it
        QVERIFY2(again && again->baseline->resolved && std::abs(again->limit - t->limit) < 1e-6, err.c_str());
        auto few = stampede::Threshold::parse("p99 < baseline + 3 sigma", err);
        history.pop_back();
        QVERIFY(!stampede::resolveBaseline(*few, history, "checkout", err));
        QVERIFY2(err.find("at least 5 completed runs of \"checkout\"") != std::string::npos &&
                     err.find("it has 4") != std::string::npos,
                 err.c_str());
    }

    // Issue 30: a second as remote write encodes it: every series' labels
    // sorted by name with __name__, run_id, scenario and step; counters
    // since the run began; the second's end as the time.
    void remoteWriteEncodesASecond()
    {
        RemoteWriteOutput out("http://127.0.0.1:9/api/v1/write");
        std::string error;
        QVERIFY2(out.open(twoSteps(), error), error.c_str());
        out.encode(1, 1000, second(1, 100));
        v1::RemoteWriteRequest rq;
        QVERIFY(rq.ParseFromString(out.encode(2, 2000, second(2, 50))));
        std::map<std::string, double> byName; // "name step class le" -> value
        for (const auto& ts : rq.timeseries()) {
            std::string previous;
            std::map<std::string, std::string> labels;
            for (const auto& l : ts.labels()) {
                QVERIFY2(previous < l.name(), l.name().c_str()); // sorted, each once
                previous = l.name();
                labels[l.name()] = l.value();
            }
            QCOMPARE(labels["run_id"], twoSteps().runId);
            QCOMPARE(labels["scenario"], twoSteps().name);
            std::string key = labels["__name__"];
            for (const char* extra : {"step", "class", "check", "result", "le"})
                if (labels.count(extra))
                    key += " " + labels[extra];
            QCOMPARE(ts.samples_size(), 1);
            QCOMPARE(ts.samples(0).timestamp(), std::int64_t(2000));
            QVERIFY2(!byName.count(key), key.c_str()); // one series each
            byName[key] = ts.samples(0).value();
        }
        // the series of the pull endpoint, with the same labels: the error class kept
        const std::string login = twoSteps().steps[0].name, browse = twoSteps().steps[1].name;
        QCOMPARE(byName.at("stampede_requests_total " + login), 150.0); // cumulative: 100 + 50
        QCOMPARE(byName.at("stampede_errors_total " + login + " http_5xx"), 4.0);
        QCOMPARE(byName.at("stampede_errors_total " + login + " timeout"), 2.0);
        QCOMPARE(byName.at("stampede_latency_seconds_count " + browse), 20.0);
        QCOMPARE(byName.at("stampede_latency_seconds_bucket " + browse + " 0.001"), 18.0);
        QCOMPARE(byName.at("stampede_latency_seconds_bucket " + browse + " +Inf"), 20.0);
        QCOMPARE(byName.at("stampede_open_connections"), 7.0);
        QVERIFY(!byName.count("stampede_requests_per_second " + login)); // a rate is the query's: rate()
        // the same names as the pull endpoint's, each of them
        PrometheusOutput pull("127.0.0.1:0", 0);
        QVERIFY2(pull.open(twoSteps(), error), error.c_str());
        pull.second(summaryOf(1), second(1, 100));
        pull.second(summaryOf(2), second(2, 50));
        std::set<std::string> pulled, pushed;
        for (const PromSample& sample : parsePromText(pull.text()).samples)
            pulled.insert(sample.name);
        for (const auto& [key, v] : byName)
            pushed.insert(key.substr(0, key.find(' ')));
        QCOMPARE(pushed, pulled);
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

    // Issue 51: what /metrics says follows Prometheus' rules: counters cumulative, the latency a histogram
    // (_bucket by le, cumulative, _sum and _count over the run, from the exact histograms), no timestamps, labels
    // escaped, promtool content.
    void prometheusCountsAddUp()
    {
        PrometheusOutput out("127.0.0.1:0", 0); // no linger: nothing scrapes here
        std::string error;
        QVERIFY2(out.open(twoSteps(), error), error.c_str());
        PromParse p = parsePromText(out.text());
        QCOMPARE(p.badLines, std::size_t(0));
        QCOMPARE(value(p, "stampede_run_info", {{"run_id", "st-test"}, {"scenario", "shop"}}), 1.0);
        QCOMPARE(value(p, "stampede_run_active", {}), 0.0);
        QCOMPARE(value(p, "stampede_requests_total", {}), 0.0); // every series from the start, at 0

        out.second(summaryOf(1), second(1, 100));
        out.second(summaryOf(2), second(2, 50));
        const std::string text = out.text();
        p = parsePromText(text);
        QCOMPARE(p.badLines, std::size_t(0));
        QCOMPARE(value(p, "stampede_run_active", {}), 1.0);
        QCOMPARE(value(p, "stampede_run_elapsed_seconds", {}), 2.0);
        QCOMPARE(value(p, "stampede_requests_total", {{"step", "login \"v2\""}}), 150.0);
        QCOMPARE(value(p, "stampede_requests_total", {{"step", "browse"}}), 20.0);
        QCOMPARE(value(p, "stampede_errors_total", {{"step", "login \"v2\""}, {"class", "http_5xx"}}), 4.0);
        QCOMPARE(value(p, "stampede_errors_total", {{"step", "login \"v2\""}, {"class", "timeout"}}), 2.0);
        QCOMPARE(value(p, "stampede_errors_total", {{"step", "browse"}, {"class", "connect"}}), 0.0); // listed at 0
        QCOMPARE(value(p, "stampede_errors_total", {}), 6.0);
        QCOMPARE(value(p, "stampede_checks_total", {{"check", "status 200"}, {"result", "passed"}}), 144.0);
        QCOMPARE(value(p, "stampede_checks_total", {{"check", "status 200"}, {"result", "failed"}}), 0.0);
        QCOMPARE(value(p, "stampede_open_connections", {}), 7.0);
        // the histogram over both seconds: browse's 18 answers at 1 ms and 2 at 250 ms; login's 150 at 2 ms
        const auto bucket = [&](const char* step, const char* le) {
            return value(p, "stampede_latency_seconds_bucket", {{"step", step}, {"le", le}});
        };
        QCOMPARE(bucket("browse", "0.0005"), 0.0);
        QCOMPARE(bucket("browse", "0.001"), 18.0);
        QCOMPARE(bucket("browse", "0.1"), 18.0);
        QCOMPARE(bucket("browse", "0.25"), 20.0);
        QCOMPARE(bucket("browse", "+Inf"), 20.0);
        QCOMPARE(bucket("login \"v2\"", "0.001"), 0.0);
        QCOMPARE(bucket("login \"v2\"", "0.0025"), 150.0);
        QCOMPARE(value(p, "stampede_latency_seconds_count", {{"step", "browse"}}), 20.0);
        const double sum = value(p, "stampede_latency_seconds_sum", {{"step", "browse"}});
        QVERIFY2(std::abs(sum - 0.518) < 1e-9, QByteArray::number(sum));      // 18 x 1 ms + 2 x 250 ms
        QVERIFY(text.find("step=\"login \\\"v2\\\"\"") != std::string::npos); // the quote escaped
        QVERIFY(text.find("# TYPE stampede_latency_seconds histogram\n") != std::string::npos);
        for (const auto& line : QByteArray::fromStdString(text).split('\n')) // no sample carries a timestamp
            QVERIFY2(line.isEmpty() || line.startsWith('#') || line.mid(line.lastIndexOf('}') + 1).count(' ') <= 1,
                     line.constData());
        QVERIFY(out.finish(RunSummary{}, error));
        p = parsePromText(out.text());
        QCOMPARE(value(p, "stampede_run_active", {}), 0.0);
        QCOMPARE(value(p, "stampede_requests_total", {{"step", "login \"v2\""}}), 150.0); // kept after the end
        QProcess promtool;
        promtool.start(QStringLiteral("promtool"), {QStringLiteral("check"), QStringLiteral("metrics")});
        if (promtool.waitForStarted(5000)) { // Debian's prometheus ships it (scripts/install-deps.sh)
            promtool.write(QByteArray::fromStdString(text));
            promtool.closeWriteChannel();
            QVERIFY(promtool.waitForFinished(20000));
            QVERIFY2(promtool.exitCode() == 0 && promtool.readAll().isEmpty(),
                     promtool.readAllStandardError().constData());
        } else {
            QFAIL("promtool is missing: run scripts/install-deps.sh");
        }
    }

    // After the run the final figures stay for the linger (once the summary is out: finish() does not wait),
    // whoever scrapes and however often: two scrapers read
    // the same final figures (with "until one scrape", a second Prometheus of an HA pair stored 1,400 of 1,600).
    void prometheusLingersForEveryScraper()
    {
        std::string error;
        PrometheusOutput out("127.0.0.1:0", 2 * kNanosPerSecond);
        QVERIFY2(out.open(twoSteps(), error), error.c_str());
        out.second(summaryOf(1), second(1, 100));
        std::string first, second;
        std::thread scrapers([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            first = testsupport::httpGet(out.port(), "/metrics");
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            second = testsupport::httpGet(out.port(), "/metrics");
        });
        QElapsedTimer clock;
        clock.start();
        QVERIFY(out.finish(RunSummary{}, error));
        QVERIFY2(clock.elapsed() < 1500, qPrintable(QString::number(clock.elapsed()))); // the summary is not held up
        out.linger(); // the process's last act: the figures stay for the linger
        scrapers.join();
        QVERIFY2(clock.elapsed() >= 1990, qPrintable(QString::number(clock.elapsed())));
        for (const std::string* scraped : {&first, &second}) {
            QVERIFY2(scraped->find("stampede_run_active{run_id=\"st-test\",scenario=\"shop\"} 0") != std::string::npos,
                     scraped->c_str());
            QVERIFY2(scraped->find(",step=\"browse\"} 10\n") != std::string::npos, scraped->c_str());
        }
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

    // Issue 51: a saved run's JSON export is UTF-8 whatever its answers were: a compressed sample's body is
    // decoded as its head says (deflate here), bytes that are not text go as base64 and read back as they came.
    void exportedJsonIsUtf8()
    {
        SavedRun run;
        run.stepNames = {"api"};
        ErrorSample text;
        text.errorClass = ErrorClass::Http5xx;
        text.status = 500;
        text.head = "HTTP/1.1 500 Internal Server Error\r\nContent-Encoding: deflate\r\n";
        text.body = qCompress(QByteArray("{\"error\": \"busy \xe4\xb8\xad\"}")).mid(4).toStdString(); // zlib's format
        ErrorSample binary = text;
        binary.head = "HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/octet-stream\r\n";
        binary.body = std::string("\x1f\x8b\xff\x00\xc3", 5);
        run.samples = {text, binary};
        const std::string out = exportJson(run, RunSummary{});
        QVERIFY(isUtf8(out));
        QJsonParseError pe;
        const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(out), &pe).object();
        QVERIFY2(pe.error == QJsonParseError::NoError, out.c_str());
        const QJsonArray samples = o.value(QLatin1String("error_samples")).toArray();
        QCOMPARE(samples.size(), 2);
        QCOMPARE(samples[0].toObject().value(QLatin1String("body")).toString(),
                 QString::fromUtf8("{\"error\": \"busy \xe4\xb8\xad\"}"));
        QVERIFY(!samples[0].toObject().contains(QLatin1String("body_base64")));
        QCOMPARE(
            QByteArray::fromBase64(samples[1].toObject().value(QLatin1String("body_base64")).toString().toLatin1()),
            QByteArray("\x1f\x8b\xff\x00\xc3", 5));
    }

    // Issue 51: the HTML export says a threshold's measure in the units it was written in (a rate of errors as a
    // percentage, a latency in ms), and the scenario as it ran as it was written (no \u003c for "<").
    void htmlSaysThresholdsInTheirUnits()
    {
        SavedRun run;
        run.scenarioJson =
            "{\"name\": \"shop\", \"thresholds\": [{\"expr\": \"p99 < 500ms\"}], \"steps\": [{\"request\": "
            "{\"url\": \"http://127.0.0.1:9/a?x=1&y=2\"}}]}";
        RunSummary summary;
        ThresholdResult errors;
        errors.expr = "error_rate < 2%";
        errors.passed = true;
        errors.value = 0.004;
        errors.percent = true;
        ThresholdResult p99;
        p99.expr = "p99 < 500ms";
        p99.passed = true;
        p99.value = 44.656;
        p99.unit = "ms";
        summary.thresholds = {errors, p99};
        QCOMPARE(measuredText(errors), std::string("0.4 %"));
        QCOMPARE(measuredText(p99), std::string("44.66 ms"));
        const std::string html = exportHtml(run, summary);
        QVERIFY(html.find("<td>error_rate &lt; 2%</td><td>0.4 %</td>") != std::string::npos);
        QVERIFY(html.find("<td>44.66 ms</td>") != std::string::npos);
        QVERIFY2(html.find("u003c") == std::string::npos && html.find("u0026") == std::string::npos, html.c_str());
        QVERIFY(html.find("p99 &lt; 500ms") != std::string::npos);
        QVERIFY(html.find("a?x=1&amp;y=2") != std::string::npos);
        // a chart's unit sits on its title's line, above the value axis' top tick (it ran into its label)
        QVERIFY2(html.find("<text x=\"4\" y=\"16\" font-size=\"10\">requests/s</text>") != std::string::npos,
                 html.c_str());
    }

    // Issue 51: each step's sections from the run's exact figures: the distribution's buckets add up to the
    // step's answers, APDEX splits them at T and 4T, the percentiles are the stored seconds', the errors come by
    // class most first with a sample each; the JSON export carries them and stays valid.
    void stepSectionsFromTheExactFigures()
    {
        SavedRun run;
        run.stepNames = {"login"};
        run.total.steps.resize(1);
        LatencyHistogram& h = run.total.steps[0].latency;
        h.recordCount(300, 50);      // 0.3 ms
        h.recordCount(40'000, 30);   // 40 ms
        h.recordCount(900'000, 15);  // 900 ms: tolerating at T 500 ms
        h.recordCount(3'000'000, 5); // 3 s: frustrated
        for (std::uint32_t k = 1; k <= 3; ++k) {
            SecondRow r;
            r.second = k;
            r.step = 0;
            r.counters.requests = 40;
            r.p50Ms = double(k);
            r.p99Ms = 10.0 * k;
            run.rows.push_back(r);
        }
        ErrorSample timeout;
        timeout.errorClass = ErrorClass::Timeout;
        timeout.detail = "no complete response within 2s";
        run.samples = {timeout};
        RunSummary summary;
        summary.steps.resize(1);
        summary.steps[0].name = "login";
        summary.steps[0].errorsByClass[std::size_t(ErrorClass::Http5xx)] = 2;
        summary.steps[0].errorsByClass[std::size_t(ErrorClass::Timeout)] = 7;
        const std::vector<StepSection> sections = reportSections(run, summary);
        QCOMPARE(sections.size(), std::size_t(1));
        const StepSection& s = sections[0];
        std::uint64_t all = 0;
        for (const auto& b : s.distribution) {
            QVERIFY(b.toMs > b.fromMs);
            all += b.count;
        }
        QCOMPARE(all, std::uint64_t(100));
        QVERIFY(s.distribution.front().toMs <= 0.5 && s.distribution.back().toMs >= 3000);
        QCOMPARE(s.satisfied, std::uint64_t(80));
        QCOMPARE(s.tolerating, std::uint64_t(15));
        QCOMPARE(s.frustrated, std::uint64_t(5));
        QCOMPARE(s.apdex, 0.875);
        QCOMPARE(s.overTime.size(), std::size_t(3));
        QCOMPARE(s.overTime[2].p99, 30.0);
        QCOMPARE(s.topErrors.size(), std::size_t(2));
        QCOMPARE(s.topErrors[0].errorClass, std::string("timeout"));
        QCOMPARE(s.topErrors[0].count, std::uint64_t(7));
        QCOMPARE(s.topErrors[0].sample, std::string("no complete response within 2s"));
        QVERIFY(s.topErrors[1].sample.empty()); // none of that class was kept
        QJsonParseError pe;
        const QJsonObject o = QJsonDocument::fromJson(
                                  QByteArray::fromStdString(exportJson(run, summary, ReportOptions{1000, {}, {}})), &pe)
                                  .object();
        QVERIFY(pe.error == QJsonParseError::NoError);
        const QJsonObject apdex =
            o.value(QLatin1String("sections")).toArray()[0].toObject().value(QLatin1String("apdex")).toObject();
        QCOMPARE(apdex.value(QLatin1String("t_ms")).toDouble(), 1000.0);
        QCOMPARE(apdex.value(QLatin1String("satisfied")).toInt(), 95); // 900 ms is under 1 s
        const std::string html = exportHtml(run, summary);
        QVERIFY(html.find("APDEX (T 500 ms): <b>0.88</b>") != std::string::npos);
        QVERIFY(html.find("Latency distribution") != std::string::npos);
        QVERIFY(html.find("Percentiles over time") != std::string::npos);
        // response time against throughput: a dot for each second with answers
        const std::size_t dots = html.find("p99 against throughput");
        QVERIFY(dots != std::string::npos);
        const std::string chart = html.substr(dots, html.find("</svg>", dots) - dots);
        std::size_t circles = 0;
        for (std::size_t at = chart.find("<circle"); at != std::string::npos; at = chart.find("<circle", at + 1))
            ++circles;
        QCOMPARE(circles, std::size_t(3));
        QCOMPARE(o.value(QLatin1String("sections"))
                     .toArray()[0]
                     .toObject()
                     .value(QLatin1String("over_time"))
                     .toArray()[1]
                     .toObject()
                     .value(QLatin1String("requests"))
                     .toInt(),
                 40);
    }

    // Issue 51: sections for the whole run (several steps), each group and each scenario of a plan, APDEX at
    // each one's own T where given; the verdict in the same words in the summary, the JSON and the HTML.
    void sectionsForGroupsAndScenarios()
    {
        SavedRun run;
        run.stepNames = {"login", "pay"};
        run.total.steps.resize(2);
        run.total.steps[0].latency.recordCount(100'000, 10); // 100 ms
        run.total.steps[1].latency.recordCount(300'000, 30); // 300 ms
        run.groupNames = {"checkout"};
        run.total.groups.resize(1);
        run.total.groups[0].latency.recordCount(400'000, 10);
        run.scenarios = {{"buyers", 0, 2, 0, 10}};
        for (int k = 0; k < 2; ++k) {
            SecondRow r;
            r.second = 1;
            r.step = 0; // the group's, the scenario's index
            r.counters.requests = 5;
            r.p99Ms = 7;
            (k ? run.scenarioRows : run.groupRows).push_back(r);
        }
        RunSummary summary;
        summary.steps.resize(2);
        summary.steps[0].requests = 14; // 4 failed without an answer: frustrated
        summary.groups.resize(1);
        summary.groups[0].name = "checkout";
        summary.groups[0].errorsByClass[std::size_t(ErrorClass::Connect)] = 3;
        ReportOptions o;
        o.apdexTMs = 200;
        o.apdexTByName["pay"] = 500;
        const std::vector<StepSection> s = reportSections(run, summary, o);
        QCOMPARE(s.size(), std::size_t(5)); // all steps, login, pay, group checkout, scenario buyers
        QVERIFY(s[0].kind == StepSection::Kind::Run);
        QCOMPARE(s[0].satisfied + s[0].tolerating + s[0].frustrated, std::uint64_t(40));
        QCOMPARE(s[0].satisfied, std::uint64_t(10)); // at the run's T (200 ms) the 300 ms answers tolerate
        QCOMPARE(s[1].frustrated, std::uint64_t(4));
        QCOMPARE(s[1].apdex, 10.0 / 14.0);
        QCOMPARE(s[2].apdexTMs, 500.0);
        QCOMPARE(s[2].satisfied, std::uint64_t(30)); // pay at its own T
        QVERIFY(s[3].kind == StepSection::Kind::Group && s[3].name == "checkout");
        QCOMPARE(s[3].tolerating, std::uint64_t(10)); // 400 ms against 200 ms
        QCOMPARE(s[3].topErrors.size(), std::size_t(1));
        QCOMPARE(s[3].overTime.size(), std::size_t(1));
        QVERIFY(s[4].kind == StepSection::Kind::Scenario && s[4].name == "buyers");
        QCOMPARE(s[4].satisfied + s[4].tolerating, std::uint64_t(40)); // its steps merged
        QCOMPARE(s[4].overTime.size(), std::size_t(1));
        const QJsonObject json =
            QJsonDocument::fromJson(QByteArray::fromStdString(exportJson(run, summary, o))).object();
        const QJsonArray sections = json.value(QLatin1String("sections")).toArray();
        QCOMPARE(sections.size(), 5);
        QCOMPARE(sections[3].toObject().value(QLatin1String("group")).toString(), QStringLiteral("checkout"));
        QCOMPARE(sections[4].toObject().value(QLatin1String("scenario")).toString(), QStringLiteral("buyers"));
    }

    // Issue 51: one verdict vocabulary, derived from the judgement: the summary's last line, the JSON, the HTML.
    void oneVerdictInEveryExport_data()
    {
        QTest::addColumn<QString>("status");
        QTest::addColumn<bool>("thresholdPassed");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("verdict");
        QTest::newRow("passed") << "completed" << true << ""
                                << "completed and passed";
        QTest::newRow("threshold") << "completed" << false << ""
                                   << "completed and failed: threshold p99 < 5ms failed (29.82 ms)";
        QTest::newRow("not as planned") << "completed" << true << "not as planned: 5 of 10 planned iterations"
                                        << "completed and failed: not as planned: 5 of 10 planned iterations";
        QTest::newRow("stopped") << "stopped" << true << "stopped when asked, at 2 s of 10 s"
                                 << "stopped when asked, at 2 s of 10 s";
        QTest::newRow("aborted") << "aborted" << false << "aborted: an engine was lost and the policy is abort"
                                 << "aborted: an engine was lost and the policy is abort";
    }
    void oneVerdictInEveryExport()
    {
        QFETCH(QString, status);
        QFETCH(bool, thresholdPassed);
        QFETCH(QString, reason);
        QFETCH(QString, verdict);
        RunSummary s;
        s.status = status.toStdString();
        s.reason = reason.toStdString();
        ThresholdResult t;
        t.expr = "p99 < 5ms";
        t.passed = thresholdPassed;
        t.value = 29.816;
        t.unit = "ms";
        s.thresholds = {t};
        s.passed = s.reason.empty() && thresholdPassed;
        QCOMPARE(QString::fromStdString(verdictText(s)), verdict);
        QVERIFY(summaryToTable(s).find("verdict: " + verdict.toStdString() + "\n") != std::string::npos);
        const QJsonObject json = QJsonDocument::fromJson(QByteArray::fromStdString(summaryToJson(s))).object();
        QCOMPARE(json.value(QLatin1String("verdict")).toString(), verdict);
        SavedRun run;
        const std::string html = exportHtml(run, s);
        QVERIFY2(html.find(">" + escapeXml(verdict.toStdString()) + "</p>") != std::string::npos, html.c_str());
        QVERIFY(exportJUnit(s).find("name=\"verdict\" value=\"" + escapeXml(verdict.toStdString()) + "\"") !=
                std::string::npos);
    }

    // Issue 51: the HTML's every fixed word goes through the caller's words (the workbench's language), what the
    // engine composed through its sentences, and the page says its language.
    void htmlInTheCallersWords()
    {
        SavedRun run;
        run.stepNames = {"a", "b"};
        run.total.steps.resize(2);
        run.total.steps[0].latency.recordCount(1000, 3);
        run.groupNames = {"g"};
        run.total.groups.resize(1);
        SecondRow r;
        r.second = 1;
        r.counters.requests = 3;
        r.p99Ms = 1;
        run.rows = {r};
        RunSummary s = summarizeSaved(run);
        s.groups.resize(1);
        s.groups[0].name = "g";
        s.status = "stopped";
        s.reason = "stopped when asked, at 1 s of 10 s";
        s.passed = false;
        s.events = {{0.5, "paused", "", "", 0, 0}};
        ReportOptions o;
        o.words.lang = "xx";
        std::set<std::string> asked;
        o.words.word = [&asked](const char* english) {
            asked.insert(english);
            return "[" + std::string(english) + "]";
        };
        o.words.sentence = [](const std::string& english) { return english.empty() ? english : "{" + english + "}"; };
        o.words.eventKind = [](const std::string& kind) { return "<" + kind + ">"; };
        const std::string html = exportHtml(run, s, o);
        QVERIFY(html.find("<html lang=\"xx\">") != std::string::npos);
        QVERIFY(html.find(">{stopped when asked, at 1 s of 10 s}</p>") != std::string::npos);
        QVERIFY(html.find("&lt;paused&gt;") != std::string::npos);
        for (const char* w :
             {"Throughput", "Latency", "Connections and users", "Summary per step", "Thresholds", "Events",
              "Error samples", "Scenario as it ran", "group", "total", "All steps", "Latency distribution", "seconds"})
            QVERIFY2(asked.count(w), w);
        // no English heading left outside the words: every <h1>-<h3> and <th> is the caller's
        const QRegularExpression heading(QStringLiteral("<(h2|th)>([^<]*)</\\1>"));
        for (auto it = heading.globalMatch(QString::fromStdString(html)); it.hasNext();) {
            const QString text = it.next().captured(2);
            QVERIFY2(text.startsWith(QLatin1Char('[')) || text.contains(QLatin1String("ms")) ||
                         text.startsWith(QLatin1String("APDEX")),
                     qPrintable(text));
        }
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
        // the second's fastest answer and mean beside its percentiles, as the summary has them: browse's nine at
        // 1 ms and one at 250 ms
        const QJsonObject browse = sec.value(QLatin1String("steps")).toArray()[1].toObject();
        QCOMPARE(browse.value(QLatin1String("min_ms")).toDouble(), 1.0);
        QCOMPARE(browse.value(QLatin1String("mean_ms")).toDouble(), 25.9);
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
