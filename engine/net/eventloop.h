#pragma once
// One epoll instance, owned by one worker thread. Sockets are registered once,
// edge-triggered for reading and writing, and never modified afterwards: no
// epoll_ctl per request (wrk spends two).
#include "core/clock.h"

#include <cstdint>
#include <sys/epoll.h>

namespace stampede {

class EventLoop
{
public:
    EventLoop();
    ~EventLoop();
    EventLoop(const EventLoop&) = delete;
    EventLoop& operator=(const EventLoop&) = delete;

    bool valid() const { return m_fd >= 0; }
    // Registers `fd` for EPOLLIN | EPOLLOUT | EPOLLRDHUP, edge-triggered.
    bool add(int fd, void* tag);
    // Whether EPOLLOUT is asked for: a connection that rarely fills its send
    // buffer (HTTP/2, many requests per write) asks only while it waits to
    // write, and is not woken by every ACK.
    bool watchWrites(int fd, void* tag, bool on);
    // Waits up to `timeout` nanoseconds (negative: forever). Returns the number
    // of events in events(), 0 on timeout or interruption.
    //
    // A wait of a millisecond or more ends by the loop's own timerfd, armed
    // for that deadline and left armed while later waits end at (nearly) the
    // same moment (a worker's next tick is the same for 10 ms of waits). A
    // timed epoll wait arms and cancels a kernel timer each time instead,
    // which in a virtual machine reprograms the timer device: 2.4 % of a
    // keep-alive TLS worker's CPU. Shorter waits (paced arrivals) keep the
    // nanosecond timeout of epoll_pwait2.
    int wait(Nanos timeout);
    // Sleeps `timeout` without waiting on the epoll set, then returns the
    // events ready by its end (those ready at once, without sleeping): for
    // the short waits of HTTP/2's held writes (Http2Session::kMaxHold). A
    // thread asleep in epoll is woken by the first answer, which costs the
    // server's CPU the wake-up (an interrupt to this CPU), and a timed
    // epoll wait arms a kernel timer that in a virtual machine costs about
    // as much CPU as the wait itself (measured: 15 us for a 20 us wait).
    // A nap costs one timer, and the answers that arrive meanwhile are read
    // together at its end: against nginx over TLS (HTTP/2, 10 x 10), 1.25x
    // the requests per CPU-second of a timed wait for the hold's end, and
    // 1.08x a second. Their arrival is known that much later (at most the
    // nap, 20 us).
    int nap(Nanos timeout);
    const epoll_event* events() const { return m_events; }

    static constexpr int kMaxEvents = 256;

private:
    // The deadline timer: a timerfd in the epoll set (its events are the
    // loop's own, never returned), and when it is armed for (0: not armed).
    bool armFor(Nanos deadline);
    // Removes the timerfd's event from the `n` events: returns how many are left.
    int dropTimerEvent(int n);
    static constexpr Nanos kTimerFrom = kNanosPerMilli;
    static constexpr Nanos kTimerJitter = 5 * kNanosPerMicro;

    int m_fd = -1;
    int m_timer = -1;
    Nanos m_armed = 0;
    epoll_event m_events[kMaxEvents];
};

} // namespace stampede
