// Checks and extractors on answers (engine/check/checks.h): each subject and
// test, negation, gRPC codes, and the regular expressions they compile.
#include "check/checks.h"

#include <QtTest>

using namespace stampede;

namespace {

JsonPath path(const char* text)
{
    std::string why;
    auto p = JsonPath::compile(text, why);
    if (!p)
        qFatal("%s", why.c_str());
    return *p;
}

RegexPtr regex(const char* pattern)
{
    std::string why;
    auto r = Regex::compile(pattern, why);
    if (!r)
        qFatal("%s", why.c_str());
    return r;
}

} // namespace

class TestChecks : public QObject
{
    Q_OBJECT
private:
    JsonReader m_reader;
    HeaderPairs m_headers{{"Content-Type", "application/json; charset=utf-8"}, {"X-Session", "s42"}};
    std::string m_body = "{\"code\": 500, \"data\": {\"token\": \"tok-7\"}, \"msg\": \"csrf=ab12cd; path=/\"}";

    AnswerView answer(int status = 200) const
    {
        AnswerView a;
        a.status = status;
        a.headers = &m_headers;
        a.body = m_body;
        a.elapsedNanos = 150'000'000;
        return a;
    }
    bool judge(const Check& c, const AnswerView& a, std::string& why)
    {
        AnswerJson json(m_reader, a.body);
        return c.evaluate(a, json, why);
    }

private slots:
    void statusIsOneOfTheCodes()
    {
        Check c;
        c.statuses = {200, 201};
        std::string why;
        QVERIFY(judge(c, answer(201), why));
        QVERIFY(!judge(c, answer(302), why));
        QCOMPARE(why, std::string("status 302, expected one of 200, 201"));
    }

    void grpcStatusSaysSo()
    {
        Check c;
        c.statuses = {0};
        AnswerView a = answer(14);
        a.statusName = "grpc-status";
        std::string why;
        QVERIFY(!judge(c, a, why));
        QCOMPARE(why, std::string("grpc-status 14, expected 0"));
    }

    void jsonPathTests()
    {
        Check equals;
        equals.subject = Check::Subject::JsonPath;
        equals.path = path("$.code");
        equals.test = Check::Test::Equals;
        equals.equals = "0";
        std::string why;
        QVERIFY(!judge(equals, answer(), why));
        QCOMPARE(why, std::string("$.code is \"500\", expected \"0\""));
        equals.equals = "500";
        QVERIFY(judge(equals, answer(), why));

        Check exists = equals;
        exists.test = Check::Test::Exists;
        exists.path = path("$.data.token");
        QVERIFY(judge(exists, answer(), why));
        exists.path = path("$.data.missing");
        QVERIFY(!judge(exists, answer(), why));
        QCOMPARE(why, std::string("$.data.missing is absent"));
        exists.exists = false; // must not exist
        QVERIFY(judge(exists, answer(), why));

        Check matches = equals;
        matches.test = Check::Test::Matches;
        matches.path = path("$.data.token");
        matches.regex = regex("^tok-[0-9]+$");
        QVERIFY(judge(matches, answer(), why));
    }

    void bodyThatIsNotJsonFailsAJsonCheck()
    {
        Check c;
        c.subject = Check::Subject::JsonPath;
        c.path = path("$.code");
        c.test = Check::Test::Equals;
        c.equals = "0";
        AnswerView a = answer();
        a.body = "<html>oops</html>";
        std::string why;
        QVERIFY(!judge(c, a, why));
        QCOMPARE(why, std::string("the body is not JSON (reading $.code)"));
    }

    void headerBodyAndTime()
    {
        Check header;
        header.subject = Check::Subject::Header;
        header.text = "content-type"; // any case
        header.test = Check::Test::Matches;
        header.regex = regex("application/json");
        std::string why;
        QVERIFY(judge(header, answer(), why));
        header.text = "X-Missing";
        QVERIFY(!judge(header, answer(), why));
        QCOMPARE(why, std::string("header X-Missing is absent"));

        Check body;
        body.subject = Check::Subject::BodyContains;
        body.text = "\"token\"";
        QVERIFY(judge(body, answer(), why));
        body.negate = true; // must not contain
        QVERIFY(!judge(body, answer(), why));
        QCOMPARE(why, std::string("the opposite held (negate)"));

        Check fast;
        fast.subject = Check::Subject::MaxTime;
        fast.maxNanos = 200'000'000;
        QVERIFY(judge(fast, answer(), why));
        fast.maxNanos = 100'000'000;
        QVERIFY(!judge(fast, answer(), why));
        QCOMPARE(why, std::string("took 150 ms, more than 100 ms"));
    }

    void extractorsTakeTheValue()
    {
        const AnswerView a = answer();
        AnswerJson json(m_reader, a.body);
        std::string out;
        Extractor token;
        token.path = path("$.data.token");
        QVERIFY(token.extract(a, json, out));
        QCOMPARE(out, std::string("tok-7"));
        Extractor sid;
        sid.source = Extractor::Source::Header;
        sid.header = "x-session";
        QVERIFY(sid.extract(a, json, out));
        QCOMPARE(out, std::string("s42"));
        Extractor csrf;
        csrf.source = Extractor::Source::Regex;
        csrf.regex = regex("csrf=([a-z0-9]+)");
        csrf.group = 1;
        QVERIFY(csrf.extract(a, json, out));
        QCOMPARE(out, std::string("ab12cd"));
        csrf.regex = regex("nonce=([a-z0-9]+)");
        QVERIFY(!csrf.extract(a, json, out));
        Extractor none;
        none.path = path("$.nothing");
        QVERIFY(!none.extract(a, json, out));
    }

    void regexFaultsSayWhere()
    {
        std::string why;
        QVERIFY(!Regex::compile("a(b", why));
        QVERIFY2(why.find("offset 3") != std::string::npos, why.c_str());
        const auto r = regex("(x)(y)?");
        QCOMPARE(r->groups(), 2u);
        std::string cap = "stale";
        QVERIFY(r->search("..x..", 2, &cap));
        QCOMPARE(cap, std::string());                          // a group that took no part
        QVERIFY(r->search(std::string_view("\xff\xfe x", 4))); // bytes, not UTF-8: never an error
    }
};

QTEST_GUILESS_MAIN(TestChecks)
#include "tst_checks.moc"
