#include "httpexchange.h"

#include "core/text.h"
#include "core/url.h"
#include "core/wiretext.h"
#include "endpoint.h"
#include "eventloop.h"
#include "http1responseparser.h"
#include "http1session.h"
#include "tlscontext.h"

#include <algorithm>
#include <vector>

namespace stampede {

namespace {

class OneShot final : public SessionListener
{
public:
    explicit OneShot(HttpExchangeResult& r) : m_r(r) {}
    bool done = false;
    void onAnswer(std::uint32_t, const Answer& a, Nanos) override
    {
        done = true;
        m_r.ok = !a.failed;
        if (a.failed) {
            // "connect to HOST: refused" reads as a sentence for the person who pressed Send
            const std::string why(a.why);
            m_r.error = a.error == ErrorClass::Connect && why.rfind("connect to ", 0) == 0 ? "cannot " + why : why;
            return;
        }
        m_r.status = a.status;
        if (a.headers)
            m_r.headers = *a.headers;
        if (a.body)
            m_r.body = *a.body;
    }
    void onConnected(std::uint32_t, Nanos connect, Nanos, bool, bool) override { m_r.connectTime = connect; }

private:
    HttpExchangeResult& m_r;
};

// The request as it goes out, or "" with `error` when its method or a header
// cannot be sent as written (wiretext.h: the rule of every request).
std::string requestBytes(const HttpExchangeRequest& rq, const Url& url, std::string& error)
{
    if (!isHttpToken(rq.method)) {
        error = "\"" + rq.method + "\" is not an HTTP method";
        return {};
    }
    std::string out = rq.method + " " + url.target + " HTTP/1.1\r\n";
    bool hasHost = false, hasLength = false;
    for (const auto& [n, v] : rq.headers) {
        if (error = headerFault(n, v); !error.empty())
            return {};
        hasHost |= equalsNoCase(n, "host");
        hasLength |= equalsNoCase(n, "content-length");
        out += n + ": " + v + "\r\n";
    }
    if (!hasHost)
        out += "Host: " + url.hostHeader() + "\r\n";
    if (!hasLength && requestNeedsLength(rq.method, !rq.body.empty()))
        out += "Content-Length: " + std::to_string(rq.body.size()) + "\r\n";
    return out + "Connection: close\r\n\r\n" + rq.body;
}

} // namespace

HttpExchangeResult exchange(const HttpExchangeRequest& rq)
{
    const TlsThreadStateRelease release; // last: after the session is gone
    HttpExchangeResult r;
    std::string error;
    const auto url = Url::parse(rq.url, error);
    if (!url) {
        r.error = error;
        return r;
    }
    auto ep = Endpoint::resolve(url->host, url->port, error);
    if (!ep) {
        r.error = error;
        return r;
    }
    if (url->scheme == "https") {
        TlsOptions o;
        o.verify = rq.verify;
        o.alpn = {"http/1.1"};
        ep->tls = TlsContext::create(o, error);
        if (!ep->tls) {
            r.error = error;
            return r;
        }
        ep->serverName = url->host;
    }
    EventLoop loop;
    if (!loop.valid()) {
        r.error = "cannot create an event loop";
        return r;
    }
    const std::string bytes = requestBytes(rq, *url, error);
    if (bytes.empty()) {
        r.error = error;
        return r;
    }
    OneShot listener(r);
    std::vector<char> buffer(64 * 1024);
    Http1Session session(loop, listener, buffer.data(), buffer.size());
    const Nanos start = SteadyClock::monotonicNow();
    session.submit(*ep, bytes.data(), bytes.size(), rq.method == "HEAD", start, rq.timeout,
                   std::min<Nanos>(rq.timeout, 10 * kNanosPerSecond), false, CaptureMode::All);
    runUntil(loop, listener.done, [&](Nanos now) { session.checkDeadline(now); });
    r.reason = session.capturedReason();
    r.bodyBytes = session.bodyBytes();
    r.truncated = session.capturedTruncated();
    session.close();
    r.totalTime = SteadyClock::monotonicNow() - start;
    return r;
}

} // namespace stampede
