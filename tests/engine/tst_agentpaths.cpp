// An agent never opens a path it was given: a StartRun whose scenario names a
// file (a data set's, anywhere in a plan) is refused naming the field, before
// anything is compiled or read; and it is free for the next run as soon as the
// last one's final snapshot is out. An in-process agent, called over gRPC as a
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

    // A controller starts its next run on an agent as soon as it reads the last one's final snapshot (a plan's
    // main run right after its setup): the agent is free by then, every time (it once said "busy with run
    // ...-setup" when its own thread had not yet marked the run ended).
    void theNextRunStartsOnTheFinalSnapshot()
    {
        AgentOptions o;
        o.name = "reuse";
        o.log = false;
        Agent agent(o);
        std::string error;
        QVERIFY2(agent.start("127.0.0.1:0", error), error.c_str());
        const std::string address = "127.0.0.1:" + std::to_string(agent.port());
        const AgentLinkPtr starter = makeGrpcAgentLink(address, {}, {});
        const auto request = [](int n) {
            v1::StartRunRequest rq;
            rq.set_protocol_version(kControlProtocolVersion);
            rq.set_run_id("st-reuse-" + std::to_string(n));
            rq.set_controller("test");
            rq.set_engine_count(1);
            auto* s = rq.mutable_bundle()->mutable_scenario();
            s->add_steps()->mutable_request()->set_url("http://127.0.0.1:9/"); // refused at once
            s->mutable_load()->mutable_closed()->set_users(1);
            s->set_iterations(1);
            return rq;
        };
        QVERIFY2(starter->startRun(request(0), 5 * kNanosPerSecond, error), error.c_str());
        constexpr int kRuns = 30;
        int started = 1;
        std::string refused;
        for (int n = 0; n + 1 < kRuns && refused.empty(); ++n) {
            const AgentLinkPtr watcher = makeGrpcAgentLink(address, {}, {});
            bool ended = false;
            watcher->watch("st-reuse-" + std::to_string(n), 0, [&](const v1::Snapshot& s) {
                if (!s.final() || ended)
                    return;
                ended = true;
                std::string why;
                if (starter->startRun(request(n + 1), 5 * kNanosPerSecond, why))
                    ++started;
                else
                    refused = why;
            });
            QVERIFY2(ended, "the run's final snapshot never came");
        }
        QVERIFY2(refused.empty(), refused.c_str());
        QCOMPARE(started, kRuns);
        agent.shutdown();
    }
};

QTEST_GUILESS_MAIN(TestAgentPaths)
#include "tst_agentpaths.moc"
