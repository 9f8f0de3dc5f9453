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
    int wait(Nanos timeout);
    const epoll_event* events() const { return m_events; }

    static constexpr int kMaxEvents = 256;

private:
    int m_fd = -1;
    epoll_event m_events[kMaxEvents];
};

} // namespace stampede
