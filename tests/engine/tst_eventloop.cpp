// The event loop's waits. A wait of a millisecond or more ends by the loop's
// own timerfd, left armed while the deadline stays; it must still end on
// time (not early, not late) when the deadline moves either way, and its
// own event is never handed out as one of the caller's. A nap sleeps its
// length whatever comes meanwhile.
#include "net/eventloop.h"

#include <QTest>

#include <chrono>
#include <thread>

#include <sys/eventfd.h>
#include <unistd.h>

using namespace stampede;

namespace {
// How long a wait of `timeout` took, and how many events it returned.
Nanos timed(EventLoop& loop, Nanos timeout, int& events)
{
    const Nanos start = SteadyClock::monotonicNow();
    events = loop.wait(timeout);
    return SteadyClock::monotonicNow() - start;
}
constexpr Nanos kLate = 60 * kNanosPerMilli; // a busy CI machine's scheduling
} // namespace

class TestEventLoop : public QObject
{
    Q_OBJECT
private slots:
    void longWaitsEndOnTime()
    {
        EventLoop loop;
        QVERIFY(loop.valid());
        int events = -1;
        for (const Nanos t : {20 * kNanosPerMilli, 5 * kNanosPerMilli, 30 * kNanosPerMilli, kNanosPerMilli / 2}) {
            const Nanos took = timed(loop, t, events);
            QCOMPARE(events, 0); // the timer's own event is not the caller's
            QVERIFY2(took >= t - 10 * kNanosPerMicro, std::to_string(took).c_str());
            QVERIFY2(took < t + kLate, std::to_string(took).c_str());
        }
    }

    // An event ends a long wait at once; the timer armed for it is moved
    // for a nearer deadline, and kept for the same one.
    void eventsAndMovedDeadlines()
    {
        EventLoop loop;
        const int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        int tag = 0;
        QVERIFY(loop.add(fd, &tag));
        int events = -1;
        // the eventfd is writable from the start (EPOLLOUT, edge): one event
        Nanos took = timed(loop, 200 * kNanosPerMilli, events);
        QCOMPARE(events, 1);
        QCOMPARE(loop.events()[0].data.ptr, static_cast<void*>(&tag));
        QVERIFY(took < kLate);
        // armed for 200 ms from then: a wait of 10 ms still ends in 10 (the timer moves nearer)
        took = timed(loop, 10 * kNanosPerMilli, events);
        QCOMPARE(events, 0);
        QVERIFY2(took >= 10 * kNanosPerMilli - 10 * kNanosPerMicro && took < 10 * kNanosPerMilli + kLate,
                 std::to_string(took).c_str());
        // a write ends a long wait at once
        const std::uint64_t one = 1;
        QCOMPARE(::write(fd, &one, sizeof one), ssize_t(sizeof one));
        took = timed(loop, 500 * kNanosPerMilli, events);
        QCOMPARE(events, 1);
        QVERIFY(took < kLate);
        // the same deadline again (the rest of the 500 ms), then a later one
        const Nanos rest = 300 * kNanosPerMilli;
        took = timed(loop, rest, events);
        QCOMPARE(events, 0);
        QVERIFY2(took >= rest - 10 * kNanosPerMicro && took < rest + kLate, std::to_string(took).c_str());
        ::close(fd);
    }

    // A nap returns the events ready at once without sleeping; otherwise it
    // sleeps its whole length, not ended by an event that comes meanwhile,
    // and returns it at its end. The timer's event stays the loop's own.
    void aNapSleepsItsLengthAndIsNotEndedByEvents()
    {
        EventLoop loop;
        const int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        int tag = 0;
        QVERIFY(loop.add(fd, &tag));
        Nanos start = SteadyClock::monotonicNow();
        QCOMPARE(loop.nap(200 * kNanosPerMilli), 1); // writable from the start
        QVERIFY(SteadyClock::monotonicNow() - start < kLate);
        // an event 5 ms into a nap of 30 ms
        std::thread writer([fd] {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
            const std::uint64_t one = 1;
            (void)!::write(fd, &one, sizeof one);
        });
        start = SteadyClock::monotonicNow();
        const int events = loop.nap(30 * kNanosPerMilli);
        const Nanos took = SteadyClock::monotonicNow() - start;
        writer.join();
        QCOMPARE(events, 1);
        QCOMPARE(loop.events()[0].data.ptr, static_cast<void*>(&tag));
        QVERIFY2(took >= 30 * kNanosPerMilli - 10 * kNanosPerMicro, std::to_string(took).c_str());
        QVERIFY2(took < 30 * kNanosPerMilli + kLate, std::to_string(took).c_str());
        // the timer armed by a wait an event ended early fires during a nap: not handed out
        const std::uint64_t one = 1;
        QCOMPARE(::write(fd, &one, sizeof one), ssize_t(sizeof one));
        int woken = -1;
        timed(loop, 3 * kNanosPerMilli, woken);
        QCOMPARE(woken, 1);
        QCOMPARE(loop.nap(10 * kNanosPerMilli), 0);
        ::close(fd);
    }
};

QTEST_GUILESS_MAIN(TestEventLoop)
#include "tst_eventloop.moc"
