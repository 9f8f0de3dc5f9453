// Each hook of a step's semantics alone (engine/flow), over a host that
// records what the hook asked of the worker, on a fake calendar: what it adds
// to a request, what it takes from an answer, and when it sends the step again.
#include "flow/cookies.h"
#include "flow/digest.h"
#include "flow/groups.h"
#include "flow/redirects.h"
#include "flow/rendezvouswait.h"
#include "flow/sharedread.h"
#include "flow/stephooks.h"

#include <QTest>

#include <cstring>
#include <functional>
#include <map>
#include <optional>

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
    std::map<std::size_t, StepMetrics> groups;
    std::vector<std::pair<std::size_t, Nanos>> groupSeconds; // which group was counted, and when
    StepMetrics& groupMetrics(std::size_t group, Nanos now) override
    {
        groupSeconds.emplace_back(group, now);
        return groups[group];
    }
    void countAnswer(const StepCall&, const Answer&) override { ++counted; }
    void sendAgain(const StepCall&, std::string_view target, bool asGet) override
    {
        again.push_back({std::string(target), asGet});
    }
    std::int64_t unixSeconds() const override { return seconds; }
    std::vector<std::pair<std::uint32_t, Nanos>> resumed;
    int rings = 0;
    void resume(std::uint32_t user, Nanos now) override { resumed.emplace_back(user, now); }
    std::function<void()> doorbell() override
    {
        return [this] { ++rings; };
    }
    std::map<std::pair<std::uint32_t, std::uint16_t>, std::optional<std::string>> own;
    void setOwnValue(std::uint32_t user, std::uint16_t variable, const std::string* value) override
    {
        own[{user, variable}] = value ? std::optional<std::string>(*value) : std::nullopt;
    }
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

// A rendered request whose Digest fields are `fields` (DigestPlan's order: user, password, realm, nonce, ...).
RenderedRequest digestRequest(std::vector<std::string> fields)
{
    RenderedRequest r;
    r.wire = "GET /dir/index.html HTTP/1.1\r\nHost: shop.test\r\n\r\n";
    fields.resize(DigestPlan::kFields);
    r.digest = std::move(fields);
    return r;
}

// A parameter of an Authorization value (quoted or not), "" when absent.
std::string param(std::string_view header, const std::string& name)
{
    const std::size_t at = header.find(" " + name + "=");
    if (at == std::string_view::npos)
        return {};
    std::string_view v = header.substr(at + name.size() + 2);
    if (!v.empty() && v.front() == '"')
        return std::string(v.substr(1, v.find('"', 1) - 1));
    return std::string(v.substr(0, v.find(',')));
}

} // namespace

class TestFlowHooks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // ${shared.KEY}: the step's keys asked as it begins, the user held until answered, then resumed with them;
    // a key not set is unset; the run's stop lets held users go.
    void sharedReadHoldsUntilAnswered()
    {
        ScenarioPlan plan;
        for (const char* name : {"shared.token", "plain", "shared.missing"}) {
            PlannedVariable v;
            v.name = name;
            v.extracted = true;
            v.shared = std::strncmp(name, "shared.", 7) == 0;
            plan.variables.push_back(std::move(v));
        }
        PlannedStep st = step();
        st.extracted = {0, 1, 2};
        plan.steps.push_back(st);
        Host host;
        LocalSharedAccess access;
        access.store().apply(SharedOp{SharedOp::Kind::Set, "token", "t-1", 1});
        SharedRead hook(2, plan, access, host);
        std::string target = "/";
        const StepCall call{0, 0, plan.steps[0], target, false, 100};
        QVERIFY(hook.begin(call, 100) == StepHook::Begin::Held);
        QVERIFY(hook.holds());
        QCOMPARE(host.rings, 1); // answered at once by a local store: the loop is woken
        hook.onTurn(200);
        QCOMPARE(host.resumed.size(), std::size_t(1));
        QCOMPARE(host.resumed[0].first, 0u);
        QCOMPARE(host.own[std::make_pair(0u, std::uint16_t(0))], std::optional<std::string>("t-1"));
        QVERIFY(!host.own[std::make_pair(0u, std::uint16_t(2))].has_value()); // not set: unset
        QVERIFY(!host.own.count(std::make_pair(0u, std::uint16_t(1))));       // not shared: not touched
        QVERIFY(hook.begin(call, 200) == StepHook::Begin::Go);                // resumed: goes
        QVERIFY(!hook.holds());
        QVERIFY(hook.begin(call, 300) == StepHook::Begin::Held); // its next begin asks again
        std::vector<std::uint32_t> out;
        hook.letGo(out);
        QCOMPARE(out, std::vector<std::uint32_t>{0});
        QVERIFY(!hook.holds());
    }

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
        target = "/";
        QCOMPARE(hook.header(call), std::string_view("sid=abc"));
        host.seconds += 2; // past it
        hook.beforeSend(call, out);
        QVERIFY(out.cookie.empty());
        hook.onAnswer(call, answer(200, set)); // set again, then a fresh iteration (the open model) starts without
        QCOMPARE(hook.header(call), std::string_view("sid=abc"));
        hook.newIteration(0, true);
        QCOMPARE(hook.header(call), std::string_view());
    }

    // A step whose host is set as the run goes (a collection's script): its cookies and redirects go by the server
    // its request was sent to, not the plan's (which names none).
    void aHostSetAtRunTimeKeepsItsOwnCookiesAndRedirects()
    {
        Host host;
        CookieHook cookies(1, host);
        RedirectHook redirects(1, 5, host);
        PlannedStep st;
        st.runtimeOrigin = true;
        const Endpoint shop = Endpoint::named("shop.test", 8080), other = Endpoint::named("other.test", 8080);
        std::string target = "/login";
        const StepCall atShop{0, 0, st, target, false, 0, &shop};
        const StepCall atOther{0, 0, st, target, false, 0, &other};
        Answer::HeaderList set = {{"Set-Cookie", "sid=abc; Path=/"}};
        cookies.onAnswer(atShop, answer(200, set));
        Outgoing out;
        cookies.beforeSend(atShop, out);
        QCOMPARE(std::string(out.cookie), std::string("sid=abc"));
        cookies.beforeSend(atOther, out);
        QVERIFY(out.cookie.empty());
        QCOMPARE(*RedirectHook::target("http://shop.test:8080/next", atShop, target), std::string("/next"));
        QVERIFY(!RedirectHook::target("http://shop.test:8080/next", atOther, target));
        QVERIFY(!RedirectHook::target("https://shop.test:8080/next", atShop, target));
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
        QVERIFY(!RedirectHook::target("/a\r\nX: y", call, "/"));
        QCOMPARE(*RedirectHook::target("/x y", call, "/"), std::string("/x%20y"));
    }

    // The conformance table of WWW-Authenticate values a server may send: what is read of each (the Digest
    // challenge answered, "-" none: not a Digest challenge, malformed, or one that cannot be answered).
    void digestChallengeShapes_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<QByteArray>("realm"); // "-": nothing is read
        QTest::addColumn<QByteArray>("nonce");
        QTest::addColumn<QByteArray>("qop");
        QTest::addColumn<QByteArray>("algorithm");
        QTest::addRow("lighttpd") << QByteArray("Digest realm=\"stampede\", charset=\"UTF-8\", algorithm=SHA-256, "
                                                "nonce=\"6b14:6d3c\", qop=\"auth\"")
                                  << QByteArray("stampede") << QByteArray("6b14:6d3c") << QByteArray("auth")
                                  << QByteArray("SHA-256");
        QTest::addRow("no qop (RFC 2069)") << QByteArray("Digest realm=\"r\", nonce=\"n\"") << QByteArray("r")
                                           << QByteArray("n") << QByteArray("") << QByteArray("MD5");
        QTest::addRow("qop list: auth preferred")
            << QByteArray("Digest realm=r, nonce=n, qop=\"auth-int , auth\"") << QByteArray("r") << QByteArray("n")
            << QByteArray("auth") << QByteArray("MD5");
        QTest::addRow("auth-int only") << QByteArray("Digest realm=r,nonce=n,qop=auth-int") << QByteArray("r")
                                       << QByteArray("n") << QByteArray("auth-int") << QByteArray("MD5");
        QTest::addRow("after Basic, scheme in any case")
            << QByteArray("Basic realm=\"b\", dIgEsT realm=\"d\", nonce=\"x\"") << QByteArray("d") << QByteArray("x")
            << QByteArray("") << QByteArray("MD5");
        QTest::addRow("after a token68") << QByteArray("Negotiate abc==, Digest nonce=\"x\", realm=\"y\"")
                                         << QByteArray("y") << QByteArray("x") << QByteArray("") << QByteArray("MD5");
        QTest::addRow("the first Digest of two")
            << QByteArray("Digest realm=a, nonce=1, Digest realm=b, nonce=2") << QByteArray("a") << QByteArray("1")
            << QByteArray("") << QByteArray("MD5");
        QTest::addRow("escaped quote") << QByteArray("Digest realm=\"a\\\"b\\\\c\", nonce=n") << QByteArray("a\"b\\c")
                                       << QByteArray("n") << QByteArray("") << QByteArray("MD5");
        QTest::addRow("SHA-512-256-sess")
            << QByteArray("Digest realm=r, nonce=n, algorithm=sha-512-256-SESS") << QByteArray("r") << QByteArray("n")
            << QByteArray("") << QByteArray("sha-512-256-SESS");
        const char* none[][2] = {
            {"Basic only", "Basic realm=\"x\""},
            {"empty", ""},
            {"no nonce", "Digest realm=\"r\""},
            {"empty nonce", "Digest realm=r, nonce=\"\""},
            {"no realm", "Digest nonce=n"},
            {"unclosed quote", "Digest realm=\"r, nonce=n"},
            {"realm twice", "Digest realm=a, realm=b, nonce=n"},
            {"unknown algorithm", "Digest realm=r, nonce=n, algorithm=SHA-1"},
            {"unknown qop only", "Digest realm=r, nonce=n, qop=\"auth-conf\""},
            {"a control byte", "Digest realm=\"a\x01b\", nonce=n"},
            {"a NUL", "Digest realm=r, nonce=n\0x"},
            {"DEL in a token", "Digest realm=r\x7f, nonce=n"},
            {"a stray quote in a token", "Digest realm=r\"x, nonce=n"},
            {"a scheme alone", "Digest"},
            {"garbage", "\xff\xfe==,,;;"},
        };
        for (const auto& [name, header] : none)
            QTest::addRow("%s", name) << QByteArray(header,
                                                    int(std::strlen(header) + (std::strcmp(name, "a NUL") ? 0 : 2)))
                                      << QByteArray("-") << QByteArray() << QByteArray() << QByteArray();
        QTest::addRow("a value over 4 KiB") << ("Digest realm=r, nonce=\"" + QByteArray(5000, 'n') + "\"")
                                            << QByteArray("-") << QByteArray() << QByteArray() << QByteArray();
        QTest::addRow("a value of 4 KiB")
            << ("Digest realm=r, nonce=\"" + QByteArray(4096, 'n') + "\"") << QByteArray("r") << QByteArray(4096, 'n')
            << QByteArray("") << QByteArray("MD5");
        QTest::addRow("a header over 64 KiB") << ("Digest realm=r, nonce=n, " + QByteArray(70000, ','))
                                              << QByteArray("-") << QByteArray() << QByteArray() << QByteArray();
    }
    void digestChallengeShapes()
    {
        QFETCH(QByteArray, header);
        QFETCH(QByteArray, realm);
        const auto c = parseDigestChallenge(std::string_view(header.constData(), std::size_t(header.size())));
        if (realm == "-") {
            QVERIFY2(!c, c ? c->realm.c_str() : "");
            return;
        }
        QVERIFY(c);
        QCOMPARE(QByteArray::fromStdString(c->realm), realm);
        QTEST(QByteArray::fromStdString(c->nonce), "nonce");
        QTEST(QByteArray::fromStdString(c->qop), "qop");
        QTEST(QByteArray::fromStdString(c->algorithm), "algorithm");
    }

    // The answers of RFC 2617's and RFC 7616's examples, byte for byte; a value with a quote or a backslash is
    // escaped in the header.
    void digestAnswersAsTheRfcs()
    {
        DigestChallenge rfc2617{"testrealm@host.com",
                                "dcd98b7102dd2f0e8b11d0f600bfb0c093",
                                "5ccc069c403ebaf9f0171e9517f40e41",
                                "MD5",
                                "auth",
                                false};
        DigestAnswerInput in;
        in.user = "Mufasa";
        in.password = "Circle Of Life";
        in.method = "GET";
        in.uri = "/dir/index.html";
        in.cnonce = "0a4f113b";
        QCOMPARE(
            digestAuthorization(rfc2617, in),
            std::string("Digest username=\"Mufasa\", realm=\"testrealm@host.com\", "
                        "nonce=\"dcd98b7102dd2f0e8b11d0f600bfb0c093\", uri=\"/dir/index.html\", algorithm=MD5, "
                        "qop=auth, nc=00000001, cnonce=\"0a4f113b\", response=\"6629fae49393a05397450978507c4ef1\", "
                        "opaque=\"5ccc069c403ebaf9f0171e9517f40e41\""));
        DigestChallenge rfc7616{"http-auth@example.org",
                                "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v",
                                "FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS",
                                "MD5",
                                "auth",
                                false};
        in.password = "Circle of Life";
        in.cnonce = "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ";
        QCOMPARE(param(digestAuthorization(rfc7616, in), "response"), std::string("8ca523f5e9506fed4657c9700eebdbec"));
        rfc7616.algorithm = "SHA-256";
        QCOMPARE(param(digestAuthorization(rfc7616, in), "response"),
                 std::string("753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"));
        rfc7616.algorithm = "SHA-1";
        QCOMPARE(digestAuthorization(rfc7616, in), std::string()); // cannot be answered
        DigestChallenge quoted{"a\"b", "n", "", "MD5", "", false};
        in.user = "x\\y";
        const std::string h = digestAuthorization(quoted, in);
        QVERIFY2(h.find("username=\"x\\\\y\", realm=\"a\\\"b\"") != std::string::npos, h.c_str());
        QVERIFY(h.find("qop=") == std::string::npos && h.find("cnonce") == std::string::npos); // RFC 2069's form
    }

    // The Digest hook: a step goes unanswered until a challenge comes, is then sent once more with its answer
    // (the challenge's answer counted); the user's next sends answer the same challenge with the nonce count
    // going up; a challenge to the answered send, or the one answered, is the step's answer; another user has
    // its own; realm and nonce written in the step answer the first send; a fresh iteration starts without.
    void digestAnswersTheChallengeOnce()
    {
        Host host;
        DigestHook hook(2, 1, host);
        PlannedStep st = step();
        st.method = "GET";
        auto plan = std::make_shared<DigestPlan>();
        st.digest = plan;
        std::string target = "/dir/index.html";
        const StepCall call{0, 0, st, target, false, 0};
        const StepCall hop{0, 0, st, target, true, 0};
        const RenderedRequest r = digestRequest({"Mufasa", "Circle Of Life"});
        Outgoing out;
        out.request = &r;
        hook.beforeSend(call, out);
        QVERIFY(out.authorization.empty()); // no challenge yet: sent without
        Answer::HeaderList challenge = {{"WWW-Authenticate", "Basic realm=\"x\""},
                                        {"www-authenticate", "Digest realm=\"r\", nonce=\"n1\", qop=\"auth\""}};
        QVERIFY(hook.onAnswer(call, answer(200, challenge)) == StepHook::Next::Judge); // not a refusal
        QVERIFY(hook.onAnswer(call, answer(401, challenge)) == StepHook::Next::Taken);
        QCOMPARE(host.counted, 1);
        QCOMPARE(host.metrics.counters.authChallenges, std::uint64_t(1));
        QCOMPARE(host.again.size(), std::size_t(1));
        QCOMPARE(host.again.back().target, target);
        QVERIFY(!host.again.back().asGet);
        hook.beforeSend(hop, out);
        const std::string first(out.authorization);
        QCOMPARE(param(first, "nc"), std::string("00000001"));
        QCOMPARE(param(first, "nonce"), std::string("n1"));
        QCOMPARE(param(first, "uri"), target);
        QCOMPARE(param(first, "cnonce").size(), std::size_t(16));
        QVERIFY(hook.onAnswer(hop, answer(401, challenge)) == StepHook::Next::Judge); // refused again: the answer
        hook.beforeSend(call, out);                                                   // the next send answers at once
        QCOMPARE(param(std::string(out.authorization), "nc"), std::string("00000002"));
        QVERIFY(hook.onAnswer(call, answer(401, challenge)) == StepHook::Next::Judge); // the challenge answered
        Answer::HeaderList stale = {{"WWW-Authenticate", "Digest realm=\"r\", nonce=\"n2\", qop=auth, stale=true"}};
        QVERIFY(hook.onAnswer(call, answer(401, stale)) == StepHook::Next::Taken); // a new nonce
        hook.beforeSend(hop, out);
        QCOMPARE(param(std::string(out.authorization), "nonce"), std::string("n2"));
        QCOMPARE(param(std::string(out.authorization), "nc"), std::string("00000001"));
        QCOMPARE(host.again.size(), std::size_t(2));
        std::string theirTarget = "/dir/index.html";
        Outgoing theirs;
        theirs.request = &r;
        hook.beforeSend({1, 0, st, theirTarget, false, 0}, theirs); // another user: its own challenge
        QVERIFY(theirs.authorization.empty());
        hook.newIteration(0, false);
        hook.beforeSend(call, out);
        QVERIFY(!out.authorization.empty());
        hook.newIteration(0, true); // a fresh iteration (the open model)
        hook.beforeSend(call, out);
        QVERIFY(out.authorization.empty());
        // realm and nonce written in the step: the first send is answered with them, as written
        const RenderedRequest written =
            digestRequest({"Mufasa", "Circle Of Life", "testrealm@host.com", "dcd98b7102dd2f0e8b11d0f600bfb0c093",
                           "MD5", "auth", "00000001", "0a4f113b", "5ccc069c403ebaf9f0171e9517f40e41"});
        Outgoing w;
        w.request = &written;
        hook.beforeSend({1, 0, st, target, false, 0}, w);
        QCOMPARE(param(std::string(w.authorization), "response"), std::string("6629fae49393a05397450978507c4ef1"));
        // what the step writes wins over the server's challenge (Postman's): its nonce stays, the server's opaque
        // fills nothing the step wrote; answered once, the same refusal is the answer
        const RenderedRequest stale2 = digestRequest({"Mufasa", "Circle Of Life", "Users", "old-nonce"});
        w.request = &stale2;
        const StepCall theirCall{1, 0, st, target, false, 0};
        hook.newIteration(1, true);
        hook.beforeSend(theirCall, w);
        QCOMPARE(param(std::string(w.authorization), "nonce"), std::string("old-nonce"));
        Answer::HeaderList fresh = {{"WWW-Authenticate", "Digest realm=\"Users\", nonce=\"new\", qop=\"auth\""}};
        QVERIFY(hook.onAnswer(theirCall, answer(401, fresh)) == StepHook::Next::Taken); // a qop the step left empty
        hook.beforeSend({1, 0, st, target, true, 0}, w);
        QCOMPARE(param(std::string(w.authorization), "nonce"), std::string("old-nonce"));
        QCOMPARE(param(std::string(w.authorization), "qop"), std::string("auth"));
        QVERIFY(hook.onAnswer({1, 0, st, target, true, 0}, answer(401, fresh)) == StepHook::Next::Judge);
        hook.beforeSend(theirCall, w);
        QVERIFY(hook.onAnswer(theirCall, answer(401, fresh)) == StepHook::Next::Judge); // nothing new: the answer
        // Postman's disableRetryRequest: a challenge is the step's answer
        plan->retry = false;
        QVERIFY(hook.onAnswer(call, answer(401, stale)) == StepHook::Next::Judge);
        QCOMPARE(host.again.size(), std::size_t(3));
    }

    // A group is one transaction per visit: from its first step's intended start to its last step's end, failed
    // when a step of it failed, counted when the user moves to a step outside it or its iteration ends; a step
    // begun again (a repeat, a retry) does not start it anew; each user has its own visit.
    void aGroupIsTimedFromItsFirstStartToItsLastEnd()
    {
        Host host;
        GroupHook groups(2, host);
        PlannedStep login = step(), pay = step(), browse = step(), other = step();
        login.group = pay.group = 0;
        other.group = 1; // browse is in none
        std::string target;
        const auto call = [&](std::uint32_t user, const PlannedStep& st, Nanos now) {
            return StepCall{user, 0, st, target, false, now};
        };
        constexpr Nanos ms = kNanosPerMilli;
        groups.begin(call(0, login, 100 * ms), 90 * ms); // sent 10 ms after it was meant to be
        groups.begin(call(1, other, 100 * ms), 100 * ms);
        groups.settled(call(0, login, 150 * ms), false);
        groups.begin(call(0, login, 160 * ms), 160 * ms); // login repeated: the same visit
        groups.settled(call(0, login, 170 * ms), false);
        groups.begin(call(0, pay, 170 * ms), 170 * ms);
        groups.settled(call(0, pay, 230 * ms), true);
        QVERIFY(host.groups.empty());                      // nothing counted while the visits go on
        groups.begin(call(0, browse, 300 * ms), 300 * ms); // out of the group: counted now
        QCOMPARE(host.groups[0].counters.requests, std::uint64_t(1));
        QCOMPARE(host.groups[0].counters.errors, std::uint64_t(1));
        QCOMPARE(host.groups[0].latency.max() / 1000, std::uint64_t(140)); // 90 ms to 230 ms
        QCOMPARE(host.groupSeconds.back().second, 300 * ms);
        groups.settled(call(0, browse, 320 * ms), true); // a step of no group fails no group
        groups.iterationEnds(0, 400 * ms);
        QCOMPARE(host.groups[0].counters.requests, std::uint64_t(1));
        // user 1's visit ends with its iteration, at its last step's end; it did not fail
        groups.settled(call(1, other, 180 * ms), false);
        groups.iterationEnds(1, 500 * ms);
        QCOMPARE(host.groups[1].counters.requests, std::uint64_t(1));
        QCOMPARE(host.groups[1].counters.errors, std::uint64_t(0));
        QCOMPARE(host.groups[1].latency.max() / 1000, std::uint64_t(80));
        QCOMPARE(host.groupSeconds.back(), std::make_pair(std::size_t(1), 500 * ms));
        groups.iterationEnds(1, 600 * ms); // already counted: not twice
        QCOMPARE(host.groups[1].counters.requests, std::uint64_t(1));
        // the next iteration starts a new visit
        groups.begin(call(0, login, 1000 * ms), 1000 * ms);
        groups.settled(call(0, login, 1010 * ms), false);
        groups.iterationEnds(0, 1010 * ms);
        QCOMPARE(host.groups[0].counters.requests, std::uint64_t(2));
        QCOMPARE(host.groups[0].counters.errors, std::uint64_t(1));
    }

    // A rendezvous holds each user that begins its step until enough have arrived (or the first has waited its
    // timeout): then all go at once, from the release, each counted as a meeting of the step; a resumed user's
    // begin goes on; a user still held when the run stops is let go.
    void aRendezvousHoldsUsersUntilItReleases()
    {
        Host host;
        constexpr Nanos ms = kNanosPerMilli;
        RendezvousBoard board({{0, 0}, {2, 1000 * ms}}, true); // the run's step 1 (this plan's step 0, offset 1)
        RendezvousWait wait(3, board, 1, host);
        PlannedStep st = step();
        st.rendezvousUsers = 2;
        std::string target;
        const auto call = [&](std::uint32_t user, Nanos now) { return StepCall{user, 0, st, target, false, now}; };
        QVERIFY(wait.begin(call(0, 10 * ms), 10 * ms) == StepHook::Begin::Held);
        wait.onTurn(20 * ms);
        QVERIFY(host.resumed.empty() && wait.holds());
        QVERIFY(wait.begin(call(1, 30 * ms), 30 * ms) == StepHook::Begin::Held); // the second: the point releases
        QCOMPARE(host.rings, 1);
        wait.onTurn(31 * ms);
        const std::vector<std::pair<std::uint32_t, Nanos>> both{{0, 31 * ms}, {1, 31 * ms}};
        QCOMPARE(host.resumed, both);
        QVERIFY(!wait.holds());
        QCOMPARE(host.metrics.counters.rendezvous, std::uint64_t(2));
        QCOMPARE(host.metrics.counters.rendezvousTimeouts, std::uint64_t(0));
        QVERIFY(wait.begin(call(0, 31 * ms), 31 * ms) == StepHook::Begin::Go); // resumed: its step goes on
        QVERIFY(wait.begin(call(1, 31 * ms), 31 * ms) == StepHook::Begin::Go);
        // alone: released by the timeout, a second after it arrived
        QVERIFY(wait.begin(call(2, 100 * ms), 100 * ms) == StepHook::Begin::Held);
        wait.onTurn(600 * ms);
        QCOMPARE(host.resumed.size(), std::size_t(2));
        wait.onTurn(1200 * ms);
        QCOMPARE(host.resumed.size(), std::size_t(3));
        QCOMPARE(host.resumed.back(), std::make_pair(std::uint32_t(2), 1200 * ms));
        QCOMPARE(host.metrics.counters.rendezvousTimeouts, std::uint64_t(1));
        // held when the run stops: let go, not resumed
        QVERIFY(wait.begin(call(0, 2000 * ms), 2000 * ms) == StepHook::Begin::Held);
        std::vector<std::uint32_t> users;
        wait.letGo(users);
        QCOMPARE(users, std::vector<std::uint32_t>{0});
        QVERIFY(!wait.holds());
        QCOMPARE(host.resumed.size(), std::size_t(3));
    }

    // A worker's hook list (flow/stephooks.h): one hook of each kind, shared by the steps that list it (a cookie
    // set at one step goes back at another), each step's hooks in its order; a plain step has none; a rendezvous
    // without a board is not made; an answer taken by one hook (a redirect's hop) is heard by no later one.
    void theHookListSharesOneOfEachKind()
    {
        Host host;
        ScenarioPlan plan;
        plan.followRedirects = 2;
        plan.steps = {step(), step(), step(), step()};
        plan.steps[0].hooks = {FlowHookKind::Cookies, FlowHookKind::Redirects};
        plan.steps[2].hooks = {FlowHookKind::Cookies};
        plan.steps[3].hooks = {FlowHookKind::Rendezvous};
        StepHooks hooks(HookSetup{plan, 2, host});
        QVERIFY(hooks.any(0));
        QVERIFY(!hooks.any(1));
        QVERIFY(hooks.any(2));
        QVERIFY(!hooks.any(3)); // no board: no rendezvous
        QVERIFY(hooks.cookies() != nullptr);
        QVERIFY(!hooks.holds());
        std::string target = "/login";
        Answer::HeaderList set = {{"Set-Cookie", "sid=abc; Path=/"}, {"Location", "/home"}};
        QVERIFY(hooks.take({0, 0, plan.steps[0], target, false, 0}, answer(302, set))); // the redirect's hop
        QCOMPARE(host.again.size(), std::size_t(1));
        QCOMPARE(host.again[0].target, std::string("/home"));
        Outgoing out;
        target = "/cart";
        hooks.beforeSend({0, 2, plan.steps[2], target, false, 0}, out); // the jar step 0 filled, at step 2
        QCOMPARE(std::string(out.cookie), std::string("sid=abc"));
        QVERIFY(!hooks.take({0, 2, plan.steps[2], target, false, 0}, answer(302, set))); // no redirect hook here
        Outgoing theirs;
        hooks.beforeSend({1, 2, plan.steps[2], target, false, 0}, theirs);
        QVERIFY(theirs.cookie.empty());
        hooks.newIteration(0, true); // every hook of the plan hears it: the jar starts anew
        hooks.beforeSend({0, 2, plan.steps[2], target, false, 0}, out);
        QVERIFY(out.cookie.empty());
    }
};

QTEST_MAIN(TestFlowHooks)
#include "tst_flowhooks.moc"
