// Issue 53, notifications: a run tells webhooks how it goes. A receiver the
// test starts (tests/integration/notify_receiver.py) answers as DingTalk,
// Feishu and a plain hook do and checks their signatures with Python's hmac;
// a run with a threshold that fails notifies eight targets (the command line's
// and its scenario's own): each gets what it asked for, in order, signed where
// the platform signs; a 500 is tried again; a refused signature and a target
// that is down are said as warnings and events, and the verdict is the run's
// own (exit 1 for its threshold, not 3 for an undelivered message).
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace testsupport;

namespace {

QList<QJsonObject> at(const QJsonArray& requests, const QString& path)
{
    QList<QJsonObject> out;
    for (const auto& r : requests)
        if (r.toObject().value(QStringLiteral("path")).toString() == path)
            out << r.toObject();
    return out;
}

QString events(const QJsonObject& summary, const QString& kind)
{
    QStringList out;
    for (const auto& e : summary.value(QStringLiteral("events")).toArray())
        if (e.toObject().value(QStringLiteral("kind")).toString() == kind)
            out << e.toObject().value(QStringLiteral("detail")).toString();
    return out.join(u'\n');
}

} // namespace

class TestNotify : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void aRunNotifiesEightTargets()
    {
        PeerProcess receiver(QStringLiteral("/usr/bin/python3"),
                             {sourceDir() + QStringLiteral("/tests/integration/notify_receiver.py")});
        QVERIFY2(receiver.port() > 0, "notify_receiver.py did not start");
        const QString hook = QStringLiteral("http://127.0.0.1:%1").arg(receiver.port());
        const QString scenario =
            writeFile(m_dir, "notify.json",
                      "{\"name\": \"notify me\", \"variables\": [{\"name\": \"hook\", \"constant\": {\"value\": "
                      "\"http://127.0.0.1:1\"}}], "
                      "\"steps\": [{\"name\": \"home\", \"request\": {\"url\": \"${mock_url}/\"}}], "
                      "\"load\": {\"open\": {\"rate\": 40}}, \"duration\": \"2s\", "
                      "\"thresholds\": [{\"expr\": \"p99 < 0.001ms\"}], "
                      "\"notify\": [{\"url\": \"${hook}/plain2\", \"on\": [\"end\"]}]}");
        const QString summaryPath = m_dir.filePath(QStringLiteral("s.json"));
        const QString secret = QStringLiteral(",secret=SEC-test-secret");
        const CliResult r = runCli(
            {QStringLiteral("run"),
             scenario,
             QStringLiteral("--mock"),
             QStringLiteral("-q"),
             QStringLiteral("--engines"),
             QStringLiteral("1"),
             QStringLiteral("--summary-json"),
             summaryPath,
             QStringLiteral("--var"),
             QStringLiteral("hook=") + hook,
             QStringLiteral("--notify"),
             hook + QStringLiteral("/plain"),
             QStringLiteral("--notify"),
             QStringLiteral("dingtalk=") + hook + QStringLiteral("/dingtalk?access_token=t0k3n") + secret,
             QStringLiteral("--notify"),
             QStringLiteral("feishu=") + hook + QStringLiteral("/feishu") + secret + QStringLiteral(",on=start+end"),
             QStringLiteral("--notify"),
             QStringLiteral("dingtalk=") + hook + QStringLiteral("/dingtalk?access_token=t0k3n,secret=wrong,on=end"),
             QStringLiteral("--notify"),
             hook + QStringLiteral("/flaky,on=end"),
             QStringLiteral("--notify"),
             QStringLiteral("slack=") + hook + QStringLiteral("/slack,on=end"),
             QStringLiteral("--notify"),
             QStringLiteral("http://127.0.0.1:1/dead,on=end")},
            120000);
        QCOMPARE(r.exitCode, 1); // the threshold failed: the run's verdict, whatever became of the messages
        const QJsonObject summary = readJson(summaryPath);
        const QJsonArray requests = receiver.finish().value(QStringLiteral("requests")).toArray();
        const QString runId = summary.value(QStringLiteral("run_id")).toString();
        QVERIFY(!runId.isEmpty());

        // plain: start, threshold, end, in that order, the end's verdict and figures the summary's
        const auto plain = at(requests, QStringLiteral("/plain"));
        QCOMPARE(plain.size(), 3);
        QStringList order;
        for (const auto& p : plain)
            order << p.value(QStringLiteral("body")).toObject().value(QStringLiteral("event")).toString();
        QCOMPARE(order, QStringList({QStringLiteral("start"), QStringLiteral("threshold"), QStringLiteral("end")}));
        const QJsonObject end = plain[2].value(QStringLiteral("body")).toObject();
        QCOMPARE(end.value(QStringLiteral("run_id")).toString(), runId);
        QCOMPARE(end.value(QStringLiteral("scenario")).toString(), QStringLiteral("notify me"));
        QCOMPARE(end.value(QStringLiteral("verdict")).toString(), summary.value(QStringLiteral("verdict")).toString());
        QCOMPARE(end.value(QStringLiteral("passed")).toBool(), false);
        QCOMPARE(end.value(QStringLiteral("figures")).toObject().value(QStringLiteral("requests")).toInteger(),
                 summary.value(QStringLiteral("total")).toObject().value(QStringLiteral("requests")).toInteger());
        QVERIFY(plain[1]
                    .value(QStringLiteral("body"))
                    .toObject()
                    .value(QStringLiteral("detail"))
                    .toString()
                    .contains(QStringLiteral("p99 < 0.001ms")));
        QVERIFY(plain[0].value(QStringLiteral("type")).toString().startsWith(QStringLiteral("application/json")));

        // the platforms' own forms, signed as they check it
        const auto ding = at(requests, QStringLiteral("/dingtalk"));
        int verified = 0, refused = 0;
        for (const auto& d : ding) {
            ++(d.value(QStringLiteral("verified")).toBool() ? verified : refused);
            QVERIFY(d.value(QStringLiteral("body"))
                        .toObject()
                        .value(QStringLiteral("text"))
                        .toObject()
                        .value(QStringLiteral("content"))
                        .toString()
                        .contains(runId));
        }
        QCOMPARE(verified, 3); // start, threshold, end
        QCOMPARE(refused, 3);  // the wrong secret's end, three tries
        const auto feishu = at(requests, QStringLiteral("/feishu"));
        QCOMPARE(feishu.size(), 2); // on=start+end
        for (const auto& f : feishu) {
            QVERIFY(f.value(QStringLiteral("verified")).toBool());
            QCOMPARE(f.value(QStringLiteral("body")).toObject().value(QStringLiteral("msg_type")).toString(),
                     QStringLiteral("text"));
        }
        const auto slack = at(requests, QStringLiteral("/slack"));
        QCOMPARE(slack.size(), 1);
        QVERIFY(slack[0]
                    .value(QStringLiteral("body"))
                    .toObject()
                    .value(QStringLiteral("text"))
                    .toString()
                    .contains(QStringLiteral("ended: completed and failed")));
        QCOMPARE(at(requests, QStringLiteral("/plain2")).size(), 1); // the scenario's own, its ${hook} resolved

        // a 500 tried again: each try an event; what could not be delivered a warning; no token shown
        QCOMPARE(at(requests, QStringLiteral("/flaky")).size(), 2);
        const QString tries = events(summary, QStringLiteral("notify"));
        QVERIFY2(tries.contains(QStringLiteral("end to plain ") + hook +
                                QStringLiteral("/flaky: not delivered (HTTP 500: {}), try 1 of 3; again in 1 s")),
                 qPrintable(tries));
        QVERIFY2(tries.contains(QStringLiteral("/flaky: delivered (HTTP 200), try 2 of 3")), qPrintable(tries));
        QVERIFY2(tries.contains(QStringLiteral("start to feishu ") + hook +
                                QStringLiteral("/feishu: delivered (HTTP 200), try 1 of 3")),
                 qPrintable(tries));
        QVERIFY2(!tries.contains(QStringLiteral("t0k3n")), qPrintable(tries));
        QStringList warnings;
        for (const auto& w : summary.value(QStringLiteral("warnings")).toArray())
            warnings << w.toString();
        const QString said = warnings.join(u'\n');
        QVERIFY2(said.contains(QStringLiteral("the end notification to dingtalk ") + hook +
                               QStringLiteral("/dingtalk was not delivered: HTTP 200, errcode 310000: sign not match")),
                 qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("the end notification to plain http://127.0.0.1:1/dead was not "
                                              "delivered")),
                 qPrintable(said));
        QVERIFY2(!said.contains(QStringLiteral("t0k3n")), qPrintable(said));
    }

    // A breaker that trips every second, told to a slow webhook: the actions not yet sent go in one message (no
    // flood, none lost), and a webhook that is down delays no other (each target its own queue).
    void breakerTripsAreSaidTogether()
    {
        PeerProcess receiver(QStringLiteral("/usr/bin/python3"),
                             {sourceDir() + QStringLiteral("/tests/integration/notify_receiver.py")});
        QVERIFY2(receiver.port() > 0, "notify_receiver.py did not start");
        const QString hook = QStringLiteral("http://127.0.0.1:%1").arg(receiver.port());
        const QString scenario = writeFile(
            m_dir, "tripping.json",
            "{\"name\": \"tripping\", \"steps\": [{\"name\": \"home\", \"request\": {\"url\": \"${mock_url}/\"}}], "
            "\"load\": {\"open\": {\"rate\": 40}}, \"duration\": \"6s\", \"breaker\": {\"rules\": [{\"when\": "
            "\"p50 > 0.001ms\", \"window\": \"1s\", \"action\": \"warn\"}]}}");
        const QString summaryPath = m_dir.filePath(QStringLiteral("tripping.json.out"));
        const CliResult r =
            runCli({QStringLiteral("run"), scenario, QStringLiteral("--mock"), QStringLiteral("-q"),
                    QStringLiteral("--engines"), QStringLiteral("1"), QStringLiteral("--summary-json"), summaryPath,
                    QStringLiteral("--notify"), hook + QStringLiteral("/slow,on=breaker"), QStringLiteral("--notify"),
                    QStringLiteral("http://127.0.0.1:1/dead,on=breaker+end"), QStringLiteral("--notify"),
                    hook + QStringLiteral("/plain,on=breaker")},
                   120000);
        const QJsonObject summary = readJson(summaryPath);
        const QJsonArray requests = receiver.finish().value(QStringLiteral("requests")).toArray();
        QStringList trips;
        for (const auto& e : summary.value(QStringLiteral("events")).toArray())
            if (e.toObject().value(QStringLiteral("kind")).toString() == QLatin1String("breaker"))
                trips << e.toObject().value(QStringLiteral("detail")).toString();
        QVERIFY2(trips.size() >= 4, qPrintable(trips.join(u'\n') + r.err));
        const auto slow = at(requests, QStringLiteral("/slow"));
        QVERIFY2(!slow.isEmpty() && slow.size() < trips.size(), qPrintable(QString::number(slow.size())));
        QString said;
        for (const auto& m : slow)
            said += m.value(QStringLiteral("body")).toObject().value(QStringLiteral("detail")).toString() +
                    QLatin1Char('\n');
        for (const QString& trip : trips) // each said, in one message or another, and no more than there were
            QVERIFY2(said.contains(trip), qPrintable(said));
        QCOMPARE(said.count(QStringLiteral("rule \"p50 > 0.001ms\"")), trips.size());
        // the plain hook, beside a dead one and a slow one, heard of the first trip at once
        const auto plain = at(requests, QStringLiteral("/plain"));
        QVERIFY(!plain.isEmpty());
        QVERIFY(plain[0]
                    .value(QStringLiteral("body"))
                    .toObject()
                    .value(QStringLiteral("detail"))
                    .toString()
                    .contains(trips[0]));
    }

    void badTargetsAreRefusedByName()
    {
        const QString scenario = writeFile(
            m_dir, "bad.json",
            "{\"name\": \"b\", \"steps\": [{\"request\": {\"url\": \"http://127.0.0.1:9/\"}}], "
            "\"load\": {\"open\": {\"rate\": 1}}, \"duration\": \"1s\", \"notify\": [{\"url\": \"${nowhere}/x\"}]}");
        CliResult r = runCli({QStringLiteral("run"), scenario, QStringLiteral("-q")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("notify[0].url: unknown variable ${nowhere}")), qPrintable(r.err));
        const QString good =
            writeFile(m_dir, "good.json",
                      "{\"name\": \"g\", \"steps\": [{\"request\": {\"url\": \"http://127.0.0.1:9/\"}}], "
                      "\"load\": {\"open\": {\"rate\": 1}}, \"duration\": \"1s\"}");
        for (const auto& [spec, said] : QList<QPair<QString, QString>>{
                 {QStringLiteral("teams=http://127.0.0.1:9/"), QStringLiteral("\"teams\" is none of plain, slack")},
                 {QStringLiteral("ftp://127.0.0.1:9/"), QStringLiteral("not a URL")},
                 {QStringLiteral("http://127.0.0.1:9/,on=start+later"),
                  QStringLiteral("\"later\" is none of start, breaker, threshold, end")}}) {
            r = runCli({QStringLiteral("run"), good, QStringLiteral("-q"), QStringLiteral("--notify"), spec});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(said), qPrintable(r.err));
        }
    }
};

QTEST_GUILESS_MAIN(TestNotify)
#include "tst_notify.moc"
