// Waiting for agents (--min-agents) on the injected clock (issue 49): the wait
// and the pause between lookups are the clock's, so the minute's timeout is
// tested in simulated time, in no time.
#include "control/agentdiscovery.h"
#include "core/clock.h"

#include <QElapsedTimer>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace stampede;

namespace {

// A loopback listener (or, closed, a port where nothing listens): its fd and port.
std::pair<int, int> listener()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd, 4) != 0)
        qFatal("cannot listen on loopback");
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    return {fd, ntohs(a.sin_port)};
}

} // namespace

class TestDiscoveryWait : public QObject
{
    Q_OBJECT
private slots:
    // Nobody answers: the lookups go on once a second of the clock until the minute has passed on it.
    void aMinuteWithoutAgentsPassesOnTheClock()
    {
        const auto [fd, port] = listener();
        ::close(fd); // nothing listens there now
        FakeClock clock(5 * kNanosPerSecond);
        std::vector<std::string> out;
        std::string error;
        QElapsedTimer real;
        real.start();
        QVERIFY(!awaitAgents({"127.0.0.1:" + std::to_string(port)}, 1, 60 * kNanosPerSecond, out, error, clock));
        QVERIFY2(real.elapsed() < 20000, qPrintable(QString::number(real.elapsed())));
        QCOMPARE(clock.now(), 65 * kNanosPerSecond); // 60 pauses of a second, then the check that ends it
        QVERIFY(out.empty());
        QVERIFY2(error.rfind("--min-agents 1: 0 of 1 agents found answered within ", 0) == 0, error.c_str());
    }

    // Enough agents answer: at once, without a pause.
    void answeringAgentsEndTheWaitAtOnce()
    {
        const auto [fd, port] = listener();
        FakeClock clock;
        std::vector<std::string> out;
        std::string error;
        const std::string agent = "127.0.0.1:" + std::to_string(port);
        QVERIFY2(awaitAgents({agent}, 1, 60 * kNanosPerSecond, out, error, clock), error.c_str());
        QCOMPARE(out, std::vector<std::string>{agent});
        QCOMPARE(clock.now(), Nanos(0));
        ::close(fd);
    }

    // The steady clock sleeps for real; a fake one moves instead, and not backwards.
    void clocksWait()
    {
        SteadyClock steady;
        const Nanos before = steady.now();
        steady.sleepFor(20 * kNanosPerMilli);
        QVERIFY(steady.now() - before >= 20 * kNanosPerMilli);
        FakeClock fake(7);
        fake.sleepFor(-5);
        QCOMPARE(fake.now(), Nanos(7));
        fake.sleepFor(3);
        QCOMPARE(fake.now(), Nanos(10));
    }
};

QTEST_GUILESS_MAIN(TestDiscoveryWait)
#include "tst_discoverywait.moc"
