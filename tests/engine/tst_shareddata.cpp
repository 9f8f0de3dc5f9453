// The run's shared data (core/shareddata.h): the store's ops and bounds, a
// table of hostile asks as the controller answers them (wire/sharedwire.h),
// asks from many threads at once, and the real Shared stream between an
// agent's channel and the controller's link over gRPC: in order, answered by
// id, a broken stream's sent asks failed and its unsent ones kept, an ask
// whose waiter gave up never sent, the run's end failing what waits.
#include "agent/sharedchannel.h"
#include "control/agentlink.h"
#include "core/utf8.h"
#include "wire/sharedwire.h"

#include <QFile>
#include <QTest>

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>

using namespace stampede;

Q_DECLARE_METATYPE(std::string)
Q_DECLARE_METATYPE(std::vector<stampede::SharedOp>)

namespace {

using K = SharedOp::Kind;

SharedOp op(K kind, std::string key, std::string value = {}, std::int64_t by = 1)
{
    return {kind, std::move(key), std::move(value), by};
}

// An agent's gRPC service with only its Shared stream: the test's channel serves it.
class SharedOnly final : public v1::EngineControl::Service
{
public:
    explicit SharedOnly(SharedChannel& c) : m_channel(c) {}
    grpc::Status Shared(grpc::ServerContext* ctx,
                        grpc::ServerReaderWriter<v1::SharedAsk, v1::SharedAnswer>* stream) override
    {
        v1::SharedAnswer first;
        if (!stream->Read(&first) || first.run_id() != "st-1")
            return {grpc::StatusCode::NOT_FOUND, "no such run"};
        ++streams;
        const grpc::Status s = m_channel.serve(*ctx, *stream);
        ++ended;
        return s;
    }
    std::atomic<int> streams{0}, ended{0};

private:
    SharedChannel& m_channel;
};

struct Served
{
    SharedChannel channel;
    SharedOnly service{channel};
    std::unique_ptr<grpc::Server> server;
    std::string address;
    Served()
    {
        int port = 0;
        grpc::ServerBuilder b;
        b.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
        b.RegisterService(&service);
        server = b.BuildAndStart();
        address = "127.0.0.1:" + std::to_string(port);
    }
    ~Served() { server->Shutdown(); }
};

} // namespace

class TestSharedData : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void textsAndCounters()
    {
        SharedStore s;
        QVERIFY(!s.apply(op(K::Get, "token")).found);
        QVERIFY(s.apply(op(K::Set, "token", "abc")).ok);
        SharedResult r = s.apply(op(K::Get, "token"));
        QVERIFY(r.found);
        QCOMPARE(r.value, std::string("abc"));
        QCOMPARE(s.apply(op(K::Increment, "n")).number, 1); // a key not set counts as 0
        QCOMPARE(s.apply(op(K::Increment, "n", {}, 41)).number, 42);
        QCOMPARE(s.apply(op(K::Increment, "n", {}, -50)).number, -8);
        QCOMPARE(s.apply(op(K::Get, "n")).value, std::string("-8"));
        r = s.apply(op(K::Increment, "token"));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("\"abc\" is not an integer") != std::string::npos, r.error.c_str());
        QVERIFY(s.apply(op(K::Set, "big", "9223372036854775807")).ok);
        r = s.apply(op(K::Increment, "big"));
        QVERIFY(!r.ok && r.error.find("past a 64-bit integer") != std::string::npos);
        QCOMPARE(s.apply(op(K::Get, "big")).value, std::string("9223372036854775807")); // refused: unchanged
        QVERIFY(s.apply(op(K::Remove, "token")).found);
        QVERIFY(!s.apply(op(K::Remove, "token")).found);
        QVERIFY(!s.apply(op(K::Get, "token")).found);
        QCOMPARE(s.keys(), std::size_t(2));
        QCOMPARE(s.bytes(), std::size_t(1 + 2 + 3 + 19));
    }

    void listsAreQueues()
    {
        SharedStore s;
        QCOMPARE(s.apply(op(K::Push, "ids", "a")).number, 1);
        QCOMPARE(s.apply(op(K::Push, "ids", "b")).number, 2);
        QCOMPARE(s.apply(op(K::Length, "ids")).number, 2);
        QVERIFY(!s.apply(op(K::Get, "ids")).ok); // a list is popped, not got
        QVERIFY(!s.apply(op(K::Set, "ids", "x")).ok);
        QVERIFY(!s.apply(op(K::Increment, "ids")).ok);
        SharedResult r = s.apply(op(K::Pop, "ids"));
        QVERIFY(r.found);
        QCOMPARE(r.value, std::string("a")); // first in, first out
        QCOMPARE(s.apply(op(K::Pop, "ids")).value, std::string("b"));
        r = s.apply(op(K::Pop, "ids"));
        QVERIFY(r.ok && !r.found);
        QCOMPARE(s.keys(), std::size_t(0)); // an emptied list is no key
        QCOMPARE(s.bytes(), std::size_t(0));
        QVERIFY(s.apply(op(K::Set, "ids", "now a text")).ok);
        QVERIFY(!s.apply(op(K::Push, "ids", "c")).ok);
        QVERIFY(!s.apply(op(K::Pop, "ids")).ok);
    }

    void boundsAreSaid()
    {
        SharedStore s;
        SharedResult r = s.apply(op(K::Set, std::string(257, 'k'), "v"));
        QVERIFY(!r.ok && r.error.find("257 bytes") != std::string::npos);
        r = s.apply(op(K::Set, "bad\xff", "v"));
        QVERIFY(!r.ok && r.error.find("not UTF-8") != std::string::npos && isUtf8(r.error));
        r = s.apply(op(K::Set, "big", std::string(SharedLimits::kValueBytes + 1, 'x')));
        QVERIFY(!r.ok && r.error.find("1048577 bytes") != std::string::npos);
        QVERIFY(s.apply(op(K::Set, "max", std::string(SharedLimits::kValueBytes, 'x'))).ok);
        r = s.apply(op(K::Set, "", "v"));
        QVERIFY(!r.ok && r.error.find("empty key") != std::string::npos);
        for (std::size_t i = 1; i < SharedLimits::kKeys; ++i)
            QVERIFY(s.apply(op(K::Increment, "k" + std::to_string(i))).ok);
        QCOMPARE(s.keys(), SharedLimits::kKeys);
        r = s.apply(op(K::Push, "one more", "v"));
        QVERIFY(!r.ok && r.error.find("100000 keys") != std::string::npos);
        QVERIFY(s.apply(op(K::Increment, "k7")).ok); // a key it holds still changes
        std::vector<SharedOp> many(SharedLimits::kOpsPerAsk + 1, op(K::Get, "k1"));
        std::string refused;
        const std::vector<SharedResult> all = s.apply(many, refused);
        QVERIFY(all.empty() && refused.find("65 ops") != std::string::npos);
    }

    // The controller's answer to whatever a peer sends on the stream.
    void hostileAsks_data()
    {
        QTest::addColumn<std::string>("bytes"); // a SharedAsk as a peer wrote it
        QTest::addColumn<int>("results");       // -1: refused as a whole
        QTest::addColumn<std::string>("said");  // in the error or the first result's

        const auto ask = [](std::uint64_t id, std::vector<std::tuple<int, std::string, std::string>> ops) {
            v1::SharedAsk a;
            a.set_id(id);
            for (auto& [kind, key, value] : ops) {
                auto* o = a.add_ops();
                o->set_kind(v1::SharedOp::Kind(kind));
                o->set_key(key);
                o->set_value(value);
                o->set_by(1);
            }
            return a.SerializeAsString();
        };
        QTest::newRow("a get") << ask(7, {{0, "k", ""}}) << 1 << std::string();
        QTest::newRow("no op") << ask(8, {}) << -1 << std::string("no op");
        QTest::newRow("unknown kind") << ask(9, {{99, "k", ""}}) << -1 << std::string("unknown kind 99");
        QTest::newRow("negative kind") << ask(9, {{-1, "k", ""}}) << -1 << std::string("unknown kind -1");
        QTest::newRow("key not UTF-8") << ask(10, {{1, "\xc3\x28", "v"}}) << -1 << std::string("\\xC3(");
        QTest::newRow("overlong UTF-8 key") << ask(10, {{1, "\xc0\xaf", "v"}}) << -1 << std::string("not UTF-8");
        QTest::newRow("key too long") << ask(11, {{1, std::string(300, 'a'), "v"}}) << -1 << std::string("300 bytes");
        QTest::newRow("empty key") << ask(12, {{4, "", ""}}) << -1 << std::string("empty key");
        QTest::newRow("value not UTF-8 is bytes") << ask(13, {{1, "bin", "\xff\xfe"}}) << 1 << std::string();
        QTest::newRow("value too long") << ask(14, {{3, "q", std::string((1 << 20) + 1, 'x')}}) << -1
                                        << std::string("1048577 bytes");
        std::vector<std::tuple<int, std::string, std::string>> many(65, {0, "k", ""});
        QTest::newRow("65 ops") << ask(15, many) << -1 << std::string("65 ops");
        QTest::newRow("get of a list") << ask(16, {{3, "l", "a"}, {0, "l", ""}}) << 2 << std::string();
        QTest::newRow("id 0") << ask(0, {{5, "l", ""}}) << 1 << std::string();
        QTest::newRow("max id") << ask(UINT64_MAX, {{6, "x", ""}}) << 1 << std::string();
        std::string unknownField = ask(17, {{0, "k", ""}});
        unknownField += std::string("\xa0\x06\x01", 3); // field 100, varint 1: a newer peer's
        QTest::newRow("unknown field") << unknownField << 1 << std::string();
    }
    void hostileAsks()
    {
        QFETCH(std::string, bytes);
        QFETCH(int, results);
        QFETCH(std::string, said);
        v1::SharedAsk ask;
        QVERIFY(ask.ParseFromString(bytes));
        SharedStore store;
        const v1::SharedAnswer a = answerAsk(store, ask);
        QCOMPARE(a.id(), ask.id());
        QVERIFY(isUtf8(a.error()));
        if (results < 0) {
            QVERIFY2(a.error().find(said) != std::string::npos, a.error().c_str());
            QCOMPARE(a.results_size(), 0);
            QCOMPARE(store.keys(), std::size_t(0)); // refused: nothing applied
        } else {
            QVERIFY2(a.error().empty(), a.error().c_str());
            QCOMPARE(a.results_size(), results);
            for (const auto& r : a.results())
                QVERIFY(isUtf8(r.error()));
        }
        std::string out;
        QVERIFY(a.SerializeToString(&out));
    }

    // An ask's ops are applied together: no other ask sees a state between them; counts from many threads add up.
    void manyThreadsAtOnce()
    {
        LocalSharedAccess access;
        std::vector<std::thread> threads;
        std::atomic<int> torn{0};
        for (int t = 0; t < 8; ++t)
            threads.emplace_back([&] {
                for (int i = 0; i < 2000; ++i) {
                    auto ticket = access.ask({op(K::Increment, "a"), op(K::Increment, "b")});
                    const auto& r = ticket->results();
                    if (r.size() != 2 || r[0].number != r[1].number)
                        ++torn;
                }
            });
        for (auto& t : threads)
            t.join();
        QCOMPARE(torn.load(), 0);
        QCOMPARE(access.store().apply(op(K::Get, "a")).value, std::string("16000"));
    }

    // fuzz_sharedask's seeds are what an agent writes: byte for byte toWire's, serialized (the real encoder).
    void corpusIsWhatAnAgentWrites_data()
    {
        QTest::addColumn<QString>("seed");
        QTest::addColumn<std::uint64_t>("id");
        QTest::addColumn<std::vector<SharedOp>>("ops");
        QTest::newRow("push-id") << QStringLiteral("push-id") << std::uint64_t(1)
                                 << std::vector<SharedOp>{op(K::Push, "ids", "m17")};
        QTest::newRow("pop") << QStringLiteral("pop") << std::uint64_t(2) << std::vector<SharedOp>{op(K::Pop, "ids")};
        QTest::newRow("template-read") << QStringLiteral("template-read") << std::uint64_t(5)
                                       << std::vector<SharedOp>{op(K::Get, "last"), op(K::Get, "token")};
        QTest::newRow("increment-negative") << QStringLiteral("increment-negative") << std::uint64_t(6)
                                            << std::vector<SharedOp>{op(K::Increment, "made", {}, -5)};
        QTest::newRow("utf8-key") << QStringLiteral("utf8-key") << std::uint64_t(8)
                                  << std::vector<SharedOp>{op(K::Set, "\xe8\xae\xa2\xe5\x8d\x95", "\xff\xfe")};
    }
    void corpusIsWhatAnAgentWrites()
    {
        QFETCH(QString, seed);
        QFETCH(std::uint64_t, id);
        QFETCH(std::vector<SharedOp>, ops);
        QFile f(qEnvironmentVariable("STAMPEDE_SOURCE_DIR") + QStringLiteral("/tests/fuzz/corpus/sharedask/") + seed);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
        const QByteArray bytes = f.readAll();
        v1::SharedAsk ask;
        ask.set_id(id);
        toWire(ops, ask);
        const std::string wire = ask.SerializeAsString();
        QCOMPARE(QByteArray(wire.data(), qsizetype(wire.size())), bytes);
    }

    // The real stream: an agent's channel, the controller's link.
    void overTheControlProtocol()
    {
        Served agent;
        SharedStore store;
        auto link = makeGrpcAgentLink(agent.address, {}, {});
        std::thread serving([&] { link->serveShared("st-1", store); });
        std::vector<SharedTicketPtr> tickets;
        for (int i = 0; i < 200; ++i)
            tickets.push_back(agent.channel.ask({op(K::Push, "q", std::to_string(i))}));
        for (auto& t : tickets)
            QVERIFY(t->wait(10 * kNanosPerSecond));
        for (int i = 0; i < 200; ++i)
            QCOMPARE(tickets[std::size_t(i)]->results().front().number, i + 1); // in the order asked
        auto pop = agent.channel.ask({op(K::Pop, "q"), op(K::Length, "q")});
        QVERIFY(pop->wait(10 * kNanosPerSecond));
        QCOMPARE(pop->results()[0].value, std::string("0"));
        QCOMPARE(pop->results()[1].number, 199);
        auto refused = agent.channel.ask({op(K::Set, "bad\xff", "v")}); // refused before it is sent
        QVERIFY(refused->ready() && refused->error().find("not UTF-8") != std::string::npos);
        QCOMPARE(agent.channel.answered(), std::uint64_t(201));

        link->cancelWatch(); // the controller's side ends the stream
        serving.join();
        QTRY_COMPARE_WITH_TIMEOUT(agent.service.ended.load(), 1, 10000); // and the agent's side saw it end
        auto later = agent.channel.ask({op(K::Increment, "n")});         // no stream: it waits for the next
        auto gaveUp = agent.channel.ask({op(K::Increment, "n", {}, 1000)});
        gaveUp->abandon(); // its waiter gave up: never sent
        QVERIFY(!later->wait(300 * kNanosPerMilli));
        auto again = makeGrpcAgentLink(agent.address, {}, {});
        std::thread serving2([&] { again->serveShared("st-1", store); });
        QVERIFY(later->wait(10 * kNanosPerSecond));
        QCOMPARE(later->results().front().number, 1);
        QCOMPARE(store.apply(op(K::Get, "n")).value, std::string("1")); // not 1001
        QCOMPARE(agent.service.streams.load(), 2);

        auto wrongRun = makeGrpcAgentLink(agent.address, {}, {});
        QVERIFY(!wrongRun->serveShared("st-2", store)); // refused by the agent: returns, not worth trying again
        again->cancelWatch();
        serving2.join();
        auto last = agent.channel.ask({op(K::Get, "n")});
        agent.channel.close(); // the run ended: what waits fails, later asks too
        QVERIFY(last->ready() && last->error() == "the run is over");
        QCOMPARE(agent.channel.ask({op(K::Get, "n")})->error(), std::string("the run is over"));
    }
};

QTEST_GUILESS_MAIN(TestSharedData)
#include "tst_shareddata.moc"
