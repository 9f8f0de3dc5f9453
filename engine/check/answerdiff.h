#pragma once
// Two answers to one request compared (replay's --diff-against: the recorded
// request sent to the target and to a second one, the shadow regression):
// their statuses, their headers but those left out, and their bodies — as
// JSON when both are JSON (objects by key, whatever the order; paths left
// out; numbers equal within a relative tolerance), else byte for byte. What
// is said is where they first differ, in the order above, as a check's message.
#include "checks.h"

#include <set>
#include <string>
#include <vector>

namespace stampede {

struct AnswerDiffRules
{
    // JSON paths left out: "$.ts", "$.items[*].id" ([*] any index, .* any key).
    std::vector<std::string> ignorePaths;
    // Header names left out (lower case), beside those that always differ between two servers or two moments
    // (date, server, connection, keep-alive, content-length, transfer-encoding, etag, last-modified, age, expires,
    // set-cookie, x-request-id, x-stress-tag).
    std::set<std::string> ignoreHeaders;
    double tolerance = 0; // numbers a and b are equal when |a - b| <= tolerance * max(|a|, |b|)
};

// "$.ts" and the like, each checked: false with `error` naming what is wrong.
bool parseDiffPath(const std::string& text, std::string& error);

// The first answer, kept until the second comes.
struct KeptAnswer
{
    int status = 0;
    HeaderPairs headers;
    std::string body;
};

// "" when the answers are alike by `rules`; else where they first differ, at most 300 bytes:
// "status 500, first 200", "header x-version: \"2\", first \"1\"", "$.price: 11, first 10",
// "$.items: 3 items, first 2", "$.note: absent, first \"x\"", "body: 12 bytes differ from byte 4".
std::string answerDifference(const AnswerDiffRules& rules, const KeptAnswer& first, const AnswerView& second);

} // namespace stampede
