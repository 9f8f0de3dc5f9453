// Business flows (issue "Business flows"), run by stampede-cli against a
// server in another process: think time between steps and pacing between
// iterations shape the load the server sees, and latency is measured from
// when a pause ended, never across it.
#include "testsupport.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace testsupport;

class TestFlows : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    // Runs `scenario` on one engine; the summary's steps by name.
    QJsonArray run(const char* name, const QByteArray& scenario)
    {
        const QString file = writeFile(m_dir, name, scenario);
        const QString summary = m_dir.filePath(QString::fromLatin1(name) + QStringLiteral(".summary"));
        const auto r = runCli({QStringLiteral("run"), file, QStringLiteral("--engines"), QStringLiteral("1"),
                               QStringLiteral("-q"), QStringLiteral("--summary-json"), summary});
        if (r.exitCode != 0)
            qWarning("%s", qPrintable(r.err));
        return readJson(summary).value(QStringLiteral("steps")).toArray();
    }

private Q_SLOTS:
    // One user, two steps, 300 ms of think time after the first: about 6.7
    // iterations in 2 s, and the second step's latency without the pause.
    void thinkTimePausesBetweenSteps()
    {
        MockProcess mock;
        QVERIFY(mock.started());
        const QByteArray url = mock.url().toUtf8();
        const QJsonArray steps =
            run("think.json", "{\"steps\": [{\"name\": \"first\", \"request\": {\"url\": \"" + url +
                                  "a\"}, \"thinkTime\": {\"fixed\": \"300ms\"}}, {\"name\": \"second\", "
                                  "\"request\": {\"url\": \"" +
                                  url + "b\"}}], \"load\": {\"closed\": {\"users\": 1}}, \"duration\": \"2s\"}");
        QCOMPARE(steps.size(), 2);
        const auto first = steps[0].toObject(), second = steps[1].toObject();
        const qint64 a = first.value(QStringLiteral("requests")).toInteger();
        const qint64 b = second.value(QStringLiteral("requests")).toInteger();
        QVERIFY2(a >= 6 && a <= 7, qPrintable(QString::number(a)));
        QVERIFY2(b >= a - 1 && b <= a, qPrintable(QString::number(b)));
        // the server saw exactly what was counted
        QCOMPARE(mock.stats().value(QStringLiteral("total")).toInteger(), a + b);
        const double p99 =
            second.value(QStringLiteral("latency_ms")).toObject().value(QStringLiteral("p99")).toDouble();
        QVERIFY2(p99 < 100, qPrintable(QString::number(p99))); // not the 300 ms pause
    }

    // Pacing: one user's iterations start 500 ms apart however fast they
    // are: 4 in 2 s (without it, thousands).
    void pacingSpacesIterations()
    {
        MockProcess mock;
        QVERIFY(mock.started());
        const QJsonArray steps = run("pacing.json", "{\"steps\": [{\"request\": {\"url\": \"" + mock.url().toUtf8() +
                                                        "\"}}], \"load\": {\"closed\": {\"users\": 1, \"pacing\": "
                                                        "\"500ms\"}}, \"duration\": \"2s\"}");
        QCOMPARE(steps.size(), 1);
        const qint64 n = steps[0].toObject().value(QStringLiteral("requests")).toInteger();
        QCOMPARE(n, 4);
        QCOMPARE(mock.stats().value(QStringLiteral("total")).toInteger(), n);
    }

    // Distributions in the open model too: 20 iterations/s of two steps with
    // a uniform 50-150 ms pause; every iteration's second step is sent.
    void uniformThinkTimeInTheOpenModel()
    {
        MockProcess mock;
        QVERIFY(mock.started());
        const QByteArray url = mock.url().toUtf8();
        const QJsonArray steps =
            run("open-think.json", "{\"steps\": [{\"request\": {\"url\": \"" + url +
                                       "a\"}, \"thinkTime\": {\"uniform\": [\"50ms\", \"150ms\"]}}, {\"request\": "
                                       "{\"url\": \"" +
                                       url +
                                       "b\"}}], \"load\": {\"open\": {\"rate\": 20}}, \"connections\": 8, "
                                       "\"duration\": \"2s\"}");
        QCOMPARE(steps.size(), 2);
        const qint64 a = steps[0].toObject().value(QStringLiteral("requests")).toInteger();
        const qint64 b = steps[1].toObject().value(QStringLiteral("requests")).toInteger();
        QCOMPARE(a, 40);
        QVERIFY2(b >= 37 && b <= 40, qPrintable(QString::number(b))); // pauses past the end end their iteration
        QCOMPARE(mock.stats().value(QStringLiteral("total")).toInteger(), a + b);
    }
};

QTEST_GUILESS_MAIN(TestFlows)
#include "tst_flows.moc"
