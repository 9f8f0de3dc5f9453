#pragma once
// The process's table of file descriptors, grown before a run rather than
// during it. The kernel grows the table as descriptors are opened (past 64,
// 256, 1024, ...), and in a process of several threads each growth waits for
// an RCU grace period: 7 to 20 ms on these machines, in the socket() call of
// the worker that opens the connection which crosses the size. A run's first
// second then shows that as send lag and latency that the target never caused.
#include <cstddef>

namespace stampede {

// Grows the table, once, so that `more` descriptors can be opened beyond those
// open now without growing it again (capped by RLIMIT_NOFILE). Returns the
// number of descriptors the table now holds at least (0: it could not tell).
std::size_t reserveDescriptors(std::size_t more);

// The number of descriptors the process's table holds now (from /proc; 0 when unknown).
std::size_t descriptorTableSize();

} // namespace stampede
