#pragma once
// One HTTP/1.1 client connection (over TCP, or TLS when the endpoint says so):
// connects (non-blocking), writes one request at a time, parses the response
// as it streams in, and reports the outcome to its listener. Keep-alive by
// default; reconnects when the server closes or answers `Connection: close`.
// Two system calls per request in steady state over plain TCP: one send, one
// recv (plus a share of the worker's epoll_wait).
//
// The peer is never trusted. The listener hears of a request exactly once,
// and only while one is outstanding: bytes that arrive with none waiting
// (or past an answer's framing) close the connection and are reported as a
// stray (onStray), never as a request's outcome. An idle connection the
// server closed is dropped when its FIN or RST arrives; a request that met
// such a close on a reused connection before any byte of answer goes again,
// once, on a fresh connection when nothing of it was sent or its method is
// idempotent (onRetry), and is a `reset` otherwise.
#include "http1responseparser.h"
#include "sessionlistener.h"
#include "transport.h"

#include <cstdint>
#include <string>

namespace stampede {

class Http1Session final : public Transport
{
public:
    Http1Session(EventLoop& loop, SessionListener& listener, char* readBuffer, std::size_t readBufferSize);
    ~Http1Session() override = default;

    // Sends [data, data+size) to `endpoint`, connecting first when needed. The
    // bytes must stay valid until the listener hears of the outcome. `timeout`
    // bounds the time from now to the end of the response.
    // With `deferWrite` on a ready connection, nothing is written until
    // writeDeferred(): an owner handling a batch of answers sends the next
    // requests together after it (the server is woken once for them).
    // With `capture`, the headers, trailers (and with CaptureMode::All the
    // body) of the answer come with it to the listener (the builder's Send;
    // checks and extractors under load).
    void submit(const Endpoint& endpoint, const char* data, std::size_t size, bool noBody, Nanos now, Nanos timeout,
                Nanos connectTimeout, bool deferWrite = false, CaptureMode capture = CaptureMode::None);
    // The status line's reason phrase of the last captured answer.
    const std::string& capturedReason() const { return m_capture.reason; }
    bool capturedTruncated() const { return m_capture.truncated; }
    // Body bytes of the last answer (all of them, kept or not).
    std::uint64_t bodyBytes() const { return m_parser.bodyBytes(); }
    void writeDeferred(Nanos now)
    {
        if (m_busy && m_outLeft && ready())
            flushWrite(now);
    }
    // Fails the request in flight as a timeout when its deadline has passed.
    void checkDeadline(Nanos now);

    bool busy() const { return m_busy; }
    bool connected() const { return ready(); }
    void close() { closeTransport(); }

    // The most body bytes a capture keeps (the rest is counted, not kept).
    static constexpr std::size_t kCaptureBodyLimit = 4 * 1024 * 1024;
    // Free for the owner's use (the worker keeps its slot index here); the
    // listener hears it back.
    std::uint32_t tag = 0;

private:
    void onReady(Nanos now, Nanos connect, Nanos handshake, bool tls, bool resumed) override;
    void onTransportFailure(ErrorClass error, const std::string& why, Nanos now) override;
    void onReadable(Nanos now, bool peerClosed) override;
    void onWritable(Nanos now) override;
    void flushWrite(Nanos now);
    void fail(ErrorClass error, const std::string& why, Nanos now);
    // The connection ended before any byte of answer: sent again on a fresh
    // connection when that is safe (true), else nothing is done (false).
    bool retryOnFreshConnection(Nanos now);
    void complete(std::size_t consumed, std::size_t n, bool peerClosed, Nanos now);
    void stray(std::string_view bytes, Nanos now);

    SessionListener& m_listener;
    char* m_readBuffer;
    std::size_t m_readBufferSize;
    bool m_busy = false;
    bool m_reused = false;  // the request went out on a connection that had answered before
    bool m_retried = false; // the request is on its second connection
    bool m_noBody = false;
    Nanos m_connectTimeout = 0;
    const char* m_request = nullptr; // the whole request, for a retry
    std::size_t m_requestSize = 0;
    const char* m_out = nullptr;
    std::size_t m_outLeft = 0;
    std::uint64_t m_bytesIn = 0;
    Nanos m_firstByte = 0; // when the answer's first bytes were read
    Nanos m_written = 0;   // when the request's first bytes went out
    Nanos m_deadline = 0;
    Nanos m_timeout = 0;
    Http1ResponseParser m_parser;
    Http1ResponseParser::Capture m_capture;
    bool m_capturing = false;
    std::string m_errorSample; // the start of an answer with status >= 400
};

} // namespace stampede
