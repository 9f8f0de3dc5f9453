#pragma once
// The mock server's HTTP/2 side (h2c with prior knowledge, nghttp2): the same
// rules as HTTP/1.1, gRPC rules answering a message or a status with
// trailers (streaming methods: a sequence at an interval, an echo), and gRPC server reflection for the rules' .proto
// files.
#include "mockrules.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>

struct nghttp2_session;

namespace stampede {

class MockH2
{
public:
    // Where a delayed answer is scheduled: the loop calls answer() when due.
    class Scheduler
    {
    public:
        virtual ~Scheduler() = default;
        virtual void schedule(std::int64_t delayNanos, std::int32_t stream, const MockRule* rule, bool fault) = 0;
    };

    MockH2(const MockRuleSet& rules, FastRandom& rng, Scheduler& scheduler);
    ~MockH2();
    MockH2(const MockH2&) = delete;
    MockH2& operator=(const MockH2&) = delete;

    // Takes bytes read from the client; appends what to send to `out`.
    // False: the connection is to be closed (a protocol error, or both ends done).
    bool receive(const char* data, std::size_t size, std::string& out);
    // A delayed answer is due.
    void answer(std::int32_t stream, const MockRule* rule, bool fault, std::string& out);

    // The client connection preface every h2c connection starts with.
    static constexpr const char kPreface[] = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

    struct Stream;

private:
    friend struct MockH2Callbacks;
    void requestComplete(std::int32_t id, Stream& s);
    void respond(std::int32_t id, Stream& s, const MockRule* rule, bool fault);
    void refuse(std::int32_t id, Stream& s, const MockRule& rule);
    void answerFixed(std::int32_t id, Stream& s, const std::string& status, const std::string& body);
    void reflect(Stream& s);
    // gRPC streaming rules (mockrules.h MockGrpcStream)
    void streamStart(std::int32_t id, Stream& s);
    void streamHeaders(std::int32_t id, Stream& s);
    void streamIn(std::int32_t id, Stream& s);
    void streamEnd(std::int32_t id, Stream& s);
    void streamPush(std::int32_t id, Stream& s);
    void streamRefill(Stream& s);
    static void compactOut(Stream& s);
    bool drain(std::string& out);

    const MockRuleSet& m_rules;
    FastRandom& m_rng;
    Scheduler& m_scheduler;
    nghttp2_session* m_session = nullptr;
    std::map<std::int32_t, std::unique_ptr<Stream>> m_streams;
};

} // namespace stampede
