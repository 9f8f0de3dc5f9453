// Issue 53: the pool that manages itself. Agents with more usable cores carry
// more of the run (shares by each agent's affinity and CPU quota, as its
// Hello says); agents join a controller by themselves (`agent --join`, `run
// --accept-agents`), one with the wrong token never does; and a --grow hook
// fires when the agents stay busy, its command starting an agent that joins
// the running run.
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sched.h>

using namespace testsupport;

namespace {

int usableCpus()
{
    cpu_set_t set;
    return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
}

QStringList eventsOf(const QJsonObject& summary)
{
    QStringList out;
    for (const QJsonValue e : summary.value(QStringLiteral("events")).toArray())
        out << QStringLiteral("%1 %2 %3: %4")
                   .arg(e[QStringLiteral("at_s")].toDouble())
                   .arg(e[QStringLiteral("kind")].toString(), e[QStringLiteral("agent")].toString(),
                        e[QStringLiteral("detail")].toString());
    return out;
}

} // namespace

class TestPoolGrowth : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_token;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_token = writeFile(m_dir, "token", "growth-token-0123456789\n");
    }

    // One agent on one CPU, one on two: no --shares, so one per core (3);
    // the two-core agent runs two of them, and sends two thirds.
    void sharesFollowTheAgentsCores()
    {
        // CI's machines have two cores: on one, the agents cannot be given different affinities
        QVERIFY2(usableCpus() >= 2, "needs two CPUs to give the agents different affinities");
        AgentProcess one(m_token, QStringLiteral("one"), {}, QStringLiteral("0"));
        AgentProcess two(m_token, QStringLiteral("two"), {}, QStringLiteral("0,1"));
        QVERIFY(!one.address().isEmpty() && !two.address().isEmpty());
        const QString summary = m_dir.filePath(QStringLiteral("cores.json"));
        const CliResult r = runCli(
            {QStringLiteral("run"), QStringLiteral("--mock"), QStringLiteral("--url"), QStringLiteral("${mock_url}/"),
             QStringLiteral("--rate"), QStringLiteral("90"), QStringLiteral("-d"), QStringLiteral("4s"),
             QStringLiteral("-q"), QStringLiteral("--token-file"), m_token, QStringLiteral("--agents"),
             one.address() + QLatin1Char(',') + two.address(), QStringLiteral("--summary-json"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject s = readJson(summary);
        std::map<QString, std::pair<int, qint64>> carried; // name: shares, requests
        for (const QJsonValue a : s.value(QStringLiteral("agents")).toArray())
            carried[a[QStringLiteral("name")].toString().section(QLatin1Char(' '), 0, 0)] = {
                int(a[QStringLiteral("shares")].toArray().size()), a[QStringLiteral("requests")].toInteger()};
        QCOMPARE(carried.size(), std::size_t(2));
        QCOMPARE(carried[QStringLiteral("one")].first, 1);
        QCOMPARE(carried[QStringLiteral("two")].first, 2);
        const qint64 total = s.value(QStringLiteral("total")).toObject()[QStringLiteral("requests")].toInteger();
        QCOMPARE(total, qint64(360));
        // each share is 30/s of the plan: 120 and 240, a share's last arrival either side of the end
        QVERIFY2(std::abs(carried[QStringLiteral("two")].second - 240) <= 2,
                 qPrintable(QString::number(carried[QStringLiteral("two")].second)));
    }

    // A controller that accepts agents: "first" joins before the run, an
    // agent with a wrong token is refused (HTTP 401) and never runs; with the
    // CPU level at 0 % the grow hook fires after 1 s, once (the next no sooner
    // than 60 s), its command starting "grown", which joins by itself and is
    // taken into the run at the next look-up (10 s).
    void agentsJoinAndTheGrowHookAddsOne()
    {
        const QString accept = QStringLiteral("127.0.0.1:%1").arg(freePort());
        const QString wrongToken = writeFile(m_dir, "wrong-token", "not-the-token-0123456789\n");
        AgentProcess first(m_token, QStringLiteral("first"), {QStringLiteral("--join"), accept});
        AgentProcess impostor(wrongToken, QStringLiteral("impostor"), {QStringLiteral("--join"), accept});
        QVERIFY(!first.address().isEmpty() && !impostor.address().isEmpty());
        const QString fired = m_dir.filePath(QStringLiteral("fired.txt"));
        const QString grownPid = m_dir.filePath(QStringLiteral("grown.pid"));
        const QString script = writeFile(
            m_dir, "grow.sh",
            QStringLiteral("echo \"$STAMPEDE_GROW_COUNT $STAMPEDE_AGENTS $STAMPEDE_RUN_ID\" >> '%1'\n"
                           "setsid '%2' agent --listen 127.0.0.1:0 --token-file '%3' --name grown --join %4 -q "
                           ">/dev/null 2>&1 </dev/null &\n"
                           "echo $! > '%5'\n"
                           "echo started grown\n")
                .arg(fired, cliPath(), m_token, accept, grownPid)
                .toUtf8());
        const QString summary = m_dir.filePath(QStringLiteral("grow.json"));
        const CliResult r = runCli({QStringLiteral("run"),
                                    QStringLiteral("--mock"),
                                    QStringLiteral("--url"),
                                    QStringLiteral("${mock_url}/"),
                                    QStringLiteral("--rate"),
                                    QStringLiteral("100"),
                                    QStringLiteral("-d"),
                                    QStringLiteral("13s"),
                                    QStringLiteral("-q"),
                                    QStringLiteral("--token-file"),
                                    m_token,
                                    QStringLiteral("--accept-agents"),
                                    accept,
                                    QStringLiteral("--elastic"),
                                    QStringLiteral("--shares"),
                                    QStringLiteral("4"),
                                    QStringLiteral("--grow"),
                                    QStringLiteral("sh ") + script,
                                    QStringLiteral("--grow-at"),
                                    QStringLiteral("0%"),
                                    QStringLiteral("--grow-after"),
                                    QStringLiteral("1s"),
                                    QStringLiteral("--summary-json"),
                                    summary},
                                   90000);
        QFile pidFile(grownPid);
        if (pidFile.open(QIODevice::ReadOnly))
            ::kill(pid_t(pidFile.readAll().trimmed().toLongLong()), SIGTERM);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("accepting agents on ") + accept), qPrintable(r.err));
        const QJsonObject s = readJson(summary);
        const QStringList events = eventsOf(s);
        // the hook: fired once at second 1, its command ended with exit 0 and its last line
        QStringList grows = events.filter(QStringLiteral(" grow "));
        QCOMPARE(grows.size(), 2);
        QVERIFY2(grows[0].startsWith(QStringLiteral("1 grow")) && grows[0].contains(QStringLiteral("(firing 1)")) &&
                     grows[0].contains(QStringLiteral("0 % for 1 s")) && grows[0].contains(QStringLiteral("1 agent)")),
                 qPrintable(grows[0]));
        QVERIFY2(grows[1].endsWith(QStringLiteral("--grow: exit 0: started grown")), qPrintable(grows[1]));
        QFile f(fired);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()).trimmed(),
                 QStringLiteral("1 1 ") + s.value(QStringLiteral("run_id")).toString());
        // first ran from the start; the impostor never; grown joined (or the run says why it could not)
        QStringList names;
        for (const QJsonValue a : s.value(QStringLiteral("agents")).toArray())
            names << a[QStringLiteral("name")].toString().section(QLatin1Char(' '), 0, 0);
        QVERIFY2(names.first() == QStringLiteral("first") && !names.contains(QStringLiteral("impostor")),
                 qPrintable(names.join(QLatin1Char(','))));
        const bool joined = names.contains(QStringLiteral("grown"));
        const bool saidWhy = !events.filter(QStringLiteral("found, but")).isEmpty();
        QVERIFY2(joined || saidWhy, qPrintable(events.join(QLatin1Char('\n'))));
        if (joined)
            QVERIFY2(!events.filter(QStringLiteral("agent_joined grown")).isEmpty(),
                     qPrintable(events.join(QLatin1Char('\n'))));
        else
            qInfo("grown did not join on this busy machine: %s", qPrintable(events.join(QStringLiteral("; "))));
        QVERIFY2(impostor.err().contains(QStringLiteral("refused the join (HTTP 401)")), qPrintable(impostor.err()));
        QVERIFY2(first.err().contains(QStringLiteral("joined the controller at ") + accept), qPrintable(first.err()));
    }
};

QTEST_GUILESS_MAIN(TestPoolGrowth)
#include "tst_poolgrowth.moc"
