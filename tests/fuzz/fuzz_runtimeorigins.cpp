// libFuzzer target: a collection run's URL known only as it is sent (a script's value), taken apart into the
// request line, Host and its server (run/runtimeorigins.h). Whatever the value, the request line that comes out
// is "GET <target> HTTP/1.1" with a target that starts with "/", or the request fails saying why; no more than
// kMaxServers servers are kept. No name is looked up (the fuzzer asks no DNS).
#include "run/runtimeorigins.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static stampede::RuntimeOrigins origins([](stampede::Endpoint&, std::string& why) {
        why = "not looked up";
        return false;
    });
    stampede::PlannedStep st;
    st.runtimeOrigin = true;
    st.runtimeHost = size % 2 == 0;
    stampede::RenderedRequest r;
    r.wire = "GET " + std::string(reinterpret_cast<const char*>(data), size) + " HTTP/1.1\r\nX: y\r\n";
    if (origins.place(st, r)) {
        const std::size_t lineEnd = r.wire.find("\r\n");
        const std::string line = r.wire.substr(0, lineEnd);
        if (line.rfind("GET /", 0) != 0 || line.size() < 14 || line.compare(line.size() - 9, 9, " HTTP/1.1") != 0 ||
            !r.endpoint || r.endpoint->unresolved.empty())
            __builtin_trap();
        if (st.runtimeHost && r.wire.compare(lineEnd + 2, 6, "Host: ") != 0)
            __builtin_trap();
    } else if (r.failure.empty()) {
        __builtin_trap();
    }
    if (origins.servers() > stampede::RuntimeOrigins::kMaxServers)
        __builtin_trap();
    return 0;
}
