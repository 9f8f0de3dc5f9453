#include "checks.h"

#include "answerdiff.h"

#include "core/text.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <cctype>

namespace stampede {

namespace {

// What a failed check shows of a value: quoted, and cut at 80 characters.
std::string shown(std::string_view v)
{
    constexpr std::size_t kShown = 80;
    std::string s = "\"" + std::string(v.substr(0, kShown)) + (v.size() > kShown ? "…" : "") + "\"";
    return s;
}

// Per-thread match data, large enough for any pattern's groups (pcre2 grows it on demand otherwise).
struct MatchData
{
    pcre2_match_data* data = nullptr;
    std::uint32_t pairs = 0;
    ~MatchData() { pcre2_match_data_free(data); }
    pcre2_match_data* get(std::uint32_t need)
    {
        if (need > pairs) {
            pcre2_match_data_free(data);
            pairs = std::max<std::uint32_t>(need, 16);
            data = pcre2_match_data_create(pairs, nullptr);
        }
        return data;
    }
};

} // namespace

std::shared_ptr<const Regex> Regex::compile(std::string_view pattern, std::string& error)
{
    int code = 0;
    PCRE2_SIZE offset = 0;
    pcre2_code* re =
        pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), 0, &code, &offset, nullptr);
    if (!re) {
        PCRE2_UCHAR message[256];
        pcre2_get_error_message(code, message, sizeof message);
        error = "the regular expression does not compile at offset " + std::to_string(offset) + ": " +
                reinterpret_cast<const char*>(message);
        return nullptr;
    }
    pcre2_jit_compile(re, PCRE2_JIT_COMPLETE); // where JIT is not available, the interpreter runs it
    std::shared_ptr<Regex> r(new Regex);
    r->m_pattern = std::string(pattern);
    r->m_code = re;
    std::uint32_t groups = 0;
    pcre2_pattern_info(re, PCRE2_INFO_CAPTURECOUNT, &groups);
    r->m_groups = groups;
    return r;
}

Regex::~Regex()
{
    pcre2_code_free(static_cast<pcre2_code*>(m_code));
}

bool Regex::search(std::string_view text, std::uint32_t group, std::string* capture) const
{
    thread_local MatchData md;
    pcre2_match_data* data = md.get(m_groups + 1);
    const int rc = pcre2_match(static_cast<pcre2_code*>(m_code), reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(),
                               0, 0, data, nullptr);
    if (rc < 0)
        return false;
    if (capture) {
        capture->clear();
        const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(data);
        if (group < std::uint32_t(rc) && ov[2 * group] != PCRE2_UNSET)
            capture->assign(text.substr(ov[2 * group], ov[2 * group + 1] - ov[2 * group]));
    }
    return true;
}

bool Regex::find(std::string_view text, std::size_t from, std::uint32_t group, std::size_t& start,
                 std::size_t& end) const
{
    thread_local MatchData md;
    pcre2_match_data* data = md.get(m_groups + 1);
    while (from <= text.size()) {
        const int rc = pcre2_match(static_cast<pcre2_code*>(m_code), reinterpret_cast<PCRE2_SPTR>(text.data()),
                                   text.size(), from, 0, data, nullptr);
        if (rc < 0)
            return false;
        const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(data);
        if (ov[1] == ov[0] && ov[0] == from) { // an empty match: look further on
            ++from;
            continue;
        }
        const std::uint32_t g = group < std::uint32_t(rc) && ov[2 * group] != PCRE2_UNSET ? group : 0;
        start = ov[2 * g];
        end = ov[2 * g + 1];
        return true;
    }
    return false;
}

const std::string* findHeader(const AnswerView& answer, std::string_view name)
{
    for (const HeaderPairs* list : {answer.headers, answer.trailers}) {
        if (!list)
            continue;
        for (const auto& [n, v] : *list)
            if (equalsNoCase(n, name))
                return &v;
    }
    return nullptr;
}

unsigned Check::needs() const
{
    switch (subject) {
    case Subject::Header:
        return kNeedsHeaders;
    case Subject::Script:
    case Subject::SameAsFirst:
        return kNeedsHeaders | kNeedsBody;
    case Subject::JsonPath:
    case Subject::BodyContains:
        return kNeedsBody;
    case Subject::Status:
    case Subject::MaxTime:
    case Subject::RecordedStatus:
        break;
    }
    return kNeedsNothing;
}

namespace {

// A value's test: equals, matches or exists; `found` null when the value is absent.
bool testValue(const Check& c, const std::string* found, const std::string& what, std::string& why)
{
    switch (c.test) {
    case Check::Test::Exists:
        if ((found != nullptr) == c.exists)
            return true;
        why = what + (c.exists ? " is absent" : " is present: " + shown(*found));
        return false;
    case Check::Test::Equals:
        if (found && *found == c.equals)
            return true;
        why = what + (found ? " is " + shown(*found) : std::string(" is absent")) + ", expected " + shown(c.equals);
        return false;
    case Check::Test::Matches:
        if (found && c.regex->search(*found))
            return true;
        why = found ? what + " is " + shown(*found) + ", which does not match /" + c.regex->pattern() + "/"
                    : what + " is absent";
        return false;
    case Check::Test::None:
        break;
    }
    return found != nullptr;
}

std::string statusList(const std::vector<int>& codes)
{
    std::string s;
    for (const int c : codes)
        s += (s.empty() ? "" : ", ") + std::to_string(c);
    return s;
}

} // namespace

bool Check::evaluate(const AnswerView& answer, AnswerJson& json, std::string& why) const
{
    bool pass = false;
    std::string value;
    switch (subject) {
    case Subject::Status:
        pass = std::find(statuses.begin(), statuses.end(), answer.status) != statuses.end();
        if (!pass)
            why = std::string(answer.statusName) + " " + std::to_string(answer.status) + ", expected " +
                  (statuses.size() > 1 ? "one of " : "") + statusList(statuses);
        break;
    case Subject::Script: // the worker sets it from the test script's results
        pass = true;
        break;
    case Subject::SameAsFirst:
        why = answer.first && diff ? answerDifference(*diff, *answer.first, answer) : std::string();
        pass = why.empty();
        break;
    case Subject::RecordedStatus: // a request recorded without its status is not judged
        pass = answer.recordedStatus == 0 || answer.status == answer.recordedStatus;
        if (!pass)
            why = std::string(answer.statusName) + " " + std::to_string(answer.status) + ", recorded " +
                  std::to_string(answer.recordedStatus);
        break;
    case Subject::MaxTime:
        pass = answer.elapsedNanos <= maxNanos;
        if (!pass)
            why = "took " + std::to_string(answer.elapsedNanos / 1000000) + " ms, more than " +
                  std::to_string(maxNanos / 1000000) + " ms";
        break;
    case Subject::BodyContains:
        pass = answer.body.find(text) != std::string_view::npos;
        if (!pass)
            why = "the body does not contain " + shown(text);
        break;
    case Subject::Header:
        pass = testValue(*this, findHeader(answer, text), "header " + text, why);
        break;
    case Subject::JsonPath: {
        const JsonReader::Outcome o = json.read(path, value);
        if (o == JsonReader::Outcome::NotJson && test != Test::Exists) {
            why = "the body is not JSON (reading " + path.text() + ")";
            pass = false;
            break;
        }
        pass = testValue(*this, o == JsonReader::Outcome::Found ? &value : nullptr, path.text(), why);
        break;
    }
    }
    if (negate) {
        if (pass)
            why = "the opposite held (negate)";
        pass = !pass;
    }
    return pass;
}

bool Extractor::extract(const AnswerView& answer, AnswerJson& json, std::string& out) const
{
    switch (source) {
    case Source::JsonPath:
        return json.read(path, out) == JsonReader::Outcome::Found;
    case Source::Header:
        if (const std::string* v = findHeader(answer, header)) {
            out = *v;
            return true;
        }
        return false;
    case Source::Regex:
        return regex->search(answer.body, group, &out);
    }
    return false;
}

} // namespace stampede
