// The transport's own TLS 1.3 record layer (TlsRecords) past OpenSSL's
// handshake: reads open whole records from the socket straight into the
// reader's buffer, writes seal into the bytes the BIO holds and send them.
// OpenSSL keeps the session: tickets the server sends later are handed back
// to it, sealed again in the numbering it expects, so a reconnect resumes.
#include "transport.h"

#include "tlsbio.h"

#include <cerrno>
#include <cstring>
#include <openssl/err.h>
#include <openssl/ssl.h>

namespace stampede {

namespace {
constexpr std::uint8_t kNewSessionTicket = 4, kKeyUpdate = 24;
constexpr std::uint32_t kMaxEmptyRecords = 32; // as OpenSSL's record layer
constexpr std::uint32_t kMaxWarnAlerts = 5;    // user_canceled alerts before data: OpenSSL's MAX_WARN_ALERT_COUNT

// An alert's name, TLS 1.3's own included (OpenSSL's table calls those
// "unknown"), with what to do where the user can do something.
std::string alertName(std::uint8_t code)
{
    switch (code) {
    case 109:
        return "missing extension";
    case 115:
        return "unknown PSK identity";
    case 116:
        return "certificate required (the server asks for a client certificate: give --cert and --key)";
    case 120:
        return "no application protocol";
    default:
        return SSL_alert_desc_string_long(code);
    }
}
constexpr std::size_t kMaxWrite = 256 * 1024; // sealed per call: a bound on what one write holds

void wipe(std::string& s)
{
    OPENSSL_cleanse(s.data(), s.size());
    s.clear();
}
} // namespace

void Transport::startOwnRecords()
{
    TlsBioState& st = *m_bio;
    const SSL_CIPHER* cipher = SSL_get_current_cipher(m_ssl);
    if (!st.clientSecret.empty() && SSL_version(m_ssl) == TLS1_3_VERSION && cipher &&
        TlsRecords::supports(SSL_CIPHER_get_id(cipher))) {
        auto records = std::make_unique<TlsRecords>();
        if (records->start(SSL_CIPHER_get_id(cipher), st.clientSecret, st.serverSecret)) {
            m_records = std::move(records);
            st.own = true;
        }
    }
    wipe(st.clientSecret);
    wipe(st.serverSecret);
    if (!m_records)
        SSL_set_read_ahead(m_ssl, 1); // OpenSSL's records: read what the socket has in one go
}

std::size_t Transport::openRecords(const unsigned char* in, std::size_t size, char* buffer, std::size_t bufferSize,
                                   std::size_t& got, Io& io, std::string& why)
{
    std::size_t used = 0;
    while (got < bufferSize) {
        const long length = TlsRecords::recordLength(in + used, size - used, why);
        if (length <= 0) {
            if (length < 0)
                io = Io::Error;
            break;
        }
        const std::size_t most = std::size_t(length) - TlsRecords::kHeader - TlsRecords::kTag;
        const bool fits = most <= bufferSize - got;
        if (!fits && got > 0)
            break; // the next read takes it
        if (!fits)
            m_plain.resize(most);
        auto* out =
            fits ? reinterpret_cast<unsigned char*>(buffer + got) : reinterpret_cast<unsigned char*>(m_plain.data());
        std::uint8_t type = 0;
        std::size_t plain = 0;
        if (!m_records->open(in + used, std::size_t(length), out, type, plain, why)) {
            io = Io::Error;
            break;
        }
        used += std::size_t(length);
        if (!m_handshakeBytes.empty() && type != TlsRecords::kHandshake) { // RFC 8446 5.1, as OpenSSL
            why = "TLS: a handshake message split around a record of another type";
            io = Io::Error;
            break;
        }
        if (type == TlsRecords::kData && plain == 0 && ++m_emptyRecords > kMaxEmptyRecords) {
            why = "TLS: more than " + std::to_string(kMaxEmptyRecords) + " empty records in a row";
            io = Io::Error;
            break;
        }
        if (plain > 0 || type != TlsRecords::kData)
            m_emptyRecords = 0;
        if (plain > 0 && type == TlsRecords::kData)
            m_warnAlerts = 0;
        if (type == TlsRecords::kData) {
            if (fits) {
                got += plain;
            } else {
                m_plain.resize(plain);
                got += takeFrom(m_plain, m_plainAt, buffer + got, bufferSize - got);
            }
        } else if (type == TlsRecords::kHandshake) {
            if (!onHandshakeBytes(out, plain, why)) {
                io = Io::Error;
                break;
            }
        } else if (type == TlsRecords::kAlert && plain == 2) {
            if (out[1] == 0) { // close_notify
                m_bio->closeNotified = true;
                io = Io::Closed;
                break;
            }
            if (out[1] != SSL_AD_USER_CANCELLED) {
                why = "TLS: the server sent an alert: " + alertName(out[1]);
                io = Io::Error;
                break;
            }
            if (++m_warnAlerts >= kMaxWarnAlerts) {
                why = "TLS: " + std::to_string(kMaxWarnAlerts) + " user_canceled alerts without data between them";
                io = Io::Error;
                break;
            }
        } else {
            why = "TLS: a record of content type " + std::to_string(type) + " after the handshake";
            io = Io::Error;
            break;
        }
        if (!fits && type != TlsRecords::kData) {
            m_plain.clear(); // a ticket or an alert opened there: nothing of it is data
            m_plainAt = 0;
        }
        if (!fits && m_plainAt < m_plain.size())
            break;
    }
    return used;
}

std::size_t Transport::readOwn(char* buffer, std::size_t size, Io& io, std::string& why)
{
    TlsBioState& st = *m_bio;
    std::size_t got = takeFrom(m_plain, m_plainAt, buffer, size);
    if (got == 0 && st.closeNotified) {
        io = Io::Closed;
        return 0;
    }
    io = Io::Done;
    // What was kept from before goes first, at the start of the thread's scratch area.
    unsigned char* work = scratch();
    std::size_t have = st.in.size() - st.inAt;
    std::memcpy(work, st.in.data() + st.inAt, have);
    st.in.clear();
    st.inAt = 0;
    if (st.in.capacity() > 4096)
        std::string().swap(st.in);
    std::size_t at = 0;
    for (;;) {
        at += openRecords(work + at, have - at, buffer, size, got, io, why);
        if (io == Io::Error)
            m_tlsFault = true; // what the records said, not the socket
        if (io != Io::Done || got > 0 || m_plainAt < m_plain.size())
            break;
        if (at > 0) { // whole records used: what is left moves to the front
            std::memmove(work, work + at, have - at);
            have -= at;
            at = 0;
        }
        const ssize_t n = rawRecv(m_fd, reinterpret_cast<char*>(work + have), kScratch - have);
        if (n > 0) {
            have += std::size_t(n);
            continue;
        }
        if (n == 0) { // a FIN without close_notify: the socket's end, as OpenSSL says it (not a record's fault)
            io = Io::Error;
            why = "TLS read: unexpected eof while reading (the server closed without close_notify)";
        } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
            io = Io::Again;
        } else {
            io = Io::Error;
            why = std::string("TLS read: ") + std::strerror(errno);
        }
        break;
    }
    if (io == Io::Done || io == Io::Again)
        st.in.assign(reinterpret_cast<const char*>(work + at), have - at);
    if (got > 0 && io != Io::Error)
        io = Io::Done; // a close after the data: the next read tells
    return io == Io::Done ? got : 0;
}

bool Transport::onHandshakeBytes(const unsigned char* data, std::size_t size, std::string& why)
{
    m_handshakeBytes.append(reinterpret_cast<const char*>(data), size);
    for (;;) {
        const auto* h = reinterpret_cast<const unsigned char*>(m_handshakeBytes.data());
        const long whole = TlsRecords::handshakeMessageLength(h, m_handshakeBytes.size(), why);
        if (whole <= 0)
            return whole == 0;
        const std::size_t length = std::size_t(whole) - 4;
        const std::uint8_t type = h[0];
        if (type == kNewSessionTicket) {
            // OpenSSL keeps the session: the ticket goes to it as a record it
            // opens itself; what it says back is only "wants more".
            if (m_records->sealForOpenSsl(m_handshakeBytes.data(), 4 + length, m_bio->feed)) {
                char none[1];
                if (SSL_read(m_ssl, none, 1) > 0) {
                    why = "TLS: application data where a ticket was";
                    return false;
                }
                ERR_clear_error();
                if (m_bio->wroteAfterHandover) { // its alert: a ticket it refused as malformed
                    why = "TLS: the server's session ticket is malformed (OpenSSL refused it)";
                    return false;
                }
            }
            m_bio->feed.clear();
            m_bio->feedAt = 0;
        } else if (type == kKeyUpdate) {
            if (length != 1 || h[4] > 1 || m_handshakeBytes.size() != 5) {
                why = "TLS: a malformed KeyUpdate";
                return false;
            }
            const bool requested = h[4] == 1;
            m_handshakeBytes.clear();
            if (!m_records->updateReadKey() || (requested && !answerKeyUpdate())) {
                why = "TLS: the key update failed";
                return false;
            }
            return true;
        } else {
            why = "TLS: an unexpected handshake message (type " + std::to_string(type) + ") after the handshake";
            return false;
        }
        m_handshakeBytes.erase(0, 4 + length);
    }
}

bool Transport::sendOwn(const char* data, std::size_t size)
{
    if (!m_records->seal(TlsRecords::kData, data, size, m_bio->held))
        return false;
    if (!m_bio->holding)
        flushHeld();
    return true;
}

bool Transport::answerKeyUpdate()
{
    if (!m_records->sealKeyUpdate(false, m_bio->held))
        return false;
    if (!m_bio->holding)
        flushHeld();
    return true;
}

std::size_t Transport::writeOwn(const char* data, std::size_t size, Io& io, std::string& why)
{
    TlsBioState& st = *m_bio;
    if (!st.holding && !st.held.empty()) {
        flushHeld();
        if (!st.held.empty()) { // the socket takes no more: its EPOLLOUT edge tells
            io = Io::Again;
            return 0;
        }
    }
    const std::size_t n = std::min(size, kMaxWrite);
    if (!sendOwn(data, n)) {
        io = Io::Error;
        why = tlsErrorText("TLS: a record could not be sealed");
        return 0;
    }
    io = Io::Done;
    return n;
}

} // namespace stampede
