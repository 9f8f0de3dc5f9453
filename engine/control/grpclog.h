#pragma once
// gRPC prints its own lines for a failed TLS handshake ("Handshake failed
// with fatal error SSL_ERROR_SSL ...") before the controller can say, in
// words, what is wrong (grpcagentlink.cpp looks at the agent's port itself).
// This drops those lines from gRPC's TLS handshaker and keeps every other
// line; with GRPC_VERBOSITY set in the environment gRPC logs as it would.
namespace stampede {

void quietGrpcHandshakeLogs();

} // namespace stampede
