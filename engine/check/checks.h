#pragma once
// Checks and extractors: compiled once (at plan time), applied on the worker
// to each answer of their step. An answer is seen through AnswerView, which
// holds only what the step's checks and extractors need (the worker captures
// headers or the body only when some check reads them), and a body is parsed
// at most once per answer, lazily, by the first JSON path that reads it.
#include "jsonpath.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stampede {

// A PCRE2 regular expression, compiled (and JIT-compiled where available)
// once; searching is thread-safe (per-thread match data).
class Regex
{
public:
    // Nothing and `error` (with the offset) when `pattern` does not compile.
    static std::shared_ptr<const Regex> compile(std::string_view pattern, std::string& error);
    ~Regex();
    Regex(const Regex&) = delete;
    Regex& operator=(const Regex&) = delete;
    const std::string& pattern() const { return m_pattern; }
    std::uint32_t groups() const { return m_groups; }
    // Whether it matches somewhere in `text`; on a match, capture `group`
    // (0: the whole match) goes to `capture` when given ("" for a group that
    // took no part).
    bool search(std::string_view text, std::uint32_t group = 0, std::string* capture = nullptr) const;
    // The next match at or after `from`: [start, end) of capture `group` (the
    // whole match when the group took no part); empty matches are skipped.
    bool find(std::string_view text, std::size_t from, std::uint32_t group, std::size_t& start, std::size_t& end) const;

private:
    Regex() = default;
    std::string m_pattern;
    void* m_code = nullptr; // pcre2_code_8
    std::uint32_t m_groups = 0;
};
using RegexPtr = std::shared_ptr<const Regex>;

using HeaderPairs = std::vector<std::pair<std::string, std::string>>;

// One answer as checks see it.
struct KeptAnswer;      // answerdiff.h
struct AnswerDiffRules; // answerdiff.h

struct AnswerView
{
    int status = 0;                         // HTTP status; gRPC: the grpc-status code
    std::string_view statusName = "status"; // what the protocol calls `status` (gRPC's "grpc-status")
    std::string_view codeName;              // the protocol's name of it (gRPC's NOT_FOUND; none for HTTP)
    const HeaderPairs* headers = nullptr;   // as received (names in any case); null when not captured
    const HeaderPairs* trailers = nullptr;  // gRPC trailers, or a chunked body's
    std::string_view body;                  // the decoded body (gRPC: the answer message as JSON)
    std::int64_t elapsedNanos = 0;          // from the intended start to the whole answer
    int recordedStatus = 0;                 // a replayed request's recorded status (0: none, or not a replay)
    const KeptAnswer* first = nullptr;      // replay's --diff-against: the first target's answer to this request
    std::string_view cookies; // the jar's Cookie header for the request's URL after the answer (scripts' pm.cookies)
};

// Reads JSON paths from one answer: loads the body into the worker's reader
// at the first read, not at all when no path is read.
class AnswerJson
{
public:
    AnswerJson(JsonReader& reader, std::string_view body) : m_reader(reader), m_body(body) {}
    JsonReader::Outcome read(const JsonPath& path, std::string& value)
    {
        if (!m_loaded) {
            m_reader.load(m_body);
            m_loaded = true;
        }
        return m_reader.read(path, value);
    }

private:
    JsonReader& m_reader;
    std::string_view m_body;
    bool m_loaded = false;
};

// The value of header `name` (case-insensitive) in the headers, then the trailers; null when absent.
const std::string* findHeader(const AnswerView& answer, std::string_view name);

// What a check or extractor needs captured from the answer.
enum Needs : unsigned
{
    kNeedsNothing = 0,
    kNeedsHeaders = 1,
    kNeedsBody = 2,
};

struct Check
{
    enum class Subject
    {
        Status,
        JsonPath,
        Header,
        BodyContains,
        MaxTime,
        RecordedStatus, // a replayed answer's status is the recorded one (replay's compareRecorded)
        SameAsFirst,    // the second target's answer is the first one's, by `diff` (replay's diffAgainst)
        Script          // a pm.test of the step's test script: judged by the script, not here
    };
    enum class Test
    {
        None, // the subject itself decides (status, bodyContains, maxTime)
        Equals,
        Matches,
        Exists
    };
    std::string name;
    Subject subject = Subject::Status;
    Test test = Test::None;
    std::vector<int> statuses; // Status: HTTP codes, or gRPC codes
    JsonPath path;             // JsonPath
    std::string text;          // Header: its name; BodyContains: the text
    std::int64_t maxNanos = 0; // MaxTime
    std::string equals;        // Test::Equals
    RegexPtr regex;            // Test::Matches
    bool exists = true;        // Test::Exists: must exist (false: must not)
    bool negate = false;
    std::shared_ptr<const AnswerDiffRules> diff; // SameAsFirst

    unsigned needs() const;
    // Whether the answer passes. On failure, `why` says what was seen
    // ("$.code is \"500\", expected \"0\"").
    bool evaluate(const AnswerView& answer, AnswerJson& json, std::string& why) const;
};

struct Extractor
{
    enum class Source
    {
        JsonPath,
        Header,
        Regex
    };
    std::string name;           // the variable's name
    std::uint16_t variable = 0; // its index in the plan's variables
    Source source = Source::JsonPath;
    JsonPath path;
    std::string header;
    RegexPtr regex;
    std::uint32_t group = 0;

    unsigned needs() const { return source == Source::Header ? kNeedsHeaders : kNeedsBody; }
    // The value into `out`; false when the answer has none.
    bool extract(const AnswerView& answer, AnswerJson& json, std::string& out) const;
};

} // namespace stampede
