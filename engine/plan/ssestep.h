#pragma once
// Compiling an event stream step (a scenario's `sse`): its request is an
// HTTP/1.1 GET compiled as any request step is (Host, the stress tag and
// traceparent as for any request; Accept: text/event-stream and
// Cache-Control: no-cache unless written), what it awaits, how often it may
// reconnect. Every fault named by its field under `sse`.
#include "grpcstep.h"

#include <string>

namespace stampede {

class SseStepCompiler
{
public:
    static constexpr std::uint32_t kMaxAwaited = 1000000;
    static constexpr std::uint32_t kMaxReconnects = 100;
    explicit SseStepCompiler(StepContext& context) : m_ctx(context) {}
    // Compiles step `st` (which has an sse) into `ps`; false after reporting its faults.
    bool compile(const v1::Step& st, const std::string& field, PlannedStep& ps);

private:
    StepContext& m_ctx;
};

} // namespace stampede
