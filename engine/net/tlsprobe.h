#pragma once
// A blocking look at what answers at host:port, to say in words why a TLS or
// plaintext connection to it fails where a library says only "failed to
// connect" (gRPC does): nothing listens, the peer speaks plaintext, the peer
// speaks TLS, its certificate has an unknown CA or another name. Used once,
// after a failure, never on a load path; bounded by `timeout`.
#include "core/clock.h"
#include "endpoint.h"

#include <string>

namespace stampede {

struct TlsProbe
{
    enum class Kind
    {
        Unreachable,         // no TCP connection (refused, no route, no answer in time)
        Plaintext,           // the peer answered a TLS hello with something else, or closed
        Tls,                 // a TLS handshake completed and the certificate is accepted (or not checked)
        CertificateRejected, // a TLS handshake completed but the certificate is not accepted
        HandshakeFailed,     // the peer speaks TLS and refused this client (an alert)
    };
    Kind kind = Kind::Unreachable;
    std::string detail; // words for the user: "unknown CA: ...", "name mismatch: ..."
};

// `caPem` empty: the certificate is not checked (only "does it speak TLS?").
// The name checked is the host of `address` (a DNS name or an IP address).
TlsProbe probeTls(const std::string& address, const std::string& caPem, Nanos timeout);

// A TCP connection to `endpoint` within `timeout`, left blocking with send
// and receive timeouts of as much; -1 and `why` when there is none.
int connectBlocking(const Endpoint& endpoint, Nanos timeout, std::string& why);

// True when something accepts a TCP connection at host:port within `timeout`
// (a frozen process's kernel still does; a dead process's port refuses).
bool tcpAnswers(const std::string& address, Nanos timeout);

// Words for an OpenSSL verification result: "unknown CA (...)", "name
// mismatch: the certificate is not for NAME", "expired certificate (...)".
std::string certificateProblem(long verifyResult, const std::string& name);

} // namespace stampede
