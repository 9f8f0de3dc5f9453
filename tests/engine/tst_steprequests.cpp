// Issue 49: each user's requests as an object of their own (run/steprequests.h), tested without a worker: real
// plans compiled from scenario JSON, the data cursors of one part of the run, the requests as their bytes.
#include "compiledplan.h"
#include "plan/scenarioplan.h"
#include "run/steprequests.h"

#include "stampede/v1/scenario.pb.h"

#include <QTest>

#include <memory>

using namespace stampede;

namespace {

std::unique_ptr<ScenarioPlan> compile(const std::string& variables, const std::string& steps)
{
    return compiledPlan("{\"variables\": [" + variables + "], \"steps\": [" + steps +
                        "], \"load\": {\"closed\": {\"users\": 2}}}");
}

std::string step(const std::string& name, const std::string& url, const std::string& extra = {})
{
    return "{\"name\": \"" + name + "\", \"request\": {\"url\": \"" + url + "\"}" + extra + "}";
}

// The request target a request goes to (HTTP/1.1: its request line's).
std::string targetOf(const RenderedRequest& r)
{
    return std::string(requestTarget(r));
}

const std::string kRows = "{\"name\": \"u\", \"csv\": {\"data\": \"id\\n1\\n2\\n3\\n\", \"mode\": \"CSV_MODE_STOP\"}}";

} // namespace

class TestStepRequests : public QObject
{
    Q_OBJECT

private slots:
    // A templated step takes each iteration's row as it begins; a fixed step is the plan's one request for every
    // user; when the rows run out (mode stop) the iteration does not begin and the variable is named.
    void eachIterationTakesItsRowUntilTheyRunOut()
    {
        const auto plan = compile(kRows + ", {\"name\": \"n\", \"increment\": {\"min\": 10, \"max\": 99}}",
                                  step("user", "http://127.0.0.1:9/u/${u.id}?n=${n}") + ", " +
                                      step("home", "http://127.0.0.1:9/home"));
        UserValues own(*plan);
        StepRequests requests(*plan, own, 0, 1, 1);
        requests.reset(2, false);
        std::size_t exhausted = 99;
        QVERIFY(requests.beginIteration(0, exhausted));
        QCOMPARE(targetOf(requests.request(0, 0)), std::string("/u/1?n=10"));
        QVERIFY(requests.beginIteration(1, exhausted));
        QCOMPARE(targetOf(requests.request(1, 0)), std::string("/u/2?n=11"));
        QCOMPARE(targetOf(requests.request(0, 0)), std::string("/u/1?n=10")); // user 0's stays its own
        QCOMPARE(&requests.request(0, 1), &requests.request(1, 1));           // the fixed one, shared
        QCOMPARE(targetOf(requests.request(0, 1)), std::string("/home"));
        QVERIFY(requests.beginIteration(0, exhausted));
        QCOMPARE(targetOf(requests.request(0, 0)), std::string("/u/3?n=12"));
        QCOMPARE(std::string(requests.current(1)), std::string("12"));
        QVERIFY(!requests.beginIteration(1, exhausted));
        QCOMPARE(plan->variables[exhausted].name, std::string("u"));
    }

    // Two parts of a run stride the rows: what one sends the other does not; a part with no row is refused,
    // naming its variable; rows passed over (a share taken over mid-run) are not sent again.
    void partsStrideTheRowsAndATakenOverShareGoesOn()
    {
        const auto plan = compile(kRows, step("user", "http://127.0.0.1:9/u/${u.id}"));
        UserValues own(*plan);
        StepRequests first(*plan, own, 0, 2, 1), second(*plan, own, 1, 2, 1);
        first.reset(1, false);
        second.reset(1, false);
        std::size_t exhausted = 0;
        QVERIFY(first.beginIteration(0, exhausted));
        QVERIFY(second.beginIteration(0, exhausted));
        QVERIFY(targetOf(first.request(0, 0)) != targetOf(second.request(0, 0)));
        try {
            StepRequests none(*plan, own, 5, 6, 1);
            QFAIL("a part with no row was made");
        } catch (const PartitionError& e) {
            QVERIFY2(std::string(e.what()).find("variable \"u\"") != std::string::npos, e.what());
        }
        StepRequests later(*plan, own, 0, 1, 1);
        later.reset(1, false);
        later.skip(2);
        QVERIFY(later.beginIteration(0, exhausted));
        QCOMPARE(targetOf(later.request(0, 0)), std::string("/u/3"));
    }

    // A step that reads an extracted value is rendered when sent, from the user's own value; each user its own.
    void aStepRenderedWhenSentReadsTheUsersOwnValue()
    {
        const auto plan = compile("", step("login", "http://127.0.0.1:9/login",
                                           ", \"extract\": [{\"name\": \"token\", \"jsonPath\": \"$.token\"}]") +
                                          ", " + step("use", "http://127.0.0.1:9/use?t=${token}"));
        UserValues own(*plan);
        own.reset(2);
        StepRequests requests(*plan, own, 0, 1, 1);
        requests.reset(2, false);
        std::size_t token = 0;
        while (plan->variables[token].name != "token")
            ++token;
        for (std::uint32_t u = 0; u < 2; ++u) {
            std::size_t exhausted = 0;
            QVERIFY(requests.beginIteration(u, exhausted));
            own.newIteration(u, false, requests.cursors());
            own.values(u)[token] = "tok-" + std::to_string(u);
            own.isSet(u)[token] = true;
        }
        QCOMPARE(targetOf(requests.renderNow(1, 1)), std::string("/use?t=tok-1"));
        QCOMPARE(targetOf(requests.renderNow(0, 1)), std::string("/use?t=tok-0"));
        QCOMPARE(targetOf(requests.sent(1, 1)), std::string("/use?t=tok-1"));
    }

    // How a step's request goes: its server among the plan's, its timeout and a HEAD's answer without a body, with
    // the request the user's iteration began with.
    void aStepGoesToItsServerWithTheUsersRequest()
    {
        const auto plan = compile(kRows, step("user", "http://127.0.0.1:9/u/${u.id}") +
                                             ", {\"name\": \"head\", \"request\": {\"url\": \"http://127.0.0.2:9/h\", "
                                             "\"method\": \"HEAD\", \"timeout\": \"3s\"}}");
        UserValues own(*plan);
        StepRequests requests(*plan, own, 0, 1, 1);
        requests.reset(2, false);
        std::size_t exhausted = 0;
        QVERIFY(requests.beginIteration(1, exhausted));
        const Outgoing user = requests.outgoing(1, 0);
        QCOMPARE(user.request, &requests.request(1, 0));
        QCOMPARE(targetOf(*user.request), std::string("/u/1"));
        QCOMPARE(user.server, 0u);
        QVERIFY(!user.noResponseBody);
        const Outgoing head = requests.outgoing(0, 1);
        QCOMPARE(head.server, 1u);
        QVERIFY(head.noResponseBody);
        QCOMPARE(head.timeout, 3 * kNanosPerSecond);
        QCOMPARE(head.request, &requests.request(0, 1));
    }

    // A pre-request script's change goes into the user's own copy of a fixed step: the copy is what was sent;
    // forgotten before the next script runs, the fixed request goes again, and no other user saw the change.
    void aChangedCopyIsTheUsersAlone()
    {
        const auto plan = compile("", step("home", "http://127.0.0.1:9/home", ", \"preRequestScript\": \"1;\""));
        UserValues own(*plan);
        StepRequests requests(*plan, own, 0, 1, 1);
        requests.reset(2, true);
        const RenderedRequest& fixed = requests.request(0, 0);
        RenderedRequest& mine = requests.copyOf(0, 0, fixed);
        QVERIFY(&mine != &fixed);
        mine.wire.replace(mine.wire.find("/home"), 5, "/changed");
        QCOMPARE(targetOf(requests.sent(0, 0)), std::string("/changed"));
        QCOMPARE(targetOf(requests.sent(1, 0)), std::string("/home"));
        QCOMPARE(&requests.copyOf(0, 0, mine), &mine); // its own copy again: not copied over itself
        requests.forgetCopy(0, 0);
        QCOMPARE(&requests.sent(0, 0), &fixed);
    }
};

QTEST_APPLESS_MAIN(TestStepRequests)
#include "tst_steprequests.moc"
