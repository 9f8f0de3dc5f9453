// Http2Session's streaming gRPC calls (grpcstream.h): their messages in, read one by one from the stream's DATA
// and counted as they come; the call answered once its awaited messages are in (and cancelled); the paced
// messages out released when due.
#include "http2session.h"

#include <algorithm>

namespace stampede {

bool Http2Session::streamData(Stream& st, const std::uint8_t* data, std::size_t len)
{
    if (st.reported)
        return false; // answered (its awaited messages came, or its deadline passed): its reset is on its way
    std::uint32_t in = 0, out = 0;
    bool done = false;
    while (len && !done) {
        std::size_t used = 0;
        bool ended = false;
        st.fault = st.grpcAnswer.read(data, len, used, ended);
        if (!st.fault.empty()) {
            nghttp2_submit_rst_stream(m_session, NGHTTP2_FLAG_NONE, st.id, NGHTTP2_PROTOCOL_ERROR);
            break;
        }
        data += used;
        len -= used;
        if (!ended)
            continue;
        ++in;
        if (!st.grpcAnswer.message().empty())
            m_listener.onCallMessage(st.request.tag, st.grpcAnswer.message(), m_now);
        done = st.call.onMessage(st.grpcAnswer.message(), m_now);
        if (const std::uint32_t n = st.call.release(m_now)) { // a reply lets the next message go
            out += n;
            nghttp2_session_resume_data(m_session, st.id);
        }
    }
    if (in || out)
        m_listener.onStreamMessages(st.request.tag, out, in, m_now);
    if (!done)
        return true;
    // the awaited messages are in: the call is answered, and ended (CANCEL: the server stops sending)
    st.reported = true;
    nghttp2_submit_rst_stream(m_session, NGHTTP2_FLAG_NONE, st.id, NGHTTP2_CANCEL);
    Answer a;
    SessionListener::HeaderList headers, trailers;
    std::string body;
    streamAnswer(st, a, headers, trailers, body);
    m_listener.onAnswer(st.request.tag, a, m_now);
    return false;
}

void Http2Session::streamAnswer(Stream& st, Answer& a, SessionListener::HeaderList& headers,
                                SessionListener::HeaderList& trailers, std::string& body)
{
    a.setHttpStatus(st.status);
    grpcCallAnswer(a, 0, {}); // what the step waited for came: the call did what it was for (OK)
    a.bytesIn = st.bytesIn;
    a.timeToFirstByte = std::max<Nanos>(0, st.call.firstMessage() - st.written);
    std::vector<Nanos> latencies;
    st.call.take(body, latencies);
    m_latencies.swap(latencies);
    if (!m_latencies.empty())
        a.messageLatencies = &m_latencies;
    if (st.request.capture != CaptureMode::None) {
        headers.swap(st.headers);
        trailers.swap(st.trailers);
        a.headers = &headers;
        a.trailers = &trailers;
        a.body = &body;
    }
}

Nanos Http2Session::nextRelease() const
{
    Nanos next = GrpcStreamCall::kNever;
    if (!m_paced || !m_session)
        return next;
    for (const auto& s : m_streams)
        if (s.used && !s.reported && s.call.active())
            next = std::min(next, s.call.nextRelease());
    return next;
}

void Http2Session::releaseDue(Nanos now)
{
    if (!m_paced || !m_session)
        return;
    m_now = now;
    bool any = false;
    for (auto& s : m_streams) {
        if (!s.used || s.reported || !s.call.active() || s.id <= 0)
            continue;
        if (const std::uint32_t n = s.call.release(now)) {
            nghttp2_session_resume_data(m_session, s.id);
            m_listener.onStreamMessages(s.request.tag, n, 0, now);
            any = true;
        }
    }
    if (any && !m_reading)
        flush(now);
}

} // namespace stampede
