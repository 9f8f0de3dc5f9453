// Issue 53, thresholds from history: five saved runs of a scenario against a
// mock whose answers take 20-24 ms make its baseline; a sixth whose answers take
// 150 ms fails "p99 < baseline + 3 sigma" (exit 1), the threshold saying the
// value it judged by and what it was made of, the same in the summary, the
// saved run and `report list`; a project with four runs refuses the rule (exit 2),
// and so does a run that is saved nowhere. The breaker's levels and rollback:
// two rules violated together degrade the load; a rule's rollback stops the
// run and runs --rollback's command after it, its outcome an event.
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace testsupport;

namespace {

QByteArray rules(int delayMs)
{
    return QStringLiteral("{\"rules\": [{\"path\": \"/pay\", \"status\": 200, \"body\": \"ok\", \"delay\": "
                          "{\"fixedMs\": %1}}]}")
        .arg(delayMs)
        .toUtf8();
}

QByteArray scenario(const char* threshold)
{
    return QStringLiteral("{\"name\": \"checkout\", \"steps\": [{\"name\": \"pay\", \"request\": {\"url\": "
                          "\"${mock_url}/pay\"}}], \"load\": {\"open\": {\"rate\": 40}}, \"duration\": \"1s\", "
                          "\"thresholds\": [{\"expr\": \"%1\"}]}")
        .arg(QString::fromUtf8(threshold))
        .toUtf8();
}

} // namespace

class TestBaseline : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    CliResult run(const QString& project, const QByteArray& scenarioJson, int delayMs, const QString& summary)
    {
        static int n = 0;
        ++n;
        const QString s = writeFile(m_dir, QStringLiteral("s%1.json").arg(n).toUtf8().constData(), scenarioJson);
        const QString r = writeFile(m_dir, QStringLiteral("r%1.json").arg(n).toUtf8().constData(), rules(delayMs));
        QStringList args{QStringLiteral("run"),
                         s,
                         QStringLiteral("--mock"),
                         r,
                         QStringLiteral("-q"),
                         QStringLiteral("--engines"),
                         QStringLiteral("1"),
                         QStringLiteral("--summary-json"),
                         summary};
        if (!project.isEmpty())
            args << QStringLiteral("--project") << project;
        return runCli(args);
    }

private slots:
    void aSixthRunFourSigmaOutFails()
    {
        const QString project = m_dir.filePath(QStringLiteral("history.stampede"));
        const QString summary = m_dir.filePath(QStringLiteral("s.json"));
        for (const int ms : {20, 24, 22, 18, 21}) {
            const CliResult r = run(project, scenario("p99 < 10s"), ms, summary);
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            if (ms == 18) { // four runs: too few to make a baseline of
                const CliResult few = run(project, scenario("p99 < baseline + 3 sigma"), 20, summary);
                QCOMPARE(few.exitCode, 2);
                QVERIFY2(few.err.contains(QStringLiteral("a baseline is made of at least 5 completed runs of "
                                                         "\"checkout\"")) &&
                             few.err.contains(QStringLiteral("it has 4")),
                         qPrintable(few.err));
            }
        }
        const CliResult sixth = run(project, scenario("p99 < baseline + 3 sigma"), 150, summary);
        QCOMPARE(sixth.exitCode, 1);
        const QJsonObject s = readJson(summary);
        const QJsonObject t = s.value(QStringLiteral("thresholds")).toArray().first().toObject();
        const QString expr = t.value(QStringLiteral("expr")).toString();
        QVERIFY2(expr.startsWith(QStringLiteral("p99 < baseline + 3 sigma (= ")) &&
                     expr.endsWith(QStringLiteral(" over 5 runs)")),
                 qPrintable(expr));
        QVERIFY(!t.value(QStringLiteral("passed")).toBool());
        QVERIFY2(t.value(QStringLiteral("value")).toDouble() >= 150, qPrintable(expr));
        const QString verdict = s.value(QStringLiteral("verdict")).toString();
        QVERIFY2(
            verdict.startsWith(QStringLiteral("completed and failed: threshold ") + expr + QStringLiteral(" failed")),
            qPrintable(verdict));
        // the saved run says the same (its scenario records the value it judged by)
        const CliResult listed = runCli({QStringLiteral("report"), QStringLiteral("list"), project});
        QVERIFY2(listed.out.contains(verdict), qPrintable(listed.out + QStringLiteral("\n---\n") + verdict));
        const QString exported = m_dir.filePath(QStringLiteral("sixth.json"));
        QCOMPARE(runCli({QStringLiteral("report"), QStringLiteral("export"), project, QStringLiteral("--format"),
                         QStringLiteral("json"), QStringLiteral("-o"), exported})
                     .exitCode,
                 0);
        const QJsonObject saved = readJson(exported);
        QCOMPARE(saved.value(QStringLiteral("verdict")).toString(), verdict);
        QCOMPARE(saved.value(QStringLiteral("thresholds")).toArray().first().toObject().value(QStringLiteral("expr")),
                 QJsonValue(expr));

        // saved nowhere: no history to judge by
        const CliResult nowhere = run(QString(), scenario("p99 < baseline + 3 sigma"), 20, summary);
        QCOMPARE(nowhere.exitCode, 2);
        QVERIFY2(nowhere.err.contains(QStringLiteral("run it in one (--project FILE")), qPrintable(nowhere.err));
    }

    void levelsAndRollback()
    {
        const QString failing = writeFile(m_dir, "fail.json",
                                          "{\"rules\": [{\"path\": \"/pay\", \"status\": 500, \"body\": \"no\", "
                                          "\"delay\": {\"fixedMs\": 20}}]}");
        const QString levels = writeFile(
            m_dir, "levels.json",
            "{\"name\": \"levels\", \"steps\": [{\"name\": \"pay\", \"request\": {\"url\": \"${mock_url}/pay\"}}], "
            "\"load\": {\"open\": {\"rate\": 40}}, \"duration\": \"3s\", \"breaker\": {\"escalate\": true, "
            "\"escalateDegrade\": 30, \"rules\": [{\"when\": \"error_rate > 50%\", \"window\": \"1s\", \"action\": "
            "\"warn\"}, {\"when\": \"p50 > 5ms\", \"window\": \"1s\", \"action\": \"warn\"}, {\"when\": \"max > "
            "30s\", \"window\": \"1s\", \"action\": \"warn\"}]}}");
        const QString summary = m_dir.filePath(QStringLiteral("levels-summary.json"));
        CliResult r =
            runCli({QStringLiteral("run"), levels, QStringLiteral("--mock"), failing, QStringLiteral("-q"),
                    QStringLiteral("--engines"), QStringLiteral("1"), QStringLiteral("--summary-json"), summary});
        QJsonObject s = readJson(summary);
        QString breakerEvents;
        for (const auto& e : s.value(QStringLiteral("events")).toArray())
            if (e.toObject().value(QStringLiteral("kind")).toString() == QLatin1String("breaker"))
                breakerEvents += e.toObject().value(QStringLiteral("detail")).toString() + QLatin1Char('\n');
        QVERIFY2(breakerEvents.contains(QStringLiteral("level 2 of 3: 2 rules violated together")) &&
                     breakerEvents.contains(QStringLiteral("the load goes to 70% of plan")),
                 qPrintable(breakerEvents + r.err));
        QVERIFY2(!breakerEvents.contains(QStringLiteral("level 3")), qPrintable(breakerEvents));

        const QString plain = writeFile(
            m_dir, "plain.json",
            "{\"name\": \"roll\", \"steps\": [{\"name\": \"pay\", \"request\": {\"url\": \"${mock_url}/pay\"}}], "
            "\"load\": {\"open\": {\"rate\": 40}}, \"duration\": \"20s\"}");
        const QString marker = m_dir.filePath(QStringLiteral("rolled-back"));
        r = runCli(
            {QStringLiteral("run"), plain, QStringLiteral("--mock"), failing, QStringLiteral("-q"),
             QStringLiteral("--engines"), QStringLiteral("1"), QStringLiteral("--summary-json"), summary,
             QStringLiteral("--breaker"), QStringLiteral("error_rate > 50% for 1x1s: rollback"),
             QStringLiteral("--rollback"),
             QStringLiteral("echo \"$STAMPEDE_RUN_ID $STAMPEDE_SCENARIO\" > '%1'; echo back to v41").arg(marker)});
        QCOMPARE(r.exitCode, 1); // the breaker's verdict
        s = readJson(summary);
        QCOMPARE(s.value(QStringLiteral("status")).toString(), QStringLiteral("stopped_by_breaker"));
        QVERIFY2(s.value(QStringLiteral("verdict"))
                     .toString()
                     .startsWith(QStringLiteral("stopped and rolled back by breaker: ")),
                 qPrintable(s.value(QStringLiteral("verdict")).toString()));
        QString rollback;
        for (const auto& e : s.value(QStringLiteral("events")).toArray())
            if (e.toObject().value(QStringLiteral("kind")).toString() == QLatin1String("rollback"))
                rollback = e.toObject().value(QStringLiteral("detail")).toString();
        QCOMPARE(rollback, QStringLiteral("--rollback: exit 0: back to v41"));
        QFile f(marker);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()).trimmed(),
                 s.value(QStringLiteral("run_id")).toString() + QStringLiteral(" roll"));
    }
};

QTEST_GUILESS_MAIN(TestBaseline)
#include "tst_baseline.moc"
