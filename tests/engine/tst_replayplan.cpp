// What a replay sends when (issue "Traffic replay"), with simulated time: a
// generated log of 100,000 requests with a known per-second shape (bursts and
// a quiet gap) planned at x1 and x4 second by second, the requests handed out
// in order at their times, x3 amplification with offsets giving disjoint key
// ranges, clients kept on one engine in order, loops, and bad options.
#include "traffic/replayplan.h"
#include "traffic/trafficshape.h"

#include <QTest>

#include <map>
#include <set>

using namespace stampede;

namespace {

constexpr std::int64_t kSecond = 1000000000;

// Requests per second of the generated log: a ramp, a burst, a quiet gap.
int shapeAt(int s)
{
    if (s >= 40 && s < 45)
        return 0; // quiet
    if (s >= 20 && s < 25)
        return 4000; // burst
    return 1000 + s * 20;
}

std::vector<TrafficRecord> generated(std::map<int, int>& perSecond)
{
    std::vector<TrafficRecord> out;
    const std::int64_t t0 = 1796090400LL * kSecond;
    for (int s = 0; s < 80 && out.size() < 100000; ++s) {
        const int n = shapeAt(s);
        for (int i = 0; i < n && out.size() < 100000; ++i) {
            TrafficRecord r;
            r.atNanos = t0 + s * kSecond + std::int64_t(i) * kSecond / n;
            r.client = "10.0." + std::to_string(out.size() % 97) + ".1";
            r.target = "/api/orders?uid=" + std::to_string(out.size()) + "&page=1";
            r.body = "{\"order\": {\"orderNo\": \"A" + std::to_string(out.size()) + "\", \"qty\": 2}}";
            out.push_back(std::move(r));
            ++perSecond[s];
        }
    }
    return out;
}

ReplayOffset offset(const char* text)
{
    std::string error;
    auto o = ReplayOffset::parse(text, error);
    if (!o)
        qFatal("%s", error.c_str());
    return *o;
}

} // namespace

class TestReplayPlan : public QObject
{
    Q_OBJECT
private slots:
    // Planned per second equals the log's per-second counts, compressed by the speed.
    void plannedFollowsTheLog_data()
    {
        QTest::addColumn<double>("speed");
        QTest::newRow("x1") << 1.0;
        QTest::newRow("x4") << 4.0;
    }
    void plannedFollowsTheLog()
    {
        QFETCH(double, speed);
        std::map<int, int> perSecond;
        const auto records = generated(perSecond);
        QCOMPARE(records.size(), std::size_t(100000));
        ReplayOptions o;
        o.speed = speed;
        ReplaySchedule schedule(records, o);
        std::uint64_t total = 0;
        const int seconds = int(std::ceil(double(perSecond.rbegin()->first + 1) / speed));
        for (int s = 1; s <= seconds; ++s) {
            std::uint64_t expected = 0;
            for (int k = int((s - 1) * speed); k < int(s * speed); ++k)
                expected += std::uint64_t(perSecond.count(k) ? perSecond[k] : 0);
            QCOMPARE(schedule.plannedIn(std::uint32_t(s)), expected);
            total += expected;
        }
        QCOMPARE(total, std::uint64_t(100000));
        // handed out at their times, in order: counted per second of simulated time, the same counts
        std::map<int, std::uint64_t> sent;
        std::int64_t last = -1;
        for (std::int64_t now = 0; now <= std::int64_t(seconds) * kSecond; now += kSecond / 1000) {
            while (auto d = schedule.next(now)) {
                QVERIFY(d->at <= now && d->at >= last);
                QVERIFY(now - d->at < kSecond / 1000); // never late by more than the step
                last = d->at;
                ++sent[int(d->at / kSecond) + 1];
            }
        }
        for (int s = 1; s <= seconds; ++s)
            QCOMPARE(sent[s], schedule.plannedIn(std::uint32_t(s)));
        QVERIFY(!schedule.nextAt());
    }

    // x3 with a query offset and a JSON key suffix: copy 0 is the original,
    // copies 1 and 2 fall in their own key ranges; all three in a row.
    void amplifiedCopiesDoNotCollide()
    {
        std::map<int, int> perSecond;
        const auto records = generated(perSecond);
        ReplayOptions o;
        o.amplify = 3;
        o.offsets = {offset("query:uid+1000000"), offset("json:orderNo~-c${copy}")};
        QCOMPARE(checkReplay(records, o), std::string());
        ReplaySchedule schedule(records, o);
        QCOMPARE(schedule.total(), std::uint64_t(300000));
        std::set<long> uids[3];
        for (int i = 0; i < 3000; ++i) {
            const auto d = schedule.next(100 * kSecond);
            QVERIFY(d);
            QCOMPARE(d->record, std::size_t(i / 3));
            QCOMPARE(d->copy, std::uint32_t(i % 3));
            const TrafficRecord c = replayCopy(records[d->record], d->copy, o.offsets);
            const auto at = c.target.find("uid=");
            uids[d->copy].insert(std::stol(c.target.substr(at + 4)));
            QVERIFY(c.target.find("&page=1") != std::string::npos);
            const std::string no = d->copy ? "A" + std::to_string(d->record) + "-c" + std::to_string(d->copy)
                                           : "A" + std::to_string(d->record);
            QCOMPARE(c.body, "{\"order\": {\"orderNo\": \"" + no + "\", \"qty\": 2}}");
        }
        QCOMPARE(*uids[0].rbegin(), 999L);
        QCOMPARE(*uids[1].begin(), 1000000L);
        QCOMPARE(*uids[2].begin(), 2000000L);
        QCOMPARE(uids[0].size() + uids[1].size() + uids[2].size(), std::size_t(3000)); // disjoint
    }

    // Across 3 engines: every request once, a client's requests on one engine, in order.
    void clientsStayOnOneEngine()
    {
        std::map<int, int> perSecond;
        const auto records = generated(perSecond);
        std::map<std::string, std::uint32_t> engineOf;
        std::size_t seen = 0;
        for (std::uint32_t part = 0; part < 3; ++part) {
            ReplaySchedule s(records, {}, part, 3);
            std::size_t last = 0;
            bool first = true;
            while (auto d = s.next(1000 * kSecond)) {
                ++seen;
                QVERIFY(first || d->record > last);
                first = false;
                last = d->record;
                const auto [it, added] = engineOf.emplace(records[d->record].client, part);
                QCOMPARE(it->second, part);
            }
        }
        QCOMPARE(seen, records.size());
        QCOMPARE(engineOf.size(), std::size_t(97));
    }

    // The set's shape, as its view shows it: the log's own seconds, the busiest paths.
    // A chosen key tells the users apart instead of their address: one user's
    // requests stay together even behind one proxy address.
    void clientsByAChosenKey()
    {
        std::vector<TrafficRecord> records(6);
        for (int i = 0; i < 6; ++i) {
            records[i].client = "10.0.0.1"; // one proxy
            records[i].target = i == 5 ? "/none" : "/a?x=1&uid=" + std::to_string(i % 2) + "&z=3";
            records[i].headers = {{"x-user", "u" + std::to_string(i % 3)}};
        }
        std::string error;
        auto byQuery = records;
        QVERIFY(clientsByKey(byQuery, "query:uid", error));
        QCOMPARE(byQuery[0].client, std::string("0"));
        QCOMPARE(byQuery[1].client, std::string("1"));
        QCOMPARE(byQuery[5].client, std::string("10.0.0.1")); // without the key: its address
        auto byHeader = records;
        QVERIFY(clientsByKey(byHeader, "header:X-User", error));
        QCOMPARE(byHeader[4].client, std::string("u1"));
        QVERIFY(!clientsByKey(byHeader, "cookie:sid", error));
        QVERIFY2(error.find("query:NAME or header:NAME") != std::string::npos, error.c_str());
        QVERIFY(!clientsByKey(byHeader, "query:", error));
    }

    void shapeOfTheLog()
    {
        std::map<int, int> perSecond;
        auto records = generated(perSecond);
        records[5].target = "https://shop.example.com/home?x=1";
        records[6].target = "https://shop.example.com";
        const TrafficShape shape = shapeOf(records, 3);
        QCOMPARE(shape.perSecond.size(), std::size_t(perSecond.rbegin()->first + 1));
        for (const auto& [s, n] : perSecond)
            QCOMPARE(shape.perSecond[std::size_t(s)], std::uint64_t(n));
        QCOMPARE(shape.perSecond[41], std::uint64_t(0)); // the quiet gap
        QCOMPARE(shape.peak, std::uint64_t(4000));
        QCOMPARE(shape.topPaths.front(), (std::pair<std::string, std::uint64_t>{"/api/orders", 99998}));
        QCOMPARE(shape.topPaths.size(), std::size_t(3));
        QCOMPARE(shape.topPaths[1].first, std::string("/"));
        QCOMPARE(shape.topPaths[2].first, std::string("/home"));
        QCOMPARE(shape.clients, std::uint64_t(97));
        QCOMPARE(shape.methods.front().first, std::string("GET"));
    }

    void loops()
    {
        std::vector<TrafficRecord> records(3);
        for (int i = 0; i < 3; ++i)
            records[std::size_t(i)].atNanos = i * kSecond;
        ReplayOptions o;
        o.loop = true;
        ReplaySchedule s(records, o);
        std::vector<std::int64_t> at;
        while (auto d = s.next(6 * kSecond))
            at.push_back(d->at);
        QCOMPARE(at.size(), std::size_t(7)); // 0 1 2, then again from 2.67 s: 2.67 3.67 4.67, 5.33
        QCOMPARE(at[3], s.length());
        QVERIFY(s.nextAt().value_or(0) > 6 * kSecond);
        QCOMPARE(s.plannedIn(1), std::uint64_t(1));
        QCOMPARE(s.plannedIn(4), std::uint64_t(1));
    }

    void badOptions_data()
    {
        QTest::addColumn<QString>("offsetText");
        QTest::addColumn<double>("speed");
        QTest::addColumn<QString>("message");
        QTest::newRow("speed 0") << "" << 0.0 << "--speed: must be above 0";
        QTest::newRow("negative speed") << "" << -2.0 << "--speed: must be above 0";
        QTest::newRow("missing key") << "query:account+5" << 1.0
                                     << "--offset \"query:account+5\": no request of the traffic has the query "
                                        "parameter \"account\"";
        QTest::newRow("missing json key") << "json:userId+1" << 1.0 << "the JSON key \"userId\"";
    }
    void badOptions()
    {
        QFETCH(QString, offsetText);
        QFETCH(double, speed);
        QFETCH(QString, message);
        std::map<int, int> perSecond;
        std::vector<TrafficRecord> records = generated(perSecond);
        records.resize(100);
        ReplayOptions o;
        o.speed = speed;
        if (!offsetText.isEmpty())
            o.offsets = {offset(offsetText.toUtf8().constData())};
        QVERIFY2(QString::fromStdString(checkReplay(records, o)).contains(message), checkReplay(records, o).c_str());
        std::string error;
        QVERIFY(!ReplayOffset::parse("body:x+1", error));
        QVERIFY(!ReplayOffset::parse("query:uid+0", error));
        QVERIFY(!ReplayOffset::parse("query:uid", error));
        QVERIFY(!ReplayOffset::parse("query:+5", error));
        QVERIFY(error.find("no key") != std::string::npos);
    }

    // Issue 53: an offset's suffix takes the run's stress tag and Postman's generators, drawn afresh for each
    // copy (copies never collide), and refuses a name it cannot fill instead of sending it literally.
    void offsetsTakeGenerators()
    {
        TrafficRecord r;
        r.method = "POST";
        r.target = "/pay?orderNo=A1";
        r.body = "{\"orderNo\": \"A1\"}";
        r.headers = {{"x-request-id", "r1"}};
        ReplayOffset q = offset("query:orderNo~-${$guid}");
        ReplayOffset j = offset("json:orderNo~-${$stressTag}-${copy}");
        j.stressTag = "st-feed";
        ReplayOffset h = offset("header:X-Request-Id~-${$randomInt}");
        std::set<std::string> targets;
        for (std::uint32_t k = 1; k <= 50; ++k) {
            const TrafficRecord c = replayCopy(r, k, {q, j, h});
            QVERIFY2(c.target.rfind("/pay?orderNo=A1-", 0) == 0 && c.target.size() == 16 + 36, c.target.c_str());
            QVERIFY2(c.target.find('$') == std::string::npos, c.target.c_str());
            targets.insert(c.target);
            QCOMPARE(c.body, "{\"orderNo\": \"A1-st-feed-" + std::to_string(k) + "\"}");
            QVERIFY(c.headers[0].second.rfind("r1-", 0) == 0 && c.headers[0].second.size() > 3);
        }
        QCOMPARE(targets.size(), std::size_t(50)); // a fresh UUID each copy
        std::string error;
        QVERIFY(!ReplayOffset::parse("query:orderNo~-${orderNo}", error));
        QVERIFY2(error.find("${orderNo} is not ${copy}, ${$stressTag} or a generator") != std::string::npos,
                 error.c_str());
        QVERIFY(!ReplayOffset::parse("query:orderNo~-${$guid", error));
        QVERIFY2(error.find("unclosed") != std::string::npos, error.c_str());
    }
};

QTEST_APPLESS_MAIN(TestReplayPlan)
#include "tst_replayplan.moc"
