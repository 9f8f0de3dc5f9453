// An agent's join (`agent --join`, to a run's --accept-agents): any body a
// caller sends is refused or read whole, never a fault; what is read holds a
// port 1..65535 and a name of at most 63 bytes of UTF-8; the registry's answer
// is always valid UTF-8 and names an address it will list.
#include "control/agentregistry.h"
#include "core/utf8.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string in(reinterpret_cast<const char*>(data), size);
    stampede::JoinRequest j;
    std::string error;
    if (stampede::parseJoinBody(in, j, error)) {
        if (j.port == 0 || j.port > 65535 || j.name.size() > 63 || !stampede::isUtf8(j.name))
            std::abort();
    } else if (error.empty() || !stampede::isUtf8(error)) {
        std::abort();
    }
    static stampede::AgentRegistry registry(std::make_shared<stampede::SteadyClock>());
    const stampede::ControlReply reply = registry.handle({"POST", "/v1/join", in, "[::1]:4000"});
    if (!stampede::isUtf8(reply.body) || (reply.status != 200 && reply.status != 400 && reply.status != 503))
        std::abort();
    return 0;
}
