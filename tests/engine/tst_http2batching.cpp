// How an HTTP/2 connection gathers its requests into writes: a write waits
// for the answers still due on the connection (they bring the requests that
// go with it), but never longer than Http2Session::kMaxHold, so a slow answer
// holds back no other request for longer than that.
#include "http2loop.h"
#include "mock/mockserver.h"
#include "net/http2session.h"

#include <QTest>

#include <memory>

using namespace stampede;

constexpr Nanos kMicro = kNanosPerMicro;

class TestHttp2Batching : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<MockServer> m_server;

private slots:
    void initTestCase()
    {
        std::string error;
        auto rules =
            MockRuleSet::fromJson("{\"rules\": [{\"path\": \"/fast\", \"body\": \"ok\"},\n"
                                  "  {\"path\": \"/slow\", \"body\": \"late\", \"delay\": {\"fixedMs\": 400}}]}",
                                  error);
        QVERIFY2(rules, error.c_str());
        m_server = std::make_unique<MockServer>(rules);
        QVERIFY2(m_server->start("127.0.0.1:0", error), error.c_str());
    }

    // The rule, at simulated times: t is when the first held request was started.
    void aWriteWaitsForTheAnswersDueAndNoLonger()
    {
        const Nanos t = 1'000'000;
        // 3 of 10 streams answered and sent again: the other 7 answers are due
        QVERIFY(Http2Session::holdsWrite(3, 10, t, t));
        QVERIFY(Http2Session::holdsWrite(9, 10, t, t + Http2Session::kMaxHold - 1));
        // every stream in flight is among those held: nothing more will come
        QVERIFY(!Http2Session::holdsWrite(10, 10, t, t));
        QVERIFY(!Http2Session::holdsWrite(1, 1, t, t));
        // held as long as allowed
        QVERIFY(!Http2Session::holdsWrite(3, 10, t, t + Http2Session::kMaxHold));
        QVERIFY(!Http2Session::holdsWrite(3, 10, t, t + 5 * kNanosPerSecond));
        // nothing new to write (frames of the connection's own): never held
        QVERIFY(!Http2Session::holdsWrite(0, 10, t, t));
        // the cap is what the latency of a held request may gain
        QVERIFY(Http2Session::kMaxHold <= 20 * kMicro);
    }

    // A stream whose answer takes 400 ms: the three fast streams beside it on
    // the same connection go on answering and being sent again meanwhile.
    void aSlowAnswerHoldsBackNoOtherStream()
    {
        Http2Loop loop(m_server->port(), 4, 0);
        const Nanos start = loop.sendAll();
        loop.run(start + 300 * kNanosPerMilli, [] { return false; });
        QVERIFY2(loop.failures.empty(), loop.firstFailure());
        QCOMPARE(loop.slowAnswered, Nanos(0));
        // Held until the slow answer came, they would have made 3; even a
        // loaded machine turns a round on loopback in well under 3 ms.
        QVERIFY2(loop.fastAnswers > 100, qPrintable(QString::number(loop.fastAnswers)));
        loop.resend = false;
        loop.run(start + 5 * kNanosPerSecond, [&] { return loop.slowAnswered != 0; });
        QVERIFY(loop.slowAnswered - start >= 400 * kNanosPerMilli);
        QVERIFY2(loop.failures.empty(), loop.firstFailure());
    }

    // Every stream fast: each round's requests go out, none is lost or left
    // held when the answers stop coming.
    void everyRequestIsWrittenWhenAllAreAnswered()
    {
        Http2Loop loop(m_server->port(), 8, 99);
        const Nanos start = loop.sendAll();
        loop.run(start + 200 * kNanosPerMilli, [] { return false; });
        loop.resend = false;
        const std::uint64_t before = loop.fastAnswers;
        // the requests in flight (8, one per stream) are all answered
        loop.run(start + 5 * kNanosPerSecond, [&] { return loop.fastAnswers >= before + 8; });
        QCOMPARE(loop.fastAnswers, before + 8);
        QVERIFY(before > 100);
        QVERIFY2(loop.failures.empty(), loop.firstFailure());
    }
};

QTEST_APPLESS_MAIN(TestHttp2Batching)
#include "tst_http2batching.moc"
