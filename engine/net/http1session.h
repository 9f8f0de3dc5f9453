#pragma once
// One HTTP/1.1 client connection (over TCP, or TLS when the endpoint says so):
// connects (non-blocking), writes one request
// at a time, parses the response as it streams in, and reports the outcome to
// its listener. Keep-alive by default; reconnects when the server closes or
// answers `Connection: close`. Two system calls per request in steady state:
// one send, one recv (plus a share of the worker's epoll_wait).
#include "core/clock.h"
#include "endpoint.h"
#include "http1responseparser.h"
#include "metrics/runmetrics.h"
#include "tlscontext.h"

#include <cstdint>
#include <string>

struct ssl_st;

namespace stampede {

class EventLoop;
class Http1Session;

class SessionListener
{
public:
    virtual ~SessionListener() = default;
    // A whole response arrived. `bytesIn` counts its header and body bytes.
    virtual void onResponse(Http1Session& s, int status, std::uint64_t bytesIn, Nanos now) = 0;
    // The request failed; the connection has been closed.
    virtual void onFailure(Http1Session& s, ErrorClass error, const std::string& why, Nanos now) = 0;
    // A connection was set up for the request in flight: the TCP connect took
    // `connect`; with TLS, the handshake took `handshake` (resumed: an earlier
    // session was taken up again).
    virtual void onConnected(Http1Session& s, Nanos connect, Nanos handshake, bool tls, bool resumed)
    {
        (void)s, (void)connect, (void)handshake, (void)tls, (void)resumed;
    }
};

class Http1Session
{
public:
    Http1Session(EventLoop& loop, SessionListener& listener, char* readBuffer, std::size_t readBufferSize);
    ~Http1Session();
    Http1Session(const Http1Session&) = delete;
    Http1Session& operator=(const Http1Session&) = delete;

    // Sends [data, data+size) to `endpoint`, connecting first when needed. The
    // bytes must stay valid until the listener hears of the outcome. `timeout`
    // bounds the time from now to the end of the response.
    void submit(const Endpoint& endpoint, const char* data, std::size_t size, bool noBody, Nanos now, Nanos timeout,
                Nanos connectTimeout);
    // Handles readiness reported by the event loop.
    void onEvents(std::uint32_t events, Nanos now);
    // Fails the request in flight as a timeout when its deadline has passed.
    void checkDeadline(Nanos now);

    bool busy() const { return m_busy; }
    bool connected() const { return m_fd >= 0 && !m_connecting; }
    void close();

    // The start of the last response with status 400 or above (status line,
    // headers and some body, as received in its first read), for error samples.
    const std::string& errorSample() const { return m_errorSample; }

    // Free for the owner's use (the worker keeps its connection index here).
    std::uint32_t tag = 0;

private:
    void startConnect(Nanos now);
    void connected(Nanos now);
    void continueHandshake(Nanos now);
    void flushWrite(Nanos now);
    void readResponse(Nanos now, bool peerClosed);
    void fail(ErrorClass error, const std::string& why, Nanos now);

    EventLoop& m_loop;
    SessionListener& m_listener;
    char* m_readBuffer;
    std::size_t m_readBufferSize;
    int m_fd = -1;
    bool m_connecting = false;
    bool m_busy = false;
    bool m_noBody = false;
    const Endpoint* m_endpoint = nullptr;
    const char* m_out = nullptr;
    std::size_t m_outLeft = 0;
    std::uint64_t m_bytesIn = 0;
    Nanos m_deadline = 0;
    Nanos m_timeout = 0;
    Nanos m_connectDeadline = 0;
    Http1ResponseParser m_parser;
    std::string m_errorSample;
    // TLS
    ::ssl_st* m_ssl = nullptr;
    bool m_handshaking = false;
    TlsSessionPtr m_tlsSession; // the last session, offered again on reconnect
    Nanos m_connectStart = 0;
    Nanos m_connectTime = 0;
    Nanos m_handshakeStart = 0;
};

} // namespace stampede
