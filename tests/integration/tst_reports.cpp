// Runs saved as they happen, reopened, exported and compared.
#include "report/trendreport.h"
#include "store/projectstore.h"
#include "store/runlog.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QXmlStreamReader>
#include <csignal>
#include <map>
#include <set>

using namespace testsupport;

class TestReports : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString path(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }
    static QByteArray read(const QString& p)
    {
        QFile f(p);
        f.open(QIODevice::ReadOnly);
        return f.readAll();
    }

private slots:
    void savedRowsMatchTheLiveSummary()
    {
        MockProcess mock(QStringLiteral(
            "{\"rules\": [{\"path\": \"/*\", \"delay\": {\"uniform\": {\"minMs\": 1, \"maxMs\": 5}}}]}"));
        QVERIFY(mock.started());
        const QString report = path("a.streport");
        const QString live = path("a.json");
        const auto r = runCli({QStringLiteral("run"), QStringLiteral("--url"), mock.url(), QStringLiteral("-r"),
                               QStringLiteral("400"), QStringLiteral("-c"), QStringLiteral("10"), QStringLiteral("-d"),
                               QStringLiteral("3s"), QStringLiteral("-q"), QStringLiteral("--threshold"),
                               QStringLiteral("p99 < 2s"), QStringLiteral("--report"), report,
                               QStringLiteral("--summary-json"), live});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject liveSummary = readJson(live);

        std::string error;
        auto store = stampede::ProjectStore::open(report.toStdString(), error);
        QVERIFY2(store, error.c_str());
        stampede::RunLog log(*store);
        const auto runs = log.runs();
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(runs[0].status), QStringLiteral("completed"));
        const auto saved = log.load(runs[0].id);
        QVERIFY(saved);
        std::uint64_t sum = 0;
        for (const auto& row : saved->rows)
            if (row.step == 0)
                sum += row.counters.requests;
        QCOMPARE(qint64(sum), liveSummary[QStringLiteral("total")].toObject()[QStringLiteral("requests")].toInteger());
        // held open here, as the workbench holds a project: the report commands read it beside the holder
        const auto listed = runCli({QStringLiteral("report"), QStringLiteral("list"), report});
        QVERIFY2(listed.exitCode == 0 && listed.out.contains(QStringLiteral("completed")), qPrintable(listed.err));
        const QString held = path("a-held.json");
        const auto exported = runCli({QStringLiteral("report"), QStringLiteral("export"), report,
                                      QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("-o"), held});
        QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
        QCOMPARE(readJson(held)[QStringLiteral("total")].toObject()[QStringLiteral("requests")].toInteger(),
                 liveSummary[QStringLiteral("total")].toObject()[QStringLiteral("requests")].toInteger());
        store.reset();

        // the report re-opened from the file says what was shown live
        const QString reopened = path("a-reopened.json");
        QCOMPARE(runCli({QStringLiteral("report"), QStringLiteral("export"), report, QStringLiteral("--format"),
                         QStringLiteral("json"), QStringLiteral("-o"), reopened})
                     .exitCode,
                 0);
        const QJsonObject back = readJson(reopened);
        QCOMPARE(back[QStringLiteral("total")].toObject()[QStringLiteral("requests")],
                 liveSummary[QStringLiteral("total")].toObject()[QStringLiteral("requests")]);
        QCOMPARE(back[QStringLiteral("total")].toObject()[QStringLiteral("latency_ms")],
                 liveSummary[QStringLiteral("total")].toObject()[QStringLiteral("latency_ms")]);
        QCOMPARE(back[QStringLiteral("timeline")].toArray().size(),
                 liveSummary[QStringLiteral("timeline")].toArray().size());
        for (int i = 0; i < back[QStringLiteral("timeline")].toArray().size(); ++i)
            QCOMPARE(back[QStringLiteral("timeline")].toArray()[i].toObject()[QStringLiteral("requests")],
                     liveSummary[QStringLiteral("timeline")].toArray()[i].toObject()[QStringLiteral("requests")]);
        QCOMPARE(back[QStringLiteral("thresholds")], liveSummary[QStringLiteral("thresholds")]);

        // every export is produced and parsed back
        const QString html = path("a.html"), junit = path("a.xml"), csv = path("a.csv");
        for (const auto& [format, out] :
             {std::pair{QStringLiteral("html"), html}, std::pair{QStringLiteral("junit"), junit},
              std::pair{QStringLiteral("csv"), csv}})
            QCOMPARE(runCli({QStringLiteral("report"), QStringLiteral("export"), report, QStringLiteral("--format"),
                             format, QStringLiteral("-o"), out})
                         .exitCode,
                     0);
        const QByteArray page = read(html);
        QVERIFY(page.contains(liveSummary[QStringLiteral("run_id")].toString().toUtf8()));
        QVERIFY(page.contains("<svg"));
        QVERIFY(page.contains("id=\"stampede-summary\""));
        // the time axis labelled on its steps, the scenario one field a line
        QVERIFY(page.contains("text-anchor=\"middle\">0</text>"));
        QVERIFY(page.contains(">seconds</text>"));
        const qsizetype pre = page.indexOf("<h2>Scenario as it ran</h2>");
        QVERIFY(pre > 0);
        QVERIFY2(page.mid(pre, page.indexOf("</pre>", pre) - pre).count('\n') > 5, page.mid(pre, 300).constData());
        for (const char* external : {"src=", "href=", "@import", "url("})
            QVERIFY2(!page.contains(external), external);
        QXmlStreamReader xml(read(junit));
        int cases = 0, failures = 0;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement() && xml.name() == QLatin1String("testcase"))
                ++cases;
            if (xml.isStartElement() && xml.name() == QLatin1String("failure"))
                ++failures;
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(cases, 1);
        QCOMPARE(failures, 0);
        const QList<QByteArray> lines = read(csv).trimmed().split('\n');
        QVERIFY(lines[0].startsWith("second,step,sent,requests"));
        QCOMPARE(lines.size() - 1, int(saved->rows.size()));
    }

    void perEngineRowsGaugesAndErrorSamples()
    {
        MockProcess mock(QStringLiteral("{\"rules\": [{\"path\": \"/fail\", \"status\": 503, \"body\": "
                                        "\"backend down: try later\"}, {\"path\": \"/*\"}]}"));
        QVERIFY(mock.started());
        const QString report = path("engines.streport");
        const auto r = runCli({QStringLiteral("run"), QStringLiteral("--url"), mock.url(QStringLiteral("/fail")),
                               QStringLiteral("-r"), QStringLiteral("300"), QStringLiteral("-c"), QStringLiteral("8"),
                               QStringLiteral("-d"), QStringLiteral("3s"), QStringLiteral("-q"),
                               QStringLiteral("--engines"), QStringLiteral("2"), QStringLiteral("--report"), report});
        QVERIFY2(r.exitCode == 1, qPrintable(r.err)); // every answer a 503: no request succeeded
        std::string error;
        auto store = stampede::ProjectStore::open(report.toStdString(), error);
        QVERIFY2(store, error.c_str());
        stampede::RunLog log(*store);
        const auto saved = log.load(log.runs().at(0).id);
        QVERIFY(saved);
        QCOMPARE(saved->agents.size(), std::size_t(2));
        // each engine's seconds are kept, and they add up to the merged ones
        std::map<std::pair<std::uint32_t, int>, std::uint64_t> merged, perAgent;
        std::set<std::string> agentsSeen;
        for (const auto& row : saved->rows)
            merged[{row.second, row.step}] += row.counters.requests;
        for (const auto& row : saved->agentRows) {
            perAgent[{row.second, row.step}] += row.counters.requests;
            agentsSeen.insert(row.agent);
        }
        QCOMPARE(agentsSeen.size(), std::size_t(2));
        QVERIFY(merged == perAgent);
        // the gauges: connections stay open through the run (8 in all)
        std::uint32_t peak = 0;
        for (const auto& row : saved->rows)
            if (row.step == -1)
                peak = std::max(peak, row.openConnections);
        QVERIFY2(peak >= 1 && peak <= 8, qPrintable(QString::number(peak)));
        // error samples: the status, the headers and the body as answered, a few per class only
        QVERIFY(!saved->samples.empty());
        QVERIFY(saved->samples.size() <= std::size_t(stampede::kRunSamplesPerClass));
        const auto& e = saved->samples.front();
        QCOMPARE(e.status, 503);
        QCOMPARE(e.errorClass, stampede::ErrorClass::Http5xx);
        QVERIFY2(QString::fromStdString(e.head).startsWith(QStringLiteral("HTTP/1.1 503")), e.head.c_str());
        QCOMPARE(QString::fromStdString(e.body), QStringLiteral("backend down: try later"));
        store.reset();
        // and the HTML report shows them
        const QString html = path("engines.html");
        QCOMPARE(runCli({QStringLiteral("report"), QStringLiteral("export"), report, QStringLiteral("--format"),
                         QStringLiteral("html"), QStringLiteral("-o"), html})
                     .exitCode,
                 0);
        QVERIFY(read(html).contains("backend down: try later"));
        // the JSON export carries the samples too, and the CSV the errors by class
        const QString json = path("engines.json"), csv = path("engines.csv");
        for (const auto& [format, out] :
             {std::pair{QStringLiteral("json"), json}, std::pair{QStringLiteral("csv"), csv}})
            QCOMPARE(runCli({QStringLiteral("report"), QStringLiteral("export"), report, QStringLiteral("--format"),
                             format, QStringLiteral("-o"), out})
                         .exitCode,
                     0);
        const QJsonArray samples = readJson(json)[QStringLiteral("error_samples")].toArray();
        QVERIFY(!samples.isEmpty());
        const QJsonObject first = samples[0].toObject();
        QCOMPARE(first[QStringLiteral("class")].toString(), QStringLiteral("http_5xx"));
        QCOMPARE(first[QStringLiteral("status")].toInt(), 503);
        QCOMPARE(first[QStringLiteral("body")].toString(), QStringLiteral("backend down: try later"));
        const QList<QByteArray> lines = read(csv).trimmed().split('\n');
        const QList<QByteArray> header = lines[0].split(',');
        const qsizetype col = header.indexOf("errors_http_5xx");
        QVERIFY(col > 0 && header.contains("errors_grpc"));
        qint64 fiveHundreds = 0, errors = 0;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QList<QByteArray> f = lines[i].split(',');
            if (f[1] == "total") {
                fiveHundreds += f[col].toLongLong();
                errors += f[4].toLongLong();
            }
        }
        QVERIFY(errors > 0);
        QCOMPARE(fiveHundreds, errors);
    }

    void killedControllerLeavesAnInterruptedRun()
    {
        MockProcess mock;
        QVERIFY(mock.started());
        const QString report = path("killed.streport");
        QProcess run;
        run.start(cliPath(), {QStringLiteral("run"), QStringLiteral("--url"), mock.url(), QStringLiteral("-r"),
                              QStringLiteral("300"), QStringLiteral("-c"), QStringLiteral("5"), QStringLiteral("-d"),
                              QStringLiteral("20s"), QStringLiteral("-q"), QStringLiteral("--report"), report});
        QVERIFY(run.waitForStarted());
        QThread::msleep(3500);
        run.kill();
        run.waitForFinished();
        std::string error;
        auto store = stampede::ProjectStore::open(report.toStdString(), error); // runs integrity_check
        QVERIFY2(store, error.c_str());
        const auto runs = stampede::RunLog(*store).runs();
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(runs[0].status), QStringLiteral("interrupted"));
        // at most the last second before the kill is lost
        QVERIFY2(runs[0].lastSecond >= 2, qPrintable(QString::number(runs[0].lastSecond)));
        QVERIFY(runs[0].lastSecond <= 4);
        store.reset();
        const auto r = runCli({QStringLiteral("report"), QStringLiteral("export"), report, QStringLiteral("--format"),
                               QStringLiteral("json"), QStringLiteral("-o"), path("killed.json")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(!readJson(path("killed.json"))[QStringLiteral("passed")].toBool());
    }

    // Issue 51: no quiet pass. A run whose threshold judges latency over the answers that came while most
    // requests failed passes by its thresholds (the exit code is the verdict), and says beside that verdict, in
    // the table, the summary, the HTML export and `report list`, the error rate it did not judge; a run whose
    // thresholds judge error_rate says nothing more.
    void errorsNoThresholdJudgesAreSaid()
    {
        MockProcess mock(QStringLiteral("{\"rules\": [{\"path\": \"/bad\", \"status\": 503}, {\"path\": \"/*\"}]}"));
        QVERIFY(mock.started());
        const QString scenario = writeFile(
            m_dir, "quiet.json",
            QStringLiteral("{\"name\": \"quiet\", \"steps\": [{\"name\": \"good\", \"request\": {\"url\": \"%1/ok\"}},"
                           " {\"name\": \"bad\", \"request\": {\"url\": \"%1/bad\"}, \"onError\": \"continue\"},"
                           " {\"name\": \"worse\", \"request\": {\"url\": \"%1/bad\"}, \"onError\": \"continue\"}],"
                           " \"thresholds\": [{\"expr\": \"p99 < 5s\"}],"
                           " \"load\": {\"closed\": {\"users\": 2}}, \"iterations\": 10}")
                .arg(mock.url().chopped(mock.url().endsWith(u'/') ? 1 : 0))
                .toUtf8());
        const QString report = path("quiet.streport"), summary = path("quiet.json.out");
        const auto r = runCli({QStringLiteral("run"), scenario, QStringLiteral("--report"), report,
                               QStringLiteral("--summary-json"), summary});
        QCOMPARE(r.exitCode, 0); // the thresholds' verdict
        const QString said = QStringLiteral("66.67 % of the requests failed (40 of 60) and no threshold judges the "
                                            "error rate");
        QVERIFY2(r.out.contains(QStringLiteral("NOT JUDGED: ") + said), qPrintable(r.out));
        QCOMPARE(readJson(summary).value(QStringLiteral("unjudged")).toString(), said);
        const auto listed = runCli({QStringLiteral("report"), QStringLiteral("list"), report});
        QVERIFY2(listed.out.contains(QStringLiteral("passed")) &&
                     listed.out.contains(QStringLiteral("(not judged: ") + said + QStringLiteral(")")),
                 qPrintable(listed.out));
        const QString html = path("quiet.html");
        QCOMPARE(runCli({QStringLiteral("report"), QStringLiteral("export"), report, QStringLiteral("--format"),
                         QStringLiteral("html"), QStringLiteral("-o"), html})
                     .exitCode,
                 0);
        QVERIFY(QString::fromUtf8(read(html)).contains(QStringLiteral("Not judged: ") + said));
        // judged: nothing more is said, and the verdict is the threshold's
        const auto judged = runCli({QStringLiteral("run"), scenario, QStringLiteral("--threshold"),
                                    QStringLiteral("error_rate < 1%"), QStringLiteral("--summary-json"), summary});
        QCOMPARE(judged.exitCode, 1);
        QVERIFY(!judged.out.contains(QStringLiteral("NOT JUDGED")));
        QVERIFY(!readJson(summary).contains(QStringLiteral("unjudged")));
        // an error budget for every run (the command line's, or the machine's STAMPEDE_MAX_ERROR_RATE): judged by it
        const auto budget = runCli({QStringLiteral("run"), scenario, QStringLiteral("--max-error-rate"),
                                    QStringLiteral("5%"), QStringLiteral("--summary-json"), summary});
        QCOMPARE(budget.exitCode, 1);
        QVERIFY2(budget.out.contains(QStringLiteral("FAIL error_rate < 5%")), qPrintable(budget.out));
        qputenv("STAMPEDE_MAX_ERROR_RATE", "70%");
        const auto machine = runCli({QStringLiteral("run"), scenario, QStringLiteral("--summary-json"), summary});
        qunsetenv("STAMPEDE_MAX_ERROR_RATE");
        QCOMPARE(machine.exitCode, 0);
        QVERIFY2(machine.out.contains(QStringLiteral("PASS error_rate < 70%")), qPrintable(machine.out));
        // a scenario that judges its error rate keeps its own threshold
        const auto own =
            runCli({QStringLiteral("run"), scenario, QStringLiteral("--threshold"), QStringLiteral("error_rate < 80%"),
                    QStringLiteral("--max-error-rate"), QStringLiteral("5%")});
        QCOMPARE(own.exitCode, 0);
        QVERIFY(!own.out.contains(QStringLiteral("error_rate < 5%")));
        const auto bad =
            runCli({QStringLiteral("run"), scenario, QStringLiteral("--max-error-rate"), QStringLiteral("150%")});
        QVERIFY2(bad.exitCode == 2 && bad.err.contains(QStringLiteral("not a percentage above 0 and at most 100")),
                 qPrintable(bad.err));
    }

    // Issue 51: the trend of a scenario's runs. Four runs against a fast server and a fifth against one 100 ms
    // slower: `report trend` lists the five (another scenario's run left out), flags the fifth against the
    // baseline (the oldest) and exits 1; with the fifth as the baseline nothing regresses; -o writes one HTML page with
    // the charts over runs and the baseline marked; bad input is refused.
    void trendFlagsTheNewestRun()
    {
        MockProcess fast;
        MockProcess slow(QStringLiteral("{\"rules\": [{\"path\": \"/*\", \"delay\": {\"fixedMs\": 100}}]}"));
        QVERIFY(fast.started() && slow.started());
        const QString report = path("trend.stampede"); // a project: its runs kept one after the other
        const auto scenario = [&](const char* file, const char* name, const QString& url) {
            return writeFile(
                m_dir, file,
                QStringLiteral("{\"name\": \"%1\", \"steps\": [{\"name\": \"home\", \"request\": {\"url\": "
                               "\"%2\"}}], \"load\": {\"open\": {\"rate\": 40}}, \"duration\": \"1s\"}")
                    .arg(QString::fromLatin1(name), url)
                    .toUtf8());
        };
        const QString onFast = scenario("fast.json", "shop", fast.url()),
                      onSlow = scenario("slow.json", "shop", slow.url());
        const QString other = scenario("other.json", "other", fast.url());
        for (const QString& file : {onFast, onFast, onFast, other, onFast, onSlow})
            QCOMPARE(runCli({QStringLiteral("run"), QStringLiteral("-q"), file, QStringLiteral("--project"), report})
                         .exitCode,
                     0);
        const auto trend = runCli({QStringLiteral("report"), QStringLiteral("trend"), report});
        QCOMPARE(trend.exitCode, 1);
        const QStringList lines = trend.out.split(u'\n', Qt::SkipEmptyParts);
        QVERIFY2(lines.size() == 8 && lines[0].startsWith(QStringLiteral("Trend of \"shop\": 5 runs")),
                 qPrintable(trend.out));
        QVERIFY(lines[2].endsWith(QStringLiteral("(baseline)")));
        // (the fast runs are not judged here: on a busy machine one may be slower by a stall; the 100 ms server
        // is slower than any stall of a fast run's median)
        QVERIFY2(lines[6].contains(QStringLiteral("REGRESSED:")) && lines[6].contains(QStringLiteral("total p50")),
                 qPrintable(trend.out));
        QCOMPARE(lines[7], QStringLiteral("the newest run REGRESSED against the baseline"));
        // the slow run as the baseline: the newest is the baseline, and the fast runs are not worse than it
        const QString newest = lines[6].section(u' ', 1, 1, QString::SectionSkipEmpty);
        const QString html = path("trend.html");
        const auto against =
            runCli({QStringLiteral("report"), QStringLiteral("trend"), report + QStringLiteral("@shop"),
                    QStringLiteral("--baseline"), newest, QStringLiteral("-o"), html});
        QCOMPARE(against.exitCode, 0);
        QVERIFY2(against.out.contains(QStringLiteral("the newest run is the baseline")), qPrintable(against.out));
        { // the baseline marked in the project (as the workbench's trend marks it) is the one used without --baseline
            std::string error;
            auto store = stampede::ProjectStore::open(report.toStdString(), error);
            QVERIFY2(store, error.c_str());
            QVERIFY(store->setSetting(stampede::trendBaselineKey("shop"), newest.toStdString()));
        }
        const auto marked = runCli({QStringLiteral("report"), QStringLiteral("trend"), report});
        QVERIFY2(marked.exitCode == 0 && marked.out.contains(QStringLiteral("the newest run is the baseline")),
                 qPrintable(marked.out));
        const QByteArray page = read(html);
        QCOMPARE(page.count("<svg"), 3);
        QVERIFY(page.contains(">baseline</text>"));
        QVERIFY(page.contains("tr class=\"baseline\""));
        QCOMPARE(page.count("<tr"), 6); // the heading and five runs
        for (const QStringList& bad :
             {QStringList{QStringLiteral("trend"), report + QStringLiteral("@nothing")},
              QStringList{QStringLiteral("trend"), report, QStringLiteral("--last"), QStringLiteral("1")},
              QStringList{QStringLiteral("trend"), report, QStringLiteral("--baseline"), QStringLiteral("st-none")},
              QStringList{QStringLiteral("trend"), report, QStringLiteral("--tolerance"), QStringLiteral("x")}}) {
            QStringList args{QStringLiteral("report")};
            args << bad;
            const auto refused = runCli(args);
            QVERIFY2(refused.exitCode == 2 && !refused.err.isEmpty(), qPrintable(bad.join(u' ') + refused.err));
        }
    }

    void compareFlagsARegression()
    {
        MockProcess fast;
        // 150 ms slower: more than a busy machine adds to the fast one's latencies (30 ms was not)
        MockProcess slow(QStringLiteral("{\"rules\": [{\"path\": \"/*\", \"delay\": {\"fixedMs\": 150}}]}"));
        QVERIFY(fast.started() && slow.started());
        const QString project = path("cmp.stampede");
        for (const auto* m : {&fast, &slow}) {
            const auto r =
                runCli({QStringLiteral("run"), QStringLiteral("--url"), m->url(), QStringLiteral("-r"),
                        QStringLiteral("50"), QStringLiteral("-c"), QStringLiteral("20"), QStringLiteral("-d"),
                        QStringLiteral("2s"), QStringLiteral("-q"), QStringLiteral("--project"), project});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        }
        auto same = runCli({QStringLiteral("report"), QStringLiteral("compare"), project + QStringLiteral("@1"),
                            project + QStringLiteral("@1")});
        QCOMPARE(same.exitCode, 0);
        QVERIFY(same.out.contains(QStringLiteral("result: no regression")));
        auto worse = runCli({QStringLiteral("report"), QStringLiteral("compare"), project + QStringLiteral("@1"),
                             project + QStringLiteral("@2"), QStringLiteral("--tolerance"), QStringLiteral("10%")});
        QCOMPARE(worse.exitCode, 1);
        QVERIFY(worse.out.contains(QStringLiteral("p50")));
        QVERIFY(worse.out.contains(QStringLiteral("REGRESSION")));
        // the other way round it is an improvement
        auto better = runCli({QStringLiteral("report"), QStringLiteral("compare"), project + QStringLiteral("@2"),
                              project + QStringLiteral("@1")});
        QCOMPARE(better.exitCode, 0);
        // bad input
        QCOMPARE(runCli({QStringLiteral("report"), QStringLiteral("compare"), project + QStringLiteral("@9"),
                         project + QStringLiteral("@1")})
                     .exitCode,
                 2);
        QCOMPARE(runCli({QStringLiteral("report"), QStringLiteral("export"), project, QStringLiteral("--format"),
                         QStringLiteral("pdf"), QStringLiteral("-o"), path("x")})
                     .exitCode,
                 2);
    }

    // Issue 47: a --var value is sent as written but never reaches the
    // record: not the saved scenario, not an error sample where the server
    // echoes it, not a script's console line, not any export.
    void secretsNeverReachTheRecord()
    {
        const std::string secret = "S3cretValue-4711";
        RecordingServer server("{\"code\": 1, \"echo\": \"" + secret + "\"}");
        const QString scenario = writeFile(
            m_dir, "secret-scenario.json",
            "{\"steps\": [{\"name\": \"s\", \"request\": {\"url\": \"" + server.url(QStringLiteral("/x")).toUtf8() +
                "\", \"headers\": [{\"name\": \"Authorization\", \"value\": \"Bearer ${token}\"}]}, "
                "\"checks\": [{\"name\": \"code\", \"jsonPath\": \"$.code\", \"equals\": \"0\"}], "
                "\"testScript\": \"console.log('token is', pm.variables.get('token'));\"}], "
                "\"load\": {\"closed\": {\"users\": 1}}, \"duration\": \"1s\"}");
        const QString report = path("secret.streport");
        const QString jsonl = path("secret.jsonl");
        const auto r =
            runCli({QStringLiteral("run"), scenario, QStringLiteral("--engines"), QStringLiteral("1"),
                    QStringLiteral("--var"), QStringLiteral("token=") + QString::fromStdString(secret),
                    QStringLiteral("--report"), report, QStringLiteral("--out"), QStringLiteral("jsonl=") + jsonl});
        QVERIFY2(r.exitCode == 0 || r.exitCode == 1, qPrintable(r.err)); // ran (its check fails on every answer)
        QVERIFY(!server.requests().empty());
        QCOMPARE(server.requests().front().header("authorization"), "Bearer " + secret); // sent as written
        QVERIFY2(!r.out.contains(QString::fromStdString(secret)) && !r.err.contains(QString::fromStdString(secret)),
                 qPrintable(r.out + r.err));
        QVERIFY(!read(jsonl).contains(QByteArray::fromStdString(secret)));
        QVERIFY(read(jsonl).contains("token is ***"));
        QVERIFY(!read(report).contains(QByteArray::fromStdString(secret))); // the SQLite file itself
        for (const char* format : {"html", "json", "csv", "junit"}) {
            const QString out = path("secret.") + QString::fromLatin1(format);
            const auto e = runCli({QStringLiteral("report"), QStringLiteral("export"), report,
                                   QStringLiteral("--format"), QString::fromLatin1(format), QStringLiteral("-o"), out});
            QVERIFY2(e.exitCode == 0, qPrintable(e.err));
            QVERIFY2(!read(out).contains(QByteArray::fromStdString(secret)), format);
        }
        QVERIFY(read(path("secret.json")).contains("***")); // the echoed token in a sample's body, and the scenario
    }
};

QTEST_GUILESS_MAIN(TestReports)
#include "tst_reports.moc"
