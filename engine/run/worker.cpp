#include "worker.h"

#include <algorithm>
#include <cmath>
#include <sys/prctl.h>

namespace stampede {

namespace {
constexpr Nanos kTick = 10 * kNanosPerMilli; // deadline scans and user-level changes
constexpr std::size_t kReadBufferSize = 64 * 1024;
} // namespace

Worker::Worker(const WorkerSetup& setup)
    : m_setup(setup), m_plan(*setup.plan), m_clock(*setup.clock), m_readBuffer(kReadBufferSize)
{
    m_cursors.resize(m_plan.variables.size());
    for (std::size_t i = 0; i < m_plan.variables.size(); ++i) {
        const auto& v = m_plan.variables[i];
        if (!v.used)
            continue;
        try {
            m_cursors[i] = v.source->cursor(setup.part, setup.parts, setup.seed + i * 7919);
        } catch (const PartitionError& e) {
            throw PartitionError("variable \"" + v.name + "\": " + e.what());
        }
        m_usedVariables.push_back(std::uint16_t(i));
    }
    m_http2 = m_plan.http == HttpVersion::Http2;
    const bool anyTemplated = std::any_of(m_plan.steps.begin(), m_plan.steps.end(),
                                          [this](const PlannedStep& s) { return !(m_http2 ? s.h2Fixed : s.fixed); });
    // HTTP/2: the open model keeps `slots` connections with `streams` requests
    // each in flight; the closed model packs its users `streams` to a connection.
    const std::uint32_t streams = m_http2 ? m_plan.streams : 1;
    const std::uint32_t slots = m_http2 && m_plan.model == LoadModel::Open ? setup.slots * streams : setup.slots;
    if (m_http2) {
        // per server the steps go to, `connections` sessions; a slot uses the same one of each
        const std::uint32_t connections = (slots + streams - 1) / streams;
        m_h2PerServer = connections;
        for (std::uint32_t c = 0; c < connections * m_plan.endpointCount; ++c) {
            m_h2.push_back(
                std::make_unique<Http2Session>(m_loop, *this, m_readBuffer.data(), m_readBuffer.size(), streams));
            m_h2.back()->setFlushQueue(&m_h2Flush);
        }
        m_h2Fixed.resize(m_plan.steps.size());
        for (std::size_t i = 0; i < m_plan.steps.size(); ++i) {
            const PlannedStep& st = m_plan.steps[i];
            if (st.grpc && !st.h2Fixed) {
                m_grpcScratch.resize(m_plan.steps.size());
                m_grpcCache.resize(m_plan.steps.size());
                if (st.grpc->input)
                    m_grpcScratch[i] = st.grpc->schema->newMessage(st.grpc->input);
            }
            if (!st.h2Fixed)
                continue;
            H2Request& r = m_h2Fixed[i];
            for (const auto& h : st.h2Headers)
                r.values.push_back(h.second.constantText());
            if (st.hasBody)
                r.body = st.body.constantText();
            r.point(st);
        }
    }
    m_slots.resize(slots);
    for (std::uint32_t i = 0; i < slots; ++i) {
        Slot& s = m_slots[i];
        if (m_http2) {
            s.connection = i / streams;
            if (anyTemplated)
                s.h2.resize(m_plan.steps.size());
        } else {
            s.session = std::make_unique<Http1Session>(m_loop, *this, m_readBuffer.data(), m_readBuffer.size());
            s.session->tag = i;
            if (anyTemplated)
                s.bytes.resize(m_plan.steps.size());
        }
        s.user = i;
    }
    if (m_plan.model == LoadModel::Open) {
        m_schedule = std::make_unique<ArrivalSchedule>(m_plan.profile, setup.part, setup.parts);
        m_idle.reserve(slots);
        for (std::uint32_t i = slots; i > 0; --i)
            m_idle.push_back(i - 1);
        const std::size_t backlog = std::max<std::size_t>(1, m_plan.backlogLimit / std::max(1u, setup.parts));
        m_backlog.resize(backlog);
    } else {
        std::vector<Wake> storage;
        storage.reserve(slots);
        m_thinkers = decltype(m_thinkers)(std::greater<Wake>(), std::move(storage));
    }
}

Worker::~Worker() = default;

void Worker::H2Request::point(const PlannedStep& step)
{
    nv.clear();
    bytes = body.size();
    for (std::size_t i = 0; i < step.h2Headers.size(); ++i) {
        const std::string& name = step.h2Headers[i].first;
        const std::string& value = values[i];
        nv.push_back({reinterpret_cast<std::uint8_t*>(const_cast<char*>(name.data())),
                      reinterpret_cast<std::uint8_t*>(const_cast<char*>(value.data())), name.size(), value.size(),
                      // both outlive the stream: the plan's names, and values kept until the slot's next request
                      NGHTTP2_NV_FLAG_NO_COPY_NAME | NGHTTP2_NV_FLAG_NO_COPY_VALUE});
        bytes += name.size() + value.size();
    }
}

void Worker::setGauges()
{
    std::uint64_t goaways = 0;
    for (const auto& c : m_h2)
        goaways += c->goaways();
    if (!m_current->steps.empty())
        m_current->steps[0].counters.goaways += goaways - m_goawaysSeen;
    m_goawaysSeen = goaways;
    std::uint32_t open = 0;
    for (const auto& c : m_h2)
        open += c->connected();
    for (const auto& s : m_slots)
        open += s.session && s.session->connected();
    m_current->openConnections = open;
    m_current->activeUsers =
        m_plan.model == LoadModel::Closed ? m_activeUsers : std::uint32_t(m_slots.size() - m_idle.size());
}

void Worker::keepSample(const Slot& slot, ErrorClass c, int status, const std::string& raw, const std::string& why)
{
    auto& samples = m_current->samples;
    if (sampleBudgetSpent(samples, std::uint32_t(slot.step), c))
        return;
    ErrorSample e;
    e.step = std::uint32_t(slot.step);
    e.second = m_current->second;
    e.errorClass = c;
    e.status = status;
    e.detail = why;
    const auto headEnd = raw.find("\r\n\r\n");
    e.head = raw.substr(0, headEnd);
    if (headEnd != std::string::npos)
        e.body = raw.substr(headEnd + 4, kSampleBodyLimit);
    samples.push_back(std::move(e));
}

IntervalMetricsPtr Worker::freshSecond(std::uint32_t second) const
{
    auto m = std::make_unique<IntervalMetrics>();
    m->second = second;
    m->steps.resize(m_plan.steps.size());
    return m;
}

void Worker::rollSeconds(Nanos now)
{
    while (now >= m_secondEnd) {
        const std::uint32_t next = m_current->second + 1;
        setGauges();
        m_setup.sink->deliver(m_setup.index, std::move(m_current), false);
        m_current = freshSecond(next);
        m_secondEnd += kNanosPerSecond;
    }
}

std::string_view Worker::value(VarRef ref) const
{
    return m_cursors[ref.variable]->value(ref.column);
}

bool Worker::startIteration(Slot& slot, Nanos intended, Nanos now)
{
    if (!m_usedVariables.empty()) {
        for (const std::uint16_t v : m_usedVariables) {
            if (!m_cursors[v]->next(slot.user)) {
                beginStop();
                return false;
            }
        }
        // Render every templated step now, while the cursors hold this
        // iteration's values; the strings keep their capacity between uses.
        for (std::size_t i = 0; i < m_plan.steps.size(); ++i) {
            const PlannedStep& st = m_plan.steps[i];
            if (m_http2 ? st.h2Fixed : st.fixed)
                continue;
            if (m_http2) {
                H2Request& r = slot.h2[i];
                r.values.resize(st.h2Headers.size());
                for (std::size_t h = 0; h < st.h2Headers.size(); ++h) {
                    r.values[h].clear();
                    st.h2Headers[h].second.appendTo(r.values[h], *this);
                }
                r.body.clear();
                if (st.hasBody)
                    st.body.appendTo(r.body, *this);
                if (st.grpc)
                    toGrpcMessage(i, r);
                r.point(st);
                continue;
            }
            std::string& out = slot.bytes[i];
            out.clear();
            st.head.appendTo(out, *this);
            if (st.hasBody || st.method == "POST" || st.method == "PUT" || st.method == "PATCH") {
                const std::size_t headEnd = out.size();
                out += "Content-Length: 0000000000\r\n\r\n";
                const std::size_t bodyStart = out.size();
                if (st.hasBody)
                    st.body.appendTo(out, *this);
                // patch the length in place: the body is rendered after the header
                char digits[16];
                const int n = std::snprintf(digits, sizeof digits, "%zu", out.size() - bodyStart);
                const std::size_t field = headEnd + 16; // after "Content-Length: "
                out.replace(field, 10, digits, std::size_t(n));
            } else {
                out += "\r\n";
            }
        }
    }
    sendStep(slot, 0, intended, now);
    return true;
}

void Worker::toGrpcMessage(std::size_t step, H2Request& r)
{
    r.failure.clear();
    auto& cache = m_grpcCache[step];
    if (auto it = cache.find(r.body); it != cache.end()) {
        r.body = it->second;
        return;
    }
    std::string binary, why;
    if (!m_grpcScratch[step] || !jsonToBinary(*m_grpcScratch[step], r.body, binary, why)) {
        r.failure = why.empty() ? "no schema for this gRPC step" : why;
        r.body.clear();
        return;
    }
    if (cache.size() >= kGrpcCacheSize)
        cache.clear(); // many distinct values: a bounded cache, started afresh
    auto framed = grpcFrame(binary);
    cache.emplace(std::move(r.body), framed);
    r.body = std::move(framed);
}

void Worker::sendStep(Slot& slot, int step, Nanos intended, Nanos now)
{
    const PlannedStep& st = m_plan.steps[std::size_t(step)];
    slot.step = step;
    slot.intended = intended;
    slot.sent = now;
    ++m_inFlight;
    if (m_http2) {
        const H2Request& r = st.h2Fixed ? m_h2Fixed[std::size_t(step)] : slot.h2[std::size_t(step)];
        StepCounters& c = metricsAt(std::size_t(step), now).counters;
        const auto tag = std::uint32_t(&slot - m_slots.data());
        if (!r.failure.empty()) {
            // the request JSON did not become the message: nothing is sent
            onFailure(tag, ErrorClass::Protocol, r.failure, now);
            return;
        }
        ++c.sent;
        c.bytesOut += r.bytes;
        m_h2[st.endpointIndex * m_h2PerServer + slot.connection]->submit(tag, st.endpoint, r.nv.data(), r.nv.size(),
                                                                         r.body.data(), r.body.size(), now, st.timeout,
                                                                         m_plan.connectTimeout, st.grpc != nullptr);
        return;
    }
    const std::string& bytes = st.fixed ? st.fixedBytes : slot.bytes[std::size_t(step)];
    StepCounters& c = metricsAt(std::size_t(step), now).counters;
    ++c.sent;
    c.bytesOut += bytes.size();
    slot.session->submit(st.endpoint, bytes.data(), bytes.size(), st.noResponseBody, now, st.timeout,
                         m_plan.connectTimeout);
}

void Worker::onResponse(std::uint32_t tag, int status, std::uint64_t bytesIn, const std::string& errorSample, Nanos now)
{
    Slot& slot = m_slots[tag];
    StepMetrics& m = metricsAt(std::size_t(slot.step), now);
    ++m.counters.requests;
    m.counters.bytesIn += bytesIn;
    m.latency.record(std::uint64_t(std::max<Nanos>(0, now - slot.intended) / kNanosPerMicro));
    m.serviceTime.record(std::uint64_t(std::max<Nanos>(0, now - slot.sent) / kNanosPerMicro));
    if (status >= 400) {
        const ErrorClass c = status >= 500 ? ErrorClass::Http5xx : ErrorClass::Http4xx;
        m.counters.addError(c);
        keepSample(slot, c, status, errorSample, {});
        finishIteration(slot, now); // later steps would act on a failed one
        return;
    }
    stepDone(slot, now);
}

void Worker::onGrpcResponse(std::uint32_t tag, int status, int grpcStatus, const std::string& grpcMessage,
                            std::uint64_t bytesIn, const std::string& errorSample, Nanos now)
{
    if (status >= 400) { // not gRPC's answer: an HTTP error as any other
        onResponse(tag, status, bytesIn, errorSample, now);
        return;
    }
    Slot& slot = m_slots[tag];
    if (status != 200 || grpcStatus < 0) {
        onFailure(tag, ErrorClass::Protocol,
                  status != 200 ? "HTTP status " + std::to_string(status) + " to a gRPC call"
                                : std::string("the answer carries no grpc-status"),
                  now);
        return;
    }
    StepMetrics& m = metricsAt(std::size_t(slot.step), now);
    ++m.counters.requests;
    m.counters.bytesIn += bytesIn;
    m.latency.record(std::uint64_t(std::max<Nanos>(0, now - slot.intended) / kNanosPerMicro));
    m.serviceTime.record(std::uint64_t(std::max<Nanos>(0, now - slot.sent) / kNanosPerMicro));
    if (grpcStatus != 0) {
        m.counters.addGrpcError(grpcStatus);
        keepSample(slot, ErrorClass::Grpc, 0, {},
                   "grpc-status " + std::to_string(grpcStatus) + " " + grpcCodeName(grpcStatus) +
                       (grpcMessage.empty() ? "" : ": " + grpcMessage));
        finishIteration(slot, now);
        return;
    }
    stepDone(slot, now);
}

void Worker::onFailure(std::uint32_t tag, ErrorClass error, const std::string& why, Nanos now)
{
    Slot& slot = m_slots[tag];
    StepMetrics& m = metricsAt(std::size_t(slot.step), now);
    ++m.counters.requests;
    if (error == ErrorClass::Timeout && m_plan.steps[std::size_t(slot.step)].grpc) {
        // a gRPC client's own deadline: DEADLINE_EXCEEDED, as any gRPC client reports it
        m.counters.addGrpcError(4);
        keepSample(slot, ErrorClass::Grpc, 0, {}, "grpc-status 4 DEADLINE_EXCEEDED: the deadline passed (" + why + ")");
        finishIteration(slot, now, true);
        return;
    }
    m.counters.addError(error);
    keepSample(slot, error, 0, {}, why);
    finishIteration(slot, now, true);
}

void Worker::onConnected(std::uint32_t tag, Nanos connect, Nanos handshake, bool tls, bool resumed)
{
    const Slot& slot = m_slots[tag];
    if (slot.step < 0)
        return;
    StepCounters& c = m_current->steps[std::size_t(slot.step)].counters;
    ++c.connects;
    c.connectNanos += std::uint64_t(std::max<Nanos>(0, connect));
    if (!tls)
        return;
    ++c.handshakes;
    c.handshakesResumed += resumed;
    c.handshakeNanos += std::uint64_t(std::max<Nanos>(0, handshake));
    c.handshakeMaxNanos = std::max(c.handshakeMaxNanos, std::uint64_t(std::max<Nanos>(0, handshake)));
}

void Worker::stepDone(Slot& slot, Nanos now)
{
    const int next = slot.step + 1;
    if (next < int(m_plan.steps.size())) {
        --m_inFlight;
        sendStep(slot, next, now, now);
        return;
    }
    finishIteration(slot, now);
}

void Worker::finishIteration(Slot& slot, Nanos now, bool failed)
{
    --m_inFlight;
    slot.step = -1;
    // After a transport failure the next start waits for the loop's next turn:
    // a refused connect fails inside submit(), and starting again from here
    // would recurse without bound.
    if (m_plan.model == LoadModel::Open) {
        if (m_backlogSize && !failed) {
            const Nanos intended = m_backlog[m_backlogHead];
            m_backlogHead = (m_backlogHead + 1) % m_backlog.size();
            --m_backlogSize;
            if (startIteration(slot, intended, now))
                return;
        }
        m_idle.push_back(slot.user);
        return;
    }
    if (m_stopping || !slot.active)
        return;
    if (m_plan.thinkTime > 0 || failed) {
        slot.waiting = true;
        m_thinkers.emplace(now + m_plan.thinkTime, slot.user);
        return;
    }
    startIteration(slot, now, now);
}

void Worker::dispatchArrivals(Nanos now)
{
    while (m_backlogSize && !m_idle.empty()) {
        const std::uint32_t i = m_idle.back();
        m_idle.pop_back();
        const Nanos intended = m_backlog[m_backlogHead];
        m_backlogHead = (m_backlogHead + 1) % m_backlog.size();
        --m_backlogSize;
        if (!startIteration(m_slots[i], intended, now)) {
            m_idle.push_back(i);
            return;
        }
    }
    while (m_nextArrival && m_setup.start + *m_nextArrival <= now) {
        const Nanos intended = m_setup.start + *m_nextArrival;
        if (!m_idle.empty() && !m_backlogSize) {
            const std::uint32_t i = m_idle.back();
            m_idle.pop_back();
            if (!startIteration(m_slots[i], intended, now)) {
                m_idle.push_back(i);
                return;
            }
        } else if (m_backlogSize < m_backlog.size()) {
            // every connection is busy: the arrival waits, and is measured from its intended start
            m_backlog[(m_backlogHead + m_backlogSize) % m_backlog.size()] = intended;
            ++m_backlogSize;
            ++metricsAt(0, now).counters.late;
        } else {
            ++metricsAt(0, now).counters.dropped;
        }
        m_nextArrival = m_schedule->next();
        if (m_nextArrival && *m_nextArrival >= m_plan.duration)
            m_nextArrival.reset();
    }
}

void Worker::adjustUsers(Nanos now)
{
    // Local user u is global user u * parts + part; it is active while the
    // planned level exceeds its global index.
    const double level = m_plan.profile.levelAt(now - m_setup.start) * m_factor;
    const auto global = std::int64_t(std::floor(level + 1e-9));
    const std::int64_t local = global > std::int64_t(m_setup.part)
                                   ? (global - std::int64_t(m_setup.part) + m_setup.parts - 1) / m_setup.parts
                                   : 0;
    const auto target = std::uint32_t(std::min<std::int64_t>(local, std::int64_t(m_slots.size())));
    for (std::uint32_t u = m_activeUsers; u < target; ++u) {
        Slot& s = m_slots[u];
        s.active = true;
        if (s.step < 0 && !s.waiting)
            startIteration(s, now, now);
        if (m_stopping)
            return;
    }
    for (std::uint32_t u = target; u < m_activeUsers; ++u)
        m_slots[u].active = false; // it finishes its iteration, then rests
    m_activeUsers = target;
}

void Worker::wakeThinkers(Nanos now)
{
    while (!m_thinkers.empty() && m_thinkers.top().first <= now) {
        Slot& s = m_slots[m_thinkers.top().second];
        m_thinkers.pop();
        s.waiting = false;
        if (s.active && !m_stopping && s.step < 0)
            startIteration(s, now, now);
    }
}

void Worker::checkDeadlines(Nanos now)
{
    for (auto& c : m_h2)
        c->checkDeadlines(now);
    for (auto& s : m_slots)
        if (s.session)
            s.session->checkDeadline(now);
}

void Worker::applyLevelFactor(double factor, Nanos now)
{
    m_factor = factor;
    if (m_plan.model == LoadModel::Open && !m_stopping) {
        if (m_nextArrival)
            m_schedule->unissue(); // it was planned at the old rate
        m_schedule->rescale(factor, now - m_setup.start);
        m_nextArrival = m_schedule->next();
        if (m_nextArrival && *m_nextArrival >= m_plan.duration)
            m_nextArrival.reset();
    } else if (m_plan.model == LoadModel::Closed) {
        m_nextTick = now; // take the new number of users at once
    }
}

void Worker::beginStop()
{
    m_stopping = true;
    m_nextArrival.reset();
}

void Worker::handleEvents(int n)
{
    const epoll_event* ev = m_loop.events();
    for (int i = 0; i < n; ++i)
        static_cast<PollTarget*>(ev[i].data.ptr)->onEvents(ev[i].events, m_clock.now());
}

void Worker::flushHeld()
{
    // HTTP/2: the connections read in this batch write what they have, or hold
    // it a little longer for a fuller write
    if (m_h2Flush.empty())
        return;
    const Nanos now = m_clock.now();
    std::size_t kept = 0;
    for (std::size_t i = 0; i < m_h2Flush.size(); ++i) {
        Http2Session* s = m_h2Flush[i];
        if (!s->flushQueued(now))
            m_h2Flush[kept++] = s;
    }
    m_h2Flush.resize(kept);
}

void Worker::run()
{
    // The default 50 us timer slack would delay every paced arrival by as much.
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    m_current = freshSecond(1);
    m_secondEnd = m_setup.start + kNanosPerSecond;
    Nanos now = m_clock.now();
    if (m_plan.model == LoadModel::Open) {
        m_nextArrival = m_schedule->next();
        if (m_nextArrival && *m_nextArrival >= m_plan.duration)
            m_nextArrival.reset();
    }
    m_nextTick = now;
    for (;;) {
        now = m_clock.now();
        if (m_setup.stop->load(std::memory_order_relaxed)) {
            // An explicit stop brings the engine to idle now: the backlog is
            // dropped and requests in flight are abandoned (not counted).
            if (m_backlogSize)
                metricsAt(0, now).counters.dropped += m_backlogSize;
            m_backlogSize = 0;
            break;
        }
        if (m_setup.levelFactor) {
            const double f = m_setup.levelFactor->load(std::memory_order_relaxed);
            if (f != m_factor)
                applyLevelFactor(f, now);
        }
        // Arrivals due before the end are started (or counted late) even when
        // the loop wakes after the end: none is skipped silently.
        if (m_plan.model == LoadModel::Open)
            dispatchArrivals(now);
        else
            wakeThinkers(now);
        if (!m_stopping && now - m_setup.start >= m_plan.duration)
            beginStop();
        if (now >= m_nextTick) {
            if (m_plan.model == LoadModel::Closed && !m_stopping)
                adjustUsers(now);
            checkDeadlines(now);
            m_nextTick = now + kTick;
        }
        if (now >= m_secondEnd)
            rollSeconds(now);
        if (m_stopping && m_inFlight == 0 && m_backlogSize == 0)
            break;

        Nanos wakeAt = std::min(m_nextTick, m_secondEnd);
        if (m_nextArrival)
            wakeAt = std::min(wakeAt, m_setup.start + *m_nextArrival);
        if (!m_thinkers.empty())
            wakeAt = std::min(wakeAt, m_thinkers.top().first);
        if (!m_stopping)
            wakeAt = std::min(wakeAt, m_setup.start + m_plan.duration);
        for (const Http2Session* held : m_h2Flush)
            wakeAt = std::min(wakeAt, held->holdUntil());
        handleEvents(m_loop.wait(std::max<Nanos>(0, wakeAt - now)));
        flushHeld();
    }
    setGauges();
    for (auto& c : m_h2)
        c->close();
    for (auto& s : m_slots)
        if (s.session)
            s.session->close();
    m_setup.sink->deliver(m_setup.index, std::move(m_current), true);
}

} // namespace stampede
