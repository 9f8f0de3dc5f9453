// libFuzzer target: an engine's snapshot as the controller reads it (a
// peer's bytes): any protobuf that parses is decoded or refused with a
// reason, never past the bounds the controller relies on (error samples and
// console lines name a step of the snapshot; an engine's second keeps at most
// kConsoleLinesPerSecond console lines of at most kConsoleLineBytes).
#include "stampede/v1/control.pb.h"
#include "wire/snapshotcodec.h"

#include <google/protobuf/stubs/logging.h>

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const auto quiet = google::protobuf::SetLogHandler(
        [](google::protobuf::LogLevel, const char*, int, const std::string&) {}); // a peer's bad UTF-8 is no news
    (void)quiet;
    stampede::v1::Snapshot snapshot;
    if (!snapshot.ParseFromArray(data, int(size)))
        return 0;
    stampede::IntervalMetrics metrics;
    std::string error;
    if (!stampede::decodeSnapshot(snapshot, metrics, error)) {
        if (error.empty())
            __builtin_trap(); // a refusal always says why
        return 0;
    }
    if (metrics.console.size() > stampede::kConsoleLinesPerSecond)
        __builtin_trap();
    for (const auto& line : metrics.console)
        if (line.step >= metrics.steps.size() || line.text.size() > stampede::kConsoleLineBytes)
            __builtin_trap();
    for (const auto& s : metrics.samples)
        if (s.step >= metrics.steps.size() || s.body.size() > stampede::kSampleBodyLimit)
            __builtin_trap();
    // what decodes encodes and decodes to the same
    stampede::v1::Snapshot again;
    stampede::encodeSnapshot(metrics, again);
    stampede::IntervalMetrics back;
    if (!stampede::decodeSnapshot(again, back, error) || back.console.size() != metrics.console.size() ||
        back.consoleDropped != metrics.consoleDropped || back.samples.size() != metrics.samples.size())
        __builtin_trap();
    return 0;
}
