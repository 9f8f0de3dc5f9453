#pragma once
// Compiling a WebSocket step (a scenario's `websocket`): its upgrade is an
// HTTP/1.1 GET compiled as any request step is (the URL's scheme ws or wss
// read as http or https; Host, the stress tag and traceparent as for any
// request; Upgrade, Connection, Sec-WebSocket-Version and -Protocol added;
// the key is the session's, fresh per connection), its messages templates,
// what it awaits. Every fault named by its field under `websocket`.
#include "grpcstep.h"

#include <string>

namespace stampede {

class WsStepCompiler
{
public:
    static constexpr std::uint32_t kMaxAwaited = 1000000;
    explicit WsStepCompiler(StepContext& context) : m_ctx(context) {}
    // Compiles step `st` (which has a websocket) into `ps`; false after reporting its faults.
    bool compile(const v1::Step& st, const std::string& field, PlannedStep& ps);

private:
    StepContext& m_ctx;
};

} // namespace stampede
