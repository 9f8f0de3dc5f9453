#include "eventloop.h"

#include <cerrno>
#include <unistd.h>

namespace stampede {

EventLoop::EventLoop() : m_fd(epoll_create1(EPOLL_CLOEXEC)) {}

EventLoop::~EventLoop()
{
    if (m_fd >= 0)
        ::close(m_fd);
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
    if (timeout < 0) {
        n = epoll_wait(m_fd, m_events, kMaxEvents, -1);
    } else {
        // epoll_pwait2 takes a nanosecond timeout: the open model's arrivals
        // are paced to the microsecond, not to epoll_wait's millisecond.
        timespec ts{time_t(timeout / kNanosPerSecond), long(timeout % kNanosPerSecond)};
        n = epoll_pwait2(m_fd, m_events, kMaxEvents, &ts, nullptr);
    }
    return n < 0 ? 0 : n;
}

} // namespace stampede
