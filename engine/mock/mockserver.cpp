#include "mockserver.h"

#include "core/clock.h"
#include "core/listensocket.h"
#include "core/text.h"
#include "mockh2.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <functional>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <queue>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <unordered_map>

namespace stampede {

namespace {

constexpr std::size_t kMaxRequestHead = 64 * 1024;
constexpr std::uint64_t kMaxRequestBody = 64ull * 1024 * 1024;

struct Conn
{
    int fd = -1;
    std::uint64_t id = 0; // unique per connection: file descriptors are reused
    std::string in;
    std::string out;
    std::size_t outPos = 0;
    bool waiting = false; // a delayed answer is pending: read nothing more
    bool closeAfter = false;
    std::uint64_t bodyLeft = 0; // request body bytes still to skip
    bool http1 = false;         // the first bytes were not HTTP/2's preface
    Nanos lastActive = 0;       // the last byte read or written
    Nanos headSince = 0;        // an incomplete HTTP/1.1 head's first byte (0: none waiting)
    // HTTP/2 (h2c with prior knowledge): the session, and where it schedules delayed answers
    struct Timers final : MockH2::Scheduler
    {
        std::function<void(std::int64_t, std::int32_t, const MockRule*, bool)> fn;
        void schedule(std::int64_t delay, std::int32_t stream, const MockRule* rule, bool fault) override
        {
            fn(delay, stream, rule, fault);
        }
    } timers;
    std::unique_ptr<MockH2> h2;
    // a rule's stream endpoint, once the request asked for it (mockstreams.h)
    std::unique_ptr<MockWsConnection> ws;
    std::unique_ptr<MockEventStream> sse;
};

// What a request to a stream endpoint said about it (copied: the head is erased before the stream starts).
struct StreamAsk
{
    std::string upgrade, key, version, protocols, lastEventId;
    void take(std::string_view name, std::string_view value)
    {
        if (equalsNoCase(name, "upgrade"))
            upgrade = value;
        else if (equalsNoCase(name, "sec-websocket-key"))
            key = value;
        else if (equalsNoCase(name, "sec-websocket-version"))
            version = value;
        else if (equalsNoCase(name, "sec-websocket-protocol"))
            protocols = value;
        else if (equalsNoCase(name, "last-event-id"))
            lastEventId = value;
    }
};

class Loop
{
public:
    Loop(const MockRuleSet& rules, int listenFd, int wakeFd, const std::atomic<bool>& stop, unsigned seed,
         Nanos headerTimeout, Nanos idleTimeout)
        : m_rules(rules), m_listen(listenFd), m_stop(stop), m_rng(seed), m_headerTimeout(headerTimeout),
          m_idleTimeout(idleTimeout)
    {
        m_ep = epoll_create1(EPOLL_CLOEXEC);
        epoll_event ev{};
        ev.events = EPOLLIN | EPOLLEXCLUSIVE;
        ev.data.ptr = nullptr;
        epoll_ctl(m_ep, EPOLL_CTL_ADD, listenFd, &ev);
        ev.events = EPOLLIN;
        ev.data.ptr = &m_wakeTag;
        epoll_ctl(m_ep, EPOLL_CTL_ADD, wakeFd, &ev);
    }
    ~Loop()
    {
        for (auto& [fd, c] : m_conns)
            ::close(fd);
        ::close(m_ep);
    }

    void run()
    {
        epoll_event events[128];
        while (!m_stop.load(std::memory_order_relaxed)) {
            int n;
            if (m_timers.empty() && m_conns.empty()) {
                n = epoll_wait(m_ep, events, 128, -1);
            } else {
                // delays are kept to the microsecond, not rounded up to epoll_wait's millisecond; the
                // connections' timeouts are looked at every second
                const Nanos now = SteadyClock::monotonicNow();
                const Nanos look = now + std::min<Nanos>(kNanosPerSecond, m_headerTimeout / 4);
                const Nanos next = m_timers.empty() ? look : std::min(m_timers.top().at, look);
                const Nanos wait = std::max<Nanos>(0, next - now);
                timespec ts{time_t(wait / kNanosPerSecond), long(wait % kNanosPerSecond)};
                n = epoll_pwait2(m_ep, events, 128, &ts, nullptr);
            }
            for (int i = 0; i < n; ++i) {
                void* tag = events[i].data.ptr;
                if (tag == &m_wakeTag)
                    continue;
                if (!tag) {
                    acceptAll();
                    continue;
                }
                Conn* c = static_cast<Conn*>(tag);
                const int fd = c->fd; // flush() may close and destroy c
                if (events[i].events & EPOLLOUT)
                    flush(*c);
                if (m_conns.count(fd) && (events[i].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)))
                    readFrom(*c);
            }
            fireTimers();
            sweep();
        }
    }

private:
    struct Timer
    {
        Nanos at;
        int fd;
        std::uint64_t id;
        const std::string* response;
        std::int32_t stream = 0; // HTTP/2: the stream to answer, by `rule`
        const MockRule* rule = nullptr;
        bool fault = false;
        enum Kind : std::uint8_t
        {
            Answer,
            WsPush,  // a WebSocket endpoint's next push
            SseEvent // an event stream's next event
        } kind = Answer;
        bool operator>(const Timer& o) const { return at > o.at; }
    };

    void acceptAll()
    {
        for (;;) {
            const int fd = ::accept4(m_listen, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd < 0)
                return;
            const int one = 1;
            ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            auto conn = std::make_unique<Conn>();
            conn->fd = fd;
            conn->id = ++m_nextId;
            conn->lastActive = SteadyClock::monotonicNow();
            epoll_event ev{};
            ev.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
            ev.data.ptr = conn.get();
            epoll_ctl(m_ep, EPOLL_CTL_ADD, fd, &ev);
            m_conns.emplace(fd, std::move(conn));
        }
    }

    // Connections past their timeouts: a head that never ends gets 408, an idle one is closed.
    void sweep()
    {
        const Nanos now = SteadyClock::monotonicNow();
        if (now < m_nextSweep)
            return;
        m_nextSweep = now + std::min<Nanos>(kNanosPerSecond, m_headerTimeout / 4);
        std::vector<int> late, idle;
        for (const auto& [fd, c] : m_conns) {
            if (c->waiting || c->outPos < c->out.size())
                continue;
            if (c->headSince && now - c->headSince > m_headerTimeout)
                late.push_back(fd);
            else if (now - c->lastActive > m_idleTimeout)
                idle.push_back(fd);
        }
        for (const int fd : late)
            if (auto it = m_conns.find(fd); it != m_conns.end())
                sendRaw(*it->second,
                        renderHttpResponse(408, {{"Connection", "close"}}, "the request head did not arrive in time\n"),
                        true);
        for (const int fd : idle)
            if (auto it = m_conns.find(fd); it != m_conns.end())
                closeConn(*it->second);
    }

    void closeConn(Conn& c)
    {
        const int fd = c.fd;
        ::close(fd);
        m_conns.erase(fd); // destroys c
    }

    void readFrom(Conn& c)
    {
        char buf[16384];
        for (;;) {
            const ssize_t n = ::recv(c.fd, buf, sizeof buf, 0);
            if (n > 0) {
                c.lastActive = SteadyClock::monotonicNow();
                c.in.append(buf, std::size_t(n));
                if (c.in.size() > kMaxRequestHead + kMaxRequestBody) {
                    closeConn(c);
                    return;
                }
                if (std::size_t(n) < sizeof buf)
                    break;
                continue;
            }
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                break;
            closeConn(c); // EOF or error
            return;
        }
        process(c);
    }

    // HTTP/2: everything read goes to the session, what it answers goes out.
    void processH2(Conn& c)
    {
        const bool keep = c.h2->receive(c.in.data(), c.in.size(), c.out);
        c.in.clear();
        if (!keep)
            c.closeAfter = true;
        flush(c);
    }

    // Answers every complete request in c.in, one at a time, in order.
    void process(Conn& c)
    {
        const int fd = c.fd; // `c` is destroyed when a response closes the connection
        if (!c.http1 && !c.h2) {
            // h2c with prior knowledge starts with the connection preface
            constexpr std::size_t n = sizeof MockH2::kPreface - 1;
            const std::size_t have = std::min(n, c.in.size());
            if (c.in.compare(0, have, MockH2::kPreface, have) == 0) {
                if (have < n)
                    return; // more of the preface to come
                c.h2 = std::make_unique<MockH2>(m_rules, m_rng, c.timers);
                c.timers.fn = [this, fd, id = c.id](std::int64_t delay, std::int32_t stream, const MockRule* rule,
                                                    bool fault) {
                    m_timers.push({SteadyClock::monotonicNow() + delay, fd, id, nullptr, stream, rule, fault});
                };
            } else {
                c.http1 = true;
            }
        }
        if (c.h2) {
            processH2(c);
            return;
        }
        if (c.ws || c.sse) {
            streamIn(c);
            return;
        }
        while (!c.waiting) {
            if (c.bodyLeft) {
                const std::size_t skip = std::size_t(std::min<std::uint64_t>(c.bodyLeft, c.in.size()));
                c.in.erase(0, skip);
                c.bodyLeft -= skip;
                if (c.bodyLeft)
                    return;
            }
            const std::size_t end = c.in.find("\r\n\r\n");
            if (end == std::string::npos || end > kMaxRequestHead) {
                c.headSince = c.in.empty() ? 0 : c.headSince ? c.headSince : SteadyClock::monotonicNow();
                if (c.in.size() > kMaxRequestHead + 3)
                    sendRaw(c,
                            renderHttpResponse(431, {{"Connection", "close"}},
                                               "the request head is over " + std::to_string(kMaxRequestHead / 1024) +
                                                   " KiB\n"),
                            true);
                return;
            }
            c.headSince = 0;
            const std::string_view head(c.in.data(), end);
            const std::size_t lineEnd = head.find("\r\n");
            const std::string_view line = head.substr(0, lineEnd);
            const std::size_t sp1 = line.find(' ');
            const std::size_t sp2 = line.rfind(' ');
            if (sp1 == std::string_view::npos || sp2 == sp1 || line.substr(sp2 + 1, 7) != "HTTP/1.") {
                sendRaw(c, renderHttpResponse(400, {{"Connection", "close"}}, "bad request line\n"), true);
                return;
            }
            const std::string_view method = line.substr(0, sp1);
            std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
            bool keepAlive = line.substr(sp2 + 1) == "HTTP/1.1";
            std::uint64_t contentLength = 0;
            bool chunked = false;
            bool badLength = false;
            const std::string_view path = target.substr(0, target.find('?'));
            const MockRule* rule = path == "/__stampede/stats" ? nullptr : m_rules.match(method, path);
            std::uint32_t met = 0; // the rule's required headers found
            StreamAsk ask;
            std::size_t pos = lineEnd == std::string_view::npos ? head.size() : lineEnd + 2;
            while (pos < head.size()) {
                std::size_t e = head.find("\r\n", pos);
                if (e == std::string_view::npos)
                    e = head.size();
                const std::string_view h = head.substr(pos, e - pos);
                const std::size_t colon = h.find(':');
                if (colon != std::string_view::npos) {
                    const std::string_view name = h.substr(0, colon);
                    std::string_view value = h.substr(colon + 1);
                    while (!value.empty() && value.front() == ' ')
                        value.remove_prefix(1);
                    if (equalsNoCase(name, "content-length")) {
                        while (!value.empty() && (value.back() == ' ' || value.back() == '\t'))
                            value.remove_suffix(1);
                        // digits only (RFC 9110 8.6): "-5" or "1e3" is no length
                        badLength = value.empty() || value.size() > 19 ||
                                    value.find_first_not_of("0123456789") != std::string_view::npos;
                        contentLength = badLength ? 0 : std::strtoull(std::string(value).c_str(), nullptr, 10);
                    } else if (equalsNoCase(name, "transfer-encoding"))
                        chunked = true;
                    else if (equalsNoCase(name, "connection"))
                        keepAlive = !equalsNoCase(value, "close");
                    if (rule && !rule->require.empty())
                        met |= rule->meets(name, value);
                    if (rule && rule->stream)
                        ask.take(name, value);
                }
                pos = e + 2;
            }
            if (badLength) {
                sendRaw(c, renderHttpResponse(400, {{"Connection", "close"}}, "bad Content-Length\n"), true);
                return;
            }
            if (chunked) {
                sendRaw(
                    c, renderHttpResponse(411, {{"Connection", "close"}}, "chunked request bodies are not supported\n"),
                    true);
                return;
            }
            if (contentLength > kMaxRequestBody) {
                sendRaw(c, renderHttpResponse(413, {{"Connection", "close"}}, "request body too large\n"), true);
                return;
            }
            // the request is consumed from here on
            const std::string pathCopy(path);
            c.in.erase(0, end + 4);
            c.bodyLeft = contentLength;
            c.closeAfter = !keepAlive;
            if (pathCopy == "/__stampede/stats") {
                sendRaw(c, renderHttpResponse(200, {{"Content-Type", "application/json"}}, m_rules.statsJson()),
                        !keepAlive);
                if (!m_conns.count(fd))
                    return;
                continue;
            }
            if (rule && rule->stream && met == rule->allMet()) {
                rule->served.fetch_add(1, std::memory_order_relaxed);
                startStream(c, *rule, ask);
                return;
            }
            const std::string* response;
            Nanos delay = 0;
            if (!rule) {
                m_rules.countUnmatched();
                response = &m_rules.notFoundResponse();
            } else if (met != rule->allMet()) {
                rule->refused.fetch_add(1, std::memory_order_relaxed);
                response = &rule->refusedResponse;
            } else {
                rule->served.fetch_add(1, std::memory_order_relaxed);
                const bool fault = rule->injectFault(m_rng);
                response = fault ? &rule->errorResponse : &rule->response;
                delay = rule->drawDelay(m_rng);
                if (const std::int64_t limit = rule->limitFor(SteadyClock::monotonicNow()); limit < 0) {
                    response = &rule->limitedResponse;
                    delay = 0;
                } else
                    delay += limit;
            }
            if (delay > 0) {
                c.waiting = true;
                m_timers.push({SteadyClock::monotonicNow() + delay, c.fd, c.id, response});
                return;
            }
            sendRaw(c, *response, !keepAlive);
            if (!m_conns.count(fd))
                return;
        }
    }

    // A stream endpoint's request: the WebSocket handshake answered (or refused) and the connection handed to the
    // endpoint, or the event stream's head and first event; the next push or event on a timer.
    void startStream(Conn& c, const MockRule& rule, const StreamAsk& ask)
    {
        const MockStreamRule& s = *rule.stream;
        const Nanos now = SteadyClock::monotonicNow();
        if (s.websocket) {
            bool ok = false;
            const std::string answer = mockWsUpgradeAnswer(s, ask.upgrade, ask.key, ask.version, ask.protocols, ok);
            if (!ok) {
                sendRaw(c, answer, true);
                return;
            }
            c.ws = std::make_unique<MockWsConnection>(s);
            c.out += answer;
            if (!s.text.empty())
                m_timers.push({now + s.every, c.fd, c.id, nullptr, 0, &rule, false, Timer::WsPush});
            const int fd = c.fd;
            flush(c);
            if (m_conns.count(fd) && !c.in.empty())
                streamIn(c); // frames that came with the upgrade
            return;
        }
        c.sse = std::make_unique<MockEventStream>(s, ask.lastEventId);
        c.out += c.sse->start();
        if (c.sse->next(c.out))
            m_timers.push({now + s.every, c.fd, c.id, nullptr, 0, &rule, false, Timer::SseEvent});
        else
            c.closeAfter = true;
        flush(c);
    }

    // Bytes on a stream endpoint's connection: a WebSocket's frames answered; a client says nothing more on an
    // event stream (what it sends is dropped).
    void streamIn(Conn& c)
    {
        if (c.ws) {
            if (!c.ws->feed(c.in, c.out))
                c.closeAfter = true;
        }
        c.in.clear();
        flush(c);
    }

    // A stream's timer: the next push or event, and the one after it scheduled.
    void streamTurn(Conn& c, const Timer& t)
    {
        bool more = false;
        if (t.kind == Timer::WsPush && c.ws) {
            more = c.ws->push(c.out);
            c.closeAfter = c.closeAfter || c.ws->closing();
        } else if (t.kind == Timer::SseEvent && c.sse) {
            more = c.sse->next(c.out);
            c.closeAfter = c.closeAfter || !more;
        }
        if (more)
            m_timers.push(
                {SteadyClock::monotonicNow() + t.rule->stream->every, c.fd, c.id, nullptr, 0, t.rule, false, t.kind});
        flush(c);
    }

    void sendRaw(Conn& c, const std::string& response, bool close)
    {
        c.out.append(response);
        c.closeAfter = close;
        flush(c);
    }

    void flush(Conn& c)
    {
        while (c.outPos < c.out.size()) {
            const ssize_t n = ::send(c.fd, c.out.data() + c.outPos, c.out.size() - c.outPos, MSG_NOSIGNAL);
            if (n > 0) {
                c.outPos += std::size_t(n);
                c.lastActive = SteadyClock::monotonicNow();
                continue;
            }
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                return;
            closeConn(c);
            return;
        }
        c.out.clear();
        c.outPos = 0;
        if (c.closeAfter)
            closeConn(c);
    }

    void fireTimers()
    {
        const Nanos now = SteadyClock::monotonicNow();
        while (!m_timers.empty() && m_timers.top().at <= now) {
            const Timer t = m_timers.top();
            m_timers.pop();
            auto it = m_conns.find(t.fd);
            if (it == m_conns.end() || it->second->id != t.id)
                continue; // that connection is gone
            Conn& c = *it->second;
            if (t.kind != Timer::Answer) {
                streamTurn(c, t);
                continue;
            }
            if (c.h2) {
                c.h2->answer(t.stream, t.rule, t.fault, c.out);
                flush(c);
                continue;
            }
            c.waiting = false;
            sendRaw(c, *t.response, c.closeAfter);
            if (m_conns.count(t.fd))
                process(c); // pipelined requests behind it
        }
    }

    const MockRuleSet& m_rules;
    int m_listen;
    int m_ep;
    const std::atomic<bool>& m_stop;
    FastRandom m_rng;
    int m_wakeTag = 0;
    std::unordered_map<int, std::unique_ptr<Conn>> m_conns;
    std::uint64_t m_nextId = 0;
    Nanos m_nextSweep = 0;
    Nanos m_headerTimeout, m_idleTimeout;
    std::priority_queue<Timer, std::vector<Timer>, std::greater<Timer>> m_timers;
};

} // namespace

MockServer::MockServer(std::shared_ptr<MockRuleSet> rules, unsigned threads)
    : m_rules(std::move(rules)), m_threadCount(threads ? threads : 1)
{
}

MockServer::~MockServer()
{
    stop();
}

bool MockServer::start(const std::string& address, std::string& error)
{
    m_listenFd = listenOn(address, m_host, m_port, error);
    if (m_listenFd < 0)
        return false;
    m_wakeFd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    m_stop = false;
    for (unsigned i = 0; i < m_threadCount; ++i)
        m_threads.emplace_back([this, i] { serve(i); });
    return true;
}

void MockServer::serve(unsigned index)
{
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    Loop loop(*m_rules, m_listenFd, m_wakeFd, m_stop, 0x5EED + index, m_headerTimeout, m_idleTimeout);
    loop.run();
}

void MockServer::stop()
{
    if (m_threads.empty())
        return;
    m_stop = true;
    const std::uint64_t one = 1;
    [[maybe_unused]] auto r = ::write(m_wakeFd, &one, sizeof one);
    for (auto& t : m_threads)
        t.join();
    m_threads.clear();
    ::close(m_listenFd);
    ::close(m_wakeFd);
    m_listenFd = m_wakeFd = -1;
}

std::string MockServer::baseUrl() const
{
    const bool v6 = m_host.find(':') != std::string::npos;
    return "http://" + (v6 ? "[" + m_host + "]" : m_host) + ":" + std::to_string(m_port);
}

} // namespace stampede
