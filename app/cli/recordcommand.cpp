// `stampede-cli record`: live traffic from a gateway's mirror (nginx
// `mirror`, Envoy, GoReplay), masked as it comes and appended to a project's
// traffic set every second, until Ctrl-C, SIGTERM, --duration or
// --max-requests.
#include "cli.h"

#include "core/durationtext.h"
#include "core/listensocket.h"
#include "core/number.h"
#include "core/text.h"
#include "store/projectstore.h"
#include "traffic/masking.h"
#include "traffic/recorder.h"
#include "traffic/trafficstore.h"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <pthread.h>
#include <tuple>
#include <unistd.h>

namespace stampede::cli {

namespace {

const char* kRecordUsage =
    "Usage: stampede-cli record --listen ADDR --project P.stampede --name SET [--mask RULE ...] [--no-mask]\n"
    "                           [--host HOST] [--include REGEX] [--exclude REGEX] [--sample PERCENT]\n"
    "                           [--max-requests N] [--duration D] [--queue-mib N] [-q]\n"
    "\n"
    "A server for a gateway's mirror (nginx `mirror`; Envoy and GoReplay send the same HTTP,\n"
    "untried): it answers 204 at once and keeps every request it reads\n"
    "(HTTP/1.0, 1.1 and h2c; method, target, headers, body, arrival time; the client from\n"
    "X-Forwarded-For or X-Real-IP), masked before it is kept, as the traffic set SET in the\n"
    "project, appended every second (a crash loses at most the last second). Ctrl-C, SIGTERM,\n"
    "--duration or --max-requests finish the set. Replay it with\n"
    "`stampede-cli replay P.stampede@SET --target URL`.\n"
    "\n"
    "  --listen ADDR        where the mirror sends: 127.0.0.1:9000, [::1]:9000, :9000 (port 0: any)\n"
    "  --project P          the project (made when it does not exist)\n"
    "  --name SET           the traffic set's name\n"
    "  --mask RULE          as `stampede-cli import --mask` (repeatable); default: every preset\n"
    "                       (cn-id, bank-card, cn-mobile, email, bearer, secrets, cookies)\n"
    "  --no-mask            keep the requests as they came (no default masking)\n"
    "  --host HOST          keep only requests for this Host (without a port: any port)\n"
    "  --include REGEX      keep only paths this matches; --exclude REGEX: none it matches\n"
    "  --sample PERCENT     keep this share of what passes the rules above, at random (0 to 100)\n"
    "  --max-requests N     finish after N kept requests (1 to 1000000000)\n"
    "  --duration D         finish after D (10s, 5m, 2h; at most 30 days)\n"
    "  --queue-mib N        requests read and not yet stored, at most N MiB (1 to 4096, default 64);\n"
    "                       past it requests are dropped and counted: the gateway never waits\n"
    "  -q, --quiet          no status line\n"
    "\n"
    "nginx: in the location to record,\n"
    "    mirror /stampede_mirror;  mirror_request_body on;\n"
    "and\n"
    "    location = /stampede_mirror { internal; proxy_pass http://127.0.0.1:9000$request_uri;\n"
    "        proxy_set_header Host $host; proxy_set_header X-Real-IP $remote_addr; }\n"
    "\n"
    "Exit codes: 0 stored, 2 bad input, 3 nothing recorded or not stored.\n";

int refuse(const std::string& error, int code)
{
    std::fprintf(stderr, "stampede-cli record: %s\n", error.c_str());
    return code;
}

struct RecordOptions
{
    std::string listen, project, name, host, include, exclude;
    std::vector<std::string> masks;
    bool noMask = false, quiet = false;
    double sample = 100;
    std::uint64_t maxRequests = 0, queueMib = 64;
    Nanos duration = 0;
};

bool parse(const std::vector<std::string>& args, RecordOptions& o, std::string& error, bool& help)
{
    ArgReader r{args};
    for (; !r.done(); ++r.pos) {
        const std::string& a = args[r.pos];
        const auto is = [&](const char* flag) {
            return a == flag || (a.rfind(flag, 0) == 0 && a.size() > std::strlen(flag) && a[std::strlen(flag)] == '=');
        };
        std::string v;
        if (a == "-h" || a == "--help") {
            help = true;
            return true;
        } else if (a == "-q" || a == "--quiet") {
            o.quiet = true;
        } else if (a == "--no-mask") {
            o.noMask = true;
        } else if (is("--listen") || is("--project") || is("--name") || is("--host") || is("--include") ||
                   is("--exclude")) {
            const std::string flag = a.substr(0, a.find('='));
            std::string& out = flag == "--listen"    ? o.listen
                               : flag == "--project" ? o.project
                               : flag == "--name"    ? o.name
                               : flag == "--host"    ? o.host
                               : flag == "--include" ? o.include
                                                     : o.exclude;
            if (!r.value(flag, out, error))
                return false;
        } else if (is("--mask")) {
            if (!r.value("--mask", v, error))
                return false;
            o.masks.push_back(v);
        } else if (is("--sample")) {
            if (!r.value("--sample", v, error) || !parseDecimal(v, "--sample", 0, 100, o.sample, error))
                return false;
        } else if (is("--max-requests")) {
            if (!r.value("--max-requests", v, error) ||
                !parseWhole(v, "--max-requests", 1, 1000000000, o.maxRequests, error))
                return false;
        } else if (is("--queue-mib")) {
            if (!r.value("--queue-mib", v, error) || !parseWhole(v, "--queue-mib", 1, 4096, o.queueMib, error))
                return false;
        } else if (is("--duration")) {
            if (!r.value("--duration", v, error))
                return false;
            const auto d = parseDuration(v);
            if (!d || *d <= 0 || *d > RunLimits::kDurationSeconds * kNanosPerSecond) {
                error = "--duration \"" + v + "\": expected a duration above 0 and at most 30 days (10s, 5m, 2h)";
                return false;
            }
            o.duration = *d;
        } else {
            error = "unknown option \"" + a + "\"";
            return false;
        }
    }
    std::string why;
    if (o.listen.empty())
        error = "--listen: give the address the mirror sends to (127.0.0.1:9000)";
    else if (!validListenAddress(o.listen, why))
        error = "--listen: " + why;
    else if (o.project.empty())
        error = "--project: give the project to store the traffic in";
    else if (o.name.empty())
        error = "--name: give the traffic set's name";
    else if (o.noMask && !o.masks.empty())
        error = "--no-mask and --mask: one or the other";
    return error.empty();
}

bool buildFilter(const RecordOptions& o, RecordFilter& f, std::string& error)
{
    f.host = o.host;
    f.samplePercent = o.sample;
    for (const auto& [text, out, flag] :
         {std::tuple{&o.include, &f.include, "--include"}, std::tuple{&o.exclude, &f.exclude, "--exclude"}}) {
        if (text->empty())
            continue;
        std::string why;
        *out = Regex::compile(*text, why);
        if (!*out) {
            error = std::string(flag) + " \"" + *text + "\": " + why;
            return false;
        }
    }
    return true;
}

// Takes what was kept, masks it and appends it; false when the project refuses it.
bool storeTaken(Recorder& recorder, const Masker& masker, TrafficStore& traffic, std::int64_t item, std::int64_t& seq,
                RecordingSummary& state, std::string& error)
{
    std::vector<TrafficRecord> records;
    recorder.take(records);
    state.counts = recorder.counts();
    for (TrafficRecord& r : records)
        masker.apply(r); // before anything is stored
    const TrafficChunk chunk = encodeChunk(records);
    RecordingSummary next = state; // counted once stored: a full disk keeps nothing, and says so
    next.add(chunk);
    if (!traffic.append(item, chunk.records ? seq : -1, chunk, next.payload())) {
        error = traffic.error();
        return false;
    }
    state = std::move(next);
    seq += chunk.records ? 1 : 0;
    return true;
}

void status(const RecordingSummary& s, std::uint64_t lastKept, double seconds)
{
    std::fprintf(stderr, "\rrecording on %s: %llu kept (%.0f/s), %llu filtered, %llu dropped, %llu bad   ",
                 s.address.c_str(), static_cast<unsigned long long>(s.counts.kept),
                 seconds > 0 ? double(s.counts.kept - lastKept) / seconds : 0.0,
                 static_cast<unsigned long long>(s.counts.filtered), static_cast<unsigned long long>(s.counts.dropped),
                 static_cast<unsigned long long>(s.counts.bad));
}

} // namespace

int recordCommand(const std::vector<std::string>& args)
{
    RecordOptions o;
    std::string error;
    bool help = false;
    if (!parse(args, o, error, help))
        return refuse(error, BadInput);
    if (help) {
        std::fputs(kRecordUsage, stdout);
        return Passed;
    }
    std::vector<MaskRule> rules;
    const std::vector<std::string> masks = masksToUse(o.masks, o.noMask);
    if (!parseMasks(masks, rules, error))
        return refuse(error, BadInput);
    Recorder::Options ro;
    ro.maxRequests = o.maxRequests;
    ro.maxQueuedBytes = std::size_t(o.queueMib) << 20;
    if (!buildFilter(o, ro.filter, error))
        return refuse(error, BadInput);
    std::unique_ptr<ProjectStore> store = ProjectStore::openOrCreate(o.project, error);
    if (!store)
        return refuse("--project: " + error, BadInput);
    TrafficStore traffic(*store);
    if (traffic.find(o.name))
        return refuse("--name: the project already has a traffic set named \"" + o.name + "\"; choose another",
                      BadInput);
    const std::string key = rules.empty() ? std::string() : traffic.maskKey();
    if (!rules.empty() && key.empty())
        return refuse(traffic.error(), RunFailed);
    const Masker masker(rules, key);

    // the signals are waited for here; the recorder's thread, started after, never takes them
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    Recorder recorder(ro);
    if (!recorder.start(o.listen, error))
        return refuse(error, RunFailed);
    RecordingSummary state;
    state.address = recorder.address();
    state.masks = masks;
    const std::int64_t item = traffic.create(o.name, state.payload());
    if (!item)
        return refuse("cannot store the traffic in \"" + o.project + "\": " + traffic.error(), RunFailed);
    std::printf("recording on %s into \"%s\" in %s; Ctrl-C finishes\n", state.address.c_str(), o.name.c_str(),
                o.project.c_str());
    std::fflush(stdout);

    const Nanos start = SteadyClock::monotonicNow();
    Nanos lastStatus = start;
    std::uint64_t lastKept = 0;
    std::int64_t seq = 0;
    const bool tty = isatty(STDERR_FILENO);
    for (;;) {
        const Nanos now = SteadyClock::monotonicNow();
        const Nanos toNextSecond = kNanosPerSecond - (now - start) % kNanosPerSecond;
        const timespec wait{time_t(toNextSecond / kNanosPerSecond), long(toNextSecond % kNanosPerSecond)};
        const bool signalled = sigtimedwait(&signals, nullptr, &wait) > 0;
        if (!storeTaken(recorder, masker, traffic, item, seq, state, error))
            break;
        const Nanos at = SteadyClock::monotonicNow();
        if (!o.quiet && tty) {
            status(state, lastKept, double(at - lastStatus) / kNanosPerSecond);
            lastStatus = at;
            lastKept = state.counts.kept;
        }
        if (signalled || (o.duration && at - start >= o.duration) ||
            (o.maxRequests && state.counts.kept >= o.maxRequests))
            break;
    }
    recorder.stop();
    state.recording = false;
    const bool stored = error.empty() && storeTaken(recorder, masker, traffic, item, seq, state, error);
    pthread_sigmask(SIG_UNBLOCK, &signals, nullptr);
    if (!o.quiet && tty)
        std::fputc('\n', stderr);
    const Recorder::Counts& c = state.counts;
    std::printf("received %llu requests: %llu kept, %llu filtered, %llu dropped (the writer was behind), %llu past "
                "--max-requests, %llu bad\n",
                static_cast<unsigned long long>(c.received), static_cast<unsigned long long>(state.records),
                static_cast<unsigned long long>(c.filtered), static_cast<unsigned long long>(c.dropped),
                static_cast<unsigned long long>(c.over), static_cast<unsigned long long>(c.bad));
    if (!stored)
        return refuse("cannot store the traffic in \"" + o.project + "\": " + error +
                          (state.records ? " (what was stored before is kept)" : ""),
                      RunFailed);
    if (!state.records) {
        store->remove(item);
        return refuse("nothing was recorded: no traffic set is kept", RunFailed);
    }
    std::printf("stored %llu requests from %s to %s as \"%s\" in %s\n", static_cast<unsigned long long>(state.records),
                isoMillis(state.first / 1000000).c_str(), isoMillis(state.last / 1000000).c_str(), o.name.c_str(),
                o.project.c_str());
    return Passed;
}

} // namespace stampede::cli
