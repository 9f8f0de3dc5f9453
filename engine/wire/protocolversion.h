#pragma once
// The control protocol's version: bumped on incompatible changes; agents and
// controllers of different versions refuse each other with a clear message.
namespace stampede {
constexpr unsigned kControlProtocolVersion =
    4; // 2: counters by name in StepSnapshot; 3: shares (--shares, --elastic); 4: shared data
}
