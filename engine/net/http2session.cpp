#include "http2session.h"

#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <cstring>

namespace stampede {

namespace {
constexpr std::size_t kSampleLimit = 8 * 1024;
constexpr std::size_t kWriteBatch = 64 * 1024;
constexpr std::int32_t kStreamWindow = 16 * 1024 * 1024;
constexpr std::int32_t kConnectionWindow = 1 << 30;
constexpr std::size_t kCaptureLimit = 16 * 1024 * 1024;

// grpc-message is percent-encoded.
std::string percentDecode(std::string_view v)
{
    std::string out;
    out.reserve(v.size());
    auto hex = [](char c) {
        return c >= '0' && c <= '9'   ? c - '0'
               : c >= 'a' && c <= 'f' ? c - 'a' + 10
               : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                      : -1;
    };
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (v[i] == '%' && i + 2 < v.size() && hex(v[i + 1]) >= 0 && hex(v[i + 2]) >= 0) {
            out += char(hex(v[i + 1]) * 16 + hex(v[i + 2]));
            i += 2;
        } else {
            out += v[i];
        }
    }
    return out;
}
} // namespace

// The nghttp2 callbacks, with access to the session's insides.
struct Http2Callbacks
{
    static Http2Session::Stream* stream(nghttp2_session* s, std::int32_t id)
    {
        return static_cast<Http2Session::Stream*>(nghttp2_session_get_stream_user_data(s, id));
    }

    static int header(nghttp2_session* s, const nghttp2_frame* frame, const std::uint8_t* name, std::size_t namelen,
                      const std::uint8_t* value, std::size_t valuelen, std::uint8_t, void* self)
    {
        (void)self;
        if (frame->hd.type != NGHTTP2_HEADERS)
            return 0;
        Http2Session::Stream* st = stream(s, frame->hd.stream_id);
        if (!st)
            return 0;
        st->bytesIn += namelen + valuelen + 2;
        st->headerBytes += std::uint32_t(std::min<std::size_t>(namelen + valuelen + 32, Http2Session::kMaxHeaderList));
        if (st->headerBytes > Http2Session::kMaxHeaderList) { // an HPACK bomb stops here, nothing of it kept
            st->fault = "the answer's header list is over " + std::to_string(Http2Session::kMaxHeaderList / 1024) +
                        " KiB (SETTINGS_MAX_HEADER_LIST_SIZE)";
            return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE; // the stream is reset
        }
        if (st->request.capture != CaptureMode::None && (namelen == 0 || name[0] != ':'))
            (st->inTrailers ? st->trailers : st->headers)
                .emplace_back(std::string(reinterpret_cast<const char*>(name), namelen),
                              std::string(reinterpret_cast<const char*>(value), valuelen));
        if (st->request.grpc && namelen >= 11 && std::memcmp(name, "grpc-", 5) == 0) {
            if (namelen == 11 && std::memcmp(name, "grpc-status", 11) == 0) {
                st->grpcStatus = grpcCode(std::string_view(reinterpret_cast<const char*>(value), valuelen));
                if (st->grpcStatus < 0 && st->fault.empty())
                    st->fault = "grpc-status \"" +
                                std::string(reinterpret_cast<const char*>(value), std::min<std::size_t>(valuelen, 40)) +
                                "\" is not a code from 0 to 16";
            } else if (namelen == 13 && std::memcmp(name, "grpc-encoding", 13) == 0) {
                st->grpcAnswer.encoding(std::string_view(reinterpret_cast<const char*>(value), valuelen));
            } else if (namelen == 12 && std::memcmp(name, "grpc-message", 12) == 0) {
                st->grpcMessage = percentDecode(std::string_view(reinterpret_cast<const char*>(value), valuelen));
            }
        }
        if (namelen == 7 && std::memcmp(name, ":status", 7) == 0) {
            int status = 0;
            for (std::size_t i = 0; i < valuelen && value[i] >= '0' && value[i] <= '9'; ++i)
                status = status * 10 + (value[i] - '0');
            st->status = status;
            if (status >= 400)
                st->sample = "HTTP/2 " + std::string(reinterpret_cast<const char*>(value), valuelen);
            return 0;
        }
        if (st->status >= 400 && st->sample.size() < kSampleLimit) {
            st->sample += "\r\n";
            st->sample.append(reinterpret_cast<const char*>(name), namelen);
            st->sample += ": ";
            st->sample.append(reinterpret_cast<const char*>(value), valuelen);
        }
        return 0;
    }

    // A HEADERS frame after the first one on a stream carries trailers.
    static int beginHeaders(nghttp2_session* s, const nghttp2_frame* frame, void* self)
    {
        if (frame->hd.type != NGHTTP2_HEADERS)
            return 0;
        if (Http2Session::Stream* st = stream(s, frame->hd.stream_id)) {
            st->inTrailers = st->status > 0;
            if (!st->firstByte) // the answer's first frame: its time to first byte
                st->firstByte = static_cast<Http2Session*>(self)->m_now;
        }
        return 0;
    }

    static int data(nghttp2_session* s, std::uint8_t, std::int32_t id, const std::uint8_t* data, std::size_t len,
                    void* self)
    {
        Http2Session::Stream* st = stream(s, id);
        if (!st)
            return 0;
        st->bytesIn += len;
        if (!st->fault.empty())
            return 0; // its reset is on its way: nothing more of it is kept
        if (st->request.stream) {
            if (st->status == 200) { // a streaming call's messages (another status is no call's answer)
                static_cast<Http2Session*>(self)->streamData(*st, data, len);
                return 0;
            }
        } else if (st->request.grpc) {
            st->fault = st->grpcAnswer.data(data, len);
            if (!st->fault.empty()) {
                nghttp2_submit_rst_stream(s, NGHTTP2_FLAG_NONE, id, NGHTTP2_PROTOCOL_ERROR);
                return 0;
            }
        }
        if (st->request.capture == CaptureMode::All && st->body.size() < kCaptureLimit)
            st->body.append(reinterpret_cast<const char*>(data), std::min(len, kCaptureLimit - st->body.size()));
        if (st->status >= 400 && st->sample.size() < kSampleLimit) {
            if (st->sample.find("\r\n\r\n") == std::string::npos)
                st->sample += "\r\n\r\n";
            st->sample.append(reinterpret_cast<const char*>(data), std::min(len, kSampleLimit - st->sample.size()));
        }
        return 0;
    }

    static int closed(nghttp2_session* s, std::int32_t id, std::uint32_t code, void* self)
    {
        auto* h = static_cast<Http2Session*>(self);
        Http2Session::Stream* st = stream(s, id);
        if (!st)
            return 0;
        nghttp2_session_set_stream_user_data(s, id, nullptr);
        // What the listener needs leaves the pool entry first: it may start a
        // new stream in that entry. The strings are taken only when used.
        const Http2Session::Waiting request = st->request;
        const int status = st->status;
        const std::uint64_t bytesIn = st->bytesIn;
        const Nanos timeToFirstByte = st->firstByte ? std::max<Nanos>(0, st->firstByte - st->written) : -1;
        const int grpcStatus = st->grpcStatus;
        const bool reported = st->reported;
        const bool onWire = st->onWire;
        std::string fault = std::move(st->fault);
        if (fault.empty() && request.grpc && code == NGHTTP2_NO_ERROR && status > 0)
            fault = st->grpcAnswer.ending(st->grpcStatus);
        std::string sample, grpcMessage, body;
        SessionListener::HeaderList headers, trailers;
        if (status >= 400)
            sample.swap(st->sample);
        if (request.grpc)
            grpcMessage.swap(st->grpcMessage);
        if (request.capture != CaptureMode::None) {
            headers.swap(st->headers);
            trailers.swap(st->trailers);
            body.swap(st->body);
        }
        // a streaming call: its answer the last awaited message, its first message's time, its replies' latencies
        std::vector<Nanos> latencies;
        std::string shortOf;
        Nanos toFirstMessage = -1;
        if (request.stream && !reported && status == 200) {
            shortOf = st->call.shortOf();
            if (st->call.messagesIn())
                toFirstMessage = std::max<Nanos>(0, st->call.firstMessage() - st->written);
            st->call.take(body, latencies);
        }
        h->release(st);
        if (reported)
            return 0;
        if (!fault.empty()) { // the answer broke the protocol: we reset the stream, or it ended wrong
            h->m_listener.onAnswer(
                request.tag, Answer::failure(ErrorClass::Protocol, (request.grpc ? "gRPC: " : "HTTP/2: ") + fault),
                h->m_now);
            return 0;
        }
        if (code == NGHTTP2_REFUSED_STREAM && status == 0) {
            // not processed by the server: at once on another stream (or the next connection), once
            if (!h->resend(request, h->m_now, true, onWire))
                h->m_listener.onAnswer(request.tag,
                                       Answer::failure(ErrorClass::Reset, "the server refused the stream unprocessed "
                                                                          "(REFUSED_STREAM), also when sent again"),
                                       h->m_now);
            return 0;
        }
        if (code == NGHTTP2_NO_ERROR && status > 0) {
            h->m_answered = true;
            if (status >= 400 && sample.find("\r\n\r\n") == std::string::npos)
                sample += "\r\n\r\n";
            Answer a;
            a.setHttpStatus(status);
            a.bytesIn = bytesIn;
            a.timeToFirstByte = toFirstMessage >= 0 ? toFirstMessage : timeToFirstByte;
            a.errorSample = sample;
            if (request.grpc) // the gRPC session's answer
                if (const std::string notGrpc = grpcCallAnswer(a, grpcStatus, grpcMessage); !notGrpc.empty()) {
                    h->m_listener.onAnswer(request.tag, Answer::failure(ErrorClass::Protocol, notGrpc), h->m_now);
                    return 0;
                }
            if (request.stream) {
                if (!latencies.empty())
                    a.messageLatencies = &latencies;
                if (a.code == 0 && !shortOf.empty()) {
                    shortOf.insert(0, "gRPC: ");
                    Answer f = Answer::failure(ErrorClass::Protocol, shortOf); // `why` views the string
                    f.messageLatencies = a.messageLatencies;
                    h->m_listener.onAnswer(request.tag, f, h->m_now);
                    return 0;
                }
            }
            if (request.capture != CaptureMode::None) {
                a.headers = &headers;
                a.trailers = &trailers;
                a.body = &body;
            }
            h->m_listener.onAnswer(request.tag, a, h->m_now);
        } else {
            const std::string why = std::string("stream reset by the server: ") + nghttp2_http2_strerror(code);
            h->m_listener.onAnswer(request.tag, Answer::failure(ErrorClass::Reset, why), h->m_now);
        }
        return 0;
    }

    static int frame(nghttp2_session* s, const nghttp2_frame* frame, void* self)
    {
        auto* h = static_cast<Http2Session*>(self);
        if (frame->hd.type == NGHTTP2_GOAWAY) {
            h->m_goaway = true;
            ++h->m_goaways;
            // Streams past the server's last one were not processed, and those
            // submitted but not yet sent never will be: they go on the next connection.
            const std::int32_t last = frame->goaway.last_stream_id;
            std::vector<std::uint32_t> refused; // told after the loop: the listener may start requests
            for (auto& st : h->m_streams) {
                if (!st.used || st.reported || st.id <= last)
                    continue;
                nghttp2_session_set_stream_user_data(s, st.id, nullptr);
                const Http2Session::Waiting request = st.request;
                const bool wentOut = st.onWire;
                h->release(&st);
                if (!h->resend(request, h->m_now, false, wentOut))
                    refused.push_back(request.tag);
            }
            for (const std::uint32_t tag : refused)
                h->m_listener.onAnswer(tag,
                                       Answer::failure(ErrorClass::Reset,
                                                       "the server did not process it (past a "
                                                       "GOAWAY's last stream), also when sent again"),
                                       h->m_now);
        }
        return 0;
    }

    // nghttp2's own words on what it found wrong (the next callbacks say where).
    static int error(nghttp2_session*, int, const char* msg, std::size_t len, void* self)
    {
        static_cast<Http2Session*>(self)->m_libError.assign(msg, std::min<std::size_t>(len, 300));
        return 0;
    }

    // A frame that breaks the protocol: a stream's (its request fails as
    // `protocol`; nghttp2 resets the stream) or the connection's (GOAWAY, below).
    static int invalidFrame(nghttp2_session* s, const nghttp2_frame* frame, int libError, void* self)
    {
        auto* h = static_cast<Http2Session*>(self);
        if (Http2Session::Stream* st = frame->hd.stream_id ? stream(s, frame->hd.stream_id) : nullptr)
            if (st->fault.empty())
                st->fault = h->m_libError.empty() ? nghttp2_strerror(libError) : h->m_libError;
        return 0;
    }

    // Our GOAWAY with an error: the connection is over for every request on it.
    // A request's HEADERS: it is on the wire.
    static int sent(nghttp2_session* s, const nghttp2_frame* frame, void* self)
    {
        auto* h = static_cast<Http2Session*>(self);
        if (frame->hd.type == NGHTTP2_HEADERS)
            if (Http2Session::Stream* st = stream(s, frame->hd.stream_id))
                st->onWire = true;
        if (frame->hd.type == NGHTTP2_GOAWAY && frame->goaway.error_code != NGHTTP2_NO_ERROR &&
            h->m_connectionError.empty())
            h->m_connectionError = std::string(nghttp2_http2_strerror(frame->goaway.error_code)) +
                                   (h->m_libError.empty() ? std::string() : ": " + h->m_libError);
        return 0;
    }

    static ssize_t readBody(nghttp2_session* s, std::int32_t id, std::uint8_t* buf, std::size_t length,
                            std::uint32_t* flags, nghttp2_data_source*, void*)
    {
        Http2Session::Stream* st = stream(s, id);
        if (!st) {
            *flags |= NGHTTP2_DATA_FLAG_EOF;
            return 0;
        }
        // a paced streaming call's messages go as they are released (grpcstream.h)
        const std::size_t limit = st->request.stream ? st->call.allowed() : st->request.bodySize;
        if (st->bodySent >= limit && limit < st->request.bodySize)
            return NGHTTP2_ERR_DEFERRED;
        const std::size_t n = std::min(length, limit - st->bodySent);
        std::memcpy(buf, st->request.body + st->bodySent, n);
        st->bodySent += n;
        if (st->bodySent == st->request.bodySize)
            *flags |= NGHTTP2_DATA_FLAG_EOF;
        return ssize_t(n);
    }
};

Http2Session::Http2Session(EventLoop& loop, SessionListener& listener, char* readBuffer, std::size_t readBufferSize,
                           std::uint32_t maxStreams)
    : Transport(loop), m_listener(listener), m_readBuffer(readBuffer), m_readBufferSize(readBufferSize),
      m_maxStreams(std::max(1u, maxStreams))
{
    m_streams.resize(m_maxStreams);
    m_waiting.reserve(m_maxStreams);
}

Http2Session::~Http2Session()
{
    close();
}

void Http2Session::close()
{
    if (m_session) {
        nghttp2_session_del(m_session);
        m_session = nullptr;
    }
    for (auto& s : m_streams) {
        s.used = false;
        s.call.end();
    }
    m_active = 0;
    m_paced = 0;
    m_goaway = false;
    m_out.clear();
    m_outSent = 0;
    m_sawData = false;
    m_answered = false;
    m_libError.clear();
    m_connectionError.clear();
    closeTransport();
}

void Http2Session::reopen(bool answered, Nanos now)
{
    // the first reconnect at once (a refused request goes again at once, RFC 9113 §8.7); after two connections
    // in a row that answered nothing, the next one (for a request waiting, or the user's next) waits 10 ms,
    // doubling, 1 s at most
    m_fruitless = answered ? 0 : m_fruitless + 1;
    m_reopenAt = m_fruitless < 2
                     ? 0
                     : now + std::min<Nanos>(kReconnectBackoff << std::min<std::uint32_t>(m_fruitless - 2, 7),
                                             kMaxReconnectBackoff);
    if (!m_waiting.empty() && m_target && !isOpen() && !m_reopenAt)
        open(*m_target, now, m_connectTimeout);
}

void Http2Session::release(Stream* s)
{
    s->used = false;
    --m_active;
    if (s->call.active()) {
        m_paced -= s->request.stream->paced();
        s->call.end();
    }
}

bool Http2Session::resend(Waiting w, Nanos now, bool onThisConnection, bool wentOut)
{
    if (wentOut) {
        if (w.resends >= 1)
            return false;
        ++w.resends;
        m_listener.onResent(w.tag, now);
    } else if (++w.requeues > 3) {
        return false; // refused before it went out, connection after connection: not again
    }
    // A stream that went out goes at once on another stream; one nghttp2 refused before it went out (the
    // connection is closing) waits for the next connection: on this one it would be refused again, for ever.
    if (wentOut && onThisConnection && m_session && ready() && !m_goaway)
        startStream(w, now); // another stream, at once (written with the read's batch)
    else
        m_waiting.push_back(w); // the next connection
    return true;
}

bool Http2Session::startSession(std::string& why)
{
    nghttp2_session_callbacks* cb = nullptr;
    nghttp2_session_callbacks_new(&cb);
    nghttp2_session_callbacks_set_on_header_callback(cb, &Http2Callbacks::header);
    nghttp2_session_callbacks_set_on_begin_headers_callback(cb, &Http2Callbacks::beginHeaders);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, &Http2Callbacks::data);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, &Http2Callbacks::closed);
    nghttp2_session_callbacks_set_on_frame_recv_callback(cb, &Http2Callbacks::frame);
    nghttp2_session_callbacks_set_error_callback2(cb, &Http2Callbacks::error);
    nghttp2_session_callbacks_set_on_invalid_frame_recv_callback(cb, &Http2Callbacks::invalidFrame);
    nghttp2_session_callbacks_set_on_frame_send_callback(cb, &Http2Callbacks::sent);
    nghttp2_option* opt = nullptr;
    nghttp2_option_new(&opt);
    nghttp2_option_set_peer_max_concurrent_streams(opt, m_maxStreams);
    const int rv = nghttp2_session_client_new2(&m_session, cb, this, opt);
    nghttp2_option_del(opt);
    nghttp2_session_callbacks_del(cb);
    if (rv != 0) {
        why = std::string("cannot start an HTTP/2 session: ") + nghttp2_strerror(rv);
        return false;
    }
    const nghttp2_settings_entry settings[] = {{NGHTTP2_SETTINGS_ENABLE_PUSH, 0},
                                               {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, 100},
                                               {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, std::uint32_t(kStreamWindow)},
                                               {NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE, kMaxHeaderList}};
    nghttp2_submit_settings(m_session, NGHTTP2_FLAG_NONE, settings, std::size(settings));
    nghttp2_session_set_local_window_size(m_session, NGHTTP2_FLAG_NONE, 0, kConnectionWindow);
    return true;
}

void Http2Session::submit(std::uint32_t tag, const Endpoint& endpoint, const nghttp2_nv* headers, std::size_t count,
                          const char* body, std::size_t bodySize, Nanos now, Nanos timeout, Nanos connectTimeout,
                          bool grpc, CaptureMode capture, const CallStreamPlan* stream)
{
    m_now = now;
    m_target = &endpoint;
    m_connectTimeout = connectTimeout;
    const Waiting w{tag, headers, count, body, bodySize, now + timeout, timeout, grpc, capture, stream};
    if (isOpen() && !endpoint.sameAs(*Transport::endpoint()) && m_active == 0)
        close();
    if (!isOpen()) {
        m_waiting.push_back(w);
        if (!m_reopenAt || now >= m_reopenAt) { // else the backoff's end opens it (checkDeadlines)
            m_reopenAt = 0;
            open(endpoint, now, connectTimeout);
        }
        return;
    }
    if (!ready() || m_goaway) {
        m_waiting.push_back(w); // after the handshake, or on the next connection
        return;
    }
    startStream(w, now);
    if (!m_reading)
        flush(now);
}

void Http2Session::startStream(const Waiting& w, Nanos now)
{
    auto it = std::find_if(m_streams.begin(), m_streams.end(), [](const Stream& s) { return !s.used; });
    if (it == m_streams.end()) {
        m_streams.emplace_back(); // more requests than streams: nghttp2 queues them
        it = m_streams.end() - 1;
    }
    Stream& st = *it;
    st.id = 0;
    st.reported = false;
    st.status = 0;
    st.bytesIn = 0;
    st.firstByte = 0;
    st.written = now;
    st.bodySent = 0;
    st.sample.clear();
    st.inTrailers = false;
    st.grpcStatus = -1;
    st.grpcMessage.clear();
    st.fault.clear();
    st.onWire = false;
    st.headerBytes = 0;
    st.grpcAnswer.reset(w.stream != nullptr, w.stream && (w.capture == CaptureMode::All || !w.stream->match.empty()));
    st.headers.clear();
    st.trailers.clear();
    st.body.clear();
    st.used = true;
    st.request = w;
    ++m_active;
    if (w.stream) {
        const std::uint32_t out = st.call.start(w.stream, std::string_view(w.body, w.bodySize), now);
        m_paced += w.stream->paced();
        m_listener.onStreamMessages(w.tag, out, 0, now);
    }
    if (m_unsent++ == 0)
        m_heldSince = now;
    nghttp2_data_provider provider{};
    provider.read_callback = &Http2Callbacks::readBody;
    const std::int32_t id =
        nghttp2_submit_request(m_session, nullptr, w.headers, w.count, w.bodySize ? &provider : nullptr, &st);
    st.id = id;
    if (id < 0) {
        release(&st);
        m_listener.onAnswer(w.tag,
                            Answer::failure(ErrorClass::Protocol, std::string("HTTP/2: ") + nghttp2_strerror(id)), now);
    }
}

void Http2Session::onReady(Nanos now, Nanos connect, Nanos handshake, bool tls, bool resumed)
{
    m_now = now;
    if (tls && alpn() != "h2") {
        const std::string got = alpn();
        failAll(ErrorClass::Protocol,
                "the server at " + endpoint()->label +
                    " did not agree to HTTP/2 over TLS (ALPN: " + (got.empty() ? "none" : got) + ")",
                now);
        return;
    }
    std::string why;
    if (!startSession(why)) {
        failAll(ErrorClass::Protocol, why, now);
        return;
    }
    if (!m_waiting.empty())
        m_listener.onConnected(m_waiting.front().tag, connect, handshake, tls, resumed);
    std::vector<Waiting> waiting;
    waiting.swap(m_waiting);
    for (const auto& w : waiting)
        startStream(w, now);
    if (!m_reading)
        flush(now);
}

void Http2Session::onTransportFailure(ErrorClass error, const std::string& why, Nanos now)
{
    failAll(error, why, now);
}

void Http2Session::failAll(ErrorClass error, const std::string& why, Nanos now)
{
    std::vector<std::uint32_t> tags;
    for (auto& s : m_streams)
        if (s.used && !s.reported)
            tags.push_back(s.request.tag);
    for (const auto& w : m_waiting)
        tags.push_back(w.tag);
    m_waiting.clear();
    close();
    for (const auto tag : tags)
        m_listener.onAnswer(tag, Answer::failure(error, why), now);
}

void Http2Session::onWritable(Nanos now)
{
    flush(now);
}

bool Http2Session::flushQueued(Nanos now)
{
    if (m_session && holdsWrite(m_unsent, m_active, m_heldSince, now))
        return false;
    m_queued = false;
    flush(now);
    return true;
}

void Http2Session::flush(Nanos now)
{
    m_unsent = 0;
    if (!m_session || m_sending)
        return;
    for (;;) {
        // gather frames into one write
        while (m_out.size() - m_outSent < kWriteBatch) {
            const std::uint8_t* data = nullptr;
            m_sending = true;
            const ssize_t n = nghttp2_session_mem_send(m_session, &data);
            m_sending = false;
            if (n < 0) {
                failAll(ErrorClass::Protocol, std::string("HTTP/2: ") + nghttp2_strerror(int(n)), now);
                return;
            }
            if (n == 0)
                break;
            if (m_outSent == m_out.size()) {
                m_out.clear();
                m_outSent = 0;
            }
            m_out.append(reinterpret_cast<const char*>(data), std::size_t(n));
        }
        if (m_outSent == m_out.size())
            break;
        Io io;
        std::string why;
        const std::size_t n = writeSome(m_out.data() + m_outSent, m_out.size() - m_outSent, io, why);
        if (io == Io::Done) {
            m_outSent += n;
            continue;
        }
        if (io == Io::Again) {
            watchWrites(true); // the next EPOLLOUT edge goes on
            return;
        }
        failAll(ErrorClass::Reset, why, now);
        return;
    }
    if (!m_connectionError.empty()) { // our GOAWAY went out: nothing more comes on this connection
        const std::string why = "HTTP/2 connection error: " + m_connectionError;
        failAll(ErrorClass::Protocol, why, now);
        return;
    }
    watchWrites(false); // all written: no wake-up for every ACK
    // A GOAWAY received and every stream done: the next requests go on a fresh connection.
    if (m_goaway && m_active == 0) {
        const bool answered = m_answered;
        close(); // the waiting requests stay queued for the next connection
        reopen(answered, now);
    }
}

void Http2Session::onReadable(Nanos now, bool peerClosed)
{
    m_now = now;
    for (;;) {
        Io io;
        std::string why;
        const std::size_t n = readSome(m_readBuffer, m_readBufferSize, io, why);
        if (io == Io::Again)
            break;
        if (io == Io::Closed || io == Io::Error) {
            // the streams sent fail; the requests not yet sent go on a new connection
            std::vector<Waiting> waiting;
            waiting.swap(m_waiting);
            const bool answered = m_answered;
            if (m_active)
                failAll(io == Io::Error && tlsFault() ? ErrorClass::Tls : ErrorClass::Reset,
                        io == Io::Error ? why : "the server closed the HTTP/2 connection with streams open", now);
            else
                close();
            m_waiting.insert(m_waiting.begin(), waiting.begin(), waiting.end());
            reopen(answered, now);
            return;
        }
        if (!m_session)
            return;
        if (!m_sawData && n >= 5 && std::memcmp(m_readBuffer, "HTTP/", 5) == 0) {
            const std::string line(m_readBuffer, std::find(m_readBuffer, m_readBuffer + n, '\r'));
            failAll(ErrorClass::Protocol,
                    "the server at " + endpoint()->label + " does not speak HTTP/2 (it answered \"" + line + "\")",
                    now);
            return;
        }
        m_sawData = true;
        m_reading = true;
        const ssize_t rv = nghttp2_session_mem_recv(m_session, reinterpret_cast<const std::uint8_t*>(m_readBuffer), n);
        m_reading = false;
        if (rv < 0) {
            failAll(ErrorClass::Protocol, std::string("HTTP/2: ") + nghttp2_strerror(int(rv)), now);
            return;
        }
        if (!m_session)
            return;                // a callback closed the connection
        if (!m_libError.empty()) { // nghttp2 found the server wrong: its RST_STREAM or GOAWAY goes now
            flush(now);
            if (!m_session)
                return; // a connection error: every request failed with it
            m_libError.clear();
        }
        // a short read drained the socket (plain TCP; TLS reads a record at a time)
        if (shortReadDrains() && n < m_readBufferSize && !peerClosed)
            break;
    }
    if (m_flushQueue) {
        if (!m_queued) {
            m_queued = true;
            m_flushQueue->push_back(this);
        }
        return;
    }
    flush(now);
}

void Http2Session::checkDeadlines(Nanos now)
{
    m_now = now;
    if (m_reopenAt && now >= m_reopenAt) {
        m_reopenAt = 0;
        if (!isOpen() && !m_waiting.empty() && m_target)
            open(*m_target, now, m_connectTimeout);
    }
    if (isOpen() && !ready() && checkConnectDeadline(now))
        return; // every waiting request failed with the connect
    // collect first: the listener may start new streams on this session
    struct Late
    {
        std::uint32_t tag;
        Nanos timeout;
        bool grpc;
    };
    std::vector<Late> late;
    for (auto& s : m_streams) {
        if (!s.used || s.reported || now < s.request.deadline)
            continue;
        s.reported = true; // the pool entry is freed when nghttp2 closes the stream
        if (s.id > 0 && m_session)
            nghttp2_submit_rst_stream(m_session, NGHTTP2_FLAG_NONE, s.id, NGHTTP2_CANCEL);
        late.push_back({s.request.tag, s.request.timeout, s.request.grpc});
    }
    for (auto it = m_waiting.begin(); it != m_waiting.end();) {
        if (now < it->deadline) {
            ++it;
            continue;
        }
        late.push_back({it->tag, it->timeout, it->grpc});
        it = m_waiting.erase(it);
    }
    if (late.empty())
        return;
    flush(now); // the resets go out: the server stops working on those streams
    for (const Late& l : late) {
        const std::string why = "no complete response within " + std::to_string(l.timeout / kNanosPerMilli) + " ms";
        Answer a = Answer::failure(ErrorClass::Timeout, why);
        const std::string deadline = l.grpc ? "the deadline passed (" + why + ")" : std::string();
        if (l.grpc)
            grpcDeadline(a, deadline);
        m_listener.onAnswer(l.tag, a, now);
    }
}

} // namespace stampede
