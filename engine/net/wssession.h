#pragma once
// One WebSocket client connection (RFC 6455) over TCP or TLS: the opening
// handshake within a deadline, messages out (each frame masked with a fresh
// key from OpenSSL's random source), messages in as whole messages, pings
// answered with pongs, and the closing handshake: a close sent waits for the
// server's, within a deadline (a server that never answers it ends the
// connection as a timeout, code 1006); the server's close is echoed. The
// server is not trusted: its frames are read by WsReader (stream/wsframes.h),
// whose faults close the connection with their code and end it as a
// protocol error; an answer head over 16 KiB is one too.
#include "sessionlistener.h"
#include "stream/wsframes.h"
#include "stream/wshandshake.h"
#include "transport.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace stampede {

// How a WebSocket connection ended: the closing handshake (`code` and `reason` the server's), or a failure
// (`error`, `why`; `code` 1006 unless a protocol fault named its own).
struct WsEnd
{
    bool failed = false;
    ErrorClass error = ErrorClass::Protocol;
    std::string_view why;
    std::uint16_t code = 1006;
    std::string_view reason;
};

class WsListener
{
public:
    virtual ~WsListener() = default;
    // The connection is up (and through TLS): its times, as SessionListener::onConnected.
    virtual void onWsConnected(std::uint32_t /*tag*/, Nanos /*connect*/, Nanos /*handshake*/, bool /*tls*/,
                               bool /*resumed*/)
    {
    }
    // The handshake passed: the connection is a WebSocket (`protocol`: the subprotocol the server chose, or "").
    virtual void onWsOpen(std::uint32_t tag, std::string_view protocol, Nanos now) = 0;
    virtual void onWsMessage(std::uint32_t tag, WsOpcode type, std::string_view data, Nanos now) = 0;
    // The connection ended; nothing more is heard of it. The listener may open it again from inside.
    virtual void onWsEnd(std::uint32_t tag, const WsEnd& end, Nanos now) = 0;
};

class WsSession final : public Transport
{
public:
    WsSession(EventLoop& loop, WsListener& listener, char* readBuffer, std::size_t readBufferSize,
              WsReader::Limits limits = {});
    ~WsSession() override = default;

    // Connects to `endpoint` (which must outlive the connection) and asks for the upgrade `u` (with `request`,
    // those bytes: a request rendered elsewhere, with u's key); the handshake must end within `timeout` of now.
    void open(const Endpoint& endpoint, WsUpgrade u, Nanos now, Nanos timeout, Nanos connectTimeout,
              std::string request = {});
    // A message out; false when the connection is not open (or closing).
    bool send(WsOpcode type, std::string_view data, Nanos now);
    // Starts the closing handshake: the server's close is waited for until `timeout` from now.
    void close(std::uint16_t code, std::string_view reason, Nanos now, Nanos timeout);
    // Ends the handshake or the close that passed its deadline.
    void checkDeadline(Nanos now);
    bool isWebSocket() const { return m_state == State::Open; }
    bool idle() const { return m_state == State::Idle; }
    // Since the last open(): this connection's.
    std::uint64_t bytesIn() const { return m_bytesIn; }
    // permessage-deflate was agreed for this connection: messages go compressed and come expanded.
    bool deflating() const { return m_deflate != nullptr; }
    std::uint64_t bytesOut() const { return m_bytesOut; }
    std::uint64_t pongsSent() const { return m_pongs; }

    // The most bytes of an answer's head (status line and headers).
    static constexpr std::size_t kHeadLimit = 16 * 1024;
    std::uint32_t tag = 0;

private:
    enum class State
    {
        Idle,
        Handshake,
        Open,
        Closing
    };
    void onReady(Nanos now, Nanos connect, Nanos handshake, bool tls, bool resumed) override;
    void onTransportFailure(ErrorClass error, const std::string& why, Nanos now) override;
    void onReadable(Nanos now, bool peerClosed) override;
    void onWritable(Nanos now) override;
    void queueFrame(WsOpcode op, std::string_view payload, bool compressed = false);
    void flush(Nanos now);
    // The head read so far: false when it is not whole yet; else the handshake settled (open, or ended).
    bool readHead(std::string_view bytes, Nanos now);
    void readFrames(std::string_view bytes, Nanos now);
    void end(WsEnd e, Nanos now);
    void fail(ErrorClass error, const std::string& why, Nanos now, std::uint16_t code = 1006);

    WsListener& m_listener;
    char* m_readBuffer;
    std::size_t m_readBufferSize;
    WsReader::Limits m_limits;
    WsReader m_reader;
    WsUpgrade m_upgrade;
    State m_state = State::Idle;
    std::string m_head;
    std::string m_out; // frames (or the upgrade request) not yet written
    std::size_t m_outAt = 0;
    bool m_closeSent = false;
    Nanos m_deadline = 0;
    Nanos m_timeout = 0;
    std::string m_why; // a failure's words, valid during onWsEnd
    std::uint64_t m_bytesIn = 0, m_bytesOut = 0, m_pongs = 0;
    std::unique_ptr<WsDeflate> m_deflate; // this connection's compressor (permessage-deflate agreed)
    std::string m_compressed;             // a message out, compressed
    unsigned char m_random[256];          // masking keys, drawn from OpenSSL's random source 64 at a time
    std::size_t m_randomAt = sizeof m_random;
};

} // namespace stampede
