#include "descriptors.h"

#include "number.h"

#include <algorithm>
#include <fcntl.h>
#include <fstream>
#include <string>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <unistd.h>

namespace stampede {

std::size_t reserveDescriptors(std::size_t more)
{
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return 0;
    // the lowest free descriptor: the ones below it are open (or nearly all)
    const int probe = ::eventfd(0, EFD_CLOEXEC);
    if (probe < 0)
        return 0;
    const rlim_t cap = limit.rlim_cur == RLIM_INFINITY ? rlim_t(1) << 20 : limit.rlim_cur;
    const rlim_t want = std::min<rlim_t>(rlim_t(probe) + more + 1, cap);
    // a copy of the probe at the highest number wanted makes the kernel grow
    // the table to hold it; closing it leaves the table as grown
    const int high = want > 1 ? ::fcntl(probe, F_DUPFD_CLOEXEC, int(want - 1)) : -1;
    if (high >= 0)
        ::close(high);
    ::close(probe);
    return descriptorTableSize();
}

std::size_t descriptorTableSize()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("FDSize:", 0) != 0)
            continue;
        const std::size_t digits = line.find_first_not_of(" \t", 7);
        std::uint64_t size = 0;
        std::string error;
        return digits != std::string::npos && parseWhole(line.substr(digits), "FDSize", 0, 1u << 30, size, error)
                   ? std::size_t(size)
                   : 0;
    }
    return 0;
}

} // namespace stampede
