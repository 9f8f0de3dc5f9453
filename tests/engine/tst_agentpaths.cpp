// An agent never opens a path it was given: a StartRun whose scenario names a
// file (a data set's, anywhere in a plan) is refused naming the field, before
// anything is compiled or read. An in-process agent, called over gRPC as a
// controller calls it.
#include "agent/agent.h"
#include "control/agentlink.h"
#include "stampede/v1/control.pb.h"

#include <QTest>

using namespace stampede;

class TestAgentPaths : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aStartRunNamingAFileIsRefused()
    {
        AgentOptions o;
        o.name = "paths";
        o.log = false;
        Agent agent(o);
        std::string error;
        QVERIFY2(agent.start("127.0.0.1:0", error), error.c_str());
        const AgentLinkPtr link = makeGrpcAgentLink("127.0.0.1:" + std::to_string(agent.port()), {}, {});
        v1::StartRunRequest rq;
        rq.set_protocol_version(kControlProtocolVersion);
        rq.set_run_id("st-paths");
        rq.set_controller("test");
        rq.set_engine_count(1);
        auto* s = rq.mutable_bundle()->mutable_scenario();
        s->add_steps()->mutable_request()->set_url("http://127.0.0.1:9/");
        auto* plan = s->add_scenarios();
        plan->add_steps()->mutable_request()->set_url("http://127.0.0.1:9/");
        auto* v = plan->add_variables();
        v->set_name("u");
        v->mutable_csv()->set_file("../../../../etc/passwd");
        QVERIFY(!link->startRun(rq, 5 * kNanosPerSecond, error));
        QVERIFY2(error.find("agent paths refuses the run: its scenario names a file to open, "
                            "scenarios[0].variables[0].csv.file (\"../../../../etc/passwd\")") != std::string::npos,
                 error.c_str());
        agent.shutdown();
    }
};

QTEST_GUILESS_MAIN(TestAgentPaths)
#include "tst_agentpaths.moc"
