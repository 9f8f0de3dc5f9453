// Replay's --diff-against: two answers to one request compared, as a table of
// shapes (alike, reordered, left out, within the tolerance, different in
// status, header, value, type, length, key; not JSON; deep) and what is said.
#include "check/answerdiff.h"
#include "core/utf8.h"

#include <QTest>

#include <string>

using namespace stampede;

Q_DECLARE_METATYPE(std::string)

class TestAnswerDiff : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void compare_data()
    {
        QTest::addColumn<std::string>("first");
        QTest::addColumn<std::string>("second");
        QTest::addColumn<std::string>("said"); // "" alike
        QTest::newRow("the same bytes") << std::string("ok") << std::string("ok") << std::string();
        QTest::newRow("keys reordered") << std::string("{\"a\":1,\"b\":[1,2]}") << std::string("{\"b\":[1,2],\"a\":1}")
                                        << std::string();
        QTest::newRow("whitespace") << std::string("{\"a\": 1}") << std::string("{ \"a\":1 }") << std::string();
        QTest::newRow("ignored path") << std::string("{\"ts\":1,\"a\":1}") << std::string("{\"ts\":2,\"a\":1}")
                                      << std::string();
        QTest::newRow("ignored in every item")
            << std::string("{\"items\":[{\"id\":1,\"q\":2},{\"id\":2,\"q\":3}]}")
            << std::string("{\"items\":[{\"id\":7,\"q\":2},{\"id\":8,\"q\":3}]}") << std::string();
        QTest::newRow("ignored key absent in one")
            << std::string("{\"ts\":1,\"a\":1}") << std::string("{\"a\":1}") << std::string();
        QTest::newRow("within tolerance")
            << std::string("{\"p\":100}") << std::string("{\"p\":100.9}") << std::string();
        QTest::newRow("int and double alike")
            << std::string("{\"p\":2}") << std::string("{\"p\":2.0}") << std::string();
        QTest::newRow("past tolerance") << std::string("{\"p\":100}") << std::string("{\"p\":102}")
                                        << std::string("$.p: 102, first 100");
        QTest::newRow("a value") << std::string("{\"a\":{\"b\":\"x\"}}") << std::string("{\"a\":{\"b\":\"y\"}}")
                                 << std::string("$.a.b: \"y\", first \"x\"");
        QTest::newRow("a type") << std::string("{\"a\":\"1\"}") << std::string("{\"a\":1}")
                                << std::string("$.a: 1, first \"1\"");
        QTest::newRow("a length") << std::string("[1,2]") << std::string("[1,2,3]")
                                  << std::string("$: 3 items, first 2");
        QTest::newRow("an item") << std::string("[1,{\"q\":[true]}]") << std::string("[1,{\"q\":[false]}]")
                                 << std::string("$[1].q[0]: false, first true");
        QTest::newRow("a key gone") << std::string("{\"a\":1,\"b\":2}") << std::string("{\"a\":1}")
                                    << std::string("$.b: absent, first 2");
        QTest::newRow("a key added") << std::string("{\"a\":1}") << std::string("{\"a\":1,\"c\":null}")
                                     << std::string("$.c: null, absent in the first");
        QTest::newRow("not JSON") << std::string("hello world") << std::string("hello there")
                                  << std::string("body: 11 bytes, first 11, differing from byte 6");
        QTest::newRow("JSON and not") << std::string("{\"a\":1}") << std::string("<html>")
                                      << std::string("body: 6 bytes, first 7, differing from byte 0");
        QTest::newRow("a long value is cut")
            << std::string("{\"a\":\"" + std::string(100, 'x') + "\"}")
            << std::string("{\"a\":\"" + std::string(100, 'y') + "\"}")
            << std::string("$.a: \"" + std::string(56, 'y') + "..., first \"" + std::string(56, 'x') + "...");
        std::string deepA, deepB;
        for (int i = 0; i < 500; ++i) {
            deepA += "[";
            deepB += "[";
        }
        deepA += "1";
        deepB += "2";
        for (int i = 0; i < 500; ++i) {
            deepA += "]";
            deepB += "]";
        }
        QTest::newRow("500 deep") << deepA << deepB
                                  << std::string("$" +
                                                 [] {
                                                     std::string s;
                                                     for (int i = 0; i < 500; ++i)
                                                         s += "[0]";
                                                     return s;
                                                 }() +
                                                 ": 2, first 1")
                                         .substr(0, 300);
    }
    void compare()
    {
        QFETCH(std::string, first);
        QFETCH(std::string, second);
        QFETCH(std::string, said);
        AnswerDiffRules rules;
        rules.ignorePaths = {"$.ts", "$.items[*].id"};
        rules.tolerance = 0.01;
        const KeptAnswer a{200, {{"Content-Type", "application/json"}}, first};
        const HeaderPairs headers{{"content-type", "application/json"}};
        AnswerView b;
        b.status = 200;
        b.headers = &headers;
        b.body = second;
        const std::string got = answerDifference(rules, a, b);
        QCOMPARE(got, said);
        QVERIFY(isUtf8(got) && got.size() <= 300);
    }

    // Status first, then headers (names in any case; those that always differ, and the rules', left out).
    void statusAndHeaders()
    {
        AnswerDiffRules rules;
        rules.ignoreHeaders = {"x-trace"};
        const KeptAnswer a{200, {{"Date", "Mon"}, {"X-Version", "1"}, {"X-Trace", "a"}}, "{}"};
        HeaderPairs h{{"date", "Tue"}, {"x-version", "1"}, {"x-trace", "b"}, {"Server", "other"}};
        AnswerView b;
        b.status = 200;
        b.headers = &h;
        b.body = "{}";
        QCOMPARE(answerDifference(rules, a, b), std::string());
        h[1].second = "2";
        QCOMPARE(answerDifference(rules, a, b), std::string("header x-version: \"2\", first \"1\""));
        h.erase(h.begin() + 1);
        QCOMPARE(answerDifference(rules, a, b), std::string("header x-version: absent, first \"1\""));
        b.status = 503;
        QCOMPARE(answerDifference(rules, a, b), std::string("status 503, first 200"));
        // bytes that are not UTF-8 are said as \xHH
        h = {{"x-version", std::string("\xff")}};
        b.status = 200;
        const KeptAnswer c{200, {{"x-version", "1"}}, "{}"};
        QCOMPARE(answerDifference(rules, c, b), std::string("header x-version: \"\\xFF\", first \"1\""));
    }

    void paths_data()
    {
        QTest::addColumn<std::string>("path");
        QTest::addColumn<bool>("ok");
        for (const char* p : {"$", "$.ts", "$.a.b", "$.items[*].id", "$.items[3]", "$.*.id", "$[0]"})
            QTest::newRow(p) << std::string(p) << true;
        for (const char* p : {"ts", "", "$ts", "$.", "$.a..b", "$[x]", "$[", "$.a[]", "$.a[-1]"})
            QTest::newRow(*p ? p : "empty") << std::string(p) << false;
    }
    void paths()
    {
        QFETCH(std::string, path);
        QFETCH(bool, ok);
        std::string error;
        QCOMPARE(parseDiffPath(path, error), ok);
        if (!ok)
            QVERIFY2(error.find("is not a JSON path") != std::string::npos, error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestAnswerDiff)
#include "tst_answerdiff.moc"
