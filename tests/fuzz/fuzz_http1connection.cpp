// libFuzzer target: a whole connection's byte stream (several answers, stray
// bytes, closes, split anywhere) written by a loopback peer to a real
// Http1Session, which submits its next request from inside each outcome as
// the worker does. The listener must hear of each request exactly once and
// only while it is outstanding; AddressSanitizer watches the buffers.
#include "loopbackpeer.h"
#include "net/endpoint.h"
#include "net/eventloop.h"
#include "net/http1session.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

using namespace stampede;

namespace {

using fuzzpeer::endpoint;
using fuzzpeer::listener;

const std::string kGet = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
const std::string kHead = "HEAD / HTTP/1.1\r\nHost: x\r\n\r\n";

struct Listener final : SessionListener
{
    Http1Session* session = nullptr;
    bool outstanding = false;
    int submitted = 0;
    int toSubmit = 0;
    bool head = false;
    void next(Nanos now)
    {
        if (submitted >= toSubmit)
            return;
        ++submitted;
        outstanding = true;
        const std::string& r = head ? kHead : kGet;
        session->submit(endpoint(), r.data(), r.size(), head, now, 50 * kNanosPerMilli, 50 * kNanosPerMilli);
    }
    void outcome(Nanos now)
    {
        if (!outstanding)
            __builtin_trap(); // an outcome for a request nobody is waiting for
        outstanding = false;
        next(now); // as the worker does: the next request from inside the outcome
    }
    void onAnswer(std::uint32_t, const Answer& a, Nanos now) override
    {
        if (!a.failed && (a.status < 100 || a.status > 599))
            __builtin_trap();
        outcome(now);
    }
    void onStray(std::uint32_t, std::string_view bytes, Nanos) override
    {
        if (bytes.empty() || bytes.size() > 1024)
            __builtin_trap();
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 2)
        return 0;
    const std::size_t step = 1 + data[0] % 128;
    EventLoop loop;
    std::vector<char> buffer(1 + data[1] % 200); // small reads split answers further
    Listener l;
    l.toSubmit = 1 + data[1] % 4;
    l.head = data[1] & 0x80;
    Http1Session session(loop, l, buffer.data(), buffer.size());
    l.session = &session;
    Nanos now = SteadyClock::monotonicNow();
    l.next(now);
    int server = -1;
    const char* text = reinterpret_cast<const char*>(data + 2);
    std::size_t left = size - 2;
    // loopback delivers at once: each turn polls without waiting
    for (std::size_t turn = 0; turn < 64 + size && (left || l.outstanding); ++turn) {
        // the session may have opened a new connection (after a close, a stray, a retry)
        const int c = ::accept4(listener(), nullptr, nullptr, SOCK_CLOEXEC);
        if (c >= 0) {
            if (server >= 0)
                ::close(server);
            server = c;
        }
        if (server >= 0 && left) {
            const std::size_t n = left < step ? left : step;
            if (::send(server, text, n, MSG_NOSIGNAL | MSG_DONTWAIT) > 0) {
                text += n;
                left -= n;
            }
        } else if (server >= 0 && !left) {
            ::shutdown(server, SHUT_WR); // the peer is done: what is still waiting ends
        }
        const int events = loop.wait(0);
        now = SteadyClock::monotonicNow();
        dispatchEvents(loop, events, now);
        session.checkDeadline(now);
    }
    session.close();
    if (server >= 0)
        ::close(server);
    // connections the session opened that were never accepted
    for (int c; (c = ::accept4(listener(), nullptr, nullptr, SOCK_CLOEXEC)) >= 0;)
        ::close(c);
    return 0;
}
