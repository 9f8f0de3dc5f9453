#include "newmanrun.h"

#include "core/number.h"
#include "core/text.h"

#include <algorithm>

namespace stampede {

google::protobuf::Duration durationOf(Nanos ns)
{
    google::protobuf::Duration d;
    d.set_seconds(ns / kNanosPerSecond);
    d.set_nanos(int(ns % kNanosPerSecond));
    return d;
}

namespace {

// The longest pause between two requests (a step's think time's bound).
constexpr Nanos kMaxDelay = 3600 * kNanosPerSecond;

} // namespace

const std::vector<std::pair<std::string, std::string>>& newmanDefaultHeaders()
{
    static const std::vector<std::pair<std::string, std::string>> headers = {{"Accept", "*/*"},
                                                                             {"Accept-Encoding", "gzip, deflate, br"},
                                                                             {"Cache-Control", "no-cache"},
                                                                             {"Postman-Token", "${$guid}"},
                                                                             {"Connection", "keep-alive"}};
    return headers;
}

bool shapeNewmanRun(v1::Scenario& s, const NewmanRun& run, std::size_t dataRows, std::string& error)
{
    const auto& headers = newmanDefaultHeaders();
    const auto off = [&](const std::string& name) {
        return std::any_of(run.noDefaultHeaders.begin(), run.noDefaultHeaders.end(),
                           [&](const std::string& o) { return equalsNoCase(o, name); });
    };
    for (const std::string& name : run.noDefaultHeaders)
        if (std::none_of(headers.begin(), headers.end(), [&](const auto& h) { return equalsNoCase(h.first, name); })) {
            error = "--no-default-header: \"" + name +
                    "\" is not one of the headers a collection run adds (Accept, Accept-Encoding, Cache-Control, "
                    "Postman-Token, Connection)";
            return false;
        }
    if (run.users < 1 || run.users > RunLimits::kConnections) {
        error = "--connections: give 1 to " + std::to_string(RunLimits::kConnections) + " users";
        return false;
    }
    if (run.delayRequest < 0 || run.delayRequest > kMaxDelay) {
        error = "--delay-request: give 0 to 3600000 ms";
        return false;
    }
    // newman's run: every request whatever failed before it (or, bailing, the run stops at the first failure),
    // judged by its tests
    s.set_verdict("tests");
    for (const auto& [name, value] : headers)
        if (!off(name)) {
            v1::Header* h = s.add_default_headers();
            h->set_name(name);
            h->set_value(value);
        }
    // newman's defaults: a cookie jar, redirects followed (its --ignore-redirects is off, up to 10)
    s.set_cookies(true);
    if (s.follow_redirects() == 0)
        s.set_follow_redirects(10);
    for (int i = 0; i < s.steps_size(); ++i) {
        v1::Step& step = *s.mutable_steps(i);
        if (step.on_error().empty() || run.bail)
            step.set_on_error(run.bail ? "stopRun" : "continue");
        // newman waits between two requests, not after the last of an iteration
        if (run.delayRequest > 0 && i + 1 < s.steps_size() && !step.has_think_time())
            *step.mutable_think_time()->mutable_fixed() = durationOf(run.delayRequest);
    }
    if (run.rate) {
        if (run.iterations) {
            error = "--iterations: an open model (--rate) runs for a time (-d), not per user";
            return false;
        }
        s.clear_load();
        s.mutable_load()->mutable_open()->set_rate(*run.rate);
        s.set_connections(run.users);
        s.set_iterations(0);
        if (!s.has_duration())
            *s.mutable_duration() = durationOf(10 * kNanosPerSecond);
        return true;
    }
    std::uint64_t n = run.iterations ? *run.iterations
                      : dataRows     ? std::min<std::uint64_t>(dataRows, RunLimits::kIterations)
                                     : 1;
    if (n < 1 || n > RunLimits::kIterations) {
        error = "--iterations: give 1 to " + std::to_string(RunLimits::kIterations);
        return false;
    }
    s.clear_load();
    s.mutable_load()->mutable_closed()->set_users(run.users);
    // a time given and no count: as many iterations as fit in it
    s.set_iterations(run.timed && !run.iterations ? 0 : std::uint32_t(n));
    return true;
}

} // namespace stampede
