#pragma once
// The run's shared data (core/shareddata.h) on the control protocol's Shared
// stream: an agent's asks as SharedAsk, the controller's answers as
// SharedAnswer. answerAsk is what the controller does with whatever a peer
// sends (the surface tst_shareddata's table and fuzz_sharedask drive): every
// ask gets an answer, every text in it valid UTF-8.
#include "core/shareddata.h"
#include "stampede/v1/control.pb.h"

#include <vector>

namespace stampede {

void toWire(const std::vector<SharedOp>& ops, v1::SharedAsk& ask);
// The store's answer to `ask` (refused as a whole, in words, when it is not one: no op, too many, an unknown
// kind, a key that is no UTF-8 or too long, a value too long).
v1::SharedAnswer answerAsk(SharedStore& store, const v1::SharedAsk& ask);
// The answer's results for `ops` asked; false with `error` when the ask was refused or the answer does not fit it.
bool fromWire(const v1::SharedAnswer& answer, std::size_t ops, std::vector<SharedResult>& results, std::string& error);

} // namespace stampede
