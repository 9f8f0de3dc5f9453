#include "snapshotcodec.h"

#include <algorithm>

#include "core/tracecontext.h"

#include "stampede/v1/control.pb.h"

namespace stampede {

namespace {

void encodeStep(const StepMetrics& st, v1::StepSnapshot& s)
{
    const auto& c = st.counters;
    auto& counters = *s.mutable_counters();
    for (const CounterField& f : kCounterFields)
        if (c.*f.field)
            counters[f.name] = c.*f.field;
    for (auto e : c.errorsByClass)
        s.add_errors_by_class(e);
    if (c.errorsByClass[std::size_t(ErrorClass::Grpc)])
        for (auto g : c.grpcCodes)
            s.add_grpc_codes(g);
    for (const CheckCount& k : st.checks) {
        s.add_checks_passed(k.passed);
        s.add_checks_failed(k.failed);
    }
    for (const NamedCheckCount& n : st.named) {
        v1::NamedCheck& c = *s.add_named_checks();
        c.set_name(n.name);
        c.set_passed(n.count.passed);
        c.set_failed(n.count.failed);
        c.set_message(n.message);
    }
    for (const std::string& message : st.checkMessages)
        s.add_check_messages(message);
    s.set_latency(st.latency.serialize());
    s.set_service_time(st.serviceTime.serialize());
    if (st.sendLag.count())
        s.set_send_lag(st.sendLag.serialize());
    if (st.firstByte.count())
        s.set_first_byte(st.firstByte.serialize());
    if (st.connect.count())
        s.set_connect(st.connect.serialize());
    if (st.handshake.count())
        s.set_tls_handshake(st.handshake.serialize());
    if (st.resumed.count())
        s.set_tls_resumed(st.resumed.serialize());
    if (st.messageLatency.count())
        s.set_message_latency(st.messageLatency.serialize());
}

bool decodeStep(const v1::StepSnapshot& s, StepMetrics& m, std::uint64_t sequence, std::string& error)
{
    for (const CounterField& f : kCounterFields) // counters this version does not know are left out
        if (auto it = s.counters().find(f.name); it != s.counters().end())
            m.counters.*f.field = it->second;
    for (int e = 0; e < s.errors_by_class_size() && e < int(kErrorClassCount); ++e)
        m.counters.errorsByClass[std::size_t(e)] = s.errors_by_class(e);
    for (int g = 0; g < s.grpc_codes_size() && g < int(kGrpcCodeCount); ++g)
        m.counters.grpcCodes[std::size_t(g)] = s.grpc_codes(g);
    if (s.checks_passed_size() != s.checks_failed_size() || s.checks_passed_size() > int(kMaxChecksPerStep)) {
        error = "the check counts in snapshot " + std::to_string(sequence) + " do not match";
        return false;
    }
    m.checks.resize(std::size_t(s.checks_passed_size()));
    for (int k = 0; k < s.checks_passed_size(); ++k)
        m.checks[std::size_t(k)] = {s.checks_passed(k), s.checks_failed(k)};
    if (s.named_checks_size() > int(kMaxNamedTests)) {
        error = "snapshot " + std::to_string(sequence) + " names more than " + std::to_string(kMaxNamedTests) +
                " tests of a step";
        return false;
    }
    if (s.check_messages_size() > int(kMaxChecksPerStep)) {
        error = "snapshot " + std::to_string(sequence) + " gives more failure messages than a step has checks";
        return false;
    }
    for (int k = 0; k < s.check_messages_size(); ++k)
        m.noteMessage(std::size_t(k), s.check_messages(k));
    for (const v1::NamedCheck& n : s.named_checks()) { // a name given twice is counted once, as merged
        NamedCheckCount& c = m.namedEntry(n.name());
        c.count.passed += n.passed();
        c.count.failed += n.failed();
        if (c.message.empty())
            c.message = utf8Prefix(n.message(), kMaxCheckMessageLength);
    }
    if (!m.latency.deserialize(s.latency()) || !m.serviceTime.deserialize(s.service_time()) ||
        (!s.send_lag().empty() && !m.sendLag.deserialize(s.send_lag())) ||
        (!s.first_byte().empty() && !m.firstByte.deserialize(s.first_byte())) ||
        (!s.connect().empty() && !m.connect.deserialize(s.connect())) ||
        (!s.tls_handshake().empty() && !m.handshake.deserialize(s.tls_handshake())) ||
        (!s.tls_resumed().empty() && !m.resumed.deserialize(s.tls_resumed())) ||
        (!s.message_latency().empty() && !m.messageLatency.deserialize(s.message_latency()))) {
        error = "a histogram in snapshot " + std::to_string(sequence) + " does not decode";
        return false;
    }
    return true;
}

} // namespace

void encodeSnapshot(const IntervalMetrics& metrics, v1::Snapshot& out)
{
    out.set_second(metrics.second);
    out.clear_steps();
    for (const auto& st : metrics.steps)
        encodeStep(st, *out.add_steps());
    out.clear_groups();
    for (const auto& g : metrics.groups)
        encodeStep(g, *out.add_groups());
    out.set_open_connections(metrics.openConnections);
    out.set_active_users(metrics.activeUsers);
    out.set_cpu(metrics.health.cpu);
    out.set_rss_bytes(metrics.health.rssBytes);
    out.set_loop_lag_ns(std::uint64_t(std::max<std::int64_t>(0, metrics.health.loopLag)));
    out.clear_samples();
    for (const auto& e : metrics.samples) {
        auto* m = out.add_samples();
        m->set_step(e.step);
        m->set_error_class(std::uint32_t(e.errorClass));
        m->set_status(e.status);
        m->set_head(e.head);
        m->set_body(e.body);
        m->set_detail(e.detail);
        m->set_trace(e.trace);
    }
    out.clear_traces();
    for (const TraceSample& t : metrics.traces) {
        auto* m = out.add_traces();
        m->set_step(t.step);
        m->set_trace(t.trace);
    }
    out.clear_console();
    for (const auto& line : metrics.console) {
        auto* c = out.add_console();
        c->set_step(line.step);
        c->set_text(line.text);
    }
    out.set_console_dropped(metrics.consoleDropped);
}

bool decodeSnapshot(const v1::Snapshot& in, IntervalMetrics& out, std::string& error)
{
    out.second = in.second();
    out.steps.clear();
    out.steps.resize(std::size_t(in.steps_size()));
    for (int i = 0; i < in.steps_size(); ++i)
        if (!decodeStep(in.steps(i), out.steps[std::size_t(i)], in.sequence(), error))
            return false;
    out.groups.clear();
    out.groups.resize(std::size_t(in.groups_size()));
    for (int i = 0; i < in.groups_size(); ++i)
        if (!decodeStep(in.groups(i), out.groups[std::size_t(i)], in.sequence(), error))
            return false;
    out.openConnections = in.open_connections();
    out.activeUsers = in.active_users();
    // a peer's numbers: a share of the cores is 0..1, a lag at most an hour
    if (!(in.cpu() >= 0 && in.cpu() <= 1.5)) {
        error = "a snapshot's CPU share is not between 0 and 1";
        return false;
    }
    out.health.cpu = std::min(1.0, in.cpu());
    out.health.rssBytes = in.rss_bytes();
    out.health.loopLag = std::int64_t(std::min<std::uint64_t>(in.loop_lag_ns(), 3600ull * 1000000000ull));
    out.samples.clear();
    for (const auto& m : in.samples()) {
        if (m.error_class() >= kErrorClassCount || m.step() >= out.steps.size()) {
            error = "an error sample in snapshot " + std::to_string(in.sequence()) + " names no known step or class";
            return false;
        }
        if (!m.trace().empty() && !traceHex(m.trace(), 32)) {
            error = "an error sample in snapshot " + std::to_string(in.sequence()) + " has a trace id that is not one";
            return false;
        }
        out.samples.push_back({m.step(), out.second, ErrorClass(m.error_class()), m.status(), m.head(),
                               m.body().substr(0, kSampleBodyLimit), m.detail(), m.trace()});
    }
    out.traces.clear();
    for (const auto& t : in.traces()) { // a peer's: no more than an engine keeps, each a trace id
        if (t.step() >= out.steps.size() || !traceHex(t.trace(), 32)) {
            error = "a trace id in snapshot " + std::to_string(in.sequence()) + " names no known step or is not one";
            return false;
        }
        out.keepTrace(t.step(), t.trace());
    }
    out.console.clear();
    out.consoleDropped = in.console_dropped();
    for (const auto& c : in.console()) {
        if (c.step() >= out.steps.size()) {
            error = "a console line in snapshot " + std::to_string(in.sequence()) + " names no known step";
            return false;
        }
        out.addConsole(c.step(), c.text()); // a peer's: no more than an engine keeps
    }
    return true;
}

} // namespace stampede
