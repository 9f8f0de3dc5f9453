// Each hook of a step's semantics alone (engine/flow), over a host that
// records what the hook asked of the worker, on a fake calendar: what it adds
// to a request, what it takes from an answer, and when it sends the step again.
#include "flow/cookies.h"
#include "flow/redirects.h"

#include <QTest>

using namespace stampede;

namespace {

struct Host final : FlowHost
{
    StepMetrics metrics;
    std::int64_t seconds = 1780000000;
    int counted = 0;
    struct Again
    {
        std::string target;
        bool asGet = false;
    };
    std::vector<Again> again;
    StepMetrics& stepMetrics(std::size_t, Nanos) override { return metrics; }
    void countAnswer(const StepCall&, const Answer&) override { ++counted; }
    void sendAgain(const StepCall&, std::string_view target, bool asGet) override
    {
        again.push_back({std::string(target), asGet});
    }
    std::int64_t unixSeconds() const override { return seconds; }
};

PlannedStep step(const char* host = "shop.test", std::uint16_t port = 80, bool secure = false)
{
    PlannedStep st;
    st.host = host;
    st.port = port;
    st.secure = secure;
    return st;
}

Answer answer(int status, Answer::HeaderList& headers)
{
    Answer a;
    a.status = status;
    a.headers = &headers;
    return a;
}

} // namespace

class TestFlowHooks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Set-Cookie goes back to the same server on the user's later requests under its path, not to another user,
    // and not after it expires on the run's calendar; a fresh iteration (the open model) starts without.
    void cookiesGoBackUntilTheyExpire()
    {
        Host host;
        CookieHook hook(2, host);
        const PlannedStep st = step();
        std::string target = "/login";
        const StepCall call{0, 0, st, target, false, 0};
        Answer::HeaderList set = {{"Set-Cookie", "sid=abc; Max-Age=60; Path=/"}, {"set-cookie", "cart=1; Path=/shop"}};
        QVERIFY(hook.onAnswer(call, answer(200, set)) == StepHook::Next::Judge);
        Outgoing out;
        target = "/shop/pay?x=1";
        hook.beforeSend(call, out);
        QCOMPARE(std::string(out.cookie), std::string("cart=1; sid=abc")); // the longer path first
        target = "/account";
        hook.beforeSend(call, out);
        QCOMPARE(std::string(out.cookie), std::string("sid=abc"));
        std::string other = "/shop/pay";
        Outgoing theirs;
        hook.beforeSend({1, 0, st, other, false, 0}, theirs); // another user's jar
        QVERIFY(theirs.cookie.empty());
        const PlannedStep elsewhere = step("other.test");
        hook.beforeSend({0, 0, elsewhere, target, false, 0}, out); // another server
        QVERIFY(out.cookie.empty());
        hook.newIteration(0, false); // the same user's next iteration keeps them
        hook.beforeSend(call, out);
        QCOMPARE(std::string(out.cookie), std::string("sid=abc"));
        host.seconds += 59; // within Max-Age
        QCOMPARE(hook.header(0, st, "/"), std::string_view("sid=abc"));
        host.seconds += 2; // past it
        hook.beforeSend(call, out);
        QVERIFY(out.cookie.empty());
        hook.onAnswer(call, answer(200, set)); // set again, then a fresh iteration (the open model) starts without
        QCOMPARE(hook.header(0, st, "/"), std::string_view("sid=abc"));
        hook.newIteration(0, true);
        QCOMPARE(hook.header(0, st, "/"), std::string_view());
    }

    // A redirect to the same server is a hop of the step: counted as an answer and a redirect, sent again (303
    // and below as GET, 307 and 308 as sent); to another server, past the hops allowed, without a Location or
    // not a redirect status, it is the step's answer. A step's own send starts its hops again.
    void redirectsAreHopsOfTheStep()
    {
        Host host;
        RedirectHook hook(1, 2, host);
        const PlannedStep st = step("shop.test", 8080);
        std::string target = "/a/b?q=1";
        const StepCall call{0, 0, st, target, false, 0};
        Outgoing out;
        hook.beforeSend(call, out);
        Answer::HeaderList relative = {{"Location", "c?x=1#frag"}};
        QVERIFY(hook.onAnswer(call, answer(302, relative)) == StepHook::Next::Taken);
        QCOMPARE(host.again.back().target, std::string("/a/c?x=1"));
        QVERIFY(host.again.back().asGet);
        Answer::HeaderList absolute = {{"location", "http://SHOP.test:8080/final"}};
        QVERIFY(hook.onAnswer(call, answer(307, absolute)) == StepHook::Next::Taken);
        QCOMPARE(host.again.back().target, std::string("/final"));
        QVERIFY(!host.again.back().asGet);
        QCOMPARE(host.counted, 2);
        QCOMPARE(host.metrics.counters.redirects, std::uint64_t(2));
        QVERIFY(hook.onAnswer(call, answer(302, relative)) == StepHook::Next::Judge); // two hops: no third
        hook.beforeSend({0, 0, st, target, true, 0}, out); // a hop's send does not start them again
        QVERIFY(hook.onAnswer(call, answer(302, relative)) == StepHook::Next::Judge);
        hook.beforeSend(call, out); // the step's next send does
        QVERIFY(hook.onAnswer(call, answer(301, relative)) == StepHook::Next::Taken);
        Answer::HeaderList away = {{"Location", "http://other.test:8080/x"}};
        Answer::HeaderList port = {{"Location", "http://shop.test:9090/x"}};
        Answer::HeaderList https = {{"Location", "https://shop.test:8080/x"}};
        Answer::HeaderList schemeRelative = {{"Location", "//shop.test:8080/x"}};
        Answer::HeaderList none;
        hook.beforeSend(call, out);
        for (Answer::HeaderList* h : {&away, &port, &https, &schemeRelative, &none})
            QVERIFY(hook.onAnswer(call, answer(302, *h)) == StepHook::Next::Judge);
        QVERIFY(hook.onAnswer(call, answer(200, relative)) == StepHook::Next::Judge);
        QVERIFY(hook.onAnswer(call, answer(304, relative)) == StepHook::Next::Judge);
        QCOMPARE(host.again.size(), std::size_t(3));
        // a target that cannot be a request's (a control character) is not followed
        QVERIFY(!RedirectHook::target("/a\r\nX: y", st, "/"));
        QCOMPARE(*RedirectHook::target("/x y", st, "/"), std::string("/x%20y"));
    }
};

QTEST_MAIN(TestFlowHooks)
#include "tst_flowhooks.moc"
