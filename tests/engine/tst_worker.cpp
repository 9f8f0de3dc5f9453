// A worker driven on simulated time against a scripted target (simulatedio.h):
// pacing, think time, checks and what a step does on an error, each decided
// by the worker alone, with the seconds simulated.
#include "grpc/protoschema.h"

#include "net/outgoing.h"
#include "plan/scenarioplan.h"
#include "run/worker.h"
#include "simulatedio.h"
#include "stampede/v1/scenario.pb.h"
#include <google/protobuf/descriptor.h>

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <set>

using namespace stampede;
using sim::Reply;
using sim::Sent;

namespace {

constexpr Nanos kMs = kNanosPerMilli;
constexpr Nanos kS = kNanosPerSecond;
constexpr Nanos kT0 = 1000 * kS; // the simulated clock's start

class Seconds final : public SecondSink
{
public:
    void deliver(std::uint32_t, IntervalMetricsPtr second, bool last) override
    {
        if (!total)
            total = std::make_unique<IntervalMetrics>(*second);
        else
            total->merge(*second);
        perSecond.push_back(std::move(second));
        ended |= last;
    }
    std::unique_ptr<IntervalMetrics> total;
    std::vector<IntervalMetricsPtr> perSecond;
    bool ended = false;
};

// JSON written with single quotes (a test reads better without escapes).
std::string q(std::string json)
{
    std::replace(json.begin(), json.end(), '\'', '"');
    return json;
}

std::unique_ptr<ScenarioPlan> compile(const std::string& json, const std::string& baseDir = {})
{
    v1::Scenario s;
    std::string error;
    if (!parseScenarioJson(json, s, error))
        qFatal("%s", error.c_str());
    std::vector<PlanError> errors;
    PlanOptions o;
    o.runId = "st-test";
    o.baseDir = baseDir;
    auto plan = compileScenario(s, o, errors);
    if (!plan)
        qFatal("%s", errors.front().text().c_str());
    auto out = std::make_unique<ScenarioPlan>(std::move(*plan));
    out->threads = 1;
    return out;
}

// One worker, the whole run, on simulated time.
struct Simulation
{
    explicit Simulation(const std::string& json, sim::SimulatedIo::Script script, const std::string& baseDir = {})
        : plan(compile(json, baseDir)), io(clock, std::move(script))
    {
    }
    void run()
    {
        std::vector<RendezvousRule::Point> points;
        for (const PlannedStep& st : plan->steps)
            points.push_back({st.rendezvousUsers, st.rendezvousTimeout});
        RendezvousBoard board(points, true); // one engine: it decides
        sim::runWorker(*plan, io, clock, kT0, seconds, stop, board.any() ? &board : nullptr);
    }
    const StepCounters& counters(std::size_t step) const { return seconds.total->steps[step].counters; }

    FakeClock clock{kT0};
    std::unique_ptr<ScenarioPlan> plan;
    sim::SimulatedIo io;
    Seconds seconds;
    std::atomic<bool> stop{false};
};

Reply after(Nanos delay, int status = 200, std::string body = {})
{
    Reply a;
    a.delay = delay;
    a.status = status;
    a.body = std::move(body);
    return a;
}

// A step of echo.proto's Say to 127.0.0.1:9 (the simulated target answers it), with `more` after its grpc object.
std::string grpcStep(const std::string& name, const std::string& data, const std::string& more = {})
{
    return "{'name': '" + name + "', 'grpc': {'target': 'http://127.0.0.1:9', 'method': 'stampede.test.Echo/Say', " +
           "'protos': ['" + ECHO_PROTO + "'], 'data': '" + data + "'" + more;
}

// The JSON as the framed EchoReply a gRPC server sends, or an EchoRequest as the worker framed it, back as JSON.
const google::protobuf::MethodDescriptor* echoSay(std::shared_ptr<ProtoSchema>& schema)
{
    std::string why;
    schema = ProtoSchema::import({ECHO_PROTO}, {}, why);
    const auto* say = schema ? schema->method("stampede.test.Echo/Say", why) : nullptr;
    if (!say)
        qFatal("%s", why.c_str());
    return say;
}

std::string echoReply(const std::string& json)
{
    std::shared_ptr<ProtoSchema> schema;
    const auto* say = echoSay(schema);
    std::string binary, why;
    if (!jsonToBinary(*schema, say->output_type(), q(json), binary, why))
        qFatal("%s", why.c_str());
    return grpcFrame(binary);
}

std::string echoRequestJson(const std::string& framed)
{
    std::shared_ptr<ProtoSchema> schema;
    const auto* say = echoSay(schema);
    std::string why, json;
    std::vector<std::string> messages;
    if (!grpcUnframe(framed, messages, why) || messages.size() != 1 ||
        !binaryToJson(*schema, say->input_type(), messages[0], json, why))
        qFatal("not one EchoRequest: %s", why.c_str());
    return json;
}

Reply grpcAfter(Nanos delay, int grpcStatus, std::string body = {}, std::string message = {})
{
    Reply a = after(delay, 200, std::move(body));
    a.grpcStatus = grpcStatus;
    a.grpcMessage = std::move(message);
    return a;
}

} // namespace

class TestWorker : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // 100 arrivals a second for 2 s, each sent at its intended time and
    // answered 5 ms later: the latency is the target's, whatever the pace.
    void openArrivalsGoOutOnTime()
    {
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/a'}}],"
                       "'load': {'open': {'rate': 100}}, 'duration': '2s', 'connections': 10}"),
                     [](const Sent&) { return after(5 * kMs); });
        s.run();
        QVERIFY(s.seconds.ended);
        const auto& sent = s.io.sent();
        QCOMPARE(sent.size(), std::size_t(200));
        for (std::size_t i = 0; i < sent.size(); ++i)
            QCOMPARE(sent[i].at, kT0 + Nanos(i) * 10 * kMs);
        QCOMPARE(s.counters(0).requests, std::uint64_t(200));
        QCOMPARE(s.counters(0).errors, std::uint64_t(0));
        const LatencyHistogram& lat = s.seconds.total->steps[0].latency;
        QVERIFY(std::abs(double(lat.percentile(50)) - 5000) < 50); // microseconds
        QCOMPARE(s.seconds.total->steps[0].sendLag.max(), std::uint64_t(0));
    }

    // A run of 2 s has 2 seconds: a worker that is done at the plan's end ends on its last second, not on an
    // empty one past it (the status lines, the JSON lines and Prometheus had a 3rd second at 0/s); an answer that
    // lands after the end counts in the plan's last second (issue 51: not a 3rd second that looks like a drop).
    void aRunHasItsSecondsAndNoEmptyOne()
    {
        const std::string json = q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/a'}}],"
                                   "'load': {'open': {'rate': 100}}, 'duration': '2s', 'connections': 10}");
        Simulation quick(json, [](const Sent&) { return after(5 * kMs); });
        quick.run();
        QVERIFY(quick.seconds.ended);
        QCOMPARE(quick.seconds.perSecond.size(), std::size_t(2));
        QCOMPARE(quick.seconds.perSecond.back()->second, std::uint32_t(2));
        QCOMPARE(quick.counters(0).requests, std::uint64_t(200));
        Simulation late(json, [](const Sent& sent) { // the last arrival (at 1.99 s) answered at 2.04 s
            return after(sent.at >= kT0 + 1990 * kMs ? 50 * kMs : 5 * kMs);
        });
        late.run();
        QCOMPARE(late.seconds.perSecond.size(), std::size_t(2));
        QCOMPARE(late.seconds.perSecond.back()->second, std::uint32_t(2));
        QCOMPARE(late.seconds.perSecond.back()->steps[0].counters.requests, std::uint64_t(100)); // the late one too
        QCOMPARE(late.counters(0).requests, std::uint64_t(200));
    }

    // 100,000 arrivals a second share their wake-ups (at most one timed
    // wake-up per 50 us, not one per arrival), each goes out no more than
    // 50 us after its time, and every one of them goes.
    void fastArrivalsShareWakeUps()
    {
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/a'}}],"
                       "'load': {'open': {'rate': 100000}}, 'duration': '1s', 'connections': 200}"),
                     [](const Sent&) { return after(kMs); });
        s.run();
        const auto& sent = s.io.sent();
        QCOMPARE(sent.size(), std::size_t(100000));
        Nanos worst = 0;
        for (std::size_t i = 0; i < sent.size(); ++i) {
            const Nanos lag = sent[i].at - (kT0 + Nanos(i) * 10 * kNanosPerMicro);
            QVERIFY2(lag >= 0, qPrintable(QStringLiteral("arrival %1 went %2 ns early").arg(i).arg(-lag)));
            worst = std::max(worst, lag);
        }
        QVERIFY2(worst <= 50 * kNanosPerMicro, qPrintable(QStringLiteral("an arrival went %1 ns late").arg(worst)));
        // 20,000 batches (the answers come as arrivals are due), the 10 ms ticks and the second's end
        QVERIFY2(s.io.wakeUps() <= 20200, qPrintable(QString::number(s.io.wakeUps())));
        QCOMPARE(s.counters(0).requests, std::uint64_t(100000));
        QCOMPARE(s.counters(0).late, std::uint64_t(0));
    }

    // While the sessions hold writes back (HTTP/2's short hold), the worker
    // naps instead of waiting: for ClientSessions::kHeldNap at least, so the
    // answers of that time come together, but never past its next deadline.
    void heldWritesMakeTheWorkerNap()
    {
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/a'}}],"
                       "'load': {'open': {'rate': 1000}}, 'duration': '1s', 'connections': 10}"),
                     [](const Sent&) { return after(985 * kNanosPerMicro); });
        // held for 3 us at the start: a nap of 20 us
        s.io.holdWrites(kT0, kT0 + 3 * kNanosPerMicro);
        s.run();
        QCOMPARE(s.io.naps().size(), std::size_t(1));
        QCOMPARE(s.io.naps()[0].at, kT0);
        QCOMPARE(s.io.naps()[0].length, ClientSessions::kHeldNap);

        // one user that thinks 15 us after each answer (1 ms): held from the
        // first answer for 5 us, the nap ends when the thinking does
        Simulation t(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/a'}, 'thinkTime': {'fixed': '15us'}}],"
                       "'load': {'closed': {'users': 1}}, 'duration': '100ms'}"),
                     [](const Sent&) { return after(kMs); });
        t.io.holdWrites(kT0 + kMs, kT0 + kMs + 5 * kNanosPerMicro);
        t.run();
        QCOMPARE(t.io.naps().size(), std::size_t(1));
        QCOMPARE(t.io.naps()[0].at, kT0 + kMs);
        QCOMPARE(t.io.naps()[0].length, 15 * kNanosPerMicro); // to the end of the thinking, not 20 us
        const auto& sent = t.io.sent();
        QVERIFY(sent.size() > 2);
        QCOMPARE(sent[1].at, kT0 + kMs + 15 * kNanosPerMicro);
    }

    // A share handed over at 1.25 s: its giver sends every arrival due
    // before, its taker every one from then on, at the same times and with
    // the increment going on where the giver stopped: together, the plan once.
    void aShareHandedOverIsSentOnceBetweenTwoWorkers()
    {
        const std::string json = q("{'variables': [{'name': 'n', 'increment': {'min': 1, 'max': 1000}}],"
                                   "'steps': [{'request': {'url': 'http://127.0.0.1:9/a?n=${n}'}}],"
                                   "'load': {'open': {'rate': 100}}, 'duration': '2s', 'connections': 10}");
        const auto reply = [](const Sent&) { return after(5 * kMs); };
        const Nanos handOver = kT0 + 1250 * kMs;
        Simulation giver(json, reply);
        std::atomic<Nanos> release{handOver};
        sim::runWorker(*giver.plan, giver.io, giver.clock, kT0, giver.seconds, giver.stop, nullptr, 0, &release);
        Simulation taker(json, reply);
        sim::runWorker(*taker.plan, taker.io, taker.clock, kT0, taker.seconds, taker.stop, nullptr, handOver);
        QCOMPARE(giver.io.sent().size(), std::size_t(125));
        QCOMPARE(taker.io.sent().size(), std::size_t(75));
        std::vector<Nanos> at;
        std::vector<std::string> targets;
        for (const Simulation* s : {&giver, &taker})
            for (const auto& sent : s->io.sent()) {
                at.push_back(sent.at);
                targets.push_back(sent.wire.substr(4, sent.wire.find(" HTTP/") - 4)); // "GET /a?n=1 HTTP/1.1"
            }
        for (std::size_t i = 0; i < at.size(); ++i) {
            QCOMPARE(at[i], kT0 + Nanos(i) * 10 * kMs);
            QCOMPARE(targets[i], "/a?n=" + std::to_string(i + 1));
        }
        QCOMPARE(giver.counters(0).dropped, std::uint64_t(0));
        QCOMPARE(taker.seconds.perSecond.front()->second, 2u); // its first second holds the hand-over
    }

    // A slow target: 10 connections at 100/s with answers after 200 ms can
    // carry only 50/s; the rest wait (late) and are measured from their
    // intended time, so the latency shows the queue.
    void aSlowTargetIsMeasuredFromTheIntendedTime()
    {
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/a'}}],"
                       "'load': {'open': {'rate': 100, 'backlogLimit': 1000}}, 'duration': '2s', 'connections': 10}"),
                     [](const Sent&) { return after(200 * kMs); });
        s.run();
        QVERIFY(s.counters(0).late > 0);
        QVERIFY(s.seconds.total->steps[0].latency.percentile(99) > 900 * 1000); // queued close to a second
        QVERIFY(s.seconds.total->steps[0].serviceTime.max() <= 201 * 1000);     // the target's own time
    }

    // Closed users: each runs its iteration, thinks (the step's think time)
    // and runs again; 2 users, 2 steps answered in 10 ms, 80 ms of think time
    // after the second: an iteration every 100 ms per user.
    void closedUsersThinkBetweenIterations()
    {
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/a'}},"
                       "{'request': {'url': 'http://127.0.0.1:9/b'}, 'thinkTime': {'fixed': '80ms'}}],"
                       "'load': {'closed': {'users': 2}}, 'duration': '1s'}"),
                     [](const Sent&) { return after(10 * kMs); });
        s.run();
        QCOMPARE(s.counters(0).requests, std::uint64_t(20)); // 10 iterations each
        QCOMPARE(s.counters(1).requests, std::uint64_t(20));
        std::vector<Nanos> user0;
        for (const Sent& x : s.io.sent())
            if (x.slot == 0 && x.step == 0)
                user0.push_back(x.at - kT0);
        QCOMPARE(user0.size(), std::size_t(10));
        for (std::size_t i = 1; i < user0.size(); ++i)
            QCOMPARE(user0[i] - user0[i - 1], 100 * kMs);
    }

    // Per-user iterations: 3 users make 4 iterations each, then the run ends
    // by itself, long before its bound.
    void perUserIterationsEndTheRun()
    {
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/a'}}],"
                       "'load': {'closed': {'users': 3}}, 'iterations': 4}"),
                     [](const Sent&) { return after(10 * kMs); });
        s.run();
        QCOMPARE(s.counters(0).requests, std::uint64_t(12));
        QVERIFY(s.clock.now() - kT0 < kS);
    }

    // A failed check ends the iteration: the next step is not sent.
    void aFailedCheckEndsTheIteration()
    {
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/login'},"
                       "'checks': [{'name': 'code', 'jsonPath': '$.code', 'equals': '0'}]},"
                       "{'request': {'url': 'http://127.0.0.1:9/order'}}],"
                       "'load': {'closed': {'users': 1}}, 'duration': '1s'}"),
                     [](const Sent&) { return after(100 * kMs, 200, q("{'code': 1}")); });
        s.run();
        QCOMPARE(s.counters(0).requests, std::uint64_t(10));
        QCOMPARE(s.counters(0).errorsByClass[std::size_t(ErrorClass::Check)], std::uint64_t(10));
        QCOMPARE(s.counters(1).sent, std::uint64_t(0));
        const auto& samples = s.seconds.total->samples; // the check's account, with the answer it judged
        QVERIFY(!samples.empty());
        QCOMPARE(samples[0].errorClass, ErrorClass::Check);
        QVERIFY2(samples[0].detail.find("code") != std::string::npos &&
                     samples[0].detail.find('1') != std::string::npos,
                 samples[0].detail.c_str());
        QCOMPARE(samples[0].body, q("{'code': 1}"));
    }

    // A retry: two 500s then a 200 count as one request, passed, with two
    // retries; its latency is the last try's, from its own send after the
    // backoff.
    void aRetryCountsTheLastTryOnly()
    {
        int answered = 0;
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/pay'}, "
                       "'retry': {'times': 3, 'backoff': '100ms'}}],"
                       "'load': {'closed': {'users': 1}}, 'iterations': 1}"),
                     [&](const Sent&) { return after(10 * kMs, ++answered < 3 ? 500 : 200); });
        s.run();
        QCOMPARE(s.io.sent().size(), std::size_t(3));
        QCOMPARE(s.io.sent()[1].at - s.io.sent()[0].at, 110 * kMs); // the answer, then the backoff
        QCOMPARE(s.counters(0).requests, std::uint64_t(1));
        QCOMPARE(s.counters(0).errors, std::uint64_t(0));
        QCOMPARE(s.counters(0).retries, std::uint64_t(2));
        QCOMPARE(s.seconds.total->steps[0].latency.max() / 1000, std::uint64_t(10)); // ms
    }

    // Retries spent: the last try's error is the step's.
    void aRetryThatNeverPassesCountsOneError()
    {
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/pay'}, 'retry': {'times': 2}}],"
                       "'load': {'closed': {'users': 1}}, 'iterations': 4}"),
                     [](const Sent&) { return after(10 * kMs, 503); });
        s.run();
        QCOMPARE(s.io.sent().size(), std::size_t(12));
        QCOMPARE(s.counters(0).requests, std::uint64_t(4));
        QCOMPARE(s.counters(0).errorsByClass[std::size_t(ErrorClass::Http5xx)], std::uint64_t(4));
        QCOMPARE(s.counters(0).retries, std::uint64_t(8));
    }

    // What an error does, by the step's onError.
    void onErrorDecidesWhatFollows_data()
    {
        QTest::addColumn<QString>("onError");
        QTest::addColumn<int>("secondSteps");    // requests of the step after the failing one
        QTest::addColumn<int>("userIterations"); // iterations the failing user made
        // one user failing at every iteration's first step, for 1 s, iterations 100 ms apart (pacing)
        QTest::addRow("continue") << "continue" << 10 << 10;
        QTest::addRow("nextIteration") << "nextIteration" << 0 << 10;
        QTest::addRow("stopUser") << "stopUser" << 0 << 1;
        QTest::addRow("stopRun") << "stopRun" << 0 << 1;
    }
    void onErrorDecidesWhatFollows()
    {
        QFETCH(QString, onError);
        QFETCH(int, secondSteps);
        QFETCH(int, userIterations);
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/a'}, 'onError': '" + onError.toStdString() +
                       "'}, {'request': {'url': 'http://127.0.0.1:9/b'}}],"
                       "'load': {'closed': {'users': 1, 'pacing': '100ms'}}, 'duration': '1s'}"),
                     [](const Sent& x) { return after(10 * kMs, x.step == 0 ? 500 : 200); });
        s.run();
        QCOMPARE(int(s.counters(1).requests), secondSteps);
        QCOMPARE(int(s.counters(0).requests), userIterations);
        if (onError == QLatin1String("stopRun"))
            QVERIFY(s.clock.now() - kT0 < 100 * kMs); // the worker ended at once, not at the plan's end
    }

    // stopRun with no pause between iterations (newman's --bail): the user whose step failed starts nothing more,
    // not even the next iteration its pacer would start at once.
    void stopRunSendsNothingMore()
    {
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/a'}},"
                       "{'request': {'url': 'http://127.0.0.1:9/b'}, 'onError': 'stopRun'}],"
                       "'load': {'closed': {'users': 1}}, 'iterations': 3}"),
                     [](const Sent& x) { return after(10 * kMs, x.step == 1 ? 500 : 200); });
        s.run();
        std::string order;
        for (const Sent& x : s.io.sent())
            order += x.step == 0 ? 'a' : 'b';
        QCOMPARE(order, std::string("ab"));
    }

    // stopUser stops that user only: the others go on.
    void stopUserLeavesTheOthers()
    {
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/a'}, 'onError': 'stopUser'}],"
                       "'load': {'closed': {'users': 2, 'pacing': '100ms'}}, 'duration': '1s'}"),
                     [](const Sent& x) { return after(10 * kMs, x.slot == 0 ? 500 : 200); });
        s.run();
        int user0 = 0, user1 = 0;
        for (const Sent& x : s.io.sent())
            ++(x.slot == 0 ? user0 : user1);
        QCOMPARE(user0, 1);
        QCOMPARE(user1, 10);
    }

    // repeat: the step three times in a row each iteration, then the next.
    void aRepeatedStepIsSentThatOften()
    {
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/a'}, 'repeat': 3},"
                       "{'request': {'url': 'http://127.0.0.1:9/b'}}],"
                       "'load': {'closed': {'users': 1}}, 'iterations': 2}"),
                     [](const Sent&) { return after(10 * kMs); });
        s.run();
        std::string order;
        for (const Sent& x : s.io.sent())
            order += x.step == 0 ? 'a' : 'b';
        QCOMPARE(order, std::string("aaabaaab"));
    }

    // A group's time per iteration: its first step's start to its last
    // step's end (the think time after it not included), once per iteration.
    void aGroupIsTimedAsOne()
    {
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/home'}},"
                       "{'request': {'url': 'http://127.0.0.1:9/cart'}, 'group': 'checkout'},"
                       "{'request': {'url': 'http://127.0.0.1:9/pay'}, 'group': 'checkout', "
                       "'thinkTime': {'fixed': '50ms'}},"
                       "{'request': {'url': 'http://127.0.0.1:9/done'}}],"
                       "'load': {'closed': {'users': 1}}, 'iterations': 5}"),
                     [](const Sent& x) {
                         return after(x.step == 1 ? 20 * kMs : x.step == 2 ? 30 * kMs : 5 * kMs);
                     });
        s.run();
        QCOMPARE(s.plan->groups, std::vector<std::string>{"checkout"});
        QCOMPARE(s.seconds.total->groups.size(), std::size_t(1));
        const StepMetrics& g = s.seconds.total->groups[0];
        QCOMPARE(g.counters.requests, std::uint64_t(5));
        QCOMPARE(g.counters.errors, std::uint64_t(0));
        QCOMPARE(g.latency.min() / 1000, std::uint64_t(50)); // 20 ms + 30 ms
        QCOMPARE(g.latency.max() / 1000, std::uint64_t(50));
        QCOMPARE(s.seconds.total->total().counters.requests, std::uint64_t(20)); // the steps' only
    }

    // A rendezvous of 5 users: they reach it 20 ms apart (their first step
    // answers slot x 20 ms late) and all send its step at the same instant,
    // when the fifth arrives; each iteration meets again.
    void aRendezvousReleasesAllAtOnce()
    {
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/a'}},"
                       "{'request': {'url': 'http://127.0.0.1:9/sale'}, 'rendezvous': {'users': 5}}],"
                       "'load': {'closed': {'users': 5}}, 'iterations': 3}"),
                     [](const Sent& x) { return after(x.step == 0 ? Nanos(x.slot + 1) * 20 * kMs : 10 * kMs); });
        s.run();
        std::map<Nanos, int> sales; // when the step went out: how many users
        for (const Sent& x : s.io.sent())
            if (x.step == 1)
                ++sales[x.at];
        QCOMPARE(sales.size(), std::size_t(3)); // three meetings
        for (const auto& [at, users] : sales)
            QCOMPARE(users, 5);
        QCOMPARE(sales.begin()->first - kT0, 100 * kMs); // when the last of the first iteration arrived
        QCOMPARE(s.counters(1).rendezvous, std::uint64_t(15));
        QCOMPARE(s.counters(1).rendezvousTimeouts, std::uint64_t(0));
        QCOMPARE(s.seconds.total->steps[1].latency.max() / 1000, std::uint64_t(10)); // from the release, not the wait
    }

    // Not enough users come: those that wait go when the first has waited the timeout.
    void aRendezvousTimesOut()
    {
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/a'}},"
                       "{'request': {'url': 'http://127.0.0.1:9/sale'}, 'rendezvous': {'users': 4, 'timeout': '1s'}}],"
                       "'load': {'closed': {'users': 4}}, 'iterations': 1}"),
                     [](const Sent& x) { return after(10 * kMs, x.step == 0 && x.slot == 3 ? 500 : 200); });
        s.run();
        std::vector<Nanos> sales;
        for (const Sent& x : s.io.sent())
            if (x.step == 1)
                sales.push_back(x.at - kT0);
        QCOMPARE(sales.size(), std::size_t(3)); // the fourth user failed before it
        for (const Nanos at : sales)
            QVERIFY2(at >= 1010 * kMs && at <= 1030 * kMs, qPrintable(QString::number(at / kMs)));
        QCOMPARE(s.counters(1).rendezvousTimeouts, std::uint64_t(3));
    }

    // The user's cookies and a redirect's hop, decided by the worker and
    // applied by the session as it encodes the request: the login's
    // Set-Cookie goes back on the next step; a 302 to a relative target is
    // followed as a GET without the body and its content headers, with the
    // cookie; a 307 keeps the method and the body. Each hop is a request of
    // its step, and the iteration's other user starts without cookies.
    void cookiesAndRedirectHopsGoAsTheSessionEncodesThem()
    {
        Simulation s(q("{'cookies': true, 'followRedirects': 3, 'steps': ["
                       "{'name': 'login', 'request': {'method': 'POST', 'url': 'http://127.0.0.1:9/login',"
                       "  'headers': [{'name': 'Content-Type', 'value': 'text/plain'}], 'body': 'me'}},"
                       "{'name': 'pay', 'request': {'method': 'POST', 'url': 'http://127.0.0.1:9/shop/pay',"
                       "  'headers': [{'name': 'Content-Type', 'value': 'text/plain'}], 'body': 'card'}}],"
                       "'load': {'closed': {'users': 1}}, 'iterations': 1}"),
                     [](const Sent& sent) {
                         Reply a = after(kMs);
                         if (sent.wire.starts_with("POST /login "))
                             a.headers = {{"Set-Cookie", "sid=abc; Path=/"}};
                         else if (sent.wire.starts_with("POST /shop/pay "))
                             a.status = 302, a.headers = {{"Location", "done?x=1"}};
                         else if (sent.wire.starts_with("GET /shop/done?x=1 "))
                             a.status = 307, a.headers = {{"Location", "/final"}};
                         return a;
                     });
        s.run();
        const auto& sent = s.io.sent();
        QCOMPARE(sent.size(), std::size_t(4));
        QVERIFY(sent[0].wire.find("Cookie:") == std::string::npos);
        QVERIFY(sent[1].wire.starts_with("POST /shop/pay HTTP/1.1\r\n"));
        QVERIFY(sent[1].wire.find("\r\nCookie: sid=abc\r\n") != std::string::npos);
        QVERIFY(sent[1].wire.ends_with("\r\n\r\ncard"));
        // 302: GET, no body, no Content-Length or Content-Type, the cookie kept
        QVERIFY2(sent[2].wire.starts_with("GET /shop/done?x=1 HTTP/1.1\r\n"), sent[2].wire.c_str());
        QVERIFY(sent[2].wire.ends_with("\r\nCookie: sid=abc\r\n\r\n"));
        QVERIFY(sent[2].wire.find("Content-Length") == std::string::npos);
        QVERIFY(sent[2].wire.find("Content-Type") == std::string::npos);
        QVERIFY(sent[2].wire.find("Host: 127.0.0.1:9\r\n") != std::string::npos);
        // 307: the method and the body as sent
        QVERIFY2(sent[3].wire.starts_with("POST /final HTTP/1.1\r\n"), sent[3].wire.c_str());
        QVERIFY(sent[3].wire.find("Content-Length: 4\r\n") != std::string::npos);
        QVERIFY(sent[3].wire.ends_with("\r\nCookie: sid=abc\r\n\r\ncard"));
        QCOMPARE(s.counters(1).requests, std::uint64_t(3)); // the pay step and its two hops
        QCOMPARE(s.counters(1).redirects, std::uint64_t(2));
        QCOMPARE(s.counters(1).sent, std::uint64_t(3));
        std::uint64_t out = 0;
        for (std::size_t i = 1; i < sent.size(); ++i)
            out += sent[i].wire.size();
        QCOMPARE(s.counters(1).bytesOut, out); // what the session encoded, counted
    }

    // A cookie's lifetime is judged by the run's clock (a fake one here: the test takes no time): Max-Age=3 goes
    // back on the requests of the next three seconds and not after.
    void aCookieExpiresByTheRunsClock()
    {
        Simulation s(q("{'cookies': true, 'steps': [{'name': 'get', 'request': {'url': 'http://127.0.0.1:9/a'}}],"
                       "'load': {'closed': {'users': 1, 'pacing': '1400ms'}}, 'iterations': 5}"),
                     [](const Sent& sent) {
                         Reply a = after(kMs);
                         if (sent.at - kT0 < kNanosPerSecond / 2) // the first answer sets it
                             a.headers = {{"Set-Cookie", "sid=abc; Max-Age=3; Path=/"}};
                         return a;
                     });
        s.clock.setEpoch(1780000000 - kT0 / kNanosPerSecond); // whole seconds of the run are whole seconds
        s.run();
        const auto& sent = s.io.sent();
        QCOMPARE(sent.size(), std::size_t(5));
        QString carried;
        for (const Sent& x : sent)
            carried +=
                x.wire.find("\r\nCookie: sid=abc\r\n") != std::string::npos ? QLatin1Char('c') : QLatin1Char('-');
        QCOMPARE(carried, QStringLiteral("-cc--")); // at 0 s none yet; at 1.4 s and 2.8 s alive; at 4.2 s, 5.6 s gone
    }

    // HTTP/2: the hop's :method and :path and the cookie are the session's
    // own strings; the rendered list is left as it was.
    void anHttp2HopIsEncodedBesideTheRenderedList()
    {
        std::string m = ":method", p = ":path", ct = "content-type", post = "POST", path = "/a", text = "text/plain";
        auto nv = [](std::string& n, std::string& v) {
            return nghttp2_nv{reinterpret_cast<std::uint8_t*>(n.data()), reinterpret_cast<std::uint8_t*>(v.data()),
                              n.size(), v.size(), NGHTTP2_NV_FLAG_NONE};
        };
        RenderedRequest r;
        r.nv = {nv(m, post), nv(p, path), nv(ct, text)};
        r.body = "card";
        QCOMPARE(requestTarget(r), std::string_view("/a"));
        Outgoing o;
        o.request = &r;
        o.method = "GET";
        o.target = "/b?x=1";
        o.cookie = "sid=abc";
        o.dropBody = true;
        QVERIFY(changesRequest(o));
        Http2Encoding e;
        encodeHttp2(o, e);
        std::vector<std::pair<std::string, std::string>> headers;
        for (const nghttp2_nv& h : e.nv)
            headers.emplace_back(std::string(reinterpret_cast<const char*>(h.name), h.namelen),
                                 std::string(reinterpret_cast<const char*>(h.value), h.valuelen));
        const std::vector<std::pair<std::string, std::string>> want = {
            {":method", "GET"}, {":path", "/b?x=1"}, {"cookie", "sid=abc"}};
        QCOMPARE(headers, want);
        QVERIFY(e.body.empty());
        QCOMPARE(e.bytes, std::size_t(7 + 3 + 5 + 6 + 6 + 7));
        QCOMPARE(std::string(reinterpret_cast<const char*>(r.nv[0].value), r.nv[0].valuelen), std::string("POST"));
        o.method = o.target = {};
        o.dropBody = false;
        encodeHttp2(o, e);
        QCOMPARE(e.nv.size(), std::size_t(4));
        QCOMPARE(e.body, std::string_view("card"));
    }

    // An answered Digest challenge's Authorization replaces one the step wrote itself (Postman's helper removes
    // it before it signs), on HTTP/1.1 and HTTP/2 alike: the server reads one header, the answer.
    void anAnsweredChallengeReplacesTheStepsOwnAuthorization()
    {
        RenderedRequest r;
        r.wire = "GET /digest-auth HTTP/1.1\r\nHost: h\r\nAuthorization: Digest stale\r\nX-A: 1\r\n\r\n";
        Outgoing o;
        o.request = &r;
        std::string wire;
        encodeHttp1(o, wire);
        QCOMPARE(wire, r.wire); // nothing answered: the step's own goes
        o.authorization = "Digest fresh";
        encodeHttp1(o, wire);
        QCOMPARE(wire,
                 std::string("GET /digest-auth HTTP/1.1\r\nHost: h\r\nX-A: 1\r\nAuthorization: Digest fresh\r\n\r\n"));

        std::string m = ":method", get = "GET", auth = "authorization", stale = "Digest stale";
        auto nv = [](std::string& n, std::string& v) {
            return nghttp2_nv{reinterpret_cast<std::uint8_t*>(n.data()), reinterpret_cast<std::uint8_t*>(v.data()),
                              n.size(), v.size(), NGHTTP2_NV_FLAG_NONE};
        };
        r.nv = {nv(m, get), nv(auth, stale)};
        Http2Encoding e;
        encodeHttp2(o, e);
        std::vector<std::string> values;
        for (const nghttp2_nv& h : e.nv)
            if (std::string_view(reinterpret_cast<const char*>(h.name), h.namelen) == "authorization")
                values.emplace_back(reinterpret_cast<const char*>(h.value), h.valuelen);
        QCOMPARE(values, std::vector<std::string>{"Digest fresh"});
    }

    // A gRPC call is a session's answer like any other: the reply message read as JSON by a check and an
    // extractor, the value sent in the next call's message; a status other than OK counted as a gRPC error by its
    // code, with the server's message in its sample; an HTTP error status to a call stays an HTTP error.
    void aGrpcCallIsJudgedByItsStatusAndMessage()
    {
        const std::string reply = echoReply("{'text': 'tok-7'}");
        int calls = 0;
        Simulation s(q("{'steps': [" +
                       grpcStep("login", "{\\'text\\': \\'hi\\'}",
                                "}, 'checks': [{'name': 'tok', 'jsonPath': '$.text', 'matches': '^tok-'}], "
                                "'extract': [{'name': 'token', 'jsonPath': '$.text'}]},") +
                       grpcStep("use", "{\\'text\\': \\'${token}/again\\'}", "}}") +
                       "], 'load': {'closed': {'users': 1}}, 'iterations': 3}"),
                     [&](const Sent& sent) {
                         if (sent.step == 0)
                             return grpcAfter(10 * kMs, 0, reply);
                         ++calls;
                         return calls == 1   ? grpcAfter(10 * kMs, 5, {}, "no such user")
                                : calls == 2 ? after(10 * kMs, 503)
                                             : grpcAfter(10 * kMs, 0, reply);
                     });
        s.run();
        QCOMPARE(s.io.sent().size(), std::size_t(6));
        const QString sentJson = QString::fromStdString(echoRequestJson(s.io.sent()[1].body)).remove(QLatin1Char(' '));
        QVERIFY2(sentJson.contains(QString::fromStdString(q("'text':'tok-7/again'"))), qPrintable(sentJson));
        QCOMPARE(s.counters(0).requests, std::uint64_t(3));
        QCOMPARE(s.counters(0).errors, std::uint64_t(0));
        QCOMPARE(s.seconds.total->steps[0].checks[0].passed, std::uint64_t(3));
        QCOMPARE(s.counters(1).requests, std::uint64_t(3));
        QCOMPARE(s.counters(1).errorsByClass[std::size_t(ErrorClass::Grpc)], std::uint64_t(1));
        QCOMPARE(s.counters(1).grpcCodes[5], std::uint64_t(1));
        QCOMPARE(s.counters(1).errorsByClass[std::size_t(ErrorClass::Http5xx)], std::uint64_t(1));
        const auto& samples = s.seconds.total->samples;
        const auto grpc = std::find_if(samples.begin(), samples.end(),
                                       [](const ErrorSample& e) { return e.errorClass == ErrorClass::Grpc; });
        QVERIFY(grpc != samples.end());
        QCOMPARE(grpc->detail, std::string("grpc-status 5 NOT_FOUND: no such user"));
    }

    // A status check that accepts a code makes it no error; a reply that is not the method's message reads as
    // no body (the check on it fails); a call past its deadline ends as DEADLINE_EXCEEDED, not as a timeout.
    void aGrpcStatusCheckAndTheDeadline()
    {
        int calls = 0;
        Simulation s(q("{'steps': [" +
                       grpcStep("busy", "{}",
                                ", 'deadline': '100ms'}, 'checks': [{'name': 'ok or busy', 'status': ['OK', "
                                "'UNAVAILABLE']}, {'name': 'text', 'jsonPath': '$.text', 'equals': 'x'}], "
                                "'onError': 'continue'}") +
                       "], 'load': {'closed': {'users': 1}}, 'iterations': 3}"),
                     [&](const Sent&) {
                         ++calls;
                         return calls == 1   ? grpcAfter(10 * kMs, 14, echoReply("{'text': 'x'}"))
                                : calls == 2 ? grpcAfter(10 * kMs, 0, std::string("\0\0\0\0\7garbage", 12))
                                             : grpcAfter(kS, 0, echoReply("{'text': 'x'}"));
                     });
        s.run();
        QCOMPARE(s.counters(0).requests, std::uint64_t(3));
        const auto& checks = s.seconds.total->steps[0].checks;
        QCOMPARE(checks[0].passed, std::uint64_t(2));
        QCOMPARE(checks[1].passed, std::uint64_t(1));
        QCOMPARE(checks[1].failed, std::uint64_t(1));
        QCOMPARE(s.counters(0).errorsByClass[std::size_t(ErrorClass::Check)], std::uint64_t(1));
        QCOMPARE(s.counters(0).errorsByClass[std::size_t(ErrorClass::Grpc)], std::uint64_t(1));
        QCOMPARE(s.counters(0).grpcCodes[4], std::uint64_t(1));
        QCOMPARE(s.counters(0).errorsByClass[std::size_t(ErrorClass::Timeout)], std::uint64_t(0));
        QCOMPARE(s.seconds.total->steps[0].latency.count(), std::uint64_t(2)); // the deadline's call had no answer
    }

    // A step's scripts run on the worker's own thread, for each answer in order: the test script's pm.test
    // judged as the step's check, a value it set sent by the next step, a failed test failing the step as
    // `check`, and postman.setNextRequest skipping a step.
    void aScriptJudgesSetsAndJumps()
    {
        int n = 0;
        // the script's quotes are JavaScript's: this JSON is written without q()
        Simulation s("{\"steps\": [{\"name\": \"login\", \"request\": {\"url\": \"http://127.0.0.1:9/login\"}, "
                     "\"testScript\": \"pm.test('id', () => pm.expect(pm.response.json().id).to.be.below(3));\\n"
                     "pm.environment.set('u', pm.response.json().id);\\n"
                     "if (pm.response.json().id === 2) postman.setNextRequest('last');\"}, "
                     "{\"name\": \"order\", \"request\": {\"url\": \"http://127.0.0.1:9/order?u=${u}\"}}, "
                     "{\"name\": \"last\", \"request\": {\"url\": \"http://127.0.0.1:9/last?u=${u}\"}}], "
                     "\"load\": {\"closed\": {\"users\": 1}}, \"iterations\": 3}",
                     [&](const Sent& sent) {
                         return after(10 * kMs, 200, sent.step == 0 ? "{\"id\": " + std::to_string(++n) + "}" : "{}");
                     });
        s.run();
        std::vector<std::string> lines;
        for (const Sent& sent : s.io.sent())
            lines.push_back(sent.wire.substr(0, sent.wire.find(" HTTP/1.1")));
        // 1: all three steps; 2: the jump skips order; 3: the test fails (id 3), the iteration ends
        const std::vector<std::string> expected{"GET /login", "GET /order?u=1", "GET /last?u=1",
                                                "GET /login", "GET /last?u=2",  "GET /login"};
        QCOMPARE(lines, expected);
        QCOMPARE(s.seconds.total->steps[0].checks[0].passed, std::uint64_t(2));
        QCOMPARE(s.seconds.total->steps[0].checks[0].failed, std::uint64_t(1));
        QCOMPARE(s.counters(0).errorsByClass[std::size_t(ErrorClass::Check)], std::uint64_t(1));
        QCOMPARE(s.counters(1).requests, std::uint64_t(1));
    }

    // A step with a pre-request script that uses a value no answer extracted is not sent: its script runs, the
    // step counts an `extract` error, and the iteration ends there (the script does not send it anyway).
    void aScriptedStepWithoutItsValueIsNotSent()
    {
        Simulation s("{\"steps\": [{\"name\": \"login\", \"request\": {\"url\": \"http://127.0.0.1:9/login\"}, "
                     "\"extract\": [{\"name\": \"token\", \"jsonPath\": \"$.token\"}]}, "
                     "{\"name\": \"me\", \"request\": {\"url\": \"http://127.0.0.1:9/me?t=${token}\"}, "
                     "\"preRequestScript\": \"console.log('before me');\"}], "
                     "\"load\": {\"closed\": {\"users\": 1}}, \"iterations\": 2}",
                     [&](const Sent&) { return after(10 * kMs, 200, "{}"); });
        s.run();
        std::vector<std::string> lines;
        for (const Sent& sent : s.io.sent())
            lines.push_back(sent.wire.substr(0, sent.wire.find(" HTTP/1.1")));
        QCOMPARE(lines, (std::vector<std::string>{"GET /login", "GET /login"}));
        QCOMPARE(s.counters(1).requests, std::uint64_t(2));
        QCOMPARE(s.counters(1).sent, std::uint64_t(0));
        QCOMPARE(s.counters(1).errorsByClass[std::size_t(ErrorClass::Extract)], std::uint64_t(2));
    }

    // A replay: each recorded request goes as recorded, at its recorded time from the run's start, once per copy,
    // whatever the answers; the worker's loop knows it only as the pacer's iterations of one request.
    void aReplaySendsEachRecordAtItsTime()
    {
        QTemporaryDir dir;
        std::ofstream log(dir.filePath(QStringLiteral("a.log")).toStdString());
        for (int i = 0; i < 20; ++i) // 10 a second for 2 seconds
            log << "10.0.0.1 - - [01/Dec/2026:10:00:0" << i / 10 << " +0000] \"GET /p?i=" << i
                << " HTTP/1.1\" 200 1 \"-\" \"ua\"\n";
        log.close();
        Simulation s(
            q("{'steps': [{'name': 'rec', 'replay': {'file': 'a.log', 'amplify': 2, "
              "'target': 'http://127.0.0.1:9'}}]}"),
            [](const Sent& sent) { return after(5 * kMs, sent.wire.find("i=7 ") != std::string::npos ? 500 : 200); },
            dir.path().toStdString());
        s.run();
        QCOMPARE(s.io.sent().size(), std::size_t(40));
        std::map<std::string, int> copies;
        for (const Sent& sent : s.io.sent())
            ++copies[sent.wire.substr(0, sent.wire.find("\r\n"))];
        QCOMPARE(copies.size(), std::size_t(20));
        for (const auto& [line, n] : copies)
            QVERIFY2(n == 2, line.c_str());
        for (std::size_t k = 1; k < s.io.sent().size(); ++k)
            QVERIFY(s.io.sent()[k].at >= s.io.sent()[k - 1].at);
        QCOMPARE(s.io.sent().front().at, kT0);
        QCOMPARE(s.io.sent().back().at, kT0 + 1900 * kMs); // the last record's time: 1.9 s after the first
        QCOMPARE(s.counters(0).requests, std::uint64_t(40));
        QCOMPARE(s.counters(0).errorsByClass[std::size_t(ErrorClass::Http5xx)], std::uint64_t(2));
    }

    // With trace on, each iteration has a trace id of its own, sent in its traceparent and kept with its error
    // samples (to look the failed request up in the tracing system); a replayed request keeps its recorded trace
    // id, an amplified copy gets one derived from it, and its sample says which.
    void aSampleKeepsTheTraceItsRequestSent()
    {
        const auto traceIn = [](const std::string& wire) {
            const std::size_t at = wire.find("\r\ntraceparent: 00-");
            return at == std::string::npos ? std::string() : wire.substr(at + 18, 32);
        };
        Simulation s(q("{'trace': true, 'steps': [{'request': {'url': 'http://127.0.0.1:9/x'}}], "
                       "'load': {'closed': {'users': 1}}, 'iterations': 3}"),
                     [](const Sent&) { return after(10 * kMs, 500); });
        s.run();
        QCOMPARE(s.io.sent().size(), std::size_t(3));
        const auto& samples = s.seconds.total->samples;
        QCOMPARE(samples.size(), std::size_t(3));
        std::set<std::string> ids;
        for (std::size_t k = 0; k < 3; ++k) {
            const std::string sent = traceIn(s.io.sent()[k].wire);
            QVERIFY2(sent.size() == 32, s.io.sent()[k].wire.c_str());
            QCOMPARE(samples[k].trace, sent);
            ids.insert(sent);
        }
        QCOMPARE(ids.size(), std::size_t(3));

        QTemporaryDir dir;
        std::ofstream log(dir.filePath(QStringLiteral("a.log")).toStdString());
        log << "10.0.0.1 - - [01/Dec/2026:10:00:00 +0000] \"GET /p HTTP/1.1\" 200 1 \"-\" \"ua\"\n";
        log.close();
        Simulation r(
            q("{'trace': true, 'steps': [{'name': 'rec', 'replay': {'file': 'a.log', 'amplify': 2, "
              "'target': 'http://127.0.0.1:9'}}]}"),
            [](const Sent&) { return after(5 * kMs, 503); }, dir.path().toStdString());
        r.run();
        QCOMPARE(r.io.sent().size(), std::size_t(2));
        QCOMPARE(r.seconds.total->samples.size(), std::size_t(2));
        for (std::size_t k = 0; k < 2; ++k)
            QCOMPARE(r.seconds.total->samples[k].trace, traceIn(r.io.sent()[k].wire));
        QVERIFY(r.seconds.total->samples[0].trace != r.seconds.total->samples[1].trace);
    }

    // A retry waits at the step's rendezvous as the first try did, and is still that retry when it is released:
    // the step goes out at most 1 + its retries times an iteration.
    void aRetryHeldAtARendezvousIsStillThatRetry()
    {
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/sale'}, 'rendezvous': {'users': 2}, "
                       "'retry': {'times': 2, 'backoff': '10ms'}}], 'load': {'closed': {'users': 2}}, "
                       "'iterations': 2, 'duration': '10s'}"),
                     [](const Sent&) { return after(10 * kMs, 500); });
        s.run();
        QCOMPARE(s.io.sent().size(), std::size_t(12)); // 2 users x 2 iterations x 3 tries
        QCOMPARE(s.counters(0).requests, std::uint64_t(4));
        QCOMPARE(s.counters(0).retries, std::uint64_t(8));
        QCOMPARE(s.counters(0).errorsByClass[std::size_t(ErrorClass::Http5xx)], std::uint64_t(4));
        QCOMPARE(s.counters(0).rendezvous, std::uint64_t(12));
    }

    // An error continued past inside its own send (a refused connection)
    // goes on at the loop's next turn: 1,000 repeats do not nest 1,000 deep.
    void continuingPastRefusedConnectsDoesNotRecurse()
    {
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/a'}, 'onError': 'continue', "
                       "'repeat': 1000}],"
                       "'load': {'closed': {'users': 1}}, 'iterations': 3}"),
                     [](const Sent&) {
                         Reply a;
                         a.failInSend = true;
                         return a;
                     });
        s.run();
        QCOMPARE(s.counters(0).requests, std::uint64_t(3000));
        QCOMPARE(s.counters(0).errorsByClass[std::size_t(ErrorClass::Connect)], std::uint64_t(3000));
    }
};

QTEST_GUILESS_MAIN(TestWorker)
#include "tst_worker.moc"
