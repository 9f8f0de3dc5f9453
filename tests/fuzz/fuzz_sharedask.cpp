// The run's shared data as the controller serves it (wire/sharedwire.h): any
// bytes an agent's Shared stream carries are read as an ask or dropped, never
// a fault; every ask is answered (by id, refused as a whole or one result per
// op), every text in the answer valid UTF-8, and the store stays within its
// bounds whatever the asks did to it before.
#include "core/utf8.h"
#include "wire/sharedwire.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    stampede::v1::SharedAsk ask;
    if (!ask.ParseFromArray(data, int(size)))
        return 0;
    static stampede::SharedStore store; // kept across inputs: what earlier asks left is the next one's state
    const stampede::v1::SharedAnswer answer = stampede::answerAsk(store, ask);
    if (answer.id() != ask.id() || !stampede::isUtf8(answer.error()) || !stampede::isUtf8(answer.run_id()))
        std::abort();
    if (answer.error().empty() && answer.results_size() != ask.ops_size())
        std::abort();
    if (!answer.error().empty() && answer.results_size() != 0)
        std::abort();
    for (const auto& r : answer.results())
        if (!stampede::isUtf8(r.error()) || (r.ok() != r.error().empty()))
            std::abort();
    if (store.keys() > stampede::SharedLimits::kKeys || store.bytes() > stampede::SharedLimits::kTotalBytes)
        std::abort();
    std::string bytes;
    if (!answer.SerializeToString(&bytes))
        std::abort();
    return 0;
}
