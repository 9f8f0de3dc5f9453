#pragma once
// A client connection's transport, under HTTP/1.1 and HTTP/2 alike: a
// non-blocking TCP connect, then (when the endpoint says so) a TLS handshake
// with SNI, verification, ALPN and session resumption, then reads and writes
// that say "would block" instead of blocking. Registered once with the
// worker's edge-triggered event loop; the protocol above reacts to onReady,
// onReadable, onWritable and onTransportFailure.
#include "core/clock.h"
#include "endpoint.h"
#include "eventloop.h"
#include "metrics/runmetrics.h"
#include "tlscontext.h"
#include "tlsrecords.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

struct ssl_st;

namespace stampede {

class EventLoop;
struct TlsBioState;

// What the event loop's events point to.
class PollTarget
{
public:
    virtual ~PollTarget() = default;
    virtual void onEvents(std::uint32_t events, Nanos now) = 0;
};

// Hands the loop's last `n` events (from EventLoop::wait) to their targets, at `now`.
inline void dispatchEvents(const EventLoop& loop, int n, Nanos now)
{
    const epoll_event* ev = loop.events();
    for (int i = 0; i < n; ++i)
        static_cast<PollTarget*>(ev[i].data.ptr)->onEvents(ev[i].events, now);
}

// A one-off exchange's loop: events until `done`, then `checkDeadlines(now)`
// after each wake (the builder's Send, reflection).
template <typename CheckDeadlines> void runUntil(EventLoop& loop, const bool& done, CheckDeadlines checkDeadlines)
{
    while (!done) {
        const int n = loop.wait(50 * kNanosPerMilli);
        dispatchEvents(loop, n, SteadyClock::monotonicNow());
        if (!done)
            checkDeadlines(SteadyClock::monotonicNow());
    }
}

class Transport : public PollTarget
{
public:
    explicit Transport(EventLoop& loop) : m_loop(loop) {}
    ~Transport() override;
    Transport(const Transport&) = delete;
    Transport& operator=(const Transport&) = delete;

    void onEvents(std::uint32_t events, Nanos now) final;
    bool isOpen() const { return m_fd >= 0; }
    // Open and past the connect and the handshake.
    bool ready() const { return m_fd >= 0 && !m_connecting && !m_handshaking; }
    // The protocol ALPN settled on ("h2", "http/1.1"), empty without.
    std::string alpn() const;
    // TLS past the handshake: the engine seals and opens the records (TlsRecords), not OpenSSL.
    bool ownsRecords() const { return m_records != nullptr; }
    // TLS: keep the record buffers between records (from the next open) rather
    // than free them whenever they empty (the default: less memory per idle
    // connection, a free and an allocation per record).
    void keepTlsBuffers(bool on) { m_keepTlsBuffers = on; }
    // Cleartext: TCP_NODELAY is set only once a message needs a second write
    // (a partial write), not on every connection. For a protocol that writes
    // each message whole, and only after the answer to the one before (whose
    // segments acknowledged all it had sent), Nagle's algorithm never holds a
    // write back: HTTP/1.1 without pipelining. A system call less per new
    // connection; TLS (a handshake flight is several writes) sets it always.
    void noDelayWhenSplit(bool on) { m_noDelayWhenSplit = on; }

protected:
    // Connects to `endpoint` (which must outlive the connection). `first`:
    // cleartext bytes to send as soon as connect() returns; when the send
    // takes them, the connection is up and onReady follows at once (see
    // takeSentWithConnect), else they wait for the connect's EPOLLOUT.
    void open(const Endpoint& endpoint, Nanos now, Nanos connectTimeout, std::string_view first = {});
    // The bytes of open()'s `first` that went out with the connect (once: 0 after).
    std::size_t takeSentWithConnect() { return std::exchange(m_sentWithConnect, 0); }
    // Closes at once; a TLS session is kept to resume on the next open().
    void closeTransport();
    // Fails the connect (as a timeout) when its deadline has passed; true then.
    bool checkConnectDeadline(Nanos now);
    const Endpoint* endpoint() const { return m_endpoint; }

    enum class Io
    {
        Done,   // the return value counts the bytes
        Again,  // nothing now: the next edge tells
        Closed, // the peer closed the connection
        Error   // `why` says what happened
    };
    std::size_t readSome(char* buffer, std::size_t size, Io& io, std::string& why);
    std::size_t writeSome(const char* data, std::size_t size, Io& io, std::string& why);
    // Whether a short read means the socket is drained (plain TCP: yes; TLS
    // hands out one record at a time).
    bool shortReadDrains() const { return m_ssl == nullptr; }
    // The last Io::Error was TLS's own (a record that does not authenticate,
    // an alert, a malformed message), not the socket's: a `tls` error of the
    // connection, never taken for a server's idle close and retried.
    bool tlsFault() const { return m_tlsFault; }
    // TLS: bytes already read from the socket and not yet handed out (no edge will tell of them).
    bool pendingBytes() const;
    // Past the connect: wake on writable only while `on` (see EventLoop::watchWrites).
    void watchWrites(bool on);
    // Writes out[at...] as far as the connection takes it (`at` and `written` advance), waking on writable while
    // some is left; false with `why` when the connection broke (nothing more can be written).
    bool writeQueued(const std::string& out, std::size_t& at, std::uint64_t& written, std::string& why);

    virtual void onReady(Nanos now, Nanos connect, Nanos handshake, bool tls, bool resumed) = 0;
    // The connect or the handshake failed; the transport is closed.
    virtual void onTransportFailure(ErrorClass error, const std::string& why, Nanos now) = 0;
    virtual void onReadable(Nanos now, bool peerClosed) = 0;
    virtual void onWritable(Nanos now) = 0;

private:
    // The connect completed (`up`: when it was known to be up; 0: now).
    void connected(Nanos now, Nanos up = 0);
    void continueHandshake(Nanos now);
    void sendWithConnect(std::string_view first, Nanos now);
    void setWatch(bool on);
    bool holdsBytes() const;
    void flushHeld();
    void failConnect(ErrorClass error, const std::string& why, Nanos now);
    void setNoDelay();
    // A cleartext write that took `written` of `size` bytes: NODELAY before the rest.
    void noDelayIfSplit(std::size_t written, std::size_t size);
    // TLS 1.3 past the handshake: the records become the transport's own
    // when the suite allows (else OpenSSL reads ahead as before).
    void startOwnRecords();
    std::size_t readOwn(char* buffer, std::size_t size, Io& io, std::string& why);
    std::size_t writeOwn(const char* data, std::size_t size, Io& io, std::string& why);
    // Opens the whole records at the start of `in` (`size` bytes) into
    // `buffer` (from `got`): how many bytes of `in` were used; `io` set to
    // Error or Closed when a record says so.
    std::size_t openRecords(const unsigned char* in, std::size_t size, char* buffer, std::size_t bufferSize,
                            std::size_t& got, Io& io, std::string& why);
    // A post-handshake message's bytes (they may span records): tickets go to
    // OpenSSL, KeyUpdate is followed; anything else fails the connection.
    bool onHandshakeBytes(const unsigned char* data, std::size_t size, std::string& why);
    // Seals `size` bytes of data after what the BIO holds, and sends them.
    bool sendOwn(const char* data, std::size_t size);
    // The same for our KeyUpdate, which the server's asked for.
    bool answerKeyUpdate();

    EventLoop& m_loop;
    const Endpoint* m_endpoint = nullptr;
    int m_fd = -1;
    bool m_connecting = false;
    bool m_handshaking = false;
    ::ssl_st* m_ssl = nullptr;
    // The TLS socket BIO's state (while m_ssl lives): the handshake's last
    // flight is held and goes out in one write with what onReady writes (the
    // first request), not in a segment of its own.
    TlsBioState* m_bio = nullptr;
    TlsSessionPtr m_tlsSession;            // the last session, offered again on the next open()
    std::unique_ptr<TlsRecords> m_records; // the connection's own record layer (TLS 1.3)
    std::string m_plain;                   // a record's plaintext that did not fit the reader's buffer
    std::size_t m_plainAt = 0;
    std::uint32_t m_emptyRecords = 0; // records in a row that carried nothing (OpenSSL stops at 32, so do we)
    std::uint32_t m_warnAlerts = 0;   // user_canceled alerts since the last data (OpenSSL stops at 5, so do we)
    bool m_tlsFault = false;
    std::string m_handshakeBytes; // a post-handshake message not yet whole
    std::uint32_t m_writes = 0;   // TLS: writes on this connection
    bool m_lastReused = false;    // the connection before carried more than one write
    Nanos m_connectStart = 0;
    Nanos m_connectTime = 0;
    Nanos m_handshakeStart = 0;
    Nanos m_connectDeadline = 0;
    bool m_watchingWrites = true; // EPOLLOUT asked of the loop
    bool m_wantsWrites = true;    // by the session (the loop's is on also while held bytes wait)
    bool m_keepTlsBuffers = false;
    bool m_noDelayWhenSplit = false;
    bool m_noDelay = false; // TCP_NODELAY is set on the socket
    std::size_t m_sentWithConnect = 0;
    std::uint32_t m_opened = 0; // connections opened: tells an event batch's connection from the next
};

// Connects to a TLS endpoint once, blocking up to `timeout`, and returns the
// protocol ALPN settled on ("h2", "http/1.1", or empty); `error` is set when
// the connect or the handshake fails.
std::string probeAlpn(const Endpoint& endpoint, Nanos timeout, std::string& error);

} // namespace stampede
