// `stampede-cli schedule install|list|remove PROJECT`: each scenario of the
// project that carries a schedule becomes a systemd user timer and service
// that runs it headless (`stampede-cli run PROJECT@SCENARIO --project
// PROJECT`), keeping the runs in the project. Stampede has no scheduler of its own.
#include "cli.h"

#include "bundle/projectscenario.h"
#include "core/schedule.h"
#include "core/textfile.h"
#include "store/projectstore.h"
#include "store/runlog.h"

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <unistd.h>

namespace stampede::cli {

namespace {

const char* kScheduleUsage =
    "Usage: stampede-cli schedule install|list|remove PROJECT.stampede [--unit-dir DIR] [--no-enable]\n"
    "\n"
    "Each scenario of the project with a \"schedule\" (daily 02:00, weekly mon 03:30,\n"
    "every 6h, every 30m) becomes a systemd user timer and service that run\n"
    "`stampede-cli run PROJECT@SCENARIO --project PROJECT -q`: the runs are kept in the\n"
    "project, a failed run is a failed unit (systemctl --user list-units --failed).\n"
    "  install      write (and replace) the project's units, reload and enable the timers\n"
    "  list         each scheduled scenario: its schedule, whether it is installed, its last run\n"
    "  remove       disable the project's timers and delete their units\n"
    "  --unit-dir D where the units go (default $XDG_CONFIG_HOME/systemd/user)\n"
    "  --no-enable  write or delete the files only: no systemctl\n";

namespace fs = std::filesystem;

// One argument of ExecStart: quoted, with systemd's specifiers and variables escaped.
std::string execArg(const std::string& a)
{
    std::string out = "\"";
    for (char c : a) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (c == '%')
            out += '%';
        if (c == '$')
            out += '$';
        out += c;
    }
    return out + "\"";
}

struct Unit
{
    std::string scenario, runName, schedule, onCalendar, base; // base: stampede-TAG-SLUG
};

struct Target
{
    std::string project, unitDir, cli;
    std::vector<Unit> units;
};

bool systemctl(const std::string& args, std::string& error)
{
    const int rc = std::system(("systemctl --user " + args + " >/dev/null 2>&1").c_str());
    if (rc != 0)
        error = "systemctl --user " + args + " failed (is a user systemd running? loginctl enable-linger)";
    return rc == 0;
}

// The project's units now in the unit folder (found by their X-Stampede-Project line).
std::vector<std::string> installed(const Target& t)
{
    std::vector<std::string> out;
    std::error_code ec;
    const std::string tag = scheduleUnitPrefix(t.project);
    for (const auto& e : fs::directory_iterator(t.unitDir, ec))
        if (e.path().filename().string().rfind(tag, 0) == 0)
            out.push_back(e.path().string());
    return out;
}

int install(const Target& t, bool enable)
{
    std::error_code ec;
    fs::create_directories(t.unitDir, ec);
    for (const std::string& f : installed(t)) // schedules taken away go too
        fs::remove(f, ec);
    std::string error;
    for (const Unit& u : t.units) {
        const std::string service = "[Unit]\nDescription=Stampede: scenario \"" + u.scenario + "\" of " + t.project +
                                    "\nX-Stampede-Project=" + t.project + "\nX-Stampede-Scenario=" + u.scenario +
                                    "\n\n[Service]\nType=oneshot\nNice=5\nExecStart=" + execArg(t.cli) + " run " +
                                    execArg(t.project + "@" + u.scenario) + " --project " + execArg(t.project) +
                                    " -q\n";
        const std::string timer = "[Unit]\nDescription=Stampede schedule of \"" + u.scenario + "\": " + u.schedule +
                                  "\nX-Stampede-Project=" + t.project + "\n\n[Timer]\nOnCalendar=" + u.onCalendar +
                                  "\nPersistent=true\nUnit=" + u.base +
                                  ".service\n\n[Install]\nWantedBy=timers.target\n";
        if (!writeFileAtomically(t.unitDir + "/" + u.base + ".service", service, error) ||
            !writeFileAtomically(t.unitDir + "/" + u.base + ".timer", timer, error)) {
            std::fprintf(stderr, "stampede-cli schedule: %s\n", error.c_str());
            return RunFailed;
        }
        std::printf("%s: %s (OnCalendar=%s) -> %s/%s.timer\n", u.scenario.c_str(), u.schedule.c_str(),
                    u.onCalendar.c_str(), t.unitDir.c_str(), u.base.c_str());
    }
    if (!enable)
        return Passed;
    bool ok = systemctl("daemon-reload", error);
    for (const Unit& u : t.units)
        ok = ok && systemctl("enable --now " + u.base + ".timer", error);
    if (!ok) {
        std::fprintf(stderr, "stampede-cli schedule: the units are written in %s, but not enabled: %s\n",
                     t.unitDir.c_str(), error.c_str());
        return RunFailed;
    }
    return Passed;
}

int remove(const Target& t, bool enable)
{
    std::string error;
    bool ok = true;
    std::error_code ec;
    for (const std::string& f : installed(t)) {
        const std::string name = fs::path(f).filename().string();
        if (enable && name.size() > 6 && name.substr(name.size() - 6) == ".timer")
            ok = systemctl("disable --now " + name, error) && ok;
        fs::remove(f, ec);
        std::printf("removed %s\n", f.c_str());
    }
    if (enable)
        ok = systemctl("daemon-reload", error) && ok;
    if (!ok)
        std::fprintf(stderr, "stampede-cli schedule: %s\n", error.c_str());
    return ok ? Passed : RunFailed;
}

int list(const Target& t, ProjectStore& store)
{
    std::map<std::string, RunInfo> last; // the newest run of each scenario
    for (const RunInfo& r : RunLog(store).runs())
        if (!last.count(r.name))
            last[r.name] = r;
    if (t.units.empty())
        std::printf("no scenario of %s has a schedule\n", t.project.c_str());
    for (const Unit& u : t.units) {
        const bool there = fs::exists(t.unitDir + "/" + u.base + ".timer");
        const auto r = last.find(u.runName);
        std::printf("%-30s %-18s %-13s %s\n", u.scenario.c_str(), u.schedule.c_str(),
                    there ? "installed" : "not installed",
                    r == last.end() ? "never run" : ("last run " + r->second.started + " " + r->second.status).c_str());
    }
    return Passed;
}

} // namespace

int scheduleCommand(const std::vector<std::string>& args)
{
    std::string action, project, unitDir = userUnitDir(), error;
    bool enable = true;
    ArgReader r{args};
    for (; !r.done() && error.empty(); ++r.pos) {
        const std::string& a = args[r.pos];
        if (a == "-h" || a == "--help") {
            std::fputs(kScheduleUsage, stdout);
            return Passed;
        } else if (a == "--unit-dir" || a.rfind("--unit-dir=", 0) == 0) {
            r.value("--unit-dir", unitDir, error);
        } else if (a == "--no-enable") {
            enable = false;
        } else if (!a.empty() && a[0] == '-') {
            error = "unknown option \"" + a + "\"";
        } else if (action.empty()) {
            action = a;
        } else if (project.empty()) {
            project = a;
        } else {
            error = "unexpected argument \"" + a + "\"";
        }
    }
    if (error.empty() && action != "install" && action != "list" && action != "remove")
        error = "give install, list or remove, then the project";
    else if (error.empty() && project.empty())
        error = "give the project (PROJECT.stampede)";
    std::error_code ec;
    const fs::path absolute = project.empty() ? fs::path() : fs::weakly_canonical(fs::absolute(project), ec);
    std::unique_ptr<ProjectStore> store;
    if (error.empty() && !(store = ProjectStore::openReadOnly(absolute.string(), error)))
        error = project + ": " + error;
    if (!error.empty()) {
        std::fprintf(stderr, "stampede-cli schedule: %s\n", error.c_str());
        return BadInput;
    }
    Target t{absolute.string(), unitDir, fs::canonical("/proc/self/exe", ec).string(), {}};
    for (const ScheduledScenario& sc : projectSchedules(*store)) {
        const auto s = parseSchedule(sc.schedule, error);
        if (!s) {
            std::fprintf(stderr, "stampede-cli schedule: scenario \"%s\": %s\n", sc.item.c_str(), error.c_str());
            return BadInput;
        }
        t.units.push_back({sc.item, sc.name, s->text, s->onCalendar, scheduleUnitBase(t.project, sc.item)});
    }
    if (action == "list")
        return list(t, *store);
    store.reset();
    return action == "install" ? install(t, enable) : remove(t, enable);
}

} // namespace stampede::cli
