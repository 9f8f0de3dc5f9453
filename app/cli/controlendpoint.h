#pragma once
// `stampede-cli run --control ADDR`: the running test steered from outside
// (a CI job, a chaos tool, `stampede-cli control`), as k6's REST API and
// Locust's web UI allow. GET /v1/status answers the live second, the plan and
// the agents as JSON; POST /v1/pause, /v1/resume, /v1/scale ({"factor": 0.5}
// or {"rate": 800}) and /v1/stop steer it through the run's RunControl, so
// each is an event in the run's record, naming who asked.
#include "control/controlserver.h"
#include "control/runcontrol.h"
#include "control/runservice.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace stampede::cli {

class ControlEndpoint final : public RunSink
{
public:
    // Forwards what the run tells to `inner` (the status line) and keeps the latest for the status.
    ControlEndpoint(const ScenarioPlan& plan, std::shared_ptr<RunControl> control, RunSink& inner);
    bool start(const ControlServerOptions& options, std::string& error);
    std::string address() const { return m_server.address(); }
    bool tls() const { return m_tls; }

    void started(const std::vector<std::string>& agents) override;
    void second(const LiveSecond& second) override;
    void event(const RunEvent& event) override;
    void finished(const RunOutcome& outcome) override;
    void recordingFailed(const std::string& error) override { m_inner.recordingFailed(error); }

private:
    ControlReply handle(const ControlRequest& rq);
    ControlReply status() const;
    ControlReply scale(const ControlRequest& rq);

    const ScenarioPlan& m_plan;
    std::shared_ptr<RunControl> m_control;
    RunSink& m_inner;
    ControlServer m_server;
    bool m_tls = false;
    mutable std::mutex m_mutex;
    std::vector<std::string> m_agents;
    SecondSummary m_last;
    std::size_t m_events = 0;
    std::vector<std::string> m_lost;
    std::string m_state = "starting"; // starting, running, ended
};

} // namespace stampede::cli
