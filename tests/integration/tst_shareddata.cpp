// Issue 53: the run's shared data. Users on two engines (two agent processes,
// the controller holding the store) hand values to each other: a writer's
// test script pushes each id a server made and counts it (pm.shared.push,
// pm.shared.increment, pm.shared.set); another step's pre-request script pops
// one (pm.shared.pop) and a third step reads ${shared.last} in its URL. The
// Python target says every id was used exactly once, no counter value came
// twice, every ${shared.last} read was a count already reached. A key never
// set fails its step, saying which; a bad key is refused before the run.
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace testsupport;

namespace {

QByteArray scenario(int port, int users, const char* extraStep = "")
{
    QByteArray steps =
        "[{\"name\": \"make\", \"request\": {\"method\": \"GET\", \"url\": \"BASE/make\"}, \"testScript\": "
        "\"const id = pm.response.json().id;\\npm.shared.push('ids', id);\\nconst n = pm.shared.increment('made');"
        "\\npm.shared.set('last', String(n));\\npm.environment.set('n', String(n));\"}, "
        "{\"name\": \"use\", \"request\": {\"method\": \"GET\", \"url\": \"BASE/use?id=${id}\"}, "
        "\"preRequestScript\": \"const id = pm.shared.pop('ids');\\nif (id === undefined) "
        "pm.execution.skipRequest();\\nelse pm.environment.set('id', id);\"}, "
        "{\"name\": \"read\", \"request\": {\"method\": \"GET\", \"url\": "
        "\"BASE/read?last=${shared.last}&n=${n}\"}}";
    if (*extraStep)
        steps += QByteArray(", ") + extraStep;
    steps += "]";
    const QByteArray base = QByteArray("http://127.0.0.1:") + QByteArray::number(port);
    steps.replace(QByteArray("BASE"), base);
    return QByteArray("{\"name\": \"shared\", \"steps\": ") + steps +
           ", \"load\": {\"closed\": {\"users\": " + QByteArray::number(users) +
           "}}, \"connections\": " + QByteArray::number(users) + ", \"threads\": 1}";
}

} // namespace

class TestSharedData : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void usersOnTwoEnginesHandValuesToEachOther()
    {
        PeerProcess server(QStringLiteral("/usr/bin/python3"),
                           {sourceDir() + QStringLiteral("/tests/integration/shared_server.py")});
        QVERIFY(server.port() > 0);
        const QString file = writeFile(m_dir, "shared.json", scenario(server.port(), 6));
        const QString summary = m_dir.filePath(QStringLiteral("shared-summary.json"));
        const CliResult r =
            runCli({QStringLiteral("run"), file, QStringLiteral("-d"), QStringLiteral("3s"), QStringLiteral("-q"),
                    QStringLiteral("--engines"), QStringLiteral("2"), QStringLiteral("--summary-json"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject seen = server.finish();
        QVERIFY2(seen.value(QStringLiteral("clashes")).toArray().isEmpty(),
                 QJsonDocument(seen.value(QStringLiteral("clashes")).toArray()).toJson().constData());
        const int made = seen.value(QStringLiteral("made")).toInt(), used = seen.value(QStringLiteral("used")).toInt();
        const int reads = seen.value(QStringLiteral("reads")).toInt();
        QVERIFY2(made > 20 && reads > 20, qPrintable(QStringLiteral("%1 %2").arg(made).arg(reads)));
        // each iteration pushes one and pops one: every id made is used but those of iterations cut at the end
        QVERIFY2(used <= made && used >= made - 6, qPrintable(QStringLiteral("%1 of %2").arg(used).arg(made)));
        const QJsonObject s = readJson(summary);
        QCOMPARE(s.value(QStringLiteral("total")).toObject()[QStringLiteral("errors")].toInteger(), qint64(0));
        // the counter is the run's, not an engine's: its values are distinct and reach past one engine's share
        int most = 0;
        for (const QJsonValue n : seen.value(QStringLiteral("ns")).toArray())
            most = std::max(most, n.toString().toInt());
        QVERIFY2(most > made / 2 + 1, qPrintable(QStringLiteral("%1 of %2").arg(most).arg(made)));
    }

    // A key no one set: the step is not sent, and the error says which key; a bad key is refused before the run.
    void aKeyNeverSetIsSaid()
    {
        PeerProcess server(QStringLiteral("/usr/bin/python3"),
                           {sourceDir() + QStringLiteral("/tests/integration/shared_server.py")});
        QVERIFY(server.port() > 0);
        const QByteArray extra = QStringLiteral("{\"name\": \"never\", \"request\": {\"method\": \"GET\", \"url\": "
                                                "\"http://127.0.0.1:%1/x?v=${shared.never}\"}}")
                                     .arg(server.port())
                                     .toUtf8();
        const QString file = writeFile(m_dir, "never.json", scenario(server.port(), 2, extra.constData()));
        const QString report = m_dir.filePath(QStringLiteral("never.streport"));
        const CliResult r = runCli({QStringLiteral("run"), file, QStringLiteral("-d"), QStringLiteral("1s"),
                                    QStringLiteral("-q"), QStringLiteral("--report"), report});
        QVERIFY2(r.exitCode == 0 || r.exitCode == 1, qPrintable(r.err));
        const QJsonObject seen = server.finish();
        QCOMPARE(seen.value(QStringLiteral("missing")).toInt(), 0); // never sent
        const QString json = m_dir.filePath(QStringLiteral("never.json.out"));
        const CliResult exported =
            runCli({QStringLiteral("report"), QStringLiteral("export"), report, QStringLiteral("--format"),
                    QStringLiteral("json"), QStringLiteral("-o"), json});
        QFile out(json);
        QVERIFY2(out.open(QIODevice::ReadOnly), qPrintable(exported.err));
        QVERIFY(QString::fromUtf8(out.readAll())
                    .contains(QStringLiteral("the run's shared data has no text \\\"never\\\"")));

        const QString bad = writeFile(m_dir, "bad.json",
                                      QByteArrayLiteral("{\"name\": \"x\", \"steps\": [{\"name\": \"s\", \"request\": "
                                                        "{\"url\": \"http://127.0.0.1:9/?a=${shared.}\"}}]}"));
        const CliResult refused = runCli({QStringLiteral("run"), bad, QStringLiteral("-d"), QStringLiteral("1s")});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains(QStringLiteral("names no key of the run's shared data")),
                 qPrintable(refused.err));
    }
};

QTEST_GUILESS_MAIN(TestSharedData)
#include "tst_shareddata.moc"
