#include "processusage.h"

#include "cpubudget.h"

#include <algorithm>
#include <cstdio>
#include <sys/resource.h>
#include <unistd.h>

namespace stampede {

unsigned ProcessUsage::cores()
{
    if (const std::size_t n = affinityCpus().size())
        return unsigned(n);
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? unsigned(n) : 1;
}

double ProcessUsage::cpuSeconds()
{
    rusage u{};
    if (getrusage(RUSAGE_SELF, &u) != 0)
        return 0;
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

std::uint64_t ProcessUsage::residentBytes()
{
    std::FILE* f = std::fopen("/proc/self/statm", "re");
    if (!f)
        return 0;
    unsigned long long size = 0, resident = 0;
    const int n = std::fscanf(f, "%llu %llu", &size, &resident);
    std::fclose(f);
    const long page = sysconf(_SC_PAGESIZE);
    return n == 2 && page > 0 ? resident * std::uint64_t(page) : 0;
}

ProcessUsage::ProcessUsage() : m_lastCpu(cpuSeconds()), m_lastWall(SteadyClock::monotonicNow()), m_cores(cores()) {}

ProcessUsage::Sample ProcessUsage::sample()
{
    Sample s;
    s.cpuSeconds = cpuSeconds();
    const Nanos wall = SteadyClock::monotonicNow();
    const double elapsed = double(wall - m_lastWall) / 1e9;
    s.interval = elapsed;
    if (elapsed > 0)
        s.cpu = std::max(0.0, (s.cpuSeconds - m_lastCpu) / (elapsed * double(m_cores)));
    m_lastCpu = s.cpuSeconds;
    m_lastWall = wall;
    s.rssBytes = residentBytes();
    return s;
}

} // namespace stampede
