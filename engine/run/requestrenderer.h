#pragma once
// Request rendering, apart from dispatch: a step's templates filled with one
// iteration's values, in the form its client session sends. Fixed steps are
// rendered once, here; templated ones per iteration into storage the caller
// keeps (strings keep their capacity between iterations: no allocation in
// steady state). A step whose body goes in another form than written (its
// plan's codec) has its rendered body encoded by this worker's encoder.
#include "core/template.h"
#include "net/outgoing.h"
#include "plan/scenarioplan.h"
#include "runtimeorigins.h"
#include "traffic/trafficrecord.h"

#include <nghttp2/nghttp2.h>

#include <memory>
#include <string>
#include <vector>

namespace stampede {

class RequestRenderer
{
public:
    // The most a request's head (its request line and headers) may have: a bigger one is not sent, and counted
    // as a `render` error (a 10 MB value in a header once took an engine to 283 MiB; servers refuse heads of
    // 8 to 64 KiB). Bodies are not bounded.
    static constexpr std::size_t kMaxHead = std::size_t(1) << 20;

    RequestRenderer(const ScenarioPlan& plan, bool http2);

    // Whether step `step` takes values per iteration (else fixed(step) is it).
    bool templated(std::size_t step) const { return m_templated[step]; }
    bool anyTemplated() const { return m_anyTemplated; }
    const RenderedRequest& fixed(std::size_t step) const { return m_fixed[step]; }
    // Renders templated step `step` with `values` into `out`.
    void render(std::size_t step, const ValueLookup& values, RenderedRequest& out);
    // A replay's recorded request `r`, to the server of `step`, as recorded:
    // its method, target, host and headers (less those of the connection), its
    // body with its length, and the stress tag (in a recorded baggage, as
    // its member); with `traceparent`, that instead of a recorded one.
    void renderRecord(std::size_t step, const TrafficRecord& r, RenderedRequest& out,
                      std::string_view traceparent = {}) const;

private:
    void renderHttp1(const PlannedStep& st, const ValueLookup& values, RenderedRequest& out);
    // A value its field refused: the request fails as a `render` error naming it.
    void refuse(const Template& t, int ref, const ValueLookup& values, RenderedRequest& out) const;
    // A head of `bytes` over kMaxHead: `out` fails (a `render` error naming its size) and keeps nothing of it.
    static bool headTooBig(std::size_t bytes, RenderedRequest& out);
    void renderHttp2(std::size_t step, const ValueLookup& values, RenderedRequest& out);
    // A WebSocket or event stream step: rendered as HTTP/1.1 whatever the plan's version (its sessions' own).
    static bool streamStep(const PlannedStep& st) { return st.ws || st.sse; }
    void encodeBody(std::size_t step, RenderedRequest& r);
    void renderMessages(std::size_t step, const ValueLookup& values, RenderedRequest& r);
    static void point(const PlannedStep& st, RenderedRequest& r);
    static bool retagged(std::string_view name, std::string_view value, std::string& out);
    void appendBasic(const PlannedStep& st, const ValueLookup& values, std::string& out) const;
    bool renderDigest(const PlannedStep& st, const ValueLookup& values, RenderedRequest& out) const;

    const ScenarioPlan& m_plan;
    bool m_http2;
    bool m_anyTemplated = false;
    std::string m_stressHeaderLower; // the stress tag's name as HTTP/2 writes it
    bool m_baggageTag = false;       // the stress tag is a W3C baggage member
    std::vector<bool> m_templated;
    std::vector<RenderedRequest> m_fixed;
    std::vector<std::unique_ptr<BodyEncoder>> m_encoders; // per templated step with a codec: this worker's encoder
    std::unique_ptr<RuntimeOrigins> m_origins;            // a step whose host is known only as it goes: its servers
    mutable std::string m_scratch;                        // Basic's user:password before encoding (keeps its capacity)
};

} // namespace stampede
