#pragma once
// Notifications: a run tells webhooks how it goes, as Rhino pulls a group chat
// together at a stress test's start and pushes the result at its end. Each is a
// JSON POST: at the start, at each breaker action, when thresholds fail, and at
// the end (run id, scenario, verdict, key figures, where the report is), in
// the form the target takes:
//   plain     the message's own JSON object (the default)
//   slack     Slack's incoming webhook: {"text": ...}
//   feishu    Feishu / Lark custom bot: {"msg_type": "text", "content": {"text": ...}}, signed when given the
//             bot's secret (timestamp and sign: base64 of HMAC-SHA256 keyed by "TIMESTAMP\nSECRET" over nothing)
//   dingtalk  DingTalk custom robot: {"msgtype": "text", "text": {"content": ...}}, signed when given the robot's
//             secret (timestamp and sign in the query: base64 of HMAC-SHA256 keyed by SECRET over "TIMESTAMP\nSECRET")
//   wecom     WeCom group robot: {"msgtype": "text", "text": {"content": ...}}
// From the command line (`--notify [KIND=]URL[,secret=S][,on=start+end]`, repeatable) and from a scenario's
// "notify" list. Posted on a thread for each target, never holding the run up (breaker actions not yet sent to a
// target are said in one message, so a breaker that trips every second cannot flood it); a failed post is tried
// again (three
// tries, 1 s then 2 s apart; a 4xx other than 429 is not), and each try is a run event ("notify"). The run's end
// waits for what is still to go at most kNotifyFinishWait. A notification that cannot be delivered is said (an
// event, a warning), and does not change the run's verdict.
#include "core/clock.h"
#include "runoutput.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace stampede {

namespace v1 {
class Notify;
class Scenario;
} // namespace v1

enum NotifyOn : unsigned
{
    kNotifyStart = 1,
    kNotifyBreaker = 2,
    kNotifyThreshold = 4,
    kNotifyEnd = 8,
    kNotifyAll = 15
};

struct NotifyTarget
{
    enum class Kind
    {
        Plain,
        Slack,
        Feishu,
        DingTalk,
        WeCom
    };
    Kind kind = Kind::Plain;
    std::string url;
    std::string secret;
    unsigned on = kNotifyAll;
};

constexpr std::size_t kMaxNotifyTargets = 8;
constexpr Nanos kNotifyFinishWait = 15 * kNanosPerSecond;

// "plain", "slack", "feishu" (or "lark"), "dingtalk", "wecom"; false when none.
bool notifyKind(const std::string& name, NotifyTarget::Kind& out);
const char* notifyKindName(NotifyTarget::Kind kind);
// The command line's `[KIND=]URL[,secret=S][,on=start+breaker+threshold+end]`; false with `error`.
bool parseNotifySpec(const std::string& text, NotifyTarget& out, std::string& error);
// A scenario's "notify" entries, their ${name}s taken from its constants (an environment's values): false with
// `error` naming the entry's field.
bool scenarioNotifyTargets(const v1::Scenario& scenario, std::vector<NotifyTarget>& out, std::string& error);
// The URL as events and messages show it: scheme, host and path, without the query (robots' tokens live there).
std::string shownNotifyUrl(const std::string& url);

struct NotifyMessage
{
    std::string event; // "start", "breaker", "threshold", "end", "test"
    std::string runId;
    std::string scenario;
    std::string text; // one line for people, in every kind of message
    std::string verdict;
    std::string status;
    std::string detail; // the breaker's action, the failed thresholds
    std::string report; // where the run is kept
    bool figures = false;
    bool passed = false;
    std::uint64_t requests = 0, errors = 0;
    double rate = 0, errorRate = 0, p50Ms = 0, p99Ms = 0, durationS = 0;
    std::size_t engines = 0;
};

NotifyMessage notifyStart(const ScenarioPlan& plan, std::size_t engines, const std::string& report);
NotifyMessage notifyBreaker(const ScenarioPlan& plan, const RunEvent& event);
// The thresholds that failed (empty `event`: none did).
NotifyMessage notifyThresholds(const RunSummary& summary, const std::string& report);
NotifyMessage notifyEnd(const RunSummary& summary, const std::string& report);
NotifyMessage notifyTest(const std::string& scenario);

// The message as `target` takes it: its URL (DingTalk's signed) and JSON body, signed at `unixMs`.
struct NotifyPost
{
    std::string url;
    std::string body;
};
NotifyPost notifyPost(const NotifyTarget& target, const NotifyMessage& message, std::int64_t unixMs);
std::string plainNotifyJson(const NotifyMessage& message);

// One try: true when the target took it (2xx, and for DingTalk, Feishu and WeCom an answer whose errcode or code is
// 0); `said` is what came back ("HTTP 200", "HTTP 200, errcode 310000: sign not match", "connection refused").
bool postNotification(const NotifyTarget& target, const NotifyMessage& message, std::int64_t unixMs, std::string& said,
                      Nanos timeout = 5 * kNanosPerSecond);

// The run's notifications, as an output: told the run's start, events and end; posts on its own thread.
class Notifier final : public RunOutput
{
public:
    explicit Notifier(std::vector<NotifyTarget> targets, ClockPtr clock = std::make_shared<SteadyClock>());
    ~Notifier() override;
    void setReport(const std::string& where) { m_report = where; }
    bool open(const ScenarioPlan& plan, std::string& error) override;
    void started(const std::vector<std::string>& agents) override;
    void second(const SecondSummary&, const PreparedSecond&) override {}
    void event(const RunEvent& event) override;
    bool finish(const RunSummary& summary, std::string& error) override;
    // The tries made since the last call, as run events ("notify").
    std::vector<RunEvent> takeEvents();
    // Messages that were not delivered, as warnings: "the end notification to dingtalk https://… was not delivered:
    // HTTP 500".
    std::vector<std::string> undelivered() const;

private:
    // Each target its own queue and thread: a target that is down or slow delays no other's messages.
    struct Lane
    {
        std::deque<NotifyMessage> queue;
        bool busy = false;
        std::thread thread;
    };
    void post(unsigned on, NotifyMessage message);
    void loop(std::size_t target);
    bool idle() const; // under m_mutex
    std::vector<NotifyTarget> m_targets;
    ClockPtr m_clock;
    const ScenarioPlan* m_plan = nullptr;
    std::string m_report;
    Nanos m_start = 0;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::vector<Lane> m_lanes;
    bool m_stop = false;
    std::vector<RunEvent> m_events;
    std::vector<std::string> m_undelivered;
};

} // namespace stampede
