#pragma once
// One HTTP/2 client connection (nghttp2), h2c with prior knowledge over TCP or
// h2 over TLS by ALPN: many requests at once, one per stream, up to the
// streams allowed. Flow-control windows are opened wide for throughput. A
// stream reset by the server (RST_STREAM) fails that request as a reset; a
// GOAWAY lets the streams the server accepted finish, then the connection is
// opened afresh for the requests that follow. Timeouts cancel the stream.
// What the server did not process (REFUSED_STREAM, streams past a GOAWAY's
// last) goes again at once, once (RFC 9113 8.7), each resend told to the
// listener; a second refusal fails it. An answer that breaks the protocol
// fails its request as `protocol`, naming what was wrong: a stream error
// (a bad header, a header list over kMaxHeaderList, a gRPC answer framed
// wrong) that stream alone, a connection error every request on the
// connection at once, never at their timeouts.
#include "grpcanswer.h"
#include "grpcstream.h"
#include "sessionlistener.h"
#include "transport.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <nghttp2/nghttp2.h>

namespace stampede {

class Http2Session final : public Transport
{
public:
    Http2Session(EventLoop& loop, SessionListener& listener, char* readBuffer, std::size_t readBufferSize,
                 std::uint32_t maxStreams);
    ~Http2Session() override;

    // Sends a request on a new stream; `tag` comes back with its outcome. The
    // header list and body must stay valid until then.
    // `grpc`: the answer carries grpc-status and grpc-message; `capture`: its
    // headers, trailers (and body); `stream`: a streaming call's (grpcstream.h),
    // its messages out in `body`, its answer the last awaited message.
    void submit(std::uint32_t tag, const Endpoint& endpoint, const nghttp2_nv* headers, std::size_t count,
                const char* body, std::size_t bodySize, Nanos now, Nanos timeout, Nanos connectTimeout,
                bool grpc = false, CaptureMode capture = CaptureMode::None, const CallStreamPlan* stream = nullptr);
    // Streaming calls' paced messages: when the next is due, and sending those due.
    Nanos nextRelease() const;
    void releaseDue(Nanos now);
    // Cancels the streams past their deadline (as timeouts), and a connect past its own.
    void checkDeadlines(Nanos now);
    bool connected() const { return ready(); }
    void close();
    std::uint32_t inFlight() const { return m_active; }
    // GOAWAY frames received, over the session's life.
    std::uint64_t goaways() const { return m_goaways; }
    // With a queue, the requests started while a read is processed are not
    // written at its end: the session joins the queue, and its owner calls
    // flushQueued() once it has handled every ready connection. A write then
    // waits (holdsWrite) for the answers still due on the connection, each of
    // which brings a request to go with it: the requests written together are
    // answered together, so the next write carries them all again. Fewer,
    // larger writes (and TLS records) cost the kernel and the cipher less per
    // request. Nothing is held past the loop's first turn after kMaxHold,
    // which follows the worker's nap (ClientSessions::kHeldNap: 20 us from
    // the end of the batch of events that held it, less for a nearer
    // deadline): all that a slow answer can add to the latency of the
    // requests beside it.
    void setFlushQueue(std::vector<Http2Session*>* queue) { m_flushQueue = queue; }
    // Writes what was held back, or keeps holding it (false): call again by holdUntil().
    bool flushQueued(Nanos now);
    Nanos holdUntil() const { return m_heldSince + kMaxHold; }
    static constexpr Nanos kMaxHold = 20 * kNanosPerMicro;
    // An answer's header list (headers and trailers, each field counted as
    // RFC 9113 6.5.2 does: name, value and 32) is at most this; we say so in
    // SETTINGS_MAX_HEADER_LIST_SIZE. The HTTP/1.1 head's limit is the same.
    static constexpr std::uint32_t kMaxHeaderList = 64 * 1024;
    // Reconnects after connections that answered nothing: the first at once, then 10 ms, doubling, 1 s at most.
    static constexpr Nanos kReconnectBackoff = 10 * kNanosPerMilli;
    static constexpr Nanos kMaxReconnectBackoff = 1000 * kNanosPerMilli;
    // The rule flushQueued follows: `unsent` requests started since the last
    // write, the first at `heldSince`; `active` streams in all, answered or not.
    static bool holdsWrite(std::uint32_t unsent, std::uint32_t active, Nanos heldSince, Nanos now)
    {
        return unsent > 0 && active > unsent && now < heldSince + kMaxHold;
    }

private:
    struct Waiting
    {
        std::uint32_t tag;
        const nghttp2_nv* headers;
        std::size_t count;
        const char* body;
        std::size_t bodySize;
        Nanos deadline, timeout;
        bool grpc = false;
        CaptureMode capture = CaptureMode::None;
        const CallStreamPlan* stream = nullptr;
        std::uint8_t resends = 0;  // sent again because the server had not processed it
        std::uint8_t requeues = 0; // put back unsent (the connection refused new streams before it went out)
    };
    struct Stream
    {
        Waiting request{};
        std::int32_t id = 0;
        bool used = false;
        bool reported = false; // the outcome went to the listener already (a timeout)
        int status = 0;
        std::uint64_t bytesIn = 0;
        Nanos firstByte = 0; // when its first HEADERS frame came
        Nanos written = 0;   // when it was submitted on the ready connection (written in the same batch)
        std::size_t bodySent = 0;
        std::string sample;      // the answer's start, when its status is 400 or above
        bool inTrailers = false; // a second HEADERS frame: trailers
        int grpcStatus = -1;
        std::string grpcMessage;
        bool onWire = false;           // its HEADERS went out (a stream never sent is not resent, only sent)
        std::string fault;             // why the answer breaks the protocol (we reset the stream): `protocol`
        std::uint32_t headerBytes = 0; // the header list so far (kMaxHeaderList)
        GrpcAnswer grpcAnswer;         // a gRPC answer's rules (grpcanswer.h)
        GrpcStreamCall call;           // a streaming call's messages (grpcstream.h)
        SessionListener::HeaderList headers, trailers; // capture only
        std::string body;                              // capture only
    };

    void onReady(Nanos now, Nanos connect, Nanos handshake, bool tls, bool resumed) override;
    void onTransportFailure(ErrorClass error, const std::string& why, Nanos now) override;
    void onReadable(Nanos now, bool peerClosed) override;
    void onWritable(Nanos now) override;

    bool startSession(std::string& why);
    void startStream(const Waiting& w, Nanos now);
    void flush(Nanos now);
    void failAll(ErrorClass error, const std::string& why, Nanos now);
    // A streaming call's DATA, message by message; false when the stream is over (its answer told).
    bool streamData(Stream& st, const std::uint8_t* data, std::size_t len);
    // The answer of a streaming call whose awaited messages are in (the stream is cancelled), or that ended.
    void streamAnswer(Stream& st, Answer& a, SessionListener::HeaderList& headers,
                      SessionListener::HeaderList& trailers, std::string& body);
    void release(Stream* s);
    // Sends `w` again, the server having refused it unprocessed; false (nothing done) when it was already.
    // `wentOut`: its HEADERS had been written (else it is only sent, not resent).
    bool resend(Waiting w, Nanos now, bool onThisConnection, bool wentOut = true);
    // A new connection for the waiting requests: at once, or after a backoff when the connections before
    // answered nothing (a server that refuses every stream is not met with a storm of connections).
    void reopen(bool answered, Nanos now);

    friend struct Http2Callbacks;
    SessionListener& m_listener;
    char* m_readBuffer;
    std::size_t m_readBufferSize;
    std::uint32_t m_maxStreams;
    nghttp2_session* m_session = nullptr;
    std::deque<Stream> m_streams;   // a pool that never moves: nghttp2 holds a pointer per open stream
    std::vector<Waiting> m_waiting; // submitted while connecting, or after a GOAWAY
    std::uint32_t m_active = 0;
    std::uint32_t m_paced = 0;      // streams of paced streaming calls (nextRelease looks only then)
    std::vector<Nanos> m_latencies; // a streaming call answered before its stream closed: its replies' latencies
    bool m_goaway = false;          // no new stream on this connection
    std::uint64_t m_goaways = 0;
    std::string m_out; // frames not yet written
    std::size_t m_outSent = 0;
    bool m_sawData = false;        // any byte from the server on this connection
    bool m_answered = false;       // a stream of this connection was answered
    std::uint32_t m_fruitless = 0; // connections in a row that answered nothing
    Nanos m_reopenAt = 0;          // set: the next connection waits until then (reopen)
    bool m_reading = false;        // in onReadable: requests started by callbacks go out in one write at its end
    bool m_sending = false;        // in flush's nghttp2_session_mem_send: a callback's flush is the loop's next turn
    std::string m_libError;        // nghttp2's last word on what the server did wrong
    std::string m_connectionError; // a connection error we answered with GOAWAY: every request fails
    Nanos m_now = 0;               // for the callbacks
    Nanos m_connectTimeout = 0;
    const Endpoint* m_target = nullptr;
    std::vector<Http2Session*>* m_flushQueue = nullptr;
    bool m_queued = false;
    std::uint32_t m_unsent = 0; // streams started since the last write
    Nanos m_heldSince = 0;      // when the first of them was started
};

} // namespace stampede
