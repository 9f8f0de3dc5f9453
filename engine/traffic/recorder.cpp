#include "recorder.h"

#include "core/durationtext.h"
#include "core/listensocket.h"
#include "core/text.h"
#include "requestreader.h"

#include <nghttp2/nghttp2.h>

#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>
#include <unordered_map>

namespace stampede {

namespace {

constexpr char kPreface[] = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
constexpr std::size_t kPrefaceSize = sizeof kPreface - 1;
constexpr char kNoContent[] = "HTTP/1.1 204 No Content\r\n\r\n";
constexpr char kNoContentClose[] = "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n";
constexpr char kBadRequest[] = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";

std::int64_t wallNanos()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string peerText(const sockaddr_storage& ss)
{
    char buf[INET6_ADDRSTRLEN] = {};
    if (ss.ss_family == AF_INET6)
        inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&ss)->sin6_addr, buf, sizeof buf);
    else if (ss.ss_family == AF_INET)
        inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&ss)->sin_addr, buf, sizeof buf);
    return buf;
}

// Who sent it: the first address of X-Forwarded-For, else X-Real-IP (what a
// mirror adds), else the peer (the gateway itself).
void setClient(TrafficRecord& r, const std::string& peer)
{
    std::string_view forwarded, real;
    for (const auto& [name, value] : r.headers) {
        if (name == "x-forwarded-for" && forwarded.empty())
            forwarded = trimSpaces(std::string_view(value).substr(0, value.find(',')));
        else if (name == "x-real-ip" && real.empty())
            real = trimSpaces(value);
    }
    r.client = !forwarded.empty() ? std::string(forwarded) : !real.empty() ? std::string(real) : peer;
}

std::size_t recordBytes(const TrafficRecord& r)
{
    std::size_t n = sizeof r + r.target.size() + r.body.size() + r.host.size() + r.client.size();
    for (const auto& [name, value] : r.headers)
        n += sizeof(std::pair<std::string, std::string>) + name.size() + value.size();
    return n;
}

} // namespace

bool RecordFilter::keeps(const TrafficRecord& r, FastRandom& rng) const
{
    if (!host.empty()) {
        std::string_view h = r.host;
        if (host.find(':') == std::string::npos && !h.empty() && h.back() != ']') {
            const std::size_t colon = h.rfind(':');
            if (colon != std::string_view::npos && h.find(':') == colon)
                h = h.substr(0, colon); // the port goes, an IPv6 address's colons stay
        }
        if (!equalsNoCase(h, host))
            return false;
    }
    const std::string_view path = std::string_view(r.target).substr(0, r.target.find('?'));
    if (include && !include->search(path))
        return false;
    if (exclude && exclude->search(path))
        return false;
    return samplePercent >= 100 || double(rng.next() >> 11) * 0x1.0p-53 * 100 < samplePercent;
}

// The loop's thread: connections read, requests answered and kept.
class Recorder::Loop
{
public:
    explicit Loop(Recorder& r) : m_r(r), m_rng(std::uint64_t(wallNanos()))
    {
        m_ep = epoll_create1(EPOLL_CLOEXEC);
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.ptr = nullptr;
        epoll_ctl(m_ep, EPOLL_CTL_ADD, r.m_listenFd, &ev);
        ev.data.ptr = &m_wakeTag;
        epoll_ctl(m_ep, EPOLL_CTL_ADD, r.m_wakeFd, &ev);
    }
    ~Loop()
    {
        for (auto& [fd, c] : m_conns)
            ::close(fd);
        ::close(m_ep);
    }
    void run();

    struct Conn;
    struct H2;
    void keep(TrafficRecord&& record);

private:
    void acceptAll();
    void readFrom(Conn& c);
    void process(Conn& c);
    void processH2(Conn& c);
    void flush(Conn& c);
    void closeConn(Conn& c);
    void publish();

    Recorder& m_r;
    FastRandom m_rng;
    int m_ep = -1;
    int m_wakeTag = 0;
    std::unordered_map<int, std::unique_ptr<Conn>> m_conns;
    std::vector<TrafficRecord> m_batch; // kept in this turn of the loop, published at its end
    std::size_t m_batchBytes = 0;
    std::int64_t m_now = 0; // the wall clock at this turn's read
};

// h2c with prior knowledge: each stream a request, answered 204 when it ends.
struct Recorder::Loop::H2
{
    struct Stream
    {
        TrafficRecord record;
        bool tooBig = false;
    };
    Loop& loop;
    Conn& conn;
    nghttp2_session* session = nullptr;
    std::map<std::int32_t, Stream> streams;

    H2(Loop& l, Conn& c);
    ~H2() { nghttp2_session_del(session); }
    bool receive(const char* data, std::size_t size, std::string& out);

    static int begin(nghttp2_session*, const nghttp2_frame* f, void* self);
    static int header(nghttp2_session*, const nghttp2_frame* f, const std::uint8_t* name, std::size_t namelen,
                      const std::uint8_t* value, std::size_t valuelen, std::uint8_t, void* self);
    static int data(nghttp2_session*, std::uint8_t, std::int32_t id, const std::uint8_t* bytes, std::size_t len,
                    void* self);
    static int frame(nghttp2_session* s, const nghttp2_frame* f, void* self);
    static int closed(nghttp2_session*, std::int32_t id, std::uint32_t, void* self);
};

struct Recorder::Loop::Conn
{
    int fd = -1;
    std::string peer;
    std::string in;
    std::size_t start = 0; // bytes of `in` already consumed
    HttpRequestReader reader;
    std::string out;
    std::size_t outPos = 0;
    bool closeAfter = false;
    bool http1 = false;
    std::unique_ptr<H2> h2;
};

// nghttp2's callbacks: a stream opens, takes headers and body, and ends
// (answered 204 and kept) or closes (forgotten).
int Recorder::Loop::H2::begin(nghttp2_session*, const nghttp2_frame* f, void* self)
{
    if (f->hd.type == NGHTTP2_HEADERS && f->headers.cat == NGHTTP2_HCAT_REQUEST) {
        auto* h = static_cast<H2*>(self);
        h->streams[f->hd.stream_id].record.atNanos = h->loop.m_now;
    }
    return 0;
}

int Recorder::Loop::H2::header(nghttp2_session*, const nghttp2_frame* f, const std::uint8_t* name, std::size_t namelen,
                               const std::uint8_t* value, std::size_t valuelen, std::uint8_t, void* self)
{
    auto* h = static_cast<H2*>(self);
    const auto it = h->streams.find(f->hd.stream_id);
    if (it == h->streams.end())
        return 0;
    TrafficRecord& r = it->second.record;
    const std::string_view n(reinterpret_cast<const char*>(name), namelen);
    std::string v(reinterpret_cast<const char*>(value), valuelen);
    if (n == ":method")
        r.method = std::move(v);
    else if (n == ":path")
        r.target = std::move(v);
    else if (n == ":authority")
        r.host = std::move(v);
    else if (!n.empty() && n[0] != ':' && !isHopByHopHeader(n))
        r.headers.emplace_back(std::string(n), std::move(v));
    return 0;
}

int Recorder::Loop::H2::data(nghttp2_session*, std::uint8_t, std::int32_t id, const std::uint8_t* bytes,
                             std::size_t len, void* self)
{
    auto* h = static_cast<H2*>(self);
    const auto it = h->streams.find(id);
    if (it == h->streams.end())
        return 0;
    if (it->second.record.body.size() + len > HttpRequestReader::kBodyLimit)
        it->second.tooBig = true;
    else
        it->second.record.body.append(reinterpret_cast<const char*>(bytes), len);
    return 0;
}

int Recorder::Loop::H2::frame(nghttp2_session* s, const nghttp2_frame* f, void* self)
{
    auto* h = static_cast<H2*>(self);
    if ((f->hd.type != NGHTTP2_HEADERS && f->hd.type != NGHTTP2_DATA) || !(f->hd.flags & NGHTTP2_FLAG_END_STREAM))
        return 0;
    const auto it = h->streams.find(f->hd.stream_id);
    if (it == h->streams.end())
        return 0;
    static const std::string status = ":status", code = "204";
    const nghttp2_nv nv[] = {{reinterpret_cast<std::uint8_t*>(const_cast<char*>(status.data())),
                              reinterpret_cast<std::uint8_t*>(const_cast<char*>(code.data())), status.size(),
                              code.size(), NGHTTP2_NV_FLAG_NONE}};
    nghttp2_submit_response(s, f->hd.stream_id, nv, 1, nullptr);
    Stream st = std::move(it->second);
    h->streams.erase(it);
    h->loop.m_r.m_received.fetch_add(1, std::memory_order_relaxed);
    if (st.tooBig) {
        h->loop.m_r.m_bad.fetch_add(1, std::memory_order_relaxed);
        return 0;
    }
    if (st.record.host.empty())
        for (const auto& [n, v] : st.record.headers)
            if (n == "host")
                st.record.host = v;
    setClient(st.record, h->conn.peer);
    h->loop.keep(std::move(st.record));
    return 0;
}

int Recorder::Loop::H2::closed(nghttp2_session*, std::int32_t id, std::uint32_t, void* self)
{
    static_cast<H2*>(self)->streams.erase(id);
    return 0;
}

Recorder::Loop::H2::H2(Loop& l, Conn& c) : loop(l), conn(c)
{
    nghttp2_session_callbacks* cb = nullptr;
    nghttp2_session_callbacks_new(&cb);
    nghttp2_session_callbacks_set_on_begin_headers_callback(cb, &H2::begin);
    nghttp2_session_callbacks_set_on_header_callback(cb, &H2::header);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, &H2::data);
    nghttp2_session_callbacks_set_on_frame_recv_callback(cb, &H2::frame);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, &H2::closed);
    nghttp2_session_server_new(&session, cb, this);
    nghttp2_session_callbacks_del(cb);
    const nghttp2_settings_entry settings[] = {{NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, 256},
                                               {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, 1 << 20}};
    nghttp2_submit_settings(session, NGHTTP2_FLAG_NONE, settings, std::size(settings));
    nghttp2_session_set_local_window_size(session, NGHTTP2_FLAG_NONE, 0, 1 << 24);
}

bool Recorder::Loop::H2::receive(const char* data, std::size_t size, std::string& out)
{
    if (nghttp2_session_mem_recv(session, reinterpret_cast<const std::uint8_t*>(data), size) < 0)
        return false;
    for (;;) {
        const std::uint8_t* bytes = nullptr;
        const ssize_t n = nghttp2_session_mem_send(session, &bytes);
        if (n < 0)
            return false;
        if (n == 0)
            break;
        out.append(reinterpret_cast<const char*>(bytes), std::size_t(n));
    }
    return nghttp2_session_want_read(session) || nghttp2_session_want_write(session);
}

void Recorder::Loop::run()
{
    epoll_event events[256];
    while (!m_r.m_stop.load(std::memory_order_relaxed)) {
        const int n = epoll_wait(m_ep, events, 256, -1);
        m_now = wallNanos();
        for (int i = 0; i < n; ++i) {
            void* tag = events[i].data.ptr;
            if (tag == &m_wakeTag)
                continue;
            if (!tag) {
                acceptAll();
                continue;
            }
            Conn* c = static_cast<Conn*>(tag);
            const int fd = c->fd; // flush() and readFrom() may close and destroy c
            if (events[i].events & EPOLLOUT)
                flush(*c);
            if (m_conns.count(fd) && (events[i].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)))
                readFrom(*c);
        }
        publish();
    }
}

void Recorder::Loop::acceptAll()
{
    for (;;) {
        sockaddr_storage ss{};
        socklen_t len = sizeof ss;
        const int fd = ::accept4(m_r.m_listenFd, reinterpret_cast<sockaddr*>(&ss), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;
        const int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        auto conn = std::make_unique<Conn>();
        conn->fd = fd;
        conn->peer = peerText(ss);
        epoll_event ev{};
        ev.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
        ev.data.ptr = conn.get();
        epoll_ctl(m_ep, EPOLL_CTL_ADD, fd, &ev);
        m_conns.emplace(fd, std::move(conn));
        m_r.m_connections.fetch_add(1, std::memory_order_relaxed);
    }
}

void Recorder::Loop::closeConn(Conn& c)
{
    const int fd = c.fd;
    ::close(fd);
    m_conns.erase(fd); // destroys c
}

void Recorder::Loop::readFrom(Conn& c)
{
    char buf[65536];
    const int fd = c.fd;
    for (;;) {
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n > 0) {
            // what came is read at once: a client that sends faster than this reads (a body that never ends)
            // meets the reader's limits, not a buffer that grows while the loop drains the socket
            c.in.append(buf, std::size_t(n));
            process(c);
            if (!m_conns.count(fd) || c.closeAfter)
                return; // closed, or a 400 is on its way and nothing more is read
            if (std::size_t(n) < sizeof buf)
                return;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        process(c); // EOF or error: what was read is still answered
        if (m_conns.count(fd))
            closeConn(c);
        return;
    }
}

void Recorder::Loop::process(Conn& c)
{
    if (!c.http1 && !c.h2) {
        const std::size_t have = std::min(kPrefaceSize, c.in.size());
        if (c.in.compare(0, have, kPreface, have) == 0) {
            if (have < kPrefaceSize)
                return; // more of the preface to come
            c.h2 = std::make_unique<H2>(*this, c);
        } else {
            c.http1 = true;
        }
    }
    if (c.h2) {
        processH2(c);
        return;
    }
    for (;;) {
        HttpRequest rq;
        std::size_t consumed = 0;
        const auto result = c.reader.read(std::string_view(c.in).substr(c.start), rq, consumed);
        if (result == HttpRequestReader::Result::NeedMore)
            break;
        if (result == HttpRequestReader::Result::Error) {
            m_r.m_bad.fetch_add(1, std::memory_order_relaxed);
            c.out += kBadRequest;
            c.closeAfter = true;
            c.in.clear();
            c.start = 0;
            break;
        }
        c.start += consumed;
        m_r.m_received.fetch_add(1, std::memory_order_relaxed);
        c.out += rq.keepAlive ? kNoContent : kNoContentClose;
        TrafficRecord r;
        r.atNanos = m_now;
        r.method = std::move(rq.method);
        r.target = std::move(rq.target);
        r.body = std::move(rq.body);
        r.headers.reserve(rq.headers.size());
        for (auto& [name, value] : rq.headers) {
            if (name == "host" && r.host.empty())
                r.host = value;
            if (!isHopByHopHeader(name))
                r.headers.emplace_back(std::move(name), std::move(value));
        }
        setClient(r, c.peer);
        keep(std::move(r));
        if (!rq.keepAlive) {
            c.closeAfter = true;
            break;
        }
    }
    if (c.start && (c.start == c.in.size() || c.start > 65536)) {
        c.in.erase(0, c.start);
        c.start = 0;
    }
    flush(c);
}

void Recorder::Loop::processH2(Conn& c)
{
    const bool keepOpen = c.h2->receive(c.in.data(), c.in.size(), c.out);
    c.in.clear();
    if (!keepOpen) {
        if (!c.h2->streams.empty())
            m_r.m_bad.fetch_add(1, std::memory_order_relaxed);
        c.closeAfter = true;
    }
    flush(c);
}

void Recorder::Loop::flush(Conn& c)
{
    while (c.outPos < c.out.size()) {
        const ssize_t n = ::send(c.fd, c.out.data() + c.outPos, c.out.size() - c.outPos, MSG_NOSIGNAL);
        if (n > 0) {
            c.outPos += std::size_t(n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return; // EPOLLOUT (edge-triggered) says when to go on
        closeConn(c);
        return;
    }
    c.out.clear();
    c.outPos = 0;
    if (c.closeAfter)
        closeConn(c);
}

void Recorder::Loop::keep(TrafficRecord&& record)
{
    const Options& o = m_r.m_options;
    if (!o.filter.keeps(record, m_rng)) {
        m_r.m_filtered.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    if (o.maxRequests && m_r.m_kept.load(std::memory_order_relaxed) + m_batch.size() >= o.maxRequests) {
        m_r.m_over.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    m_batchBytes += recordBytes(record);
    m_batch.push_back(std::move(record));
}

void Recorder::Loop::publish()
{
    if (m_batch.empty())
        return;
    std::uint64_t kept = 0, dropped = 0;
    {
        const std::lock_guard lock(m_r.m_mutex);
        if (m_r.m_queuedBytes + m_batchBytes <= m_r.m_options.maxQueuedBytes) {
            kept = m_batch.size();
            m_r.m_queuedBytes += m_batchBytes;
            if (m_r.m_queue.empty())
                m_r.m_queue.swap(m_batch);
            else
                std::move(m_batch.begin(), m_batch.end(), std::back_inserter(m_r.m_queue));
        } else {
            dropped = m_batch.size(); // the writer is behind: the gateway is not made to wait
        }
    }
    m_r.m_kept.fetch_add(kept, std::memory_order_relaxed);
    m_r.m_dropped.fetch_add(dropped, std::memory_order_relaxed);
    m_batch.clear();
    m_batchBytes = 0;
}

Recorder::Recorder(Options options) : m_options(std::move(options)) {}

Recorder::~Recorder()
{
    stop();
}

bool Recorder::start(const std::string& address, std::string& error)
{
    m_listenFd = listenOn(address, m_host, m_port, error);
    if (m_listenFd < 0)
        return false;
    m_wakeFd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    m_stop = false;
    m_thread = std::thread([this] {
        Loop loop(*this);
        loop.run();
    });
    return true;
}

void Recorder::stop()
{
    if (!m_thread.joinable())
        return;
    m_stop = true;
    const std::uint64_t one = 1;
    [[maybe_unused]] auto r = ::write(m_wakeFd, &one, sizeof one);
    m_thread.join();
    ::close(m_listenFd);
    ::close(m_wakeFd);
    m_listenFd = m_wakeFd = -1;
}

void Recorder::take(std::vector<TrafficRecord>& out)
{
    std::vector<TrafficRecord> got;
    {
        const std::lock_guard lock(m_mutex);
        got.swap(m_queue);
        m_queuedBytes = 0;
    }
    if (out.empty())
        out.swap(got);
    else
        std::move(got.begin(), got.end(), std::back_inserter(out));
}

Recorder::Counts Recorder::counts() const
{
    Counts c;
    c.received = m_received.load(std::memory_order_relaxed);
    c.kept = m_kept.load(std::memory_order_relaxed);
    c.filtered = m_filtered.load(std::memory_order_relaxed);
    c.dropped = m_dropped.load(std::memory_order_relaxed);
    c.over = m_over.load(std::memory_order_relaxed);
    c.bad = m_bad.load(std::memory_order_relaxed);
    c.connections = m_connections.load(std::memory_order_relaxed);
    return c;
}

void RecordingSummary::add(const TrafficChunk& chunk)
{
    if (!chunk.records)
        return;
    if (!records)
        first = chunk.firstNs;
    last = chunk.lastNs;
    records += chunk.records;
}

std::string RecordingSummary::payload() const
{
    std::string p = "{\"source\": " + jsonString("record " + address) +
                    ", \"format\": \"mirror\", \"records\": " + std::to_string(records) +
                    ", \"lines\": " + std::to_string(counts.received) + ", \"bad\": " + std::to_string(counts.bad) +
                    ", \"filtered\": " + std::to_string(counts.filtered) +
                    ", \"dropped\": " + std::to_string(counts.dropped) +
                    ", \"recording\": " + (recording ? "true" : "false");
    if (records)
        p += ", \"first\": " + jsonString(isoMillis(first / 1000000)) +
             ", \"last\": " + jsonString(isoMillis(last / 1000000));
    p += ", \"masks\": [";
    for (std::size_t i = 0; i < masks.size(); ++i)
        p += (i ? ", " : "") + jsonString(masks[i]);
    return p + "], \"problems\": []}";
}

} // namespace stampede
