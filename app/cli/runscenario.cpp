// The scenario a run runs, from the command line: a scenario file or a bundle (with --env), a project's scenario,
// collection or folder (newman's files and flags beside a collection), the quick mode's one request (--url, or
// --grpc), or a subcommand's own scenario (replay); then the flags that apply to them all.
#include "runoptions.h"

#include "bundle/bundlefile.h"
#include "bundle/environment.h"
#include "bundle/newmanrun.h"
#include "bundle/projectscenario.h"
#include "cli.h"
#include "control/runinputs.h"
#include "core/durationtext.h"
#include "core/number.h"
#include "core/text.h"
#include "core/textfile.h"
#include "plan/scenarioplan.h"

#include "stampede/v1/bundle.pb.h"
#include "stampede/v1/scenario.pb.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <sstream>

namespace stampede::cli {

namespace {

bool durationArg(const std::string& text, const char* flag, Nanos& out, std::string& error)
{
    const auto d = parseDuration(text);
    if (!d) {
        error = std::string(flag) + ": \"" + text + "\" is not a duration (e.g. 10s, 500ms, 2m)";
        return false;
    }
    if (*d <= 0) {
        error = std::string(flag) + ": must be positive (got " + text + ")";
        return false;
    }
    // the same bounds as a scenario file's (core/number.h)
    const std::int64_t max =
        std::string(flag) == "--timeout" ? RunLimits::kTimeoutSeconds : RunLimits::kDurationSeconds;
    if (*d > max * kNanosPerSecond) {
        error = std::string(flag) + ": " + text + " is out of range (at most " + std::to_string(max / 3600) + " h)";
        return false;
    }
    out = *d;
    return true;
}

} // namespace

bool grpcStep(const Options& o, v1::GrpcRequest& g, std::string& error);
bool buildHttpStep(const Options& o, v1::HttpRequest& rq, std::string& error);
bool applyCommonFlags(const Options& o, v1::Scenario& s, std::string& error);

// A subcommand's own scenario with the options that apply to it.
bool preparedScenario(const Options& o, v1::Scenario& s, std::string& error)
{
    if (!o.url.empty() || !o.rate.empty() || !o.method.empty() || o.bodySet || !o.headers.empty() ||
        !o.timeout.empty() || !o.grpcTarget.empty() || !o.call.empty() || o.dataSet || !o.protos.empty()) {
        error = "the requests and their pace are the recording's: --url, --rate, --method, --body, --header, "
                "--timeout and the gRPC options do not apply";
        return false;
    }
    s = *o.prepared;
    std::uint64_t c = 0;
    if (!o.connections.empty()) {
        if (!parseWhole(o.connections, "--connections", 1, RunLimits::kConnections, c, error))
            return false;
        s.set_connections(std::uint32_t(c));
    }
    if (!o.duration.empty()) {
        Nanos d;
        if (!durationArg(o.duration, "--duration", d, error))
            return false;
        *s.mutable_duration() = durationOf(d);
    }
    return true;
}

// A collection run as newman runs one: one virtual user (-c users; with
// --rate an open model over -c connections), one iteration of its requests in
// order, or one per row of its iteration data (`dataRows`; --iterations N per
// user, or -d for a time instead).
bool collectionLoad(const Options& o, v1::Scenario& s, std::size_t dataRows, std::string& error)
{
    if (!o.url.empty() || !o.method.empty() || o.bodySet || !o.headers.empty() || !o.grpcTarget.empty() ||
        !o.call.empty() || o.dataSet || !o.protos.empty()) {
        error = "a collection's requests are its own: --url, --method, --body, --header and the gRPC options do "
                "not apply (the load flags -c, --rate, -d and --iterations do)";
        return false;
    }
    NewmanRun run;
    run.bail = o.bail;
    run.noDefaultHeaders = o.noDefaultHeaders;
    run.timed = !o.duration.empty();
    std::uint64_t c = 1, n = 0;
    if (!o.connections.empty() && !parseWhole(o.connections, "--connections", 1, RunLimits::kConnections, c, error))
        return false;
    run.users = std::uint32_t(c);
    if (!o.iterations.empty()) {
        if (!parseWhole(o.iterations, "--iterations", 1, RunLimits::kIterations, n, error))
            return false;
        run.iterations = n;
    }
    if (!o.delayRequest.empty()) { // newman's is a number of milliseconds; a duration reads as well
        const bool ms = o.delayRequest.find_first_not_of("0123456789") == std::string::npos;
        if (o.delayRequest != "0" &&
            !durationArg(ms ? o.delayRequest + "ms" : o.delayRequest, "--delay-request", run.delayRequest, error))
            return false;
    }
    if (!o.rate.empty()) {
        double rate;
        if (!parseDecimal(o.rate, "--rate", 0.001, RunLimits::kRate, rate, error))
            return false;
        run.rate = rate;
    }
    return shapeNewmanRun(s, run, dataRows, error);
}

bool newmanFlags(const Options& o)
{
    return !o.environmentFile.empty() || !o.globalsFile.empty() || !o.iterationDataFile.empty() || !o.envVars.empty() ||
           !o.globalVars.empty() || !o.noDefaultHeaders.empty() || !o.delayRequest.empty();
}

// newman's files and values beside a collection (--environment, --globals, --iteration-data, --env-var,
// --global-var), read; false with `error` naming the file.
bool newmanInputs(const Options& o, NewmanInputs& in, std::string& error)
{
    const auto read = [&](const std::string& path, const char* flag, std::string& bytes) {
        std::string why;
        if (readWholeFile(path, bytes, why))
            return true;
        error = std::string(flag) + ": cannot read " + path + ": " + why;
        return false;
    };
    std::string bytes, why;
    for (auto [path, flag, out] : {std::tuple(&o.environmentFile, "--environment", &in.environment),
                                   std::tuple(&o.globalsFile, "--globals", &in.globals)}) {
        if (path->empty())
            continue;
        if (!read(*path, flag, bytes))
            return false;
        if (!readPostmanVariables(bytes, out->emplace(), why)) {
            error = std::string(flag) + ": " + *path + ": " + why;
            return false;
        }
    }
    if (!o.iterationDataFile.empty()) {
        if (!read(o.iterationDataFile, "--iteration-data", bytes))
            return false;
        if (!readIterationData(bytes, o.iterationDataFile, in.data.emplace(), why)) {
            error = "--iteration-data: " + o.iterationDataFile + ": " + why;
            return false;
        }
    }
    for (auto [from, to] : {std::pair(&o.envVars, &in.envVars), std::pair(&o.globalVars, &in.globalVars)})
        for (const std::string& v : *from)
            to->emplace_back(v.substr(0, v.find('=')), v.substr(v.find('=') + 1));
    return true;
}

// A project's scenario, collection or folder, read: a collection's load as newman's flags say, the quick mode's
// and newman's flags refused for a scenario, the scopes it runs under said.
bool projectLoad(const Options& o, v1::Scenario& s, const PreparedRun& found, bool quickFlags, std::string& error)
{
    for (const std::string& w : found.warnings)
        std::fprintf(stderr, "warning: %s\n", w.c_str());
    if (found.collection) {
        if (!collectionLoad(o, s, found.dataRows, error))
            return false;
    } else if (quickFlags || !o.iterations.empty() || o.bail || newmanFlags(o)) {
        error = quickFlags       ? "give either a scenario or --url with its quick-mode options, not both"
                : o.bail         ? "--bail: for a collection (a scenario's steps say it with \"onError\")"
                : newmanFlags(o) ? "--environment, --globals, --iteration-data, --env-var, --global-var, "
                                   "--delay-request and --no-default-header: for a collection"
                                 : "--iterations: for a collection, or a scenario's own \"iterations\"";
        return false;
    }
    std::string environment = found.environment;
    if (found.collection && environment.empty() && !o.environmentFile.empty())
        environment = o.environmentFile; // a Postman environment without a name
    std::fprintf(stderr, "%s: %s\n", o.scenarioFile.c_str(),
                 environment.empty()
                     ? (found.collection ? "the collection's variables, no environment" : "no environment")
                     : ("environment \"" + environment + "\"").c_str());
    return true;
}

// The quick mode's one request (--url, or --grpc) and its pace.
bool quickScenario(const Options& o, bool grpcFlags, v1::Scenario& s, std::string& error)
{
    if (o.url.empty() && o.grpcTarget.empty()) {
        error = "nothing to run: give a scenario file, --url or --grpc (see stampede-cli run --help)";
        return false;
    }
    if (!o.env.empty()) {
        error = "--env: the quick mode has no environments (a bundle or PROJECT.stampede@SCENARIO has)";
        return false;
    }
    s.set_name("quick");
    auto* step = s.add_steps();
    if (!o.grpcTarget.empty() || grpcFlags) {
        if (!grpcStep(o, *step->mutable_grpc(), error))
            return false;
    } else if (!buildHttpStep(o, *step->mutable_request(), error)) {
        return false;
    }
    std::uint64_t c = 50;
    if (!o.connections.empty() && !parseWhole(o.connections, "--connections", 1, RunLimits::kConnections, c, error))
        return false;
    if (!o.rate.empty()) {
        double rate;
        if (!parseDecimal(o.rate, "--rate", 0.001, RunLimits::kRate, rate, error))
            return false;
        s.mutable_load()->mutable_open()->set_rate(rate);
        s.set_connections(std::uint32_t(c));
    } else {
        s.mutable_load()->mutable_closed()->set_users(std::uint32_t(c));
    }
    Nanos d = 10 * kNanosPerSecond;
    if (!o.duration.empty() && !durationArg(o.duration, "--duration", d, error))
        return false;
    *s.mutable_duration() = durationOf(d);
    return true;
}

// Where the run's scenario is written, as the flags say: a subcommand's, a project's item (with newman's files
// read), a scenario file or a bundle, or the quick mode's; and --var over it all.
bool runInputs(const Options& o, bool quickFlags, bool grpcFlags, RunInputs& in, std::string& error)
{
    for (const auto& v : o.vars) {
        const std::size_t eq = v.find('=');
        if (eq == std::string::npos || eq == 0) {
            error = "--var: \"" + v + "\" is not of the form NAME=VALUE";
            return false;
        }
        in.overrides.emplace_back(v.substr(0, eq), v.substr(eq + 1));
    }
    if (o.prepared) {
        in.baseDir = o.preparedBaseDir;
        return preparedScenario(o, in.scenario.emplace(), error);
    }
    std::string project, name;
    const bool inProject = splitProjectScenario(o.scenarioFile, project, name);
    if (newmanFlags(o) && !inProject) {
        error = "--environment, --globals, --iteration-data, --env-var, --global-var, --delay-request and "
                "--no-default-header: for PROJECT.stampede@COLLECTION";
        return false;
    }
    if (o.bail && !inProject) {
        error = "--bail: for PROJECT.stampede@COLLECTION (a scenario's steps say it with \"onError\")";
        return false;
    }
    if (o.scenarioFile.empty())
        return quickScenario(o, grpcFlags, in.scenario.emplace(), error);
    in.environment = o.env;
    if (inProject) {
        if (!o.env.empty() && !o.environmentFile.empty()) {
            error = "--env NAME (the project's) or --environment FILE (a Postman export), not both";
            return false;
        }
        in.projectFile = project;
        in.projectItem = name;
        in.storedEnvironment = o.environmentFile.empty();
        return !newmanFlags(o) || newmanInputs(o, in.newman, error);
    }
    if (quickFlags || !o.iterations.empty()) {
        error = quickFlags ? "give either a scenario file or --url with its quick-mode options, not both"
                           : "--iterations: for PROJECT.stampede@COLLECTION, or a scenario's own \"iterations\"";
        return false;
    }
    in.scenarioFile = o.scenarioFile;
    return true;
}

// The scenario: from where it is written (control/runinputs.h, as the workbench's), then the flags that apply to
// it (a collection's load, --duration, the common flags).
bool buildScenario(const Options& o, RunRequest& rq, std::string& error)
{
    const bool grpcFlags = !o.grpcTarget.empty() || !o.protos.empty() || !o.importPaths.empty() || o.reflection ||
                           !o.call.empty() || o.dataSet;
    const bool quickFlags = !o.url.empty() || !o.rate.empty() || !o.connections.empty() || !o.method.empty() ||
                            o.bodySet || !o.headers.empty() || !o.timeout.empty() || grpcFlags;
    RunInputs in;
    PreparedRun found;
    if (!runInputs(o, quickFlags, grpcFlags, in, error) || !prepareRun(in, rq, found, error))
        return false;
    if (!in.projectFile.empty() && !projectLoad(o, rq.scenario, found, quickFlags, error))
        return false;
    if ((!in.projectFile.empty() || !in.scenarioFile.empty()) && !o.duration.empty()) {
        Nanos d;
        if (!durationArg(o.duration, "--duration", d, error))
            return false;
        *rq.scenario.mutable_duration() = durationOf(d);
    }
    return applyCommonFlags(o, rq.scenario, error);
}

namespace {

bool splitHeader(const std::string& h, const char* flag, std::string& name, std::string& value, std::string& error)
{
    const std::size_t colon = h.find(':');
    if (colon == std::string::npos || colon == 0) {
        error = std::string(flag) + ": \"" + h + "\" is not of the form 'Name: value'";
        return false;
    }
    name = h.substr(0, colon);
    value = h.substr(colon + 1);
    while (!value.empty() && value.front() == ' ')
        value.erase(0, 1);
    return true;
}

// The quick mode's --header flags into `headers` (an HTTP request's, or a gRPC call's metadata), and its
// --timeout (unset when not given).
bool headersAndTimeout(const Options& o, google::protobuf::RepeatedPtrField<v1::Header>& headers,
                       std::optional<Nanos>& timeout, std::string& error)
{
    for (const auto& h : o.headers) {
        std::string name, value;
        if (!splitHeader(h, "--header", name, value, error))
            return false;
        v1::Header* header = headers.Add();
        header->set_name(name);
        header->set_value(value);
    }
    if (!o.timeout.empty()) {
        Nanos t;
        if (!durationArg(o.timeout, "--timeout", t, error))
            return false;
        timeout = t;
    }
    return true;
}

} // namespace

bool grpcStep(const Options& o, v1::GrpcRequest& g, std::string& error)
{
    if (!o.url.empty() || !o.method.empty() || o.bodySet) {
        error = "--grpc makes a gRPC call: --url, --method and --body are for HTTP (use --data for the message)";
        return false;
    }
    if (o.grpcTarget.empty()) {
        error = "--proto, --call and --data need --grpc HOST:PORT";
        return false;
    }
    if (o.call.empty()) {
        error = "--grpc needs --call package.Service/Method";
        return false;
    }
    if (o.protos.empty() && !o.reflection) {
        error = "--grpc needs the method's .proto file (--proto F) or --reflection";
        return false;
    }
    g.set_target(o.grpcTarget);
    g.set_method(o.call);
    g.set_data(o.dataSet ? o.data : "{}");
    g.set_reflection(o.reflection && o.protos.empty());
    for (const auto& p : o.protos)
        g.add_protos(p);
    for (const auto& d : o.importPaths)
        g.add_import_paths(d);
    std::optional<Nanos> timeout;
    if (!headersAndTimeout(o, *g.mutable_metadata(), timeout, error))
        return false;
    if (timeout)
        *g.mutable_deadline() = durationOf(*timeout);
    return true;
}

bool buildHttpStep(const Options& o, v1::HttpRequest& rqRef, std::string& error)
{
    v1::HttpRequest* rq = &rqRef;
    rq->set_url(o.url);
    rq->set_method(o.method.empty() ? (o.bodySet ? "POST" : "GET") : o.method);
    if (o.bodySet)
        rq->set_body(o.body);
    std::optional<Nanos> timeout;
    if (!headersAndTimeout(o, *rq->mutable_headers(), timeout, error))
        return false;
    if (timeout)
        *rq->mutable_timeout() = durationOf(*timeout);
    return true;
}

bool applyCommonFlags(const Options& o, v1::Scenario& s, std::string& error)
{
    if (o.opensslRecords && o.ownTlsRecords) {
        error = "give --openssl-records (the default) or --own-tls-records, not both";
        return false;
    }
    if (!o.http.empty()) {
        if (o.http == "1.1" || o.http == "1")
            s.set_http(v1::HTTP_1_1);
        else if (o.http == "2")
            s.set_http(v1::HTTP_2);
        else {
            error = "--http: \"" + o.http + "\" is not 1.1 or 2";
            return false;
        }
    }
    if (!o.streams.empty()) {
        std::uint64_t m;
        if (!parseWhole(o.streams, "--streams", 1, RunLimits::kStreams, m, error))
            return false;
        s.set_streams(std::uint32_t(m));
    }
    // TLS files named on the command line are read here (relative to the working
    // directory) and travel inline, as a bundle carries them.
    if (o.insecure)
        s.mutable_tls()->set_insecure(true);
    if (o.noTlsResume)
        s.mutable_tls()->set_no_resumption(true);
    if (o.opensslRecords)
        s.mutable_tls()->set_openssl_records(true);
    if (o.ownTlsRecords)
        s.mutable_tls()->set_own_records(true);
    if (!o.serverName.empty())
        s.mutable_tls()->set_server_name(o.serverName);
    const struct
    {
        const char* flag;
        const std::string& file;
        std::string* pem;
        std::string* fileField;
    } tlsFiles[] = {{"--cacert", o.caCert, s.mutable_tls()->mutable_ca_pem(), s.mutable_tls()->mutable_ca_file()},
                    {"--cert", o.clientCert, s.mutable_tls()->mutable_cert_pem(), s.mutable_tls()->mutable_cert_file()},
                    {"--key", o.clientKey, s.mutable_tls()->mutable_key_pem(), s.mutable_tls()->mutable_key_file()}};
    for (const auto& f : tlsFiles) {
        if (f.file.empty())
            continue;
        if (!readFile(f.file, *f.pem)) {
            error = std::string(f.flag) + ": cannot read \"" + f.file + "\"";
            return false;
        }
        f.fileField->clear();
    }
    if (s.tls().ByteSizeLong() == 0)
        s.clear_tls();
    if (!o.threads.empty()) {
        std::uint64_t t;
        if (!parseWhole(o.threads, "--threads", 1, RunLimits::kThreads, t, error))
            return false;
        s.set_threads(std::uint32_t(t));
    }
    for (const auto& t : o.thresholds)
        s.add_thresholds()->set_expr(t);
    if (o.trace)
        s.set_trace(true);
    if (o.noStressTag)
        s.mutable_stress_tag()->set_disabled(true);
    if (!o.stressHeader.empty())
        s.mutable_stress_tag()->set_header(o.stressHeader);
    return true;
}

} // namespace stampede::cli
