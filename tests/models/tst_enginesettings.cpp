// The engine settings kept in a project, and the agent list's check against
// real agents (stampede-cli agent) on loopback: ready, wrong token, nothing
// listening, not an address.
#include "enginesettings.h"
#include "store/projectstore.h"

#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "testsupport.h"

using testsupport::endsWithTest;
using testsupport::freePort;

class TestEngineSettings : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void keptInTheProject()
    {
        std::string error;
        auto store = stampede::ProjectStore::create(m_dir.filePath(QStringLiteral("p.stampede")).toStdString(), error);
        QVERIFY2(store, error.c_str());
        EngineSettings s = EngineSettings::load(*store);
        QVERIFY(!s.remote);
        QCOMPARE(s.localEngines, 0);
        s.remote = true;
        s.agents = {QStringLiteral("10.0.0.5:7700"), QStringLiteral("[::1]:7701")};
        s.tokenFile = QStringLiteral("/etc/stampede/token");
        s.caFile = QStringLiteral("/etc/stampede/ca.pem");
        QVERIFY(s.save(*store));
        const EngineSettings back = EngineSettings::load(*store);
        QVERIFY(back.remote);
        QCOMPARE(back.agents, s.agents);
        QCOMPARE(back.tokenFile, s.tokenFile);
        QCOMPARE(back.caFile, s.caFile);
        // the token itself is never stored
        QVERIFY(!QByteArray::fromStdString(store->setting("engines")).contains("secret"));

        QString token, why;
        EngineSettings missing;
        missing.tokenFile = m_dir.filePath(QStringLiteral("nope"));
        QVERIFY(!missing.readToken(token, why));
        QVERIFY(why.contains(QLatin1String("nope")));

        QVERIFY(validAgentAddress(QStringLiteral("host:7700"), why));
        QVERIFY(validAgentAddress(QStringLiteral("[::1]:7700"), why));
        QVERIFY(!validAgentAddress(QStringLiteral("host"), why));
        QVERIFY(!validAgentAddress(QStringLiteral("host:99999"), why));
        QVERIFY(why.contains(QLatin1String("99999")));
        QVERIFY(validAgentAddress(QStringLiteral("dns:stampede-agents:7070"), why)); // every address of the name
        QVERIFY(!validAgentAddress(QStringLiteral("dns:stampede-agents"), why));
        QVERIFY(validAgentAddress(QStringLiteral("file:/etc/stampede/agents.txt"), why));
        QVERIFY(!validAgentAddress(QStringLiteral("file:"), why));
        QVERIFY(why.contains(QLatin1String("file:")));
    }

    // The live outputs: kept, turned into --out's specs, checked in words.
    void outputsAreKeptAndChecked()
    {
        std::string error;
        const QString project = m_dir.filePath(QStringLiteral("o.stampede"));
        auto store = stampede::ProjectStore::create(project.toStdString(), error);
        QVERIFY2(store, error.c_str());
        EngineSettings s;
        QVERIFY(s.outputs().isEmpty());
        s.prometheus = QStringLiteral(" 127.0.0.1:9465 ");
        s.jsonl = m_dir.filePath(QStringLiteral("run.jsonl"));
        s.remoteWrite = QStringLiteral("http://127.0.0.1:9090/api/v1/write");
        QVERIFY(s.save(*store));
        const EngineSettings back = EngineSettings::load(*store);
        QCOMPARE(back.outputs(),
                 QStringList({QStringLiteral("prometheus=127.0.0.1:9465"), QStringLiteral("jsonl=") + s.jsonl,
                              QStringLiteral("prometheus-rw=http://127.0.0.1:9090/api/v1/write")}));
        QCOMPARE(back.outputsProblem(project), QString());
        EngineSettings bad = back;
        bad.prometheus = QStringLiteral("127.0.0.1:99999");
        QVERIFY(bad.outputsProblem(project).contains(QLatin1String("99999")));
        bad.prometheus = QStringLiteral("localhost");
        QVERIFY(!bad.outputsProblem(project).isEmpty());
        bad = back;
        bad.remoteWrite = QStringLiteral("127.0.0.1:9090");
        QVERIFY(bad.outputsProblem(project).contains(QLatin1String("http://")));
        bad = back;
        bad.jsonl = project; // the project itself
        QVERIFY(bad.outputsProblem(project).contains(QLatin1String("project itself")));
        bad.jsonl = m_dir.filePath(QStringLiteral("no/such/folder/run.jsonl"));
        QVERIFY(bad.outputsProblem(project).contains(QLatin1String("does not exist")));
        // issue 51: the project's error budget for every run, kept and checked
        EngineSettings budget = back;
        budget.maxErrorRate = QStringLiteral("2%");
        QVERIFY(budget.save(*store));
        QCOMPARE(EngineSettings::load(*store).maxErrorRate, QStringLiteral("2%"));
        QCOMPARE(budget.outputsProblem(project), QString());
        for (const char* wrong : {"2", "0%", "101%", "a lot"}) {
            budget.maxErrorRate = QString::fromLatin1(wrong);
            QVERIFY2(budget.outputsProblem(project).contains(QLatin1String("error rate at most")), wrong);
        }
    }

    void checkSaysWhichAgentsAreReady()
    {
        const QString tokenFile = m_dir.filePath(QStringLiteral("token"));
        {
            QFile f(tokenFile);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("s3cret-token\n");
        }
        const int port = freePort();
        QProcess agent;
        agent.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        endsWithTest(agent);
        agent.start(qEnvironmentVariable("STAMPEDE_CLI"),
                    {QStringLiteral("agent"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(port),
                     QStringLiteral("--token-file"), tokenFile, QStringLiteral("--name"), QStringLiteral("box-1")});
        QVERIFY(agent.waitForStarted());
        const QString nobody = QStringLiteral("127.0.0.1:%1").arg(freePort());

        AgentListModel model;
        model.setAgents({QStringLiteral("127.0.0.1:%1").arg(port), nobody, QStringLiteral("not an address")});
        QSignalSpy done(&model, &AgentListModel::checked);
        model.check(QStringLiteral("s3cret-token"), {});
        QVERIFY(model.checking());
        QVERIFY(done.wait(15000));
        QVERIFY2(model.ready(0), qPrintable(model.index(0, 1).data().toString()));
        QVERIFY(model.index(0, 1).data().toString().contains(QLatin1String("box-1")));
        QVERIFY(!model.ready(1));
        QVERIFY(model.index(1, 1).data().toString().contains(nobody));
        QVERIFY(!model.ready(2));
        QVERIFY(model.index(2, 1).data().toString().contains(QLatin1String("host:port")));

        // a list in a file: how many of its agents answer
        const QString list = m_dir.filePath(QStringLiteral("agents.txt"));
        {
            QFile f(list);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QStringLiteral("127.0.0.1:%1\n%2\n").arg(port).arg(nobody).toUtf8());
        }
        model.setAgents({QStringLiteral("file:") + list, QStringLiteral("file:") + list + QStringLiteral(".none")});
        model.check(QStringLiteral("s3cret-token"), {});
        QVERIFY(done.wait(15000));
        QVERIFY2(model.ready(0), qPrintable(model.index(0, 1).data().toString()));
        QVERIFY2(model.index(0, 1).data().toString().contains(QLatin1String("1 of 2")),
                 qPrintable(model.index(0, 1).data().toString()));
        QVERIFY(!model.ready(1));

        // the wrong token is refused, and said so
        model.setAgents({QStringLiteral("127.0.0.1:%1").arg(port)});
        model.check(QStringLiteral("wrong"), {});
        QVERIFY(done.wait(15000));
        QVERIFY(!model.ready(0));
        QVERIFY2(model.index(0, 1).data().toString().contains(QLatin1String("token"), Qt::CaseInsensitive),
                 qPrintable(model.index(0, 1).data().toString()));
        agent.terminate();
        agent.waitForFinished(5000);
    }
};

QTEST_MAIN(TestEngineSettings)
#include "tst_enginesettings.moc"
