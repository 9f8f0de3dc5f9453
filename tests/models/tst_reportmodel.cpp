// Saved runs in the report and compare models (each checked by the tester),
// produced by real runs of stampede-cli against the mock server.
#include "reportmodel.h"

#include "mock/mockserver.h"
#include "store/projectstore.h"

#include <QAbstractItemModelTester>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestReportModel : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_project;

    void runAgainst(const std::string& rulesJson)
    {
        std::string error;
        auto rules =
            rulesJson.empty() ? stampede::MockRuleSet::defaults() : stampede::MockRuleSet::fromJson(rulesJson, error);
        stampede::MockServer mock(rules);
        QVERIFY(mock.start("127.0.0.1:0", error));
        QProcess p;
        p.start(qEnvironmentVariable("STAMPEDE_CLI"),
                {QStringLiteral("run"), QStringLiteral("--url"), QString::fromStdString(mock.baseUrl()),
                 QStringLiteral("-r"), QStringLiteral("200"), QStringLiteral("-c"), QStringLiteral("20"),
                 QStringLiteral("-d"), QStringLiteral("2s"), QStringLiteral("-q"), QStringLiteral("--threshold"),
                 QStringLiteral("p99 < 25ms"), QStringLiteral("--project"), m_project});
        QVERIFY(p.waitForFinished(30000));
    }

private slots:
    void initTestCase()
    {
        m_project = m_dir.filePath(QStringLiteral("r.stampede"));
        runAgainst({});
        runAgainst("{\"rules\": [{\"path\": \"/*\", \"delay\": {\"fixedMs\": 30}}]}");
    }

    void reportOfASavedRun()
    {
        std::string error;
        auto store = stampede::ProjectStore::open(m_project.toStdString(), error);
        QVERIFY2(store, error.c_str());
        const auto runs = ReportModel::runs(*store);
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs[0].status, QStringLiteral("completed"));
        ReportModel fast, slow;
        QAbstractItemModelTester t1(&fast, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(fast.load(*store, runs[0].id));
        QVERIFY(slow.load(*store, runs[1].id));
        QCOMPARE(fast.rowCount(), 2); // the step and the total
        QCOMPARE(fast.index(1, ReportModel::RequestsColumn).data().toULongLong(), 400ull);
        QVERIFY(fast.passed());
        QVERIFY(!slow.passed()); // p99 < 25ms fails against a 30 ms delay
        QVERIFY(slow.thresholdLines().first().startsWith(QLatin1String("FAIL p99 < 25ms")));
        QVERIFY(fast.series(QStringLiteral("requests")).size() >= 2);
        QVERIFY(fast.exportAs(QStringLiteral("html")).contains(fast.runId().toUtf8()));
        QVERIFY(fast.exportAs(QStringLiteral("junit")).contains("<testcase"));

        CompareModel compare;
        QAbstractItemModelTester t2(&compare, QAbstractItemModelTester::FailureReportingMode::QtTest);
        compare.compare(fast, slow, 0.1);
        QVERIFY(compare.regressed());
        QVERIFY(compare.regressionCount() >= 2);
        compare.compare(fast, fast, 0.1);
        QVERIFY(!compare.regressed());
        QCOMPARE(compare.rowCount(), 16); // 8 metrics, total and the step
    }
};

QTEST_GUILESS_MAIN(TestReportModel)
#include "tst_reportmodel.moc"
