// The control endpoint's request head and scale body (`run --control`): any
// bytes a caller sends are refused or read whole, never a fault; a length is
// never over the 4 KiB a body may have, a path always starts with '/'.
#include "control/controlserver.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string in(reinterpret_cast<const char*>(data), size);
    stampede::ControlRequest rq;
    std::size_t length = 0;
    std::string authorization;
    int status = 0;
    if (stampede::parseControlHead(in, rq, length, authorization, status)) {
        if (length > 4096 || rq.path.empty() || rq.path[0] != '/')
            std::abort();
    } else if (status != 400 && status != 413) {
        std::abort();
    }
    bool isRate = false;
    double value = 0;
    std::string error;
    if (stampede::parseScaleBody(in, isRate, value, error) && !(value >= 0))
        std::abort();
    return 0;
}
