// Issue 30: agents found by name. Three agents on 127.0.0.2-4, one port,
// named by a private /etc/hosts (bind-mounted in a mount namespace the test
// makes, so the machine's resolver is untouched): --agents dns:NAME:PORT runs
// on all three; file:PATH reads a list; --min-agents runs on those that
// answer; --agents-with chooses by the agents' --label; a name that does not
// resolve, a bad list or label is bad input.
#include "testsupport.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace testsupport;

class TestAgentDiscovery : public QObject
{
    Q_OBJECT
private slots:
    void agentsByName()
    {
        // a mount namespace for a private /etc/hosts needs root: CI runs as root
        QVERIFY2(::geteuid() == 0, "run as root: the test bind-mounts its own /etc/hosts in a mount namespace");
        QTemporaryDir dir;
        const QString token = writeFile(dir, "token", "s3cret-token-for-the-agents\n");
        const int port = freePort();
        std::vector<std::unique_ptr<AgentProcess>> agents;
        for (int i = 2; i <= 4; ++i) {
            agents.push_back(std::make_unique<AgentProcess>(
                token, QStringLiteral("agent%1").arg(i),
                QStringList{QStringLiteral("--listen"), QStringLiteral("127.0.0.%1:%2").arg(i).arg(port),
                            QStringLiteral("--label"), QStringLiteral("zone=hz-%1").arg(i < 4 ? 'a' : 'b')}));
            QVERIFY2(agents.back()->address() == QStringLiteral("127.0.0.%1:%2").arg(i).arg(port),
                     qPrintable(agents.back()->address()));
        }
        const QString hosts = writeFile(dir, "hosts",
                                        "127.0.0.1 localhost\n127.0.0.2 agents.test\n127.0.0.3 agents.test\n"
                                        "127.0.0.4 agents.test\n127.0.0.9 gone.test\n");
        MockProcess mock;
        QVERIFY(mock.started());
        const QString summary = dir.filePath(QStringLiteral("s.json"));
        const QStringList run{QStringLiteral("run"),
                              QStringLiteral("--url"),
                              mock.url(),
                              QStringLiteral("--rate"),
                              QStringLiteral("300"),
                              QStringLiteral("-d"),
                              QStringLiteral("2s"),
                              QStringLiteral("-q"),
                              QStringLiteral("--token-file"),
                              token,
                              QStringLiteral("--summary-json"),
                              summary};

        // every address of the name
        CliResult r = runWithHosts(
            hosts, run + QStringList{QStringLiteral("--agents"), QStringLiteral("dns:agents.test:%1").arg(port)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("3 engines")), qPrintable(r.err));
        const qint64 requests =
            readJson(summary).value(QStringLiteral("total")).toObject().value(QStringLiteral("requests")).toInteger();
        QVERIFY2(requests >= 570 && requests <= 630, qPrintable(QString::number(requests)));

        // a list in a file, with a comment and an agent that is not there: --min-agents runs on those that answer
        const QString list = writeFile(dir, "agents.txt",
                                       QStringLiteral("# the pool\n127.0.0.2:%1\n\n127.0.0.3:%1  # second\n"
                                                      "127.0.0.9:%1\n")
                                           .arg(port)
                                           .toUtf8());
        r = runWithHosts(hosts, run + QStringList{QStringLiteral("--agents"), QStringLiteral("file:") + list,
                                                  QStringLiteral("--min-agents"), QStringLiteral("2")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("2 engines")), qPrintable(r.err));

        // a name and a file mixed, each agent once
        r = runWithHosts(hosts, run + QStringList{QStringLiteral("--agents"),
                                                  QStringLiteral("dns:agents.test:%1,127.0.0.2:%1").arg(port)});
        QVERIFY2(r.exitCode == 0 && r.err.contains(QStringLiteral("3 engines")), qPrintable(r.err));

        // chosen by label: 127.0.0.2 and .3 are zone=hz-a
        r = runWithHosts(hosts,
                         run + QStringList{QStringLiteral("--agents"), QStringLiteral("dns:agents.test:%1").arg(port),
                                           QStringLiteral("--agents-with"), QStringLiteral("zone=hz-a")});
        QVERIFY2(r.exitCode == 0 && r.err.contains(QStringLiteral("2 engines")), qPrintable(r.err));
        r = runWithHosts(hosts,
                         run + QStringList{QStringLiteral("--agents"), QStringLiteral("dns:agents.test:%1").arg(port),
                                           QStringLiteral("--agents-with"), QStringLiteral("zone=hz-c")});
        QVERIFY2(r.exitCode == 2 && r.err.contains(QStringLiteral("none of the 3 agents has zone=hz-c")),
                 qPrintable(r.err));
        r = runWithHosts(hosts,
                         run + QStringList{QStringLiteral("--agents"), QStringLiteral("dns:agents.test:%1").arg(port),
                                           QStringLiteral("--agents-with"), QStringLiteral("zone")});
        QVERIFY2(r.exitCode == 2 && r.err.contains(QStringLiteral("expected KEY=VALUE")), qPrintable(r.err));

        // bad input, named
        const struct
        {
            QString agents;
            const char* message;
        } bad[] = {{QStringLiteral("dns:no-such-name.invalid:%1").arg(port), "does not resolve"},
                   {QStringLiteral("dns:agents.test"), "expected dns:NAME:PORT"},
                   {QStringLiteral("file:") + dir.filePath(QStringLiteral("none.txt")), "cannot read"},
                   {QStringLiteral("file:") + hosts, "line 1 is not host:port"},
                   {QStringLiteral("agents.test"), "give host:port, dns:NAME:PORT, file:PATH or joined"}};
        for (const auto& b : bad) {
            r = runWithHosts(hosts, run + QStringList{QStringLiteral("--agents"), b.agents});
            QVERIFY2(r.exitCode == 2 && r.err.contains(QString::fromUtf8(b.message)), qPrintable(r.err));
        }
        r = runWithHosts(hosts,
                         run + QStringList{QStringLiteral("--agents"), QStringLiteral("dns:agents.test:%1").arg(port),
                                           QStringLiteral("--min-agents"), QStringLiteral("0")});
        QVERIFY2(r.exitCode == 2 && r.err.contains(QStringLiteral("--min-agents")), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestAgentDiscovery)
#include "tst_agentdiscovery.moc"
