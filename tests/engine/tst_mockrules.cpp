#include "mock/mockrules.h"

#include <QTest>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

using namespace stampede;

class TestMockRules : public QObject
{
    Q_OBJECT
private slots:
    void matches_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("rule");
        QTest::addRow("exact") << "GET"
                               << "/health"
                               << "health";
        QTest::addRow("method filters") << "POST"
                                        << "/health"
                                        << "any";
        QTest::addRow("param") << "GET"
                               << "/users/42/orders"
                               << "orders";
        QTest::addRow("param needs a value") << "GET"
                                             << "/users//orders"
                                             << "any";
        QTest::addRow("param no extra segment") << "GET"
                                                << "/users/42/orders/1"
                                                << "any";
        QTest::addRow("prefix root") << "GET"
                                     << "/static"
                                     << "static";
        QTest::addRow("prefix below") << "GET"
                                      << "/static/a/b.css"
                                      << "static";
        QTest::addRow("prefix is not a substring") << "GET"
                                                   << "/staticfiles"
                                                   << "any";
    }
    void matches()
    {
        QFETCH(QString, method);
        QFETCH(QString, path);
        QFETCH(QString, rule);
        std::string err;
        const std::string json = "{\"rules\": [\n"
                                 "            {\"name\": \"health\", \"method\": \"GET\", \"path\": \"/health\"},\n"
                                 "            {\"name\": \"orders\", \"path\": \"/users/{id}/orders\"},\n"
                                 "            {\"name\": \"static\", \"path\": \"/static/*\"},\n"
                                 "            {\"name\": \"any\", \"path\": \"/*\"}]}";
        auto set = MockRuleSet::fromJson(json, err);
        QVERIFY2(set, err.c_str());
        const MockRule* r = set->match(method.toStdString(), path.toStdString());
        QVERIFY(r);
        QCOMPARE(QString::fromStdString(r->name), rule);
    }

    void delaysFollowTheirDistribution()
    {
        std::string err;
        const std::string json = "{\"rules\": [\n"
                                 "            {\"name\": \"fixed\", \"path\": \"/f\", \"delay\": {\"fixedMs\": 20}},\n"
                                 "            {\"name\": \"uniform\", \"path\": \"/u\", \"delay\": {\"uniform\": "
                                 "{\"minMs\": 10, \"maxMs\": 30}}},\n"
                                 "            {\"name\": \"tail\", \"path\": \"/t\", \"delay\": {\"longTail\": "
                                 "{\"medianMs\": 5, \"p99Ms\": 100}}}]}";
        auto set = MockRuleSet::fromJson(json, err);
        QVERIFY2(set, err.c_str());
        FastRandom rng(3);
        QCOMPARE(set->match("GET", "/f")->drawDelay(rng), std::int64_t(20000000));
        std::vector<double> u, t;
        for (int i = 0; i < 20000; ++i) {
            u.push_back(double(set->match("GET", "/u")->drawDelay(rng)) / 1e6);
            t.push_back(double(set->match("GET", "/t")->drawDelay(rng)) / 1e6);
        }
        std::sort(u.begin(), u.end());
        std::sort(t.begin(), t.end());
        QVERIFY(u.front() >= 10 && u.back() <= 30);
        QVERIFY(std::abs(u[10000] - 20) < 0.5);
        QVERIFY(std::abs(t[10000] - 5) < 0.3);
        QVERIFY2(std::abs(t[19800] - 100) < 12, qPrintable(QString::number(t[19800])));
    }

    void rejectsBadRules_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        QTest::addRow("path") << "{\"rules\": [{\"path\": \"nope\"}]}"
                              << "rules[0].path: must start with / (got \"nope\")";
        QTest::addRow("status") << "{\"rules\": [{\"status\": 42}]}"
                                << "rules[0].status: 42 is not an HTTP status";
        QTest::addRow("percent") << "{\"rules\": [{\"errorPercent\": 120}]}"
                                 << "rules[0].errorPercent: must be between 0 and 100";
        QTest::addRow("required header") << "{\"rules\": [{\"path\": \"/a\", \"require\": [{\"name\": \"X: y\"}]}]}"
                                         << "rules[0].require: \"X: y\" is not a header name";
        QTest::addRow("rate limit of 0") << "{\"rules\": [{\"path\": \"/a\", \"rateLimit\": {\"status\": 503}}]}"
                                         << "rules[0].rateLimit.perSecond: must be between 1 and 100000000";
        QTest::addRow("rate limit status") << "{\"rules\": [{\"path\": \"/a\", \"rateLimit\": {\"perSecond\": 5, "
                                              "\"status\": 1000}}]}"
                                           << "rules[0].rateLimit.status: 1000 is not an HTTP status";
        QTest::addRow("rate limit delay") << "{\"rules\": [{\"path\": \"/a\", \"rateLimit\": {\"perSecond\": 5, "
                                             "\"delayMs\": -1}}]}"
                                          << "rules[0].rateLimit.delayMs: must be between 0 and 60000";
        QTest::addRow("queue with a delay") << "{\"rules\": [{\"path\": \"/a\", \"rateLimit\": {\"perSecond\": 5, "
                                               "\"delayMs\": 10, \"queue\": true}}]}"
                                            << "rules[0].rateLimit: queue and delayMs exclude each other (a queue's "
                                               "delay is its length)";
        // issue 47: a delay past what a nanosecond clock holds was answered at once
        const char* tooLong = "rules[0].delay: at most 60000 ms (a longer wait is a hung server: a client's timeout "
                              "tests it as well)";
        QTest::addRow("fixedMs 1e18") << "{\"rules\": [{\"path\": \"/a\", \"delay\": {\"fixedMs\": 1e18}}]}" << tooLong;
        QTest::addRow("fixedMs NaN") << "{\"rules\": [{\"path\": \"/a\", \"delay\": {\"fixedMs\": \"NaN\"}}]}"
                                     << tooLong;
        QTest::addRow("uniform maxMs") << "{\"rules\": [{\"path\": \"/a\", \"delay\": {\"uniform\": {\"minMs\": 1, "
                                          "\"maxMs\": 60001}}}]}"
                                       << tooLong;
        QTest::addRow("longTail p99") << "{\"rules\": [{\"path\": \"/a\", \"delay\": {\"longTail\": {\"medianMs\": 1, "
                                         "\"p99Ms\": 1e12}}}]}"
                                      << tooLong;
        QTest::addRow("nested 100,000 deep")
            << QString(QStringLiteral("{\"rules\": [{\"path\": \"/a\", \"body\": ") +
                       QString(100000, QLatin1Char('[')) + QString(100000, QLatin1Char(']')) + QStringLiteral("}]}"))
            << "the rules nest deeper than 64 levels";
    }
    // A known limit: N answers in one second of the server's clock, then the
    // limited answer until the next second; exact when threads race for it.
    void rateLimitCountsPerSecond()
    {
        std::string err;
        auto set =
            MockRuleSet::fromJson("{\"rules\": [{\"path\": \"/a\", \"rateLimit\": {\"perSecond\": 1000}}]}", err);
        QVERIFY2(set, err.c_str());
        const MockRule* r = set->match("GET", "/a");
        QVERIFY(QByteArray::fromStdString(r->limitedResponse).startsWith("HTTP/1.1 429"));
        const std::int64_t second = 7'000'000'000;
        std::atomic<int> over{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&] {
                for (int i = 0; i < 500; ++i)
                    over += r->overLimit(second + i) ? 1 : 0;
            });
        for (auto& t : threads)
            t.join();
        QCOMPARE(over.load(), 1000);
        QVERIFY(!r->overLimit(second + 1'000'000'000)); // the next second starts afresh
        QCOMPARE(r->limited.load(), std::uint64_t(1000));
        QVERIFY(QByteArray::fromStdString(set->statsJson()).contains("\"limited\": 1000"));
    }
    // A queueing limit serves perSecond answers a second in arrival order: a
    // burst waits its turn (1 ms apart at 1000/s, after 10 ms that go at
    // once), exact when threads race; a quiet spell empties the queue; past a
    // minute of queue a request is refused.
    void rateLimitQueues()
    {
        std::string err;
        auto set = MockRuleSet::fromJson(
            "{\"rules\": [{\"path\": \"/a\", \"rateLimit\": {\"perSecond\": 1000, \"queue\": true}}]}", err);
        QVERIFY2(set, err.c_str());
        const MockRule* r = set->match("GET", "/a");
        const std::int64_t t0 = 7'000'000'000;
        std::vector<std::int64_t> delays[4];
        std::vector<std::thread> threads;
        for (auto& d : delays)
            threads.emplace_back([&] {
                for (int i = 0; i < 500; ++i)
                    d.push_back(r->queueDelay(t0));
            });
        for (auto& t : threads)
            t.join();
        std::vector<std::int64_t> all;
        for (const auto& d : delays)
            all.insert(all.end(), d.begin(), d.end());
        std::sort(all.begin(), all.end());
        // 2000 arrivals at once: the first 10 ms of answers go now, then one a millisecond
        QCOMPARE(std::count(all.begin(), all.end(), 0), 11);
        for (std::size_t i = 11; i < all.size(); ++i)
            QCOMPARE(all[i], std::int64_t(i - 10) * 1'000'000);
        QCOMPARE(r->limited.load(), std::uint64_t(2000 - 11));
        // at the rate it serves, nothing waits once the queue has drained
        const std::int64_t later = t0 + 5'000'000'000;
        for (int i = 0; i < 100; ++i)
            QCOMPARE(r->queueDelay(later + i * 1'000'000), std::int64_t(0));
        // 61 s of queue: the last arrivals are refused (the limited answer)
        const std::int64_t t1 = t0 + 100'000'000'000;
        int refused = 0;
        for (int i = 0; i < 61'100; ++i)
            refused += r->queueDelay(t1) < 0;
        QCOMPARE(refused, 61'100 - 60'011);
        QCOMPARE(r->limitFor(t1), std::int64_t(-1));
    }
    // A rule's required headers: any case of the name, the exact value (or any when none is given).
    void requiredHeaders()
    {
        std::string err;
        auto set = MockRuleSet::fromJson("{\"rules\": [{\"path\": \"/o\", \"require\": [{\"name\": "
                                         "\"Authorization\", \"value\": \"Bearer t\"}, {\"name\": \"X-Id\"}]}]}",
                                         err);
        QVERIFY2(set, err.c_str());
        const MockRule* r = set->match("GET", "/o");
        QVERIFY(r);
        QCOMPARE(r->allMet(), 3u);
        QCOMPARE(r->meets("authorization", "Bearer t"), 1u);
        QCOMPARE(r->meets("AUTHORIZATION", "Bearer t"), 1u);
        QCOMPARE(r->meets("Authorization", "Bearer u"), 0u);
        QCOMPARE(r->meets("x-id", "anything"), 2u);
        QVERIFY(set->anyRequire());
        QVERIFY(QByteArray::fromStdString(r->refusedResponse).startsWith("HTTP/1.1 401"));
    }
    void rejectsBadRules()
    {
        QFETCH(QString, json);
        QFETCH(QString, message);
        std::string err;
        QVERIFY(!MockRuleSet::fromJson(json.toStdString(), err));
        QCOMPARE(QString::fromStdString(err), message);
        QVERIFY(!MockRuleSet::fromJson("{not json", err));
    }
};

QTEST_APPLESS_MAIN(TestMockRules)
#include "tst_mockrules.moc"
