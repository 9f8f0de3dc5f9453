#pragma once
// The mock server's rules: which requests a rule answers (method, and a path
// that is exact, a prefix "/a/*", or has "{param}" segments), and how (status,
// headers, body, a delay drawn from a distribution, an error percentage).
#include "core/random.h"
#include "grpc/protoschema.h"
#include "mockstreams.h"

#include <atomic>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace stampede::v1 {
class MockRules;
}

namespace stampede {

// A gRPC streaming method's answer (mock.proto's MockGrpc): the frames sent in order (a round of them repeated
// until `count`), `every` apart, or each client message echoed; a client-streaming method answers once.
struct MockGrpcStream
{
    bool clientStreams = false, serverStreams = false;
    bool echo = false;
    std::vector<std::string> frames; // framed messages, in order
    std::uint32_t count = 0;         // messages a server-streaming answer sends
    std::int64_t every = 0;          // nanoseconds between them
    static constexpr std::uint32_t kMaxCount = 10000000;
};

struct MockRule
{
    enum class Delay
    {
        None,
        Fixed,
        Uniform,
        Normal,
        LongTail
    };
    std::string name;
    std::string method; // empty: any
    std::string path;
    std::vector<std::string> segments; // path split at '/', for {param} matching
    enum class PathKind
    {
        Exact,
        Prefix,
        Pattern
    } pathKind = PathKind::Exact;
    std::string response;      // the whole HTTP/1.1 response, rendered once
    std::string errorResponse; // the same for injected errors
    // The same parts for HTTP/2: status, headers (lower-case names), body.
    unsigned status = 200;
    unsigned errorStatus = 500;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
    // gRPC rules: `body` is the framed answer; grpcStatus (0 when the message
    // is sent) and grpcErrorStatus for injected errors.
    bool grpc = false;
    unsigned grpcStatus = 0;
    std::string grpcMessage;
    unsigned grpcErrorStatus = 14;
    std::shared_ptr<const MockGrpcStream> grpcStream; // a streaming method's (null: unary)
    Delay delay = Delay::None;
    double a = 0, b = 0; // distribution parameters in milliseconds (see mockrules.cpp)
    double errorPercent = 0;
    std::string errorBody = "injected error\n";
    std::string errorType = "text/plain";
    // Headers a request must carry (lower-case names; an empty value: any
    // value); a request without them gets `refusedResponse` (401).
    std::vector<std::pair<std::string, std::string>> require;
    std::string refusedResponse;
    std::string refusedBody;
    // A known limit (rateLimit): above `limitPerSecond` answers in one second
    // of the server's clock, `limitedResponse` (limitStatus) at once, or with
    // limitDelay the rule's own answer that much later.
    std::uint32_t limitPerSecond = 0;
    unsigned limitStatus = 429;
    std::int64_t limitDelay = 0; // nanoseconds
    bool limitQueue = false;     // answers wait their turn at limitPerSecond (queueDelay)
    std::string limitedResponse;
    std::string limitedBody;
    // A WebSocket endpoint or an event stream (mockstreams.h); null for an answer.
    std::shared_ptr<const MockStreamRule> stream;
    mutable std::atomic<std::uint64_t> window{0}; // the current second << 32 | requests in it
    mutable std::atomic<std::uint64_t> served{0};
    mutable std::atomic<std::uint64_t> refused{0};  // requests without the required headers
    mutable std::atomic<std::uint64_t> injected{0}; // answers replaced by the injected error
    mutable std::atomic<std::uint64_t> limited{0};  // answers over the rate limit (queued ones too)
    mutable std::atomic<std::int64_t> nextFree{0};  // queue: when the next answer may go (monotonic ns)

    // Whether a request arriving at `nowNanos` (a monotonic clock) is over the
    // rate limit (counted); lock-free, exact across threads.
    bool overLimit(std::int64_t nowNanos) const;
    // A queueing limit: how long a request arriving at `nowNanos` waits for
    // its turn (0: served at once), or -1 when the queue is past 60 s (it is
    // answered limitStatus). Lock-free, in arrival order across threads.
    std::int64_t queueDelay(std::int64_t nowNanos) const;
    // The delay the limit adds to an answer (0: none), or -1: answer
    // limitedResponse at once. Counts what it limits.
    std::int64_t limitFor(std::int64_t nowNanos) const
    {
        if (limitQueue)
            return queueDelay(nowNanos);
        if (!overLimit(nowNanos))
            return 0;
        return limitDelay > 0 ? limitDelay : -1;
    }

    bool matches(std::string_view method, std::string_view path) const;
    // Whether this answer is an injected error (counted).
    bool injectFault(FastRandom& rng) const
    {
        if (errorPercent <= 0 || rng.unit() * 100.0 >= errorPercent)
            return false;
        injected.fetch_add(1, std::memory_order_relaxed);
        return true;
    }
    // The bit of requirement `i` met by a header (name lower-case or not); 0 when none.
    std::uint32_t meets(std::string_view name, std::string_view value) const;
    std::uint32_t allMet() const { return require.empty() ? 0 : (1u << require.size()) - 1; }
    // A delay in nanoseconds drawn from this rule's distribution.
    std::int64_t drawDelay(FastRandom& rng) const;
};

class MockRuleSet
{
public:
    // Builds the rules; on failure returns nullptr and sets `error` naming the field.
    // `baseDir`: where the rules' .proto files are read from.
    static std::shared_ptr<MockRuleSet> fromProto(const v1::MockRules& rules, std::string& error,
                                                  const std::string& baseDir = ".");
    static std::shared_ptr<MockRuleSet> fromJson(const std::string& json, std::string& error,
                                                 const std::string& baseDir = ".");
    // With no rules file: every request gets 200 "ok".
    static std::shared_ptr<MockRuleSet> defaults();

    const MockRule* match(std::string_view method, std::string_view path) const;
    // {"total": N, "unmatched": N, "rules": [{"name": "...", "served": N, "refused": N, "injected": N}, ...]}
    std::string statsJson() const;
    std::uint64_t total() const;
    void countUnmatched() const { m_unmatched.fetch_add(1, std::memory_order_relaxed); }
    const std::string& notFoundResponse() const { return m_notFound; }
    // Whether some rule requires headers (the HTTP/2 server keeps them only then).
    bool anyRequire() const { return m_anyRequire; }
    // The gRPC schema of the rules (for server reflection); null without gRPC rules.
    const ProtoSchemaPtr& schema() const { return m_schema; }

private:
    std::vector<std::unique_ptr<MockRule>> m_rules;
    mutable std::atomic<std::uint64_t> m_unmatched{0};
    std::string m_notFound;
    bool m_anyRequire = false;
    ProtoSchemaPtr m_schema;
};

std::string renderHttpResponse(unsigned status, const std::vector<std::pair<std::string, std::string>>& headers,
                               const std::string& body);

} // namespace stampede
