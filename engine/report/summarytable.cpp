// The summary as a table, as the CLI prints it at the end of a run.
#include "runsummary.h"

#include <cstdio>
#include <ostream>
#include <sstream>
#include <utility>

namespace stampede {

namespace {

// The heading and a row per step (the total, groups and scenarios after them).
void stepRows(std::ostream& os, const RunSummary& s)
{
    char line[512];
    os << "Run " << s.runId << "  scenario \"" << s.scenario << "\"  " << jsonNumber(s.durationS) << " s\n";
    std::snprintf(line, sizeof line, "%-28s %10s %9s %8s %8s %8s %8s %8s %9s %9s\n", "step", "requests", "rate/s",
                  "errors", "p50 ms", "p90 ms", "p99 ms", "p99.9", "max ms", "late/drop");
    os << line;
    auto row = [&](const MetricsSummary& m) {
        std::string name = m.name.size() > 28 ? m.name.substr(0, 25) + "..." : m.name;
        const std::string ld = std::to_string(m.late) + "/" + std::to_string(m.dropped);
        std::snprintf(line, sizeof line, "%-28s %10llu %9.1f %8llu %8.2f %8.2f %8.2f %8.2f %9.2f %9s\n", name.c_str(),
                      static_cast<unsigned long long>(m.requests), m.rate, static_cast<unsigned long long>(m.errors),
                      m.latency.p50, m.latency.p90, m.latency.p99, m.latency.p999, m.latency.max, ld.c_str());
        os << line;
    };
    for (const auto& st : s.steps)
        row(st);
    if (s.steps.size() > 1)
        row(s.total);
    for (MetricsSummary g : s.groups) { // transactions: their own time, beside the steps they hold
        g.name = "group " + g.name;
        row(g);
    }
    for (MetricsSummary sc : s.scenarios) { // a plan's scenarios: their steps together
        sc.name = "scenario " + sc.name;
        row(sc);
    }
}

// The errors by class, and gRPC statuses by code.
void errorLines(std::ostream& os, const RunSummary& s)
{
    if (s.total.errors) {
        os << "errors:";
        for (std::size_t i = 0; i < kErrorClassCount; ++i)
            if (s.total.errorsByClass[i])
                os << " " << errorClassName(ErrorClass(i)) << "=" << s.total.errorsByClass[i];
        os << "\n";
        if (s.total.errorsByClass[std::size_t(ErrorClass::Grpc)]) {
            os << "gRPC status:";
            for (std::size_t k = 1; k < kGrpcCodeCount; ++k)
                if (s.total.grpcCodes[k])
                    os << " " << grpcCodeName(int(k)) << "=" << s.total.grpcCodes[k];
            os << "\n";
        }
    }
}

// Service time, first byte, send lag, and a replay's plan.
void timingLines(std::ostream& os, const RunSummary& s)
{
    os << "service time (from the actual send): p50 " << jsonNumber(s.total.serviceTime.p50) << " ms, p99 "
       << jsonNumber(s.total.serviceTime.p99) << " ms\n";
    if (s.total.firstBytes)
        os << "time to first byte (from the request's write, after any connect and handshake): p50 "
           << jsonNumber(s.total.firstByte.p50) << " ms, p99 " << jsonNumber(s.total.firstByte.p99) << " ms, max "
           << jsonNumber(s.total.firstByte.max) << " ms\n";
    if (s.total.paced)
        os << "send lag (intended start to send): p50 " << jsonNumber(s.total.sendLag.p50) << " ms, p99 "
           << jsonNumber(s.total.sendLag.p99) << " ms, max " << jsonNumber(s.total.sendLag.max) << " ms\n";
    if (s.total.messageReplies)
        os << "message latency (send to reply, " << s.total.messageReplies << " replies): p50 "
           << jsonNumber(s.total.messageLatency.p50) << " ms, p99 " << jsonNumber(s.total.messageLatency.p99)
           << " ms, max " << jsonNumber(s.total.messageLatency.max) << " ms\n";
    if (s.total.messagesSent || s.total.messagesReceived)
        os << "Stream messages (WebSocket, events, gRPC streams): " << s.total.messagesSent << " sent, "
           << s.total.messagesReceived << " received\n";
    if (s.replay)
        os << "replay: " << s.replay->records << " recorded requests at x" << jsonNumber(s.replay->speed)
           << ", amplified x" << s.replay->amplify << ": " << s.replay->planned << " planned, " << s.total.requests
           << " completed\n";
}

// Connections opened, TLS handshakes and what else happened to connections; each phase's spread.
void connectionLines(std::ostream& os, const RunSummary& s)
{
    os << "connections opened: " << s.total.connects << ", connect mean " << jsonNumber(s.total.connectMeanMs) << " ms";
    if (s.total.handshakes)
        os << "; TLS handshakes: " << s.total.handshakes << " (" << s.total.handshakesResumed << " resumed), mean "
           << jsonNumber(s.total.handshakeMeanMs) << " ms, max " << jsonNumber(s.total.handshakeMaxMs) << " ms";
    if (s.total.goaways)
        os << "; HTTP/2 GOAWAY received " << s.total.goaways << " time" << (s.total.goaways == 1 ? "" : "s");
    if (s.total.retries)
        os << "; " << s.total.retries << " tr" << (s.total.retries == 1 ? "y" : "ies")
           << " sent again by a step's retry";
    if (s.total.rendezvous)
        os << "; " << s.total.rendezvous << " user" << (s.total.rendezvous == 1 ? "" : "s")
           << " released from a rendezvous (" << s.total.rendezvousTimeouts << " by its timeout)";
    if (s.total.retriedOnIdleClose)
        os << "; " << s.total.retriedOnIdleClose << " request" << (s.total.retriedOnIdleClose == 1 ? "" : "s")
           << " sent again on a fresh connection (the server had closed the kept-alive one)";
    if (s.total.resentUnprocessed)
        os << "; " << s.total.resentUnprocessed << " request" << (s.total.resentUnprocessed == 1 ? "" : "s")
           << " sent again once, the server having refused them unprocessed (HTTP/2 REFUSED_STREAM or GOAWAY)";
    os << "\n";
    const auto spread = [&os](const char* what, const std::optional<LatencySummary>& l) {
        if (l)
            os << "  " << what << ": p50 " << jsonNumber(l->p50) << " ms, p99 " << jsonNumber(l->p99) << " ms, max "
               << jsonNumber(l->max) << " ms\n";
    };
    spread("TCP connect", s.total.connect);
    spread("TLS full handshake", s.total.handshake);
    spread("TLS resumed handshake", s.total.resumed);
}

// Setup and teardown, and each threshold's verdict.
void verdictLines(std::ostream& os, const RunSummary& s)
{
    for (const auto& [name, phase] :
         {std::pair<const char*, const std::optional<RunSummary::Phase>*>{"setup", &s.setup},
          {"teardown", &s.teardown}})
        if (*phase)
            os << name << ": " << ((*phase)->ok ? "done" : "FAILED") << ", " << (*phase)->requests << " request"
               << ((*phase)->requests == 1 ? "" : "s") << ", " << (*phase)->errors << " error"
               << ((*phase)->errors == 1 ? "" : "s") << ((*phase)->why.empty() ? "" : ": " + (*phase)->why) << "\n";
    for (const auto& t : s.thresholds)
        os << (t.passed ? "PASS " : "FAIL ") << t.expr << "  ("
           << (!t.note.empty() ? t.note
               : t.percent     ? "value " + jsonNumber(t.value * 100) + " %"
                               : "value " + jsonNumber(t.value) + (t.unit.empty() ? "" : " " + t.unit))
           << ")\n";
}

// Each agent's share of the run and its health.
void agentLines(std::ostream& os, const RunSummary& s)
{
    char line[512];
    if (s.agents.size() > 1 || (s.agents.size() == 1 && s.agents[0].seconds)) {
        os << "agents (share of the run; CPU of its cores, mean/max; memory; loop lag; send lag p99):\n";
        for (const AgentReport& a : s.agents) {
            std::string shares;
            for (const std::uint32_t k : a.shares) {
                if (!shares.empty())
                    shares += ',';
                shares += std::to_string(k);
            }
            std::snprintf(line, sizeof line,
                          "  %-34s shares %-6s %10llu requests  CPU %3.0f/%3.0f %%  %7.1f MiB  lag %6.2f ms  "
                          "send lag %6.2f ms%s\n",
                          a.name.size() > 34 ? (a.name.substr(0, 31) + "...").c_str() : a.name.c_str(), shares.c_str(),
                          static_cast<unsigned long long>(a.requests), a.cpuMean * 100, a.cpuMax * 100,
                          double(a.rssMaxBytes) / 1048576.0, a.loopLagMaxMs, a.sendLagP99Ms, a.lost ? "  LOST" : "");
            os << line;
            if (a.joinedAt)
                os << "    joined at second " << a.joinedAt << "\n";
        }
    }
}

// Warnings, events, and how the run ended.
void closingLines(std::ostream& os, const RunSummary& s)
{
    for (const std::string& w : s.warnings)
        os << "WARNING: " << w << "\n";
    for (const auto& e : s.events) {
        os << "event at " << jsonNumber(e.atS) << " s: " << e.kind << " " << e.agent;
        if (e.kind == "agent_lost")
            os << " (its data covers seconds " << e.fromSecond << "-" << e.toSecond << ")";
        os << ": " << e.detail << "\n";
    }
    if (s.aborted)
        os << "the run was ABORTED\n";
    if (s.capacity)
        os << capacityToTable(*s.capacity);
    if (s.passed && !s.unjudged.empty()) // what the verdict did not judge, beside it
        os << "NOT JUDGED: " << s.unjudged << " (add --threshold 'error_rate < 1%')\n";
    os << "verdict: " << verdictText(s) << "\n";
}

} // namespace

std::string summaryToTable(const RunSummary& s)
{
    std::ostringstream os;
    stepRows(os, s);
    errorLines(os, s);
    timingLines(os, s);
    connectionLines(os, s);
    verdictLines(os, s);
    agentLines(os, s);
    closingLines(os, s);
    return os.str();
}

} // namespace stampede
