#pragma once
// A stream step (WebSocket, Server-Sent Events) compiles its request as an
// HTTP step: the HTTP step compiler's faults are named by the stream step's
// own field ("steps[0].request.url" is "steps[0].websocket.url"); everything
// else goes to the run's context as it is.
#include "grpcstep.h"

#include <string>

namespace stampede {

class RenamedFields final : public StepContext
{
public:
    // `step`: the step's field ("steps[0]"); `as`: the field its request is under ("websocket", "sse").
    RenamedFields(StepContext& inner, std::string step, std::string as)
        : m_inner(inner), m_step(std::move(step)), m_as(std::move(as))
    {
    }
    const v1::Scenario& scenario() const override { return m_inner.scenario(); }
    const PlanOptions& options() const override { return m_inner.options(); }
    const ScenarioPlan& plan() const override { return m_inner.plan(); }
    void error(std::string field, std::string message) override { m_inner.error(renamed(field), std::move(message)); }
    bool compileText(const std::string& text, const std::string& field, Template& out) override
    {
        return m_inner.compileText(text, renamed(field), out);
    }
    Template traceparent() override { return m_inner.traceparent(); }
    void readsFile(const std::string& path) override { m_inner.readsFile(path); }
    std::shared_ptr<TlsContext> tlsContext(bool verify) override { return m_inner.tlsContext(verify); }
    bool fileOrInline(const std::string& file, const std::string& inlined, const std::string& field,
                      std::string& out) override
    {
        return m_inner.fileOrInline(file, inlined, field, out);
    }

private:
    std::string renamed(const std::string& field) const
    {
        const std::string from = m_step + ".request";
        return field.rfind(from, 0) == 0 ? m_step + "." + m_as + field.substr(from.size()) : field;
    }

    StepContext& m_inner;
    std::string m_step, m_as;
};

} // namespace stampede
