// Traffic sets in a project (issue "Traffic replay"): the compressed codec
// round-trips every field (and refuses damaged bytes), a set is saved in one
// transaction in chunks and read back in order, goes with its item, comes
// along when the item is duplicated, and the masking key stays the project's.
#include "store/projectstore.h"
#include "traffic/trafficstore.h"

#include <QTemporaryDir>
#include <QTest>

#include <random>

using namespace stampede;

namespace {

std::vector<TrafficRecord> records(std::size_t n, std::uint32_t seed = 7)
{
    std::mt19937 rng(seed);
    std::vector<TrafficRecord> out(n);
    std::int64_t t = 1796090400LL * 1000000000;
    for (std::size_t i = 0; i < n; ++i) {
        TrafficRecord& r = out[i];
        t += std::int64_t(rng() % 3000000) - 1000000; // not always forward: deltas may be negative
        r.atNanos = t;
        r.client = "10.0.0." + std::to_string(rng() % 256);
        r.method = i % 5 ? "GET" : "POST";
        r.target = "/api/items/" + std::to_string(i) + "?q=" + std::to_string(rng());
        r.host = i % 2 ? "api.example.com" : "";
        if (i % 3 == 0)
            r.headers = {{"user-agent", "bench"}, {"x-token", std::string(1 + rng() % 40, 'k')}};
        if (i % 5 == 0)
            r.body = std::string("{\"n\": ") + std::to_string(i) + "}\0\xff" + std::string(rng() % 20, 'b');
        r.status = i % 7 ? 200 : 503;
        r.durationS = i % 4 ? double(rng() % 100000) / 1e6 : -1;
    }
    return out;
}

bool same(const TrafficRecord& a, const TrafficRecord& b)
{
    return a.atNanos == b.atNanos && a.client == b.client && a.method == b.method && a.target == b.target &&
           a.host == b.host && a.headers == b.headers && a.body == b.body && a.status == b.status &&
           std::abs(a.durationS - b.durationS) < 1e-6;
}

} // namespace

class TestTrafficStore : public QObject
{
    Q_OBJECT
private slots:
    void codecRoundTrips()
    {
        const auto in = records(3000);
        const std::string blob = encodeTraffic(in.data(), in.size());
        std::vector<TrafficRecord> out;
        QVERIFY(decodeTraffic(blob, out));
        QCOMPARE(out.size(), in.size());
        for (std::size_t i = 0; i < in.size(); ++i)
            QVERIFY2(same(in[i], out[i]), qPrintable(QString::number(i)));
        QVERIFY(blob.size() < in.size() * 60); // compressed
        // damaged bytes are refused, never read as something else
        for (std::size_t cut : {std::size_t(0), std::size_t(1), blob.size() / 2, blob.size() - 1}) {
            std::vector<TrafficRecord> none;
            QVERIFY(!decodeTraffic(std::string_view(blob).substr(0, cut), none));
        }
        std::string flipped = blob;
        flipped[flipped.size() / 2] ^= 0x5a;
        std::vector<TrafficRecord> none;
        QVERIFY(!decodeTraffic(flipped, none));
    }

    void savedInChunksAndReadBack()
    {
        QTemporaryDir dir;
        std::string error;
        const std::string path = dir.filePath(QStringLiteral("t.stampede")).toStdString();
        auto store = ProjectStore::create(path, error);
        QVERIFY(store);
        QCOMPARE(store->schemaVersion(), ProjectStore::kSchemaVersion);
        const auto in = records(TrafficStore::kChunkRecords * 2 + 123);
        TrafficStore traffic(*store);
        const std::int64_t id = traffic.save("shop", in, "{\"records\": 100123}");
        QVERIFY2(id, traffic.error().c_str());
        QCOMPARE(int(store->item(id)->kind), int(ItemKind::Traffic));
        std::vector<TrafficRecord> out;
        QVERIFY(traffic.load(id, out));
        QCOMPARE(out.size(), in.size());
        QVERIFY(same(out.front(), in.front()) &&
                same(out[TrafficStore::kChunkRecords], in[TrafficStore::kChunkRecords]) && same(out.back(), in.back()));
        // a copy carries the requests; deleting an item takes its requests with it
        const std::int64_t copy = store->duplicate(id);
        QVERIFY(copy);
        std::vector<TrafficRecord> copied;
        QVERIFY(traffic.load(copy, copied));
        QCOMPARE(copied.size(), in.size());
        QVERIFY(store->remove(id));
        std::vector<TrafficRecord> gone;
        QVERIFY(traffic.load(id, gone));
        QVERIFY(gone.empty());
        QVERIFY(traffic.load(copy, copied));
        // a traffic set lives at the root only
        QVERIFY(!store->addItem(store->addItem(0, ItemKind::Collection, "c", "{}"), ItemKind::Traffic, "t", "{}"));
    }

    void theMaskKeyIsTheProjects()
    {
        QTemporaryDir dir;
        std::string error;
        const std::string path = dir.filePath(QStringLiteral("k.stampede")).toStdString();
        std::string key;
        {
            auto store = ProjectStore::create(path, error);
            TrafficStore traffic(*store);
            key = traffic.maskKey();
            QCOMPARE(key.size(), std::size_t(64));
            QCOMPARE(traffic.maskKey(), key);
        }
        auto again = ProjectStore::open(path, error);
        QVERIFY(again);
        QCOMPARE(TrafficStore(*again).maskKey(), key);
        const std::string other = dir.filePath(QStringLiteral("o.stampede")).toStdString();
        auto second = ProjectStore::create(other, error);
        QVERIFY(TrafficStore(*second).maskKey() != key);
    }
};

QTEST_APPLESS_MAIN(TestTrafficStore)
#include "tst_trafficstore.moc"
