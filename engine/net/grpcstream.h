#pragma once
// A streaming gRPC call on its HTTP/2 stream (server, client or bidirectional
// streaming): which of its messages out may go now, and what its messages in
// come to. The request body holds every message out, framed; a paced call
// releases them one by one (an interval apart, or each once the one before had
// its reply), the rest of the body waiting (the data provider defers). Each
// message in is counted; those holding `match` (read as JSON) are awaited; the
// call is done when `receive` of them are in. The n-th message in pairs with
// the n-th out for a bidirectional call's message latency.
#include "core/bodycodec.h"
#include "core/clock.h"
#include "core/template.h"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace stampede {

// A streaming step's call, as the plan compiles it (the step's messages are rendered and framed into its body).
struct CallStreamPlan
{
    bool clientStreams = false, serverStreams = false;
    std::vector<Template> messages; // JSON, one per message out (a server-streaming call: one)
    Nanos interval = 0;             // between messages out
    bool requestReply = false;      // each message out once the one before had a reply
    std::uint32_t receive = 0;      // messages awaited (0: the stream's end)
    std::string match;              // only messages whose JSON holds this are awaited ("": all)
    BodyCodecPtr codec;             // reads a message in as JSON (for `match`)
    bool paced() const { return interval > 0 || requestReply; }
};

class GrpcStreamCall
{
public:
    static constexpr Nanos kNever = std::numeric_limits<Nanos>::max();

    // A call of `plan` begins at `now` with `body` (its framed messages out); returns the messages released.
    std::uint32_t start(const CallStreamPlan* plan, std::string_view body, Nanos now);
    bool active() const { return m_plan != nullptr; }
    void end() { m_plan = nullptr; }
    // Bytes of the body that may go (from its start).
    std::size_t allowed() const { return m_released ? m_ends[m_released - 1] : 0; }
    // When the next message out is due (kNever: none is waiting for time).
    Nanos nextRelease() const;
    // Releases the messages due at `now`; returns how many.
    std::uint32_t release(Nanos now);
    // A message in (its frame) at `now`; true once the awaited messages are in.
    bool onMessage(std::string_view frame, Nanos now);
    bool done() const { return m_plan && m_plan->receive && m_awaited >= m_plan->receive; }
    std::uint32_t messagesIn() const { return m_in; }
    std::uint32_t awaited() const { return m_awaited; }
    Nanos firstMessage() const { return m_firstAt; }
    // The call's answer: the last awaited message, framed (empty: none came).
    const std::string& answer() const { return m_answer; }
    // A bidirectional call's replies, each from its message's release (the n-th in to the n-th out).
    const std::vector<Nanos>& latencies() const { return m_latencies; }
    // Why the stream ended OK short of the awaited messages ("" when it did not).
    std::string shortOf() const;
    // The answer and latencies moved out (the call's entry may be reused before its answer is told).
    void take(std::string& answer, std::vector<Nanos>& latencies)
    {
        answer.swap(m_answer);
        latencies.swap(m_latencies);
    }

private:
    const CallStreamPlan* m_plan = nullptr;
    std::vector<std::size_t> m_ends; // where each message out ends in the body
    std::vector<Nanos> m_outAt;      // when each was released
    std::uint32_t m_released = 0;
    Nanos m_lastRelease = 0;
    std::uint32_t m_in = 0, m_awaited = 0;
    Nanos m_firstAt = 0;
    std::string m_answer;
    std::string m_json; // scratch: a message read for `match`
    std::vector<Nanos> m_latencies;
};

} // namespace stampede
