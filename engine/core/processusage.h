#pragma once
// This process's use of the machine, as a load generator reports it each
// second: CPU time as a share of the cores it may run on (its affinity), and
// resident memory. Read from getrusage and /proc/self/statm; no thread.
#include "clock.h"

#include <cstdint>

namespace stampede {

class ProcessUsage
{
public:
    ProcessUsage(); // the first interval starts now
    // The CPU share (0..1 of the cores) since the last call (or construction),
    // and the resident memory now.
    struct Sample
    {
        double cpu = 0;
        std::uint64_t rssBytes = 0;
        double cpuSeconds = 0; // the process's whole CPU time so far
        double interval = 0;   // seconds since the last sample (a short one's share is noise)
    };
    Sample sample();
    static unsigned cores();              // the CPUs this process may run on
    static double cpuSeconds();           // user + system time so far
    static std::uint64_t residentBytes(); // 0 when /proc cannot be read

private:
    double m_lastCpu = 0;
    Nanos m_lastWall = 0;
    unsigned m_cores = 1;
};

} // namespace stampede
