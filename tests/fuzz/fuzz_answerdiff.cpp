// Replay's --diff-against: two answers (the input split at its first NUL:
// what the first server said, then the second) compared under rules that
// leave paths out and allow a tolerance. Never a fault; what is said is valid
// UTF-8 of at most 300 bytes; an answer compared with itself is alike.
#include "check/answerdiff.h"
#include "core/utf8.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string in(reinterpret_cast<const char*>(data), size);
    const std::size_t nul = in.find('\0');
    const std::string one = in.substr(0, nul);
    const std::string two = nul == std::string::npos ? one : in.substr(nul + 1);
    stampede::AnswerDiffRules rules;
    rules.ignorePaths = {"$.ts", "$.items[*].id", "$.*.x"};
    rules.tolerance = 0.01;
    const stampede::KeptAnswer first{200, {{"x-v", one.substr(0, 8)}}, one};
    const stampede::HeaderPairs headers{{"X-V", two.substr(0, 8)}};
    stampede::AnswerView second;
    second.status = 200;
    second.headers = &headers;
    second.body = two;
    const std::string said = stampede::answerDifference(rules, first, second);
    if (!stampede::isUtf8(said) || said.size() > 300)
        std::abort();
    const stampede::HeaderPairs same{{"x-v", one.substr(0, 8)}};
    second.headers = &same;
    second.body = one;
    if (!stampede::answerDifference(rules, first, second).empty())
        std::abort();
    std::string error;
    stampede::parseDiffPath(one.substr(0, 300), error);
    return 0;
}
