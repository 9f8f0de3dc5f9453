#include "tlsbio.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <openssl/bio.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace stampede {

// send(2) and recv(2) without glibc's wrappers: those are cancellation points,
// and in a process with several threads each call switches asynchronous
// cancellation on and off around the system call (1.5 % of a worker's CPU at
// 250k requests/s). Workers are never cancelled; errno is set as usual. A
// call a signal interrupted is made again.
ssize_t rawSend(int fd, const char* data, std::size_t size)
{
    ssize_t n = 0;
    do
        n = ::syscall(SYS_sendto, fd, data, size, MSG_NOSIGNAL, nullptr, 0);
    while (n < 0 && errno == EINTR);
    return n;
}
ssize_t rawRecv(int fd, char* buffer, std::size_t size)
{
    ssize_t n = 0;
    do
        n = ::syscall(SYS_recvfrom, fd, buffer, size, 0, nullptr, nullptr);
    while (n < 0 && errno == EINTR);
    return n;
}

std::size_t takeFrom(std::string& from, std::size_t& at, char* to, std::size_t size)
{
    const std::size_t n = std::min(size, from.size() - at);
    std::memcpy(to, from.data() + at, n);
    at += n;
    if (at == from.size()) {
        from.clear();
        at = 0;
    }
    return n;
}

int rawSocketType()
{
    static const int type = BIO_get_new_index() | BIO_TYPE_SOURCE_SINK | BIO_TYPE_DESCRIPTOR;
    return type;
}

unsigned char* scratch()
{
    static thread_local std::unique_ptr<unsigned char[]> buffer(new unsigned char[kScratch]);
    return buffer.get();
}

} // namespace stampede
