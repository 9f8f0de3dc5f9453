#include "worker.h"

#include "scriptrequest.h"
#include "sharedscript.h"
#include "stepoutcome.h"

#include "core/durationtext.h"

#include <algorithm>
#include <sys/prctl.h>
#include <unistd.h>

namespace stampede {

Worker::Worker(const WorkerSetup& setup)
    : m_setup(setup), m_plan(*setup.plan), m_clock(*setup.clock),
      m_io(setup.io ? std::shared_ptr<WorkerIo>(setup.io, [](WorkerIo*) {}) : std::make_shared<LoopIo>()),
      m_seconds(m_plan, {setup.steps, setup.groups, setup.stepOffset, setup.groupOffset}, setup.index, *setup.sink,
                [this] {
                    return WorkerSeconds::Gauges{m_sessions->openConnections(), m_pacer->activeUsers(),
                                                 m_sessions->goaways()};
                })
{
    const std::uint32_t slots = slotCount(m_plan, setup.slots);
    m_sessions = m_io->sessions(m_plan, slots, *this);
    m_pacer = m_plan.load->pacer(*this, slots, setup.part, setup.parts, m_plan.duration);
    m_slots.resize(slots);
    m_policy.reset(slots);
    m_trace.emplace(m_plan, slots);
    m_hooks.emplace(HookSetup{m_plan, slots, *this,
                              setup.rendezvous && setup.rendezvous->any() ? setup.rendezvous : nullptr, setup.shared,
                              setup.stepOffset});
    const bool scripted = ScriptStep::needed(m_plan);
    m_requests.reset(slots, scripted); // a script's changes go into the user's own copy
    m_flows = m_plan.cookies || m_plan.followRedirects || scripted ||
              std::any_of(m_plan.steps.begin(), m_plan.steps.end(), [](const PlannedStep& st) {
                  return !st.checks.empty() || !st.extractors.empty() || !st.hooks.empty();
              });
    if (m_flows)
        m_own.reset(slots);
}

Worker::~Worker() = default;

std::map<std::string, std::string> Worker::extractedValues() const
{
    return m_own.extracted(0);
}

bool Worker::startIteration(std::uint32_t slot, Nanos intended, Nanos now, const IterationStart& what)
{
    Slot& s = m_slots[slot];
    if (what.record) { // a recorded request, to its server's step, as it was: an iteration of one request
        s.single = true;
        s.recordedStatus = what.record->status;
        const std::string_view traceparent = m_trace->replay(slot, *what.record, what.copy);
        m_requests.record(slot, what.step, *what.record, traceparent);
        s.second = m_plan.steps[what.step].shadow;
        if (s.second >= 0) // rendered now: the record is valid during this call only
            m_requests.record(slot, std::size_t(s.second), *what.record, traceparent);
        sendStep(slot, int(what.step), intended, now);
        return true;
    }
    s.times.intended = intended;
    s.drawSince = now;
    return drawValues(slot, now);
}

// An account pool with no row free: the user tries again each millisecond, measured from its intended start,
// until the pool's wait is over (then the iteration fails, counted at its first step).
bool Worker::drawValues(std::uint32_t slot, Nanos now)
{
    Slot& s = m_slots[slot];
    if (std::size_t v = 0; !m_requests.beginIteration(slot, v)) {
        const bool busy = m_requests.busy(v); // an account pool with no row free now; else the data ran out
        if (busy && !m_ending.stopping()) {
            if (now - s.drawSince < m_plan.variables[v].checkoutWait)
                m_waits.drawAt(slot, now + kNanosPerMilli);
            else
                noAccount(slot, v, now);
            return true;
        }
        if (!busy) {
            m_ending.dataRanOut(m_plan.variables[v].name, now);
            beginStop();
        }
        return false;
    }
    if (m_trace->variable() >= 0) // the iteration's trace id, kept with its samples
        m_trace->begin(slot, m_requests.current(std::size_t(m_trace->variable())));
    if (m_flows)
        startFlows(slot);
    m_policy.newIteration(slot);
    sendStep(slot, 0, s.times.intended, now);
    return true;
}

void Worker::noAccount(std::uint32_t slot, std::size_t variable, Nanos now)
{
    Slot& s = m_slots[slot];
    const PlannedVariable& v = m_plan.variables[variable];
    s.times.sent = now;
    const std::string why = "no row of the account pool \"" + v.name + "\" was free within " +
                            formatDuration(v.checkoutWait) + ": not sent";
    countOutcome(metricsAt(0, now), StepOutcome::failure(ErrorClass::Extract, why), nullptr,
                 {m_seconds.current(), m_setup.stepOffset, traceOf(s), s.times}, now);
    endIteration(slot, now, true);
}

void Worker::sendStep(std::uint32_t slot, int step, Nanos intended, Nanos now, bool retry)
{
    Slot& s = m_slots[slot];
    const auto i = std::size_t(step);
    m_policy.begin(slot, retry);
    s.step = step;
    s.times.intended = intended;
    if (m_hooks->any(i) && !m_hooks->begin(callOf(slot, false, now), intended))
        return; // held (a rendezvous): not in flight until a hook resumes it
    s.lastStep = std::uint32_t(step);
    s.times.sent = now;
    ++m_inFlight;
    Outgoing o = m_requests.outgoing(slot, i);
    if (m_flows && !prepare(slot, i, o, now))
        return; // not sent: a value it uses was not extracted (reported)
    if (!o.request->failure.empty()) {
        // the request could not be made (a value its field refuses, a body its codec refuses): nothing is sent
        fail(slot, o.request->failureClass, o.request->failure, now);
        return;
    }
    aimAtRendered(o);
    if (m_hooks->any(i)) {
        s.path.assign(requestTarget(*o.request)); // the target as sent: cookies and relative redirects go by it
        m_hooks->beforeSend(callOf(slot, false, now), o);
    }
    m_seconds.sent(i, intended, now);
    const std::size_t bytes = m_sessions->send(slot, o, now); // may answer at once (a refused connect)
    metricsAt(i, now).counters.bytesOut += bytes;
}

void Worker::onConnected(std::uint32_t tag, Nanos connect, Nanos handshake, bool tls, bool resumed)
{
    if (const Slot& slot = m_slots[tag]; slot.step >= 0)
        m_seconds.connected(std::size_t(slot.step), connect, handshake, tls, resumed);
}

void Worker::onStray(std::uint32_t tag, std::string_view bytes, Nanos now)
{
    m_seconds.stray(m_slots[tag].lastStep, bytes, now);
}

void Worker::onRetry(std::uint32_t tag, Nanos now)
{
    const Slot& slot = m_slots[tag];
    if (slot.step >= 0)
        ++metricsAt(std::size_t(slot.step), now).counters.retriedOnIdleClose;
}

void Worker::onStreamMessages(std::uint32_t tag, std::uint32_t out, std::uint32_t in, Nanos now)
{
    if (const Slot& slot = m_slots[tag]; slot.step >= 0) {
        StepCounters& c = metricsAt(std::size_t(slot.step), now).counters;
        c.messagesSent += out;
        c.messagesReceived += in;
    }
}

void Worker::onResent(std::uint32_t tag, Nanos now)
{
    const Slot& slot = m_slots[tag];
    if (slot.step >= 0)
        ++metricsAt(std::size_t(slot.step), now).counters.resentUnprocessed;
}

// The end of the plan (or of the data): nothing new starts, and arrivals still
// waiting for a slot are dropped (counted), so the run ends within the
// requests' timeout of its duration whatever the target does.
void Worker::beginStop()
{
    m_ending.beginStopping();
    const Nanos now = m_clock.now();
    if (const std::uint64_t n = m_pacer->abandon())
        countDropped(n, now);
    // a pause at the end ends its iteration there; a try that waits is not made (its retry was counted)
    for (const std::uint32_t slot : m_waits.takeAll())
        endIteration(slot, now, false);
    std::vector<std::uint32_t> held; // a user held at its step (a rendezvous) goes no further
    m_hooks->letGo(held);
    for (const std::uint32_t slot : held)
        endIteration(slot, now, false);
}

// One turn of the loop; false when the worker is done.
bool Worker::turn(Nanos now)
{
    if (m_ending.halted(now)) {
        // An explicit stop brings the engine to idle now: what waits is
        // dropped and requests in flight are abandoned (not counted).
        if (const std::uint64_t n = m_pacer->abandon())
            countDropped(n, now);
        return false;
    }
    const bool started = m_calendar.started(now); // a plan's scenario may start after the run
    if (double f = 1; started && m_calendar.levelChanged(f) && !m_ending.stopping())
        m_pacer->setLevel(f, now);
    // a share handed over: what is due from its release on is the other engine's
    const Nanos released = m_calendar.releasedBy(now);
    if (started)
        m_pacer->onTime(released ? released - 1 : now);
    resumeWaits(now);
    m_hooks->onTurn(now);
    if (now >= m_due) // streaming calls' paced messages (m_due read before the loop's wait)
        m_sessions->onDue(now);
    // the plan's end, every iteration made, or a step's error that stops the run (here, or on another worker)
    if (!m_ending.stopping() && (now >= m_calendar.end() || m_pacer->finished() || m_ending.runStopped() || released))
        beginStop();
    if (m_calendar.tick(now)) {
        if (!m_ending.stopping() && started)
            m_pacer->onTick(now);
        m_sessions->checkDeadlines(now);
    }
    const bool done =
        m_ending.stopping() && m_inFlight == 0 && m_pacer->drained() && m_waits.empty() && !m_hooks->holds();
    // The seconds up to now; a worker that is done ends on the plan's last second, which also holds what lands
    // after the plan's end (WorkerSeconds::begin's `last`)
    if (now >= m_seconds.end())
        m_seconds.roll(done ? std::min(now, m_calendar.end() - 1) : now);
    return !done;
}

std::uint32_t Worker::maxConnections() const
{
    return m_sessions->maxConnections();
}

void Worker::run()
{
    // The default 50 us timer slack would delay every paced arrival by as much.
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    const Nanos begin = m_calendar.begin(), from = m_calendar.from();
    const auto first = std::uint32_t(from > m_setup.start ? (from - m_setup.start) / kNanosPerSecond + 1 : 1);
    // the plan's last second (its end in it) takes the answers that land after the end: N seconds, not N + 1
    const Nanos planned = m_calendar.end() - m_setup.start;
    const std::uint32_t last = planned <= 0 ? UINT32_MAX
                               : planned / kNanosPerSecond >= Nanos(UINT32_MAX - 1)
                                   ? UINT32_MAX
                                   : std::uint32_t((planned + kNanosPerSecond - 1) / kNanosPerSecond);
    m_seconds.begin(first, m_setup.start + Nanos(first) * kNanosPerSecond, last);
    if (ScriptStep::needed(m_plan)) { // made, run and dropped on this thread: its JavaScript runtime is this thread's
        m_scripts = std::make_unique<ScriptStep>(m_plan, std::uint32_t(m_slots.size()), m_own, m_requests.cursors(),
                                                 m_judge.tally(), m_setup.stepOffset);
        m_judge.setScripts(m_scripts.get());
        m_prep.setScripts(m_scripts.get());
        m_scripts->setRequestSender(
            runRequestSender(m_clock, m_calendar.end(), [this](std::size_t step, bool answered) {
                StepCounters& c = metricsAt(step, m_clock.now()).counters;
                ++c.scriptRequests;
                c.scriptRequestErrors += !answered;
            }));
        if (m_setup.shared)
            m_scripts->setSharedAsker(sharedAsker(*m_setup.shared, m_clock, m_calendar.end()));
    }
    if (from > begin) { // a share taken over: its data goes on where the plan had it
        m_requests.skip(m_pacer->beginFrom(begin, from));
    } else {
        m_pacer->begin(begin);
    }
    m_calendar.startTicks(m_clock.now());
    for (;;) {
        const Nanos now = m_clock.now();
        if (!turn(now))
            break;
        const Nanos limit = std::min(m_calendar.nextTick(), m_seconds.end());
        Nanos wakeAt = m_calendar.wakeBy(m_waits.wakeBy(batchedWake(*m_pacer, now, limit)), now, m_ending.stopping());
        m_due = m_sessions->dueAt(); // calls started while events are handled are due an interval on, at least
        wakeAt = std::min(wakeAt, m_due);
        int n = 0;
        if (const Nanos held = m_sessions->wakeBy(wakeAt); held < wakeAt) {
            wakeAt = std::min(wakeAt, std::max(held, now + ClientSessions::kHeldNap));
            n = m_io->nap(std::max<Nanos>(0, wakeAt - now));
        } else {
            n = m_io->wait(std::max<Nanos>(0, wakeAt - now));
        }
        // One time for the whole batch: the moment the answers were known to
        // have arrived (a time read per event would add the handling of the
        // events before it to each one's latency).
        const Nanos ready = m_clock.now();
        if (ready > wakeAt) { // woke later than it asked: the loop's lag (the generator's health)
            std::int64_t& lag = m_seconds.current().health.loopLag;
            lag = std::max<std::int64_t>(lag, ready - wakeAt);
        }
        if (m_ending.leaseOver(ready))
            continue; // frozen past the lease: nothing more is sent, not even a next step
        m_sessions->beforeEvents();
        m_io->dispatch(n, ready);
        m_sessions->afterEvents(m_clock.now());
    }
    m_seconds.readGauges();
    m_sessions->close();
    m_judge.setScripts(nullptr);
    m_prep.setScripts(nullptr);
    m_scripts.reset();
    m_seconds.finish();
}

} // namespace stampede
