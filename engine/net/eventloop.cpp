#include "eventloop.h"

#include <cerrno>
#include <cstdint>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

namespace stampede {

EventLoop::EventLoop() : m_fd(epoll_create1(EPOLL_CLOEXEC))
{
    if (m_fd < 0)
        return;
    m_timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.ptr = &m_timer;
    if (m_timer >= 0 && epoll_ctl(m_fd, EPOLL_CTL_ADD, m_timer, &ev) != 0) {
        ::close(m_timer);
        m_timer = -1; // timed waits only
    }
}

EventLoop::~EventLoop()
{
    if (m_timer >= 0)
        ::close(m_timer);
    if (m_fd >= 0)
        ::close(m_fd);
}

bool EventLoop::armFor(Nanos deadline)
{
    // Armed a little later (jitter: the caller's clock read and ours) or up
    // to a millisecond earlier (the early wake finds the rest a short wait),
    // it stays as it is.
    if (m_armed && deadline >= m_armed - kTimerJitter && deadline <= m_armed + kTimerFrom)
        return true;
    itimerspec when{};
    when.it_value.tv_sec = time_t(deadline / kNanosPerSecond);
    when.it_value.tv_nsec = long(deadline % kNanosPerSecond);
    if (timerfd_settime(m_timer, TFD_TIMER_ABSTIME, &when, nullptr) != 0)
        return false;
    m_armed = deadline;
    return true;
}

bool EventLoop::add(int fd, void* tag)
{
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
    ev.data.ptr = tag;
    return epoll_ctl(m_fd, EPOLL_CTL_ADD, fd, &ev) == 0;
}

bool EventLoop::watchWrites(int fd, void* tag, bool on)
{
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP | EPOLLET | (on ? EPOLLOUT : 0u);
    ev.data.ptr = tag;
    return epoll_ctl(m_fd, EPOLL_CTL_MOD, fd, &ev) == 0;
}

int EventLoop::wait(Nanos timeout)
{
    int n;
    if (timeout < 0 || (timeout >= kTimerFrom && m_timer >= 0 && armFor(SteadyClock::monotonicNow() + timeout))) {
        n = epoll_wait(m_fd, m_events, kMaxEvents, -1);
    } else {
        // epoll_pwait2 takes a nanosecond timeout: the open model's arrivals
        // are paced to the microsecond, not to epoll_wait's millisecond.
        timespec ts{time_t(timeout / kNanosPerSecond), long(timeout % kNanosPerSecond)};
        n = epoll_pwait2(m_fd, m_events, kMaxEvents, &ts, nullptr);
    }
    return dropTimerEvent(n);
}

int EventLoop::nap(Nanos timeout)
{
    const int n = dropTimerEvent(epoll_wait(m_fd, m_events, kMaxEvents, 0));
    if (n > 0 || timeout <= 0)
        return n;
    const timespec ts{time_t(timeout / kNanosPerSecond), long(timeout % kNanosPerSecond)};
    nanosleep(&ts, nullptr); // a signal ends it early: the events are looked for all the same
    return dropTimerEvent(epoll_wait(m_fd, m_events, kMaxEvents, 0));
}

int EventLoop::dropTimerEvent(int n)
{
    for (int i = 0; i < n; ++i) {
        if (m_events[i].data.ptr != &m_timer)
            continue;
        std::uint64_t expired = 0;
        (void)!::read(m_timer, &expired, sizeof expired);
        m_armed = 0;
        m_events[i] = m_events[--n];
        break;
    }
    return n < 0 ? 0 : n;
}

} // namespace stampede
