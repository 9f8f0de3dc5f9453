#pragma once
// What a replay sends when: recorded requests at their own timing, sped up
// (time compressed by `speed`), amplified (each request sent `amplify` times,
// copy k >= 1 with its offsets applied so copies do not collide), and split
// across engines so that one client's requests stay on one engine, in order.
//
// The records are in time order, so each engine's share is a cursor over a
// sorted list of due times: no timer per request. Time is what the caller
// passes in (nanoseconds since the replay began): tests simulate it.
#include "check/checks.h"
#include "trafficrecord.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stampede {

// How copy k >= 1 of a request is told apart: a number added to a query
// parameter or JSON key (uid + k * add), or a suffix appended to it, where
// ${copy} is k (and the run's tag and Postman's generators may be used).
struct ReplayOffset
{
    enum class Field
    {
        Query,
        JsonKey,
        Header
    };
    Field field = Field::Query;
    std::string key;
    std::int64_t add = 0; // k * add is added to a number
    // or this is appended: ${copy} is k, ${$stressTag} the run's tag, Postman's generators (${$guid},
    // ${$randomInt}, ${$timestamp}...) a fresh value for each copy
    std::string suffix;
    std::string text;      // as written
    std::string stressTag; // the run's (set when the plan is compiled)

    // What in `suffix` an offset cannot fill ("${orderNo} is not ${copy}, ${$stressTag} or a generator such as
    // ${$guid}"); empty when it can.
    static std::string suffixProblem(const std::string& suffix);

    // "query:uid+1000000", "json:orderNo~-${copy}", "header:x-request-id~-c${copy}";
    // nothing with `error` when it does not read.
    static std::optional<ReplayOffset> parse(const std::string& text, std::string& error);
};

// Which recorded requests a replay sends, and what it changes in them
// before anything else (amplification, offsets) sees them.
struct ReplaySelection
{
    RegexPtr include, exclude;                 // over the path (the target before '?')
    std::vector<std::string> methods;          // upper-case; empty: every method
    std::vector<std::pair<int, int>> statuses; // recorded status ranges; empty: every status
    double samplePercent = 100;                // of what the rules above keep, chosen stably by each one's place
    std::vector<std::pair<std::string, std::string>> setHeaders; // lower-case names: set (replacing recorded ones)
    std::vector<std::string> removeHeaders;                      // lower-case names: taken off
    std::string host; // the Host (:authority) sent instead of the recorded one; empty: as recorded

    // "200", "2xx", "500-599" (0: the status was not recorded); false with `error`.
    static bool parseStatus(std::string_view text, std::pair<int, int>& out, std::string& error);
    bool selects() const;
    // Keeps the requests selected, in their order; returns how many it took off.
    std::size_t select(std::vector<TrafficRecord>& records) const;
    // The headers set and removed, and the host, on every request.
    void rewrite(std::vector<TrafficRecord>& records) const;
};

struct ReplayOptions
{
    double speed = 1;          // 2: twice as fast (time compressed)
    std::uint32_t amplify = 1; // each request sent this many times
    std::vector<ReplayOffset> offsets;
    bool loop = false; // start over at the end (the run's duration bounds it)
};

// Limits (docs/replay.md).
constexpr double kMaxReplaySpeed = 1000;
constexpr std::uint32_t kMaxAmplify = 100;

// Why the options cannot replay these records (a speed <= 0, an offset on a
// key no request has); empty when they can.
std::string checkReplay(const std::vector<TrafficRecord>& records, const ReplayOptions& o);

// A recording timed to the whole second (an access log's $time_local): the
// requests of each second spread evenly over it, in their order, so that a
// second's requests are not all sent at its first instant. Per-second counts
// stay as recorded. True when it spread them (every time was whole).
bool spreadWholeSeconds(std::vector<TrafficRecord>& records);

// Who sent each request, told by a key instead of the address ("query:uid",
// "header:x-user-id"), so that one user's requests stay on one engine; a
// request without the key keeps its address. False with `error` for a key
// of another form.
bool clientsByKey(std::vector<TrafficRecord>& records, const std::string& key, std::string& error);

// Copy `k` of a request (0: the request itself) with the offsets applied.
TrafficRecord replayCopy(const TrafficRecord& r, std::uint32_t k, const std::vector<ReplayOffset>& offsets);

// Which of `parts` engines (or workers) replays a client's requests: stable
// for a client, spread evenly over clients.
std::uint32_t replayPart(const std::string& client, std::uint32_t parts);

// One engine's share of a replay, in time order.
class ReplaySchedule
{
public:
    struct Due
    {
        std::size_t record = 0; // index into the records
        std::uint32_t copy = 0;
        std::int64_t at = 0; // intended, nanoseconds since the replay began
    };
    // The requests of `records` (in time order) that fall to `part` of `parts`.
    ReplaySchedule(const std::vector<TrafficRecord>& records, const ReplayOptions& o, std::uint32_t part = 0,
                   std::uint32_t parts = 1);
    // The next request due by `now`, if any (each copy in turn, at its record's time).
    std::optional<Due> next(std::int64_t now);
    // When the next request is due; nothing once every one was handed out.
    std::optional<std::int64_t> nextAt() const;
    std::uint64_t total() const { return std::uint64_t(m_mine.size()) * m_amplify; } // per pass
    // Requests planned in second `s` (1-based, as the run counts): the due times in [s-1, s).
    std::uint64_t plannedIn(std::uint32_t s) const;
    std::int64_t length() const { return m_length; }                       // one pass, compressed
    std::int64_t lastAt() const { return m_at.empty() ? 0 : m_at.back(); } // the last request of a pass

private:
    std::vector<std::size_t> m_mine; // indices into the records
    std::vector<std::int64_t> m_at;  // their due times, compressed
    std::uint32_t m_amplify = 1;
    bool m_loop = false;
    std::int64_t m_length = 0;
    std::size_t m_cursor = 0;
    std::uint32_t m_copy = 0;
    std::int64_t m_pass = 0; // loops done
};

} // namespace stampede
