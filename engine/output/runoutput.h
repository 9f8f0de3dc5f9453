#pragma once
// Where a run's figures go while it runs, besides the project and the
// summary: `--out KIND=TARGET` on the command line, the workbench's run
// settings. Each output is told every second as it completes, the run's
// events and its end, on the run's thread.
//   prometheus=HOST:PORT  a /metrics endpoint for an existing Prometheus to
//                         scrape (port alone: on 127.0.0.1)
//   prometheus-rw=URL     every second pushed to a remote write receiver
//   jsonl=FILE            every second as one JSON line, as k6's JSON output
#include "core/durationtext.h" // wallMillis, isoMillis
#include "metrics/runseries.h"
#include "metrics/timeline.h"
#include "plan/scenarioplan.h"
#include "report/runsummary.h"
#include "store/runlog.h"

#include <memory>
#include <string>
#include <vector>

namespace stampede {

struct OutputSpec
{
    enum class Kind
    {
        Prometheus,
        RemoteWrite,
        Jsonl
    };
    Kind kind = Kind::Jsonl;
    std::string target; // host:port, a URL, or a file path
    std::string text;   // as given: "jsonl=run.jsonl"
    // prometheus=HOST:PORT,linger=15s: after the run the final figures are
    // served until they have been scraped once more, or this long
    Nanos linger = 15 * kNanosPerSecond;
};

// The wall-clock stamps (ms since 1970) of a run's seconds as an output is told them: a second at its end as the
// first one told places it, never later than `nowMs` (a first second told late, on a busy machine, would stamp
// the later ones in the future, where a query made right after the run does not see them), each later than the
// one before.
class SecondStamps
{
public:
    std::int64_t stamp(std::uint32_t second, std::int64_t nowMs);
    std::int64_t last() const { return m_last; } // 0: no second yet

private:
    std::int64_t m_origin = 0, m_last = 0;
};

// The most outputs one run may have.
constexpr std::size_t kMaxOutputs = 8;

// Parses "prometheus=HOST:PORT" or "jsonl=FILE"; false with `error`.
bool parseOutputSpec(const std::string& text, OutputSpec& out, std::string& error);

class RunOutput
{
public:
    virtual ~RunOutput() = default;
    // Before the run starts: binds, creates files. False with `error`.
    virtual bool open(const ScenarioPlan& plan, std::string& error) = 0;
    virtual void started(const std::vector<std::string>& /*agents*/) {}
    // A completed second: its summary, and the merged figures per step (row
    // step -1 is their total).
    virtual void second(const SecondSummary& summary, const PreparedSecond& merged) = 0;
    virtual void event(const RunEvent& /*event*/) {}
    // The run ended (any way: completed, stopped, failed). False with `error`
    // when what was written cannot be kept where it was asked.
    virtual bool finish(const RunSummary& summary, std::string& error) = 0;
    // Before the process exits, after the run's summary is out: what the output still owes its readers (the
    // final figures served for their scrapers) given its time; at once when it owes nothing.
    virtual void linger() {}
};

std::unique_ptr<RunOutput> makeOutput(const OutputSpec& spec);

// The Prometheus series of a run (metrics/runseries.h) as its outputs keep them: begun from the plan, each
// completed second added.
void beginSeries(RunSeries& series, const ScenarioPlan& plan);
void addSecond(RunSeries& series, const SecondSummary& summary, const PreparedSecond& merged);

} // namespace stampede
