#include "http2exchange.h"

#include "core/grpcprefix.h"
#include "core/text.h"
#include "core/url.h"
#include "core/wiretext.h"
#include "endpoint.h"
#include "eventloop.h"
#include "http2session.h"
#include "tlscontext.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace stampede {

namespace {

class OneShot final : public SessionListener
{
public:
    OneShot(Http2ExchangeResult& r, bool grpc, std::string_view body, Nanos start)
        : grpc(grpc), m_r(r), m_body(body), m_start(start)
    {
    }
    const bool grpc;
    bool done = false;

    // a streaming call's messages out, as they are released: the next frames of the body
    void onStreamMessages(std::uint32_t, std::uint32_t out, std::uint32_t, Nanos now) override
    {
        for (; out && m_body.size() >= kGrpcPrefix; --out) {
            const std::size_t n = std::min(m_body.size(), kGrpcPrefix + grpcPrefixLength(m_body));
            keep(true, m_body.substr(0, n), now);
            m_body.remove_prefix(n);
        }
    }
    void onCallMessage(std::uint32_t, std::string_view frame, Nanos now) override
    {
        ++m_r.messagesIn;
        keep(false, frame, now);
    }
    void onAnswer(std::uint32_t, const Answer& a, Nanos) override
    {
        done = true;
        m_r.ok = !a.failed;
        if (a.failed) {
            m_r.error = std::string(a.why);
            return;
        }
        m_r.status = a.status;
        if (grpc && a.status == 200) { // the gRPC session's answer (an HTTP error status is no call's)
            m_r.grpcStatus = a.code;
            m_r.grpcMessage = std::string(a.statusMessage);
        }
        if (a.headers) {
            m_r.headers = *a.headers;
            m_r.trailers = *a.trailers;
            m_r.body = *a.body;
        }
    }
    void onConnected(std::uint32_t, Nanos connect, Nanos handshake, bool tls, bool) override
    {
        m_r.connectTime = connect;
        m_r.handshakeTime = handshake;
        m_r.tls = tls;
    }

private:
    void keep(bool out, std::string_view frame, Nanos now)
    {
        if (m_r.messages.size() < Http2ExchangeResult::kMessageCap)
            m_r.messages.push_back({out, now - m_start, std::string(frame)});
    }
    Http2ExchangeResult& m_r;
    std::string_view m_body;
    Nanos m_start;
};

} // namespace

Http2ExchangeResult http2Exchange(const Http2ExchangeRequest& request)
{
    const TlsThreadStateRelease release; // last: after the session is gone
    Http2ExchangeResult r;
    std::string err;
    const auto url = Url::parse(request.url, err);
    if (!url) {
        r.error = err;
        return r;
    }
    auto ep = Endpoint::resolve(url->host, url->port, err);
    if (!ep) {
        r.error = err;
        return r;
    }
    if (url->scheme == "https") {
        TlsOptions o;
        o.verify = request.verify;
        o.caPem = request.caPem;
        o.alpn = {"h2"};
        ep->tls = TlsContext::create(o, err);
        if (!ep->tls) {
            r.error = err;
            return r;
        }
        ep->serverName = request.serverName.empty() ? url->host : request.serverName;
    }
    std::string method = request.method;
    std::transform(method.begin(), method.end(), method.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    std::vector<std::pair<std::string, std::string>> fields = {
        {":method", method}, {":scheme", url->scheme}, {":authority", url->hostHeader()}, {":path", url->target}};
    if (!isHttpToken(method)) {
        r.error = "\"" + request.method + "\" is not an HTTP method";
        return r;
    }
    for (const auto& [name, value] : request.headers) {
        // the rule of every request (wiretext.h), before nghttp2's own
        if (r.error = headerFault(name, value); !r.error.empty())
            return r;
        const std::string lower = asciiLower(name);
        if (lower == "host") {
            fields[2].second = value;
            continue;
        }
        if (isConnectionHeader(lower) || lower == "content-length")
            continue;
        fields.emplace_back(lower, value);
    }
    std::vector<nghttp2_nv> nv;
    for (auto& [name, value] : fields)
        nv.push_back({reinterpret_cast<std::uint8_t*>(name.data()), reinterpret_cast<std::uint8_t*>(value.data()),
                      name.size(), value.size(), NGHTTP2_NV_FLAG_NONE});

    EventLoop loop;
    if (!loop.valid()) {
        r.error = "cannot create an event loop";
        return r;
    }
    const Nanos start = SteadyClock::monotonicNow();
    OneShot listener(r, request.grpc, request.body, start);
    std::vector<char> buffer(64 * 1024);
    Http2Session session(loop, listener, buffer.data(), buffer.size(), 1);
    session.submit(0, *ep, nv.data(), nv.size(), request.body.data(), request.body.size(), start, request.timeout,
                   std::min<Nanos>(request.timeout, 10 * kNanosPerSecond), request.grpc, CaptureMode::All,
                   request.stream);
    while (!listener.done) { // runUntil's loop, woken for a streaming call's paced messages too
        const Nanos due = session.nextRelease();
        const Nanos now = SteadyClock::monotonicNow();
        const int n = loop.wait(
            std::clamp<Nanos>(due == GrpcStreamCall::kNever ? kNanosPerSecond : due - now, 0, 50 * kNanosPerMilli));
        dispatchEvents(loop, n, SteadyClock::monotonicNow());
        if (!listener.done)
            session.releaseDue(SteadyClock::monotonicNow());
        if (!listener.done)
            session.checkDeadlines(SteadyClock::monotonicNow());
    }
    session.close();
    r.totalTime = SteadyClock::monotonicNow() - start;
    return r;
}

HttpExchangeResult exchangeOverHttp2(const HttpExchangeRequest& request, bool verify)
{
    Http2ExchangeRequest h2;
    h2.url = request.url;
    h2.method = request.method;
    h2.headers = request.headers;
    h2.body = request.body;
    h2.timeout = request.timeout;
    h2.verify = verify;
    const Http2ExchangeResult a = http2Exchange(h2);
    HttpExchangeResult r;
    r.ok = a.ok;
    r.error = a.error;
    r.status = a.status;
    r.reason = "(HTTP/2)";
    r.headers = a.headers;
    r.body = a.body;
    r.bodyBytes = a.body.size();
    r.connectTime = a.connectTime;
    r.totalTime = a.totalTime;
    return r;
}

} // namespace stampede
