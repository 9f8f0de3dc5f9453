#pragma once
// One worker thread of an engine: it owns an event loop, its connections, its
// parameter cursors and its metrics, and shares nothing with other workers on
// the hot path. Once a second it hands the finished second's metrics to the
// sink; that is its only synchronisation.
//
// A worker is built from parts, and its loop asks neither which protocol nor
// which load model it runs:
//   pacer (the plan's load executor's, load/executor.h: open arrivals |
//   closed users | per-user iterations | recorded traffic)
//     -> startIteration: the slot's cursors advance, the request renderer
//        (requestrenderer.h) fills every templated step; or, for a recorded
//        request (a copy with its offsets), it is rendered as it was
//     -> client sessions (net/clientsessions.h, one per protocol), sent as an
//        Outgoing (net/outgoing.h): the session encodes it, with the user's
//        cookie or a redirect hop applied
//     -> its answer comes back here (SessionListener::onAnswer) as the same
//        protocol-neutral Answer from every session (its status judged by the
//        protocol's rules), is judged by the step, counted, and the slot goes
//        on to its next step or back to the pacer.
// Business flows (workerflows.cpp) sit between an answer and the next step:
// cookies taken, a redirect followed (a hop of the same step), checks judged
// (a failed one ends the iteration as a `check` error), values extracted into
// the slot's variables; a step that uses extracted values is rendered when
// sent. What the worker decides there (the cookie a request carries, where a
// redirect goes) the session applies.
#include "answerjudge.h"
#include "check/answerdiff.h"
#include "checktally.h"
#include "core/clock.h"
#include "core/parametersource.h"
#include "core/random.h"
#include "flow/cookies.h"
#include "flow/iterationtrace.h"
#include "flow/rendezvous.h"
#include "flow/stephooks.h"
#include "load/pacer.h"
#include "metrics/runmetrics.h"
#include "net/eventloop.h"
#include "net/transport.h"
#include "plan/scenarioplan.h"
#include "requestprep.h"
#include "scriptstep.h"
#include "stepoutcome.h"
#include "steppolicy.h"
#include "steprequests.h"
#include "uservalues.h"
#include "userwaits.h"
#include "workercalendar.h"
#include "workerend.h"
#include "workerio.h"
#include "workerseconds.h"

#include <atomic>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <vector>

namespace stampede {

struct WorkerSetup
{
    const ScenarioPlan* plan = nullptr;
    std::uint32_t index = 0; // this worker within the engine
    std::uint32_t part = 0;  // this worker within the whole run (engine i of n x thread j of T)
    std::uint32_t parts = 1;
    std::uint32_t slots = 1; // connections (open model) or virtual users (closed model)
    Nanos start = 0;         // the run's start on `clock`
    std::uint64_t seed = 1;
    const Clock* clock = nullptr;
    SecondSink* sink = nullptr;
    const std::atomic<bool>* stop = nullptr;
    const std::atomic<double>* levelFactor = nullptr; // scales the planned level while running
    const std::atomic<Nanos>* lease = nullptr;        // the load ends when `clock` passes it (0: no lease)
    WorkerIo* io = nullptr; // its sessions and waits (null: its own epoll loop, LoopIo); outlives the worker
    // Within a plan of several scenarios: this scenario's load starts this long
    // after the run (seconds are the run's), and its steps and groups are
    // these places of the run's (`steps` and `groups` in all).
    Nanos startAfter = 0;
    // A share taken over from a lost engine mid-run: its load starts at this
    // time on `clock` (0: with the run), and its first second is the one that
    // holds this time.
    Nanos joinAt = 0;
    // Set (non-zero) when the share is handed to another engine: this
    // worker sends no arrival due at or after it, and ends (0: never).
    const std::atomic<Nanos>* releaseAt = nullptr;
    std::uint32_t stepOffset = 0, groupOffset = 0;
    std::uint32_t steps = 0, groups = 0;   // 0: the plan's own
    std::atomic<bool>* stopRun = nullptr;  // set by the worker whose step stops the run (onError), read by all
    RendezvousBoard* rendezvous = nullptr; // the engine's rendezvous points (null: none)
    SharedAccess* shared = nullptr;        // the run's shared data (null: the plan uses none)
};

class Worker final : public SessionListener, private PacerHost, private FlowHost
{
public:
    // Creates the cursors; throws PartitionError when this part has no values.
    explicit Worker(const WorkerSetup& setup);
    ~Worker() override;
    void run();
    // The most connections this worker opens at once (its sessions').
    std::uint32_t maxConnections() const;
    // The values slot 0 extracted, as its last iteration left them (a plan's setup).
    std::map<std::string, std::string> extractedValues() const;
    // Why its load ended before the plan did, and when (a step's onError, a data set, the lease).
    const WorkerEnd& ending() const { return m_ending; }

private:
    struct Slot
    {
        int step = -1;                // the step in flight, -1 when idle
        std::uint32_t lastStep = 0;   // the step last sent (a stray answer is counted there)
        SendTimes times;              // when this step was meant to start, and when it was handed to the connection
        std::string path;             // the request target as sent (the step's hooks: cookies, relative redirects)
        bool single = false;          // its iteration is one recorded request
        bool transportFailed = false; // in this iteration (its end waits for the loop's next turn)
        Nanos drawSince = 0;          // when its iteration began to draw its values (an account pool's wait)
        int recordedStatus = 0;       // a replayed request's recorded status (its checks' "recorded status")
        int second = -1;              // replay's diffAgainst: the step that sends this request to the second server
        bool firstAnswered = false;   // the first server answered (kept in `first`)
        bool firstFailed = false;     // and its step failed
        KeptAnswer first;             // what the first server answered, until the second answers
    };
    // SessionListener
    void onAnswer(std::uint32_t tag, const Answer& answer, Nanos now) override;
    void onConnected(std::uint32_t tag, Nanos connect, Nanos handshake, bool tls, bool resumed) override;
    void onStray(std::uint32_t tag, std::string_view bytes, Nanos now) override;
    void onRetry(std::uint32_t tag, Nanos now) override;
    void onResent(std::uint32_t tag, Nanos now) override;
    void onStreamMessages(std::uint32_t tag, std::uint32_t out, std::uint32_t in, Nanos now) override;
    // PacerHost
    bool startIteration(std::uint32_t slot, Nanos intended, Nanos now, const IterationStart& what) override;
    void countLate(Nanos now) override { ++metricsAt(0, now).counters.late; }
    void countDropped(std::uint64_t n, Nanos now) override { metricsAt(0, now).counters.dropped += n; }

    void sendStep(std::uint32_t slot, int step, Nanos intended, Nanos now, bool retry = false);
    // answers (workeroutcome.cpp)
    // A send that failed (no answer): the transport, or a request that could not be made; or a failure that its
    // protocol counts as a status (a call's deadline).
    void fail(std::uint32_t slot, ErrorClass error, std::string_view why, Nanos now);
    void fail(std::uint32_t slot, const Answer& answer, Nanos now);
    void testsWithoutAnswer(std::uint32_t slot, ErrorClass error, Nanos now);
    // flows (workerflows.cpp)
    void startFlows(std::uint32_t slot);
    // The step's request for `slot` in `o` (requestprep.h); false: not sent (reported, or skipped).
    bool prepare(std::uint32_t slot, std::size_t step, Outgoing& o, Nanos now);
    // What the step's hooks (flow/stephooks.h) are told of `slot`'s send.
    StepCall callOf(std::uint32_t slot, bool hop, Nanos now)
    {
        Slot& s = m_slots[slot];
        const auto step = std::size_t(s.step);
        const PlannedStep& st = m_plan.steps[step];
        return {slot, step, st, s.path, hop, now, st.runtimeOrigin ? m_requests.sent(slot, step).endpoint : nullptr};
    }
    // FlowHost
    StepMetrics& stepMetrics(std::size_t step, Nanos now) override { return metricsAt(step, now); }
    StepMetrics& groupMetrics(std::size_t group, Nanos now) override { return m_seconds.group(group, now); }
    void countAnswer(const StepCall& call, const Answer& answer) override;
    void sendAgain(const StepCall& call, std::string_view target, bool asGet) override;
    std::int64_t unixSeconds() const override { return m_clock.unixSeconds(); }
    void resume(std::uint32_t slot, Nanos now) override;
    std::function<void()> doorbell() override
    {
        return [io = m_io.get()] { io->wake(); };
    }
    void setOwnValue(std::uint32_t slot, std::uint16_t variable, const std::string* value) override
    {
        m_own.values(slot)[variable] = value ? *value : std::string();
        m_own.isSet(slot)[variable] = value != nullptr;
    }
    // What the step's judge (answerjudge.h) is told of `slot`'s answer: the request as it went, the user's cookies
    // for a test script's pm.cookies.
    AnswerJudge::Call judgeCall(std::uint32_t slot);
    // outcomes (workeroutcome.cpp)
    void settle(std::uint32_t slot, const StepOutcome& o, const AnswerView* answer, Nanos now);
    void stepFailed(std::uint32_t slot, bool transport, Nanos now);
    void completeStep(std::uint32_t slot, Nanos now);
    void finishIteration(std::uint32_t slot, Nanos now, bool failed = false);
    void endIteration(std::uint32_t slot, Nanos now, bool failed);
    // The written iteration's values drawn and its first step sent: false when the data ran out; a user an
    // account pool has no row for waits (worker.cpp).
    bool drawValues(std::uint32_t slot, Nanos now);
    void noAccount(std::uint32_t slot, std::size_t variable, Nanos now);
    void keepFirst(Slot& s, const AnswerView& a);
    void nextStep(std::uint32_t slot, Nanos intended, Nanos now);
    void resumeWaits(Nanos now);
    bool turn(Nanos now);
    void beginStop();
    StepMetrics& metricsAt(std::size_t step, Nanos now) { return m_seconds.step(step, now); }

    WorkerSetup m_setup;
    const ScenarioPlan& m_plan;
    const Clock& m_clock;
    std::shared_ptr<WorkerIo> m_io; // the setup's (not owned), or its own epoll loop
    ClientSessionsPtr m_sessions;
    PacerPtr m_pacer;
    std::vector<Slot> m_slots;
    bool m_flows = false; // checks, extraction, cookies, redirects or scripts in the plan
    // When the sessions' next paced message is due (ClientSessions::dueAt), read once a loop turn before its wait
    Nanos m_due = std::numeric_limits<Nanos>::max();
    std::unique_ptr<ScriptStep> m_scripts; // the steps' scripts: made on the worker's thread when it runs
    std::optional<StepHooks> m_hooks;      // the plan's hooks, each step's list (a plain step has none)

    std::uint32_t m_inFlight = 0;
    UserWaits m_waits{m_setup.seed}; // users pausing after a step, tries waiting out their backoff
    WorkerEnd m_ending{{m_setup.stop, m_setup.lease, m_setup.stopRun}}; // why the load ended early, and when
    StepPolicy m_policy{m_plan.steps};  // each user's tries and repeats: retry, onError, repeat
    UserValues m_own{m_plan};           // each user's extracted values and the iteration's kept ones (with flows)
    AnswerJudge m_judge{m_plan, m_own}; // the step's checks and test script on an answer, the verdict
    StepRequests m_requests{m_plan, m_own, m_setup.part, m_setup.parts, m_setup.seed}; // each user's requests
    RequestPrep m_prep{m_plan, m_requests, m_own}; // a step's request made ready: its pre-request script, late values
    std::optional<IterationTrace> m_trace;         // each iteration's trace id (with trace on)
    std::string_view traceOf(const Slot& s) const { return m_trace->of(std::uint32_t(&s - m_slots.data())); }
    // this scenario's start and end, a share's takeover and release, the controller's level, the loop's tick
    WorkerCalendar m_calendar{
        {m_setup.start + m_setup.startAfter, m_plan.duration, m_setup.joinAt, m_setup.levelFactor, m_setup.releaseAt}};
    WorkerSeconds m_seconds; // the second now falls in, each handed to the sink once over
};

} // namespace stampede
