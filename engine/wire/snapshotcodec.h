#pragma once
// Per-second metrics to and from the control protocol's Snapshot: counters as
// numbers, histograms in their compact serialized form, so that the controller
// merges exactly what the engines recorded.
#include "metrics/runmetrics.h"

#include <string>

namespace stampede::v1 {
class Snapshot;
}

namespace stampede {

void encodeSnapshot(const IntervalMetrics& metrics, v1::Snapshot& out);
// Returns false with a message when the snapshot is malformed.
bool decodeSnapshot(const v1::Snapshot& in, IntervalMetrics& out, std::string& error);

} // namespace stampede
