#include "controlendpoint.h"

#include "core/number.h"
#include "core/text.h"
#include "report/runsummary.h"
#include "run/runengine.h"

#include <algorithm>

namespace stampede::cli {

namespace {

ControlReply ok(const std::string& body)
{
    return {200, body};
}

ControlReply problem(int status, const std::string& message)
{
    return {status, "{\"error\": " + jsonString(message) + "}"};
}

} // namespace

ControlEndpoint::ControlEndpoint(const ScenarioPlan& plan, std::shared_ptr<RunControl> control, RunSink& inner)
    : m_plan(plan), m_control(std::move(control)), m_inner(inner)
{
}

bool ControlEndpoint::start(const ControlServerOptions& options, std::string& error)
{
    m_tls = !options.certFile.empty();
    return m_server.start(
        options, [this](const ControlRequest& rq) { return handle(rq); }, error);
}

void ControlEndpoint::started(const std::vector<std::string>& agents)
{
    {
        std::lock_guard lock(m_mutex);
        m_agents = agents;
        m_state = "running";
    }
    m_inner.started(agents);
}

void ControlEndpoint::second(const LiveSecond& second)
{
    {
        std::lock_guard lock(m_mutex);
        m_last = second.summary;
    }
    m_inner.second(second);
}

void ControlEndpoint::event(const RunEvent& event)
{
    {
        std::lock_guard lock(m_mutex);
        ++m_events;
        if (event.kind == "agent_lost")
            m_lost.push_back(event.agent);
        if (event.kind == "agent_joined") // --elastic: an agent found mid-run
            m_agents.push_back(event.agent);
    }
    m_inner.event(event);
}

void ControlEndpoint::finished(const RunOutcome& outcome)
{
    {
        std::lock_guard lock(m_mutex);
        m_state = "ended";
    }
    m_inner.finished(outcome);
}

ControlReply ControlEndpoint::handle(const ControlRequest& rq)
{
    const std::string by = "the control endpoint's caller " + rq.peer;
    if (rq.path == "/v1/status")
        return rq.method == "GET" ? status() : problem(405, "GET /v1/status");
    if (rq.path != "/v1/pause" && rq.path != "/v1/resume" && rq.path != "/v1/scale" && rq.path != "/v1/stop")
        return problem(404, "no " + rq.path.substr(0, 64) +
                                ": GET /v1/status, POST /v1/pause, /v1/resume, "
                                "/v1/scale, /v1/stop");
    if (rq.method != "POST")
        return problem(405, "POST " + rq.path);
    if (m_control->closed() || m_control->stopRequested())
        return problem(409, "the run is ending");
    if (rq.path == "/v1/stop") {
        m_control->stop(by);
        return ok("{\"ok\": true, \"state\": \"stopping\"}");
    }
    if (rq.path == "/v1/pause")
        return m_control->pause(by) ? ok("{\"ok\": true, \"level\": 0}") : problem(409, "the run is already paused");
    if (rq.path == "/v1/resume")
        return m_control->resume(by) ? ok("{\"ok\": true, \"level\": " + jsonNumber(m_control->level()) + "}")
                                     : problem(409, "the run is not paused");
    return scale(rq);
}

ControlReply ControlEndpoint::scale(const ControlRequest& rq)
{
    bool isRate = false;
    double value = 0;
    std::string error;
    if (!parseScaleBody(rq.body, isRate, value, error))
        return problem(400, error);
    double factor = value;
    if (isRate) { // the rate asked over the rate the plan has now
        const StageProfile* profile = m_plan.load ? m_plan.load->profile() : nullptr;
        std::uint32_t second = 0;
        {
            std::lock_guard lock(m_mutex);
            second = m_last.second;
        }
        const double planned = profile ? profile->levelAt(Nanos(second) * kNanosPerSecond) : 0;
        if (!profile || planned <= 0)
            return problem(400, "a rate needs an open model with a planned rate now: give {\"factor\": X}");
        factor = value / planned;
        if (factor > kMaxLevelFactor)
            return problem(400, "that rate is over " + jsonNumber(kMaxLevelFactor) + " times the plan's");
    }
    m_control->scale(factor, {}, "the control endpoint's caller " + rq.peer);
    return ok("{\"ok\": true, \"level\": " + jsonNumber(factor) + "}");
}

ControlReply ControlEndpoint::status() const
{
    std::lock_guard lock(m_mutex);
    const StageProfile* profile = m_plan.load ? m_plan.load->profile() : nullptr;
    const char* model = "none";
    if (m_plan.load)
        switch (m_plan.load->model()) {
        case LoadModel::Open:
            model = "open";
            break;
        case LoadModel::Closed:
            model = "closed";
            break;
        case LoadModel::Iterations:
            model = "iterations";
            break;
        case LoadModel::Replay:
            model = "replay";
            break;
        }
    std::string out = "{\"run_id\": " + jsonString(m_plan.runId) +
                      ", \"state\": " + jsonString(m_state == "running" && m_control->paused() ? "paused" : m_state) +
                      ", \"level\": " + jsonNumber(m_control->level()) + ",\n \"plan\": {\"model\": \"" + model +
                      "\", \"duration_s\": " + jsonNumber(double(m_plan.duration) / 1e9);
    if (profile)
        out += ", \"rate_now\": " + jsonNumber(profile->levelAt(Nanos(m_last.second) * kNanosPerSecond));
    out += "},\n \"second\": {\"t\": " + std::to_string(m_last.second) + ", \"sent\": " + std::to_string(m_last.sent) +
           ", \"requests\": " + std::to_string(m_last.requests) + ", \"errors\": " + std::to_string(m_last.errors) +
           ", \"p50_ms\": " + jsonNumber(m_last.p50Ms) + ", \"p99_ms\": " + jsonNumber(m_last.p99Ms) +
           ", \"agent_cpu_pct\": " + jsonNumber(m_last.cpu * 100) + "},\n \"agents\": [";
    for (std::size_t i = 0; i < m_agents.size(); ++i) {
        const bool lost = std::find(m_lost.begin(), m_lost.end(), m_agents[i]) != m_lost.end();
        out += (i ? ", " : "") + std::string("{\"name\": ") + jsonString(m_agents[i]) +
               ", \"lost\": " + (lost ? "true" : "false") + "}";
    }
    out += "],\n \"events\": " + std::to_string(m_events) + "}\n";
    return ok(out);
}

} // namespace stampede::cli
