// libFuzzer target: the Set-Cookie parser, cookie dates and the jar. Each
// line of the input is a Set-Cookie header received by one jar for a host;
// the jar then answers a Cookie header.
#include "check/cookies.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string input(reinterpret_cast<const char*>(data), size);
    const std::int64_t now = 1764547200;
    stampede::CookieJar jar;
    std::size_t start = 0;
    while (start <= input.size()) {
        std::size_t end = input.find('\n', start);
        if (end == std::string::npos)
            end = input.size();
        const std::string line = input.substr(start, end - start);
        (void)stampede::parseCookieDate(line);
        if (const auto c = stampede::parseSetCookie(line, now))
            jar.receive(*c, "shop.example.com", "/cart/add", now);
        start = end + 1;
    }
    if (jar.size() > stampede::CookieJar::kMaxCookies)
        __builtin_trap();
    const std::string header = jar.header("shop.example.com", "/cart/view", true, now);
    if (header.size() > input.size() + 2 * jar.size())
        __builtin_trap(); // the header only holds what came in
    return 0;
}
