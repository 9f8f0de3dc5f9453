// Issue 49: the worker's waits, its early end, its calendar, a step's request made ready and a send's count, each an
// object of its own (run/userwaits.h, run/workerend.h, run/workercalendar.h, run/requestprep.h, run/stepoutcome.h),
// tested without a loop or a clock: times are given, plans are real scenarios compiled, scripts are real
// (SpiderMonkey).
#include "compiledplan.h"
#include "run/requestprep.h"
#include "run/stepoutcome.h"
#include "run/userwaits.h"
#include "run/workercalendar.h"
#include "run/workerend.h"

#include <QTest>

#include <memory>

using namespace stampede;

namespace {

std::string step(const std::string& name, const std::string& url, const std::string& extra = {})
{
    return "{\"name\": \"" + name + "\", \"request\": {\"url\": \"" + url + "\"}" + extra + "}";
}

std::string targetOf(const RenderedRequest& r)
{
    return std::string(requestTarget(r));
}

// A plan of `steps` for one user, its values, requests, scripts and a RequestPrep over them.
struct Prep
{
    explicit Prep(const std::string& steps, const std::string& top = {})
        : plan(compiledPlan("{" + top + "\"steps\": [" + steps + "], \"load\": {\"closed\": {\"users\": 1}}}")),
          own(*plan), requests(*plan, own, 0, 1, 1), prep(*plan, requests, own),
          second(std::make_unique<IntervalMetrics>())
    {
        own.reset(1);
        requests.reset(1, true);
        second->steps.resize(plan->steps.size());
        for (std::size_t i = 0; i < plan->steps.size(); ++i)
            second->steps[i].checks.resize(plan->steps[i].checks.size());
        if (ScriptStep::needed(*plan)) {
            scripts = std::make_unique<ScriptStep>(*plan, 1, own, requests.cursors(), tally);
            prep.setScripts(scripts.get());
        }
        std::size_t exhausted = 0;
        QVERIFY(requests.beginIteration(0, exhausted));
        own.newIteration(0, false, requests.cursors());
        if (scripts)
            scripts->newIteration(0, false);
    }
    RequestPrep::Ready ready(std::size_t i, Outgoing& o)
    {
        o.request = &requests.request(0, i);
        why.clear();
        return prep.ready(0, i, o, *second, error, why);
    }

    std::unique_ptr<ScenarioPlan> plan;
    UserValues own;
    StepRequests requests;
    RequestPrep prep;
    IntervalMetricsPtr second;
    CheckTally tally;
    std::unique_ptr<ScriptStep> scripts;
    ErrorClass error = ErrorClass::Protocol;
    std::string why;
};

} // namespace

class TestWorkerParts : public QObject
{
    Q_OBJECT

private slots:
    // Users come out of their waits in order of their time, ties in the order they went in; a pause is over at
    // its time and not before; the loop wakes for the earliest of both kinds; a stop takes every waiting user
    // out, the pausing ones first.
    void waitsComeOutInOrderOfTheirTime()
    {
        UserWaits w(7);
        QVERIFY(w.empty());
        QCOMPARE(w.wakeBy(1000), Nanos(1000));
        w.goOnAt(3, 500);
        w.goOnAt(1, 200);
        w.goOnAt(2, 200); // a tie: after user 1, put in before it
        w.retryAt(4, 100);
        QVERIFY(!w.empty());
        QCOMPARE(w.wakeBy(1000), Nanos(100));
        QCOMPARE(w.wakeBy(50), Nanos(50));
        std::uint32_t user = 99;
        Nanos due = 0;
        QVERIFY(!w.thinkerDue(199, user, due));
        QVERIFY(w.thinkerDue(200, user, due));
        QCOMPARE(user, 1u);
        QCOMPARE(due, Nanos(200));
        QVERIFY(w.thinkerDue(450, user, due));
        QCOMPARE(user, 2u);
        QVERIFY(!w.thinkerDue(450, user, due));
        QVERIFY(w.retryDue(450, user));
        QCOMPARE(user, 4u);
        QVERIFY(!w.retryDue(450, user));
        w.retryAt(5, 900);
        w.goOnAt(6, 950);
        const std::vector<std::uint32_t> all = w.takeAll();
        QCOMPARE(all, (std::vector<std::uint32_t>{3, 6, 5}));
        QVERIFY(w.empty());
    }

    // A fixed think time pauses a user exactly that long; a uniform one within its bounds.
    void aThinkTimeIsSampledFromTheStep()
    {
        UserWaits w(1);
        w.think(0, ThinkTime{ThinkTime::Kind::Fixed, 300, 0}, 1000);
        std::uint32_t user = 9;
        Nanos due = 0;
        QVERIFY(!w.thinkerDue(1299, user, due));
        QVERIFY(w.thinkerDue(1300, user, due));
        QCOMPARE(due, Nanos(1300));
        for (int i = 0; i < 100; ++i)
            w.think(std::uint32_t(i), ThinkTime{ThinkTime::Kind::Uniform, 100, 200}, 0);
        QCOMPARE(w.wakeBy(kNanosPerSecond) >= 100, true);
        int out = 0;
        for (; w.thinkerDue(200, user, due); ++out)
            QVERIFY(due >= 100 && due <= 200);
        QCOMPARE(out, 100);
    }

    // An explicit stop halts the worker; a lease halts it once the time passes it, noted once at the first time
    // seen; a lease of 0 is none.
    void aStopOrALeaseHaltsTheWorker()
    {
        std::atomic<bool> stop{false};
        std::atomic<Nanos> lease{0};
        WorkerEnd end({&stop, &lease, nullptr});
        QVERIFY(!end.halted(5'000));
        lease = 10'000;
        QVERIFY(!end.halted(10'000));
        QVERIFY(end.halted(10'001));
        QVERIFY(end.halted(20'000));
        QCOMPARE(end.leaseExpiredAt(), Nanos(10'001));
        WorkerEnd stopped({&stop, nullptr, nullptr});
        QVERIFY(!stopped.halted(1));
        stop = true;
        QVERIFY(stopped.halted(1));
        QCOMPARE(stopped.leaseExpiredAt(), Nanos(0));
    }

    // A step that stops the run is noted once (the first) and tells every worker of the run through the flag
    // they share; a data set that ran out is noted once, its variable named.
    void aStepThatStopsTheRunTellsTheOthers()
    {
        std::atomic<bool> stop{false}, stopRun{false};
        WorkerEnd mine({&stop, nullptr, &stopRun}), other({&stop, nullptr, &stopRun});
        QVERIFY(!mine.runStopped() && !other.runStopped());
        mine.stepStopsRun(3, 700);
        mine.stepStopsRun(1, 900);
        QCOMPARE(mine.stopRunAt(), Nanos(700));
        QCOMPARE(mine.stopRunStep(), 3u);
        QVERIFY(mine.runStopped());
        QVERIFY(other.runStopped());           // told
        QCOMPARE(other.stopRunAt(), Nanos(0)); // but not its own
        QVERIFY(!other.halted(1000));          // it ends as the plan ends (beginStop), not at once
        mine.dataRanOut("users", 50);
        mine.dataRanOut("items", 60);
        QCOMPARE(mine.exhausted(), std::string("users"));
        QCOMPARE(mine.exhaustedAt(), Nanos(50));
    }

    // A scenario that starts after the run, a share taken over later still: the load starts at the later of the
    // two and ends a duration after the scenario's start; the loop wakes for the start, then for the end, and for a
    // release the controller set; a stopping worker waits for neither.
    void theCalendarSaysWhenTheLoadRuns()
    {
        std::atomic<Nanos> release{0};
        WorkerCalendar c({1000, 5000, 2500, nullptr, &release});
        QCOMPARE(c.end(), Nanos(6000));
        QVERIFY(!c.started(1500)); // the scenario's start, not yet the share's
        QVERIFY(c.started(2500));
        QCOMPARE(c.wakeBy(99'999, 100, false), Nanos(2500));
        QCOMPARE(c.wakeBy(99'999, 3000, false), Nanos(6000));
        QCOMPARE(c.wakeBy(4000, 3000, false), Nanos(4000));
        QCOMPARE(c.wakeBy(99'999, 3000, true), Nanos(99'999));
        QCOMPARE(c.releasedBy(3000), Nanos(0));
        release = 4500;
        QCOMPARE(c.wakeBy(99'999, 3000, false), Nanos(4500));
        QCOMPARE(c.releasedBy(4499), Nanos(0));
        QCOMPARE(c.releasedBy(4600), Nanos(4500));
    }

    // The controller's level is read once a change: the same factor again is no change; without a controller
    // there is none. A tick is due once per kTick from when ticks start.
    void theLevelAndTheTick()
    {
        std::atomic<double> level{1};
        WorkerCalendar c({0, kNanosPerSecond, 0, &level, nullptr});
        double f = 0;
        QVERIFY(!c.levelChanged(f));
        level = 0.5;
        QVERIFY(c.levelChanged(f));
        QCOMPARE(f, 0.5);
        QVERIFY(!c.levelChanged(f));
        WorkerCalendar none({0, kNanosPerSecond, 0, nullptr, nullptr});
        QVERIFY(!none.levelChanged(f));
        c.startTicks(100);
        QVERIFY(c.tick(100));
        QVERIFY(!c.tick(100 + WorkerCalendar::kTick - 1));
        QVERIFY(c.tick(100 + WorkerCalendar::kTick));
        QCOMPARE(c.nextTick(), 100 + 2 * WorkerCalendar::kTick);
    }

    // A plain step goes as its iteration began; one that uses an extracted value is rendered now with it, and
    // refused, naming the variable, while no answer gave it.
    void aStepOfExtractedValuesIsRenderedWhenSent()
    {
        Prep p(step("login", "http://127.0.0.1:9/login",
                    ", \"extract\": [{\"name\": \"token\", \"jsonPath\": \"$.token\"}]") +
               ", " + step("me", "http://127.0.0.1:9/me?t=${token}"));
        Outgoing o;
        QCOMPARE(p.ready(0, o), RequestPrep::Ready::Send);
        QCOMPARE(targetOf(*o.request), std::string("/login"));
        QCOMPARE(p.ready(1, o), RequestPrep::Ready::Refused);
        QCOMPARE(p.error, ErrorClass::Extract);
        QVERIFY2(p.why.find("${token} has no value") != std::string::npos, p.why.c_str());
        const std::uint16_t token = p.plan->steps[0].extractors[0].variable;
        p.own.values(0)[token] = "abc";
        p.own.isSet(0)[token] = true;
        QCOMPARE(p.ready(1, o), RequestPrep::Ready::Send);
        QCOMPARE(targetOf(*o.request), std::string("/me?t=abc"));
    }

    // Issue 48: a collection run's URL whose scheme and host an answer or a script gives (newman resolves them as
    // it sends) goes out in origin form, with Host from it unless the user wrote one, to the server it names
    // (looked up once: the same server for every request to it); no scheme is http://; a URL that is not http(s)
    // fails that request as a render error; past 64 such servers a request is refused, not looked up. A
    // scenario's own run (no newman verdict), or one on HTTP/2, still refuses such a URL before the run.
    void aHostSetAsTheRunGoesIsFoundWhenSent()
    {
        const std::string extract = ", \"extract\": [{\"name\": \"base\", \"jsonPath\": \"$.base\"}]";
        const std::string steps = step("login", "http://127.0.0.1:9/login", extract) + ", " +
                                  step("me", "${base}/me?x=1") + ", " + step("again", "${base}/b") + ", " +
                                  "{\"name\": \"host\", \"request\": {\"url\": \"${base}/h\", \"headers\": "
                                  "[{\"name\": \"Host\", \"value\": \"mine.test\"}]}}";
        Prep p(steps, "\"verdict\": \"tests\", ");
        QVERIFY(p.plan->steps[1].runtimeOrigin && !p.plan->steps[0].runtimeOrigin);
        const std::uint16_t base = p.plan->steps[0].extractors[0].variable;
        const auto setBase = [&](const std::string& v) {
            p.own.values(0)[base] = v;
            p.own.isSet(0)[base] = true;
        };
        setBase("http://127.0.0.1:8080");
        Outgoing o;
        o.endpoint = &p.plan->steps[1].endpoint;
        QCOMPARE(p.ready(1, o), RequestPrep::Ready::Send);
        QVERIFY2(o.request->failure.empty(), o.request->failure.c_str());
        QVERIFY2(o.request->wire.rfind("GET /me?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n", 0) == 0,
                 o.request->wire.c_str());
        aimAtRendered(o);
        QVERIFY(o.endpoint == o.request->endpoint);
        QCOMPARE(o.endpoint->port, 8080u);
        QVERIFY(o.endpoint->length != 0); // looked up
        const Endpoint* first = o.endpoint;
        QCOMPARE(p.ready(2, o), RequestPrep::Ready::Send);
        QVERIFY(o.request->endpoint == first); // the same server, looked up once
        QCOMPARE(p.ready(3, o), RequestPrep::Ready::Send);
        QVERIFY2(o.request->wire.rfind("GET /h HTTP/1.1\r\nHost: mine.test\r\n", 0) == 0, o.request->wire.c_str());
        QVERIFY2(o.request->wire.find("Host: 127.0.0.1") == std::string::npos, o.request->wire.c_str());
        setBase("localhost:8081"); // Postman's: no scheme is http://
        QCOMPARE(p.ready(1, o), RequestPrep::Ready::Send);
        QCOMPARE(o.request->endpoint->host, std::string("localhost"));
        QCOMPARE(o.request->endpoint->port, 8081u);
        QVERIFY(!o.request->endpoint->tls);
        setBase("ftp://127.0.0.1");
        QCOMPARE(p.ready(1, o), RequestPrep::Ready::Send);
        QVERIFY2(o.request->failure.find("unsupported scheme") != std::string::npos, o.request->failure.c_str());
        QCOMPARE(o.request->failureClass, ErrorClass::Render);
        bool refused = false;
        for (int port = 1; port <= 70 && !refused; ++port) {
            setBase("http://127.0.0.1:" + std::to_string(10000 + port));
            QCOMPARE(p.ready(1, o), RequestPrep::Ready::Send);
            refused = !o.request->failure.empty();
        }
        QVERIFY(refused);
        QVERIFY2(o.request->failure.find("more than 64 servers") != std::string::npos, o.request->failure.c_str());

        for (const std::string& top :
             {std::string("{"), std::string("{\"verdict\": \"tests\", \"http\": \"HTTP_2\", ")}) {
            v1::Scenario s;
            std::string error;
            QVERIFY(parseScenarioJson(top + "\"load\": {\"closed\": {\"users\": 1}}, \"steps\": [" + steps + "]}", s,
                                      error));
            std::vector<PlanError> errors;
            QVERIFY(!compileScenario(s, PlanOptions{}, errors));
            QVERIFY(!errors.empty());
            QVERIFY2(errors.front().field == "steps[1].request.url", errors.front().text().c_str());
        }
    }

    // A pre-request script runs first: one that throws refuses the step as a script error; one that skips it
    // skips it; one that changes the request changes the user's own copy; and one that ran before a value the
    // step needs was extracted still refuses it (nothing is sent that cannot be rendered).
    void aPreRequestScriptRunsBeforeTheRequestIsMade()
    {
        Prep p(step("boom", "http://127.0.0.1:9/a", ", \"preRequestScript\": \"boom();\"") + ", " +
               step("skip", "http://127.0.0.1:9/b", ", \"preRequestScript\": \"pm.execution.skipRequest();\"") + ", " +
               step("add", "http://127.0.0.1:9/c",
                    ", \"preRequestScript\": \"pm.request.url.query.add({key: 'q', value: '1'});\", "
                    "\"extract\": [{\"name\": \"token\", \"jsonPath\": \"$.token\"}]") +
               ", " + step("late", "http://127.0.0.1:9/d?t=${token}", ", \"preRequestScript\": \"console.log(1);\""));
        Outgoing o;
        QCOMPARE(p.ready(0, o), RequestPrep::Ready::Refused);
        QCOMPARE(p.error, ErrorClass::Script);
        QVERIFY2(p.why.find("boom") != std::string::npos, p.why.c_str());
        QCOMPARE(p.ready(1, o), RequestPrep::Ready::Skip);
        QCOMPARE(p.ready(2, o), RequestPrep::Ready::Send);
        QCOMPARE(targetOf(*o.request), std::string("/c?q=1"));
        QCOMPARE(targetOf(p.requests.request(0, 2)), std::string("/c")); // the plan's own request is unchanged
        QCOMPARE(p.ready(3, o), RequestPrep::Ready::Refused);
        QCOMPARE(p.error, ErrorClass::Extract);
        QVERIFY2(p.why.find("${token} has no value") != std::string::npos, p.why.c_str());
    }
    // A send is counted once, by what it came to: a request each; an answer's bytes and its three times (latency
    // from the intended start, service time from the send); an error by its class (a gRPC status by its code) with
    // a sample that says where and which trace; a failure without an answer has no times.
    void aSendIsCountedByWhatItCameTo()
    {
        IntervalMetrics second;
        second.second = 4;
        StepMetrics m;
        const OutcomePlace at{second, 3, "trace-1", {1'000'000, 3'000'000}};
        StepOutcome pass;
        pass.answered = true;
        pass.bytesIn = 120;
        pass.timeToFirstByte = 4'000'000;
        countOutcome(m, pass, nullptr, at, 9'000'000);
        QCOMPARE(m.counters.requests, std::uint64_t(1));
        QCOMPARE(m.counters.errors, std::uint64_t(0));
        QCOMPARE(m.counters.bytesIn, std::uint64_t(120));
        QCOMPARE(m.latency.max(), std::uint64_t(8000));     // 9 ms - 1 ms, in microseconds
        QCOMPARE(m.serviceTime.max(), std::uint64_t(6000)); // 9 ms - 3 ms
        QCOMPARE(m.firstByte.max(), std::uint64_t(4000));
        QVERIFY(second.samples.empty());

        StepOutcome grpc = pass;
        grpc.verdict = Verdict::StatusError;
        grpc.errorClass = ErrorClass::Grpc;
        grpc.status = 5;
        grpc.why = "grpc-status 5 (NOT_FOUND)";
        countOutcome(m, grpc, nullptr, at, 9'000'000);
        QCOMPARE(m.counters.grpcCodes[5], std::uint64_t(1));
        QCOMPARE(m.counters.errorsByClass[std::size_t(ErrorClass::Grpc)], std::uint64_t(1));
        QCOMPARE(second.samples.size(), std::size_t(1));
        QCOMPARE(second.samples[0].step, std::uint32_t(3));
        QCOMPARE(second.samples[0].trace, std::string("trace-1"));
        QCOMPARE(second.samples[0].status, 0); // no answer's start was kept: no status claimed for it

        StepOutcome refused;
        refused.verdict = Verdict::Failed;
        refused.transport = true;
        refused.errorClass = ErrorClass::Connect;
        refused.why = "connection refused";
        countOutcome(m, refused, nullptr, at, 50'000'000);
        QCOMPARE(m.counters.requests, std::uint64_t(3));
        QCOMPARE(m.counters.errors, std::uint64_t(2));
        QCOMPARE(m.counters.errorsByClass[std::size_t(ErrorClass::Connect)], std::uint64_t(1));
        QCOMPARE(m.latency.count(), std::uint64_t(2)); // no answer: no time
        QCOMPARE(m.counters.bytesIn, std::uint64_t(240));
        QCOMPARE(second.samples.back().detail, std::string("connection refused"));

        StepOutcome check = pass;
        check.verdict = Verdict::CheckFailed;
        check.why = "status == 201: saw 200";
        AnswerView answer;
        answer.status = 200;
        answer.body = "{}";
        countOutcome(m, check, &answer, at, 9'000'000);
        QCOMPARE(m.counters.errorsByClass[std::size_t(ErrorClass::Check)], std::uint64_t(1));
        QCOMPARE(second.samples.back().errorClass, ErrorClass::Check);
        QCOMPARE(second.samples.back().status, 200);
        QCOMPARE(second.samples.back().body, std::string("{}"));
    }
    // What an answer or a failure comes to before it is counted: its status judged by the protocol's rule (a
    // gRPC status named in the account), a verdict of the checks over it, a deadline that the protocol turns into
    // a status, a transport failure by its class.
    void anAnswerOrAFailureBecomesAnOutcome()
    {
        Answer ok;
        ok.setHttpStatus(200);
        ok.bytesIn = 77;
        StepOutcome o = StepOutcome::of(ok);
        QCOMPARE(o.verdict, Verdict::Pass);
        QVERIFY(o.answered && !o.transport);
        QCOMPARE(o.bytesIn, std::uint64_t(77));
        o.judged(Verdict::CheckFailed, "body has \"id\": missing", ok); // a check over a good status
        QCOMPARE(o.verdict, Verdict::CheckFailed);
        QCOMPARE(o.why, std::string("body has \"id\": missing"));

        Answer notFound;
        notFound.code = 5;
        notFound.statusError = ErrorClass::Grpc;
        notFound.statusName = "grpc-status";
        notFound.codeName = "NOT_FOUND";
        notFound.statusMessage = "no such user";
        o = StepOutcome::of(notFound);
        QCOMPARE(o.verdict, Verdict::StatusError);
        QCOMPARE(o.errorClass, ErrorClass::Grpc);
        QCOMPARE(o.why, std::string("grpc-status 5 NOT_FOUND: no such user"));
        o.judged(Verdict::Pass, {}, notFound); // the step's checks expect it
        QCOMPARE(o.verdict, Verdict::Pass);

        Answer deadline = Answer::failure(ErrorClass::Timeout, "deadline");
        deadline.code = 4;
        deadline.statusError = ErrorClass::Grpc;
        deadline.codeName = "DEADLINE_EXCEEDED";
        deadline.statusName = "grpc-status";
        o = StepOutcome::unanswered(deadline);
        QCOMPARE(o.verdict, Verdict::StatusError);
        QVERIFY(o.transport && !o.answered);
        QCOMPARE(o.status, 4);

        o = StepOutcome::unanswered(Answer::failure(ErrorClass::Timeout, "no answer in 2 s"));
        QCOMPARE(o.verdict, Verdict::Failed);
        QCOMPARE(o.errorClass, ErrorClass::Timeout);
        QCOMPARE(o.why, std::string("no answer in 2 s"));
    }
};

QTEST_GUILESS_MAIN(TestWorkerParts)
#include "tst_workerparts.moc"
