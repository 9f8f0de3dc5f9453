#pragma once
// What the transport's TLS parts share (transport.cpp, transportrecords.cpp):
// the socket BIO's state and the raw socket calls.
#include <cstddef>
#include <string>
#include <sys/types.h>

namespace stampede {

// A TLS socket BIO's data: the socket, and the bytes written while the
// transport holds them (the handshake's last flight, until what the
// connection writes first joins it) or while earlier held bytes wait for the
// socket to take them (order kept).
struct TlsBioState
{
    int fd = -1;
    bool holding = false;
    std::string held;
    // Bytes read from the socket that nothing has used yet. OpenSSL reads the
    // handshake through them without read-ahead (a flight is one recv, and it
    // reads no further than the handshake's end), so what came past the
    // handshake is where the transport's own records begin.
    std::string in;
    std::size_t inAt = 0;
    // The transport opens and seals the records (TlsRecords): OpenSSL reads
    // only `feed`, the post-handshake messages handed back to it (tickets).
    bool own = false;
    // What OpenSSL wrote once the transport had the records (an alert for a
    // ticket it refused): never sent, for its key and sequence number are
    // those the transport's records already used (a nonce reused). The
    // connection ends as a `tls` error instead.
    bool wroteAfterHandover = false;
    std::string feed;
    std::size_t feedAt = 0;
    bool closeNotified = false; // a close_notify came (after data handed out first)
    // The application traffic secrets, from OpenSSL's key log, until the transport takes them.
    std::string clientSecret, serverSecret;
};

// The type of the transport's socket BIO (BIO_method_type): its data is a TlsBioState.
int rawSocketType();

// send(2) and recv(2) without glibc's wrappers (cancellation points); a call
// a signal interrupted is made again. errno is set as usual.
ssize_t rawSend(int fd, const char* data, std::size_t size);
ssize_t rawRecv(int fd, char* buffer, std::size_t size);

// Copies up to `size` bytes of `from` (from `at` on) to `to` and moves `at`
// past them; `from` is emptied once all of it is taken. Returns how many.
std::size_t takeFrom(std::string& from, std::size_t& at, char* to, std::size_t size);

// Where the transport's reads of the socket go when not straight into a
// caller's buffer: one per thread, room for a buffer's worth and a record.
constexpr std::size_t kScratch = 128 * 1024;
unsigned char* scratch();

} // namespace stampede
