#include "sharedscript.h"

#include "core/text.h"
#include "core/utf8.h"

#include <algorithm>
#include <cmath>

namespace stampede {

std::function<void(int kind, std::string_view key, std::string_view value, double by, std::string& json)>
sharedAsker(SharedAccess& access, const Clock& clock, Nanos end)
{
    return
        [&access, &clock, end](int kind, std::string_view key, std::string_view value, double by, std::string& json) {
            if (kind < 0 || kind > int(SharedOp::Kind::Remove) || !(std::fabs(by) < 9.007199254740992e15)) {
                json = "{\"error\":\"not an op of pm.shared\"}";
                return;
            }
            // an answer that lands after the plan's end is still judged and its script still asks (the store
            // lives until the engine is done): past the end, a second at most
            const Nanos left = clock.now() < end ? kSharedWait : std::min(kSharedWait, kNanosPerSecond);
            SharedTicketPtr ticket =
                access.ask({{SharedOp::Kind(kind), std::string(key), std::string(value), std::int64_t(by)}});
            if (!ticket->wait(left)) {
                ticket->abandon();
                json = "{\"error\":" +
                       jsonString("the controller did not answer in " + std::to_string(left / kNanosPerMilli) + " ms") +
                       "}";
                return;
            }
            if (!ticket->error().empty() || ticket->results().empty()) {
                json = "{\"error\":" + jsonString(ticket->error().empty() ? "no answer" : ticket->error()) + "}";
                return;
            }
            const SharedResult& r = ticket->results().front();
            if (!r.ok) {
                json = "{\"error\":" + jsonString(r.error) + "}";
                return;
            }
            std::string value8 = r.value; // a value any engine set is UTF-8 here (the script reads text)
            makeUtf8(value8);
            json = std::string("{\"found\":") + (r.found ? "true" : "false") + ",\"value\":" + jsonString(value8) +
                   ",\"number\":" + std::to_string(r.number) + "}";
        };
}

} // namespace stampede
