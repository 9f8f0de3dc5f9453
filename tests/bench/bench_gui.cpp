// GUI benchmarks (a program, not a test; `make bench-gui`):
//  1. a saved one-hour report with 10 steps: time to load it and build its view;
//  2. editing a replay scenario of a 1,000,000-request traffic set in the
//     designer: the longest an edit holds the event loop (its checks run off
//     the GUI thread; limit 16 ms) and when the last edit's check lands;
//  3. the event loop's longest stall per second (a 10 ms timer) while the
//     dashboard follows a full-rate run on the local pool against the mock
//     server (a separate process), and the GUI's resident memory.
#include "replayform.h"
#include "reportmodel.h"
#include "reportview.h"

#include "report/savedreport.h"
#include "rundashboard.h"
#include "runsession.h"
#include "scenariocheck.h"
#include "scenarioeditor.h"
#include "trafficimporter.h"

#include "store/projectstore.h"
#include "store/runlog.h"
#include "traffic/trafficstore.h"

#include <QApplication>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <fstream>
#include <random>

namespace {
long rssKiB()
{
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stol(line.substr(6));
    return 0;
}

// 2. The designer on a replay of a 1,000,000-request traffic set: 60 edits, 40 ms apart (a user typing), each
// timed as it holds the event loop, the loop's longest gap on a 5 ms timer beside them, then the last edit's
// check awaited.
void editingAMillionRequestReplay(const QTemporaryDir& dir)
{
    constexpr int kRecords = 1000000, kEdits = 60;
    const QString path = dir.filePath(QStringLiteral("million.stampede"));
    QElapsedTimer made;
    made.start();
    {
        std::string error;
        auto store = stampede::ProjectStore::create(path.toStdString(), error);
        std::vector<stampede::TrafficRecord> records(kRecords);
        for (int i = 0; i < kRecords; ++i) {
            records[std::size_t(i)].atNanos = 1764000000000000000LL + std::int64_t(i) * 1000000LL;
            records[std::size_t(i)].target = "/orders/" + std::to_string(i % 5000) + "?uid=" + std::to_string(i);
        }
        stampede::TrafficStore traffic(*store);
        if (!traffic.save("million", records, "{\"records\": 1000000}")) {
            std::printf("cannot save the traffic set: %s\n", traffic.error().c_str());
            return;
        }
    }
    const qint64 makeMs = made.elapsed();
    const QByteArray scenario = "{\"name\": \"million\", \"steps\": [{\"name\": \"replay\", \"replay\": "
                                "{\"traffic\": \"million\", \"target\": \"http://127.0.0.1:9\"}}]}";
    const auto source = TrafficImporter::trafficSource(path);
    QElapsedTimer once;
    once.start();
    const ScenarioCheck::Result alone = ScenarioCheck::check(scenario, dir.path(), source);
    const qint64 checkMs = once.elapsed();

    ScenarioEditor editor;
    editor.setBaseDir(dir.path());
    editor.setTrafficSource(source);
    editor.resize(1280, 800);
    editor.show();
    editor.setJson(scenario);
    QElapsedTimer clock;
    clock.start();
    qint64 last = 0, loopWorst = 0, worstAt = 0, editWorst = 0, lastEdit = 0;
    int over = 0, gaps = 0;
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    tick.setInterval(5);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        const qint64 now = clock.elapsed();
        if (last) {
            const qint64 gap = now - last - 5;
            ++gaps;
            over += gap > 16;
            if (gap > loopWorst) {
                loopWorst = gap;
                worstAt = now;
            }
        }
        last = now;
    });
    tick.start();
    QDoubleSpinBox* speed = editor.replayForm()->speed();
    for (int i = 0; i < kEdits; ++i) {
        QElapsedTimer edit;
        edit.start();
        speed->setValue(1 + (i % 7)); // as a user's step of the spin box: the scenario is edited
        editWorst = std::max(editWorst, edit.elapsed());
        lastEdit = clock.elapsed();
        QElapsedTimer pause;
        pause.start();
        while (pause.elapsed() < 40)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    while (!editor.checkIsCurrent() && clock.elapsed() - lastEdit < 120000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    const qint64 landed = clock.elapsed() - lastEdit;
    tick.stop();
    std::printf("designer, replay of %d recorded requests (set made in %lld ms; one check alone %lld ms, %lld "
                "faults): %d edits, the longest held the event loop %lld ms, the loop's longest gap %lld ms at "
                "%lld ms (limit 16 ms; %d of %d gaps over it); the last edit's check landed %lld ms after it, %lld "
                "faults%s\n",
                kRecords, static_cast<long long>(makeMs), static_cast<long long>(checkMs),
                static_cast<long long>(alone.problems.size()), kEdits, static_cast<long long>(editWorst),
                static_cast<long long>(loopWorst), static_cast<long long>(worstAt), over, gaps,
                static_cast<long long>(landed), static_cast<long long>(editor.shownProblems().size()),
                editor.checkIsCurrent() ? "" : " (not landed within 120 s)");
}
} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    const QString cli =
        argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("build/release/app/cli/stampede-cli");
    const int runSeconds = argc > 2 ? std::atoi(argv[2]) : 30;
    QTemporaryDir dir;

    // 1. the one-hour report
    {
        const std::string path = dir.filePath(QStringLiteral("hour.streport")).toStdString();
        std::string error;
        auto store = stampede::ProjectStore::create(path, error);
        stampede::RunLog log(*store);
        std::vector<std::string> steps;
        for (int i = 0; i < 10; ++i)
            steps.push_back("step " + std::to_string(i + 1));
        const auto run = log.begin(
            "st-bench-hour", "one hour",
            "{\"name\": \"one hour\", \"steps\": [], \"load\": {\"open\": {\"rate\": 1000}}, \"duration\": \"3600s\"}",
            "{}", {}, steps);
        std::mt19937_64 rng(1);
        std::lognormal_distribution<double> latency(std::log(2000.0), 0.5);
        for (std::uint32_t s = 1; s <= 3600; ++s) {
            stampede::IntervalMetrics m;
            m.second = s;
            m.steps.resize(10);
            for (auto& st : m.steps) {
                st.counters.requests = st.counters.sent = 100;
                for (int k = 0; k < 100; ++k) {
                    st.latency.record(std::uint64_t(latency(rng)));
                    st.serviceTime.record(std::uint64_t(latency(rng)));
                }
            }
            log.appendSecond(run, m);
        }
        log.finish(run, "completed", "{}");
        store.reset();
        QElapsedTimer t;
        t.start();
        {
            auto alone = stampede::ProjectStore::open(path, error);
            stampede::RunLog readBack(*alone);
            const auto saved = readBack.load(readBack.runs().back().id);
            const qint64 read = t.elapsed();
            t.restart();
            const stampede::RunSummary summary = stampede::summarizeSaved(*saved);
            std::printf("  (of which: the store read in %lld ms, the summary made in %lld ms)\n",
                        static_cast<long long>(read), static_cast<long long>(t.elapsed()));
        }
        t.restart();
        auto reopened = stampede::ProjectStore::open(path, error);
        auto* model = new ReportModel;
        model->load(*reopened);
        const qint64 loaded = t.elapsed();
        ReportView view(model);
        view.resize(1280, 800);
        view.show();
        QCoreApplication::processEvents();
        const qint64 shown = t.elapsed();
        std::printf("one-hour report, 10 steps (36,000 per-second rows): loaded in %lld ms, view shown in %lld ms "
                    "(with its distribution, APDEX and top errors)%s\n",
                    static_cast<long long>(loaded), static_cast<long long>(shown),
                    shown < 1000 ? "" : "  SLOWER THAN 1 s");
        t.restart();
        const qsizetype html = model->exportAs(QStringLiteral("html")).size();
        std::printf("  its HTML export (every step's sections, %lld KiB) in %lld ms\n",
                    static_cast<long long>(html / 1024), static_cast<long long>(t.elapsed()));
    }

    editingAMillionRequestReplay(dir);

    // 3. the dashboard during a full-rate run
    QProcess mock;
    mock.start(cli, {QStringLiteral("mock"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")});
    mock.waitForReadyRead(5000);
    const QByteArray line = mock.readAllStandardOutput();
    const QString url = QString::fromUtf8(line.mid(line.indexOf("http"))).trimmed();
    RunSession session;
    RunDashboard dashboard(&session);
    dashboard.resize(1280, 800);
    dashboard.show();
    const QByteArray scenario = "{\"name\": \"full rate\", \"steps\": [{\"request\": {\"url\": \"" + url.toUtf8() +
                                "/\"}}], \"load\": {\"closed\": {\"users\": 50}}, \"duration\": \"" +
                                QByteArray::number(runSeconds) + "s\"}";
    RunSession::Options options;
    options.cliPath = cli;
    QElapsedTimer clock;
    qint64 last = 0, worstThisSecond = 0, worst = 0;
    long rssAt10 = 0;
    std::vector<qint64> perSecond;
    QTimer tick;
    tick.setInterval(10);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        const qint64 now = clock.elapsed();
        const qint64 gap = now - last - 10;
        last = now;
        worstThisSecond = std::max(worstThisSecond, gap);
        if (now / 1000 != (now - 10) / 1000) {
            perSecond.push_back(worstThisSecond);
            worst = std::max(worst, worstThisSecond);
            worstThisSecond = 0;
            if (perSecond.size() == 10)
                rssAt10 = rssKiB();
        }
    });
    quint64 total = 0;
    QObject::connect(&session, &RunSession::secondAvailable, [&](const RunSecond& s) { total += s.total.requests; });
    QObject::connect(&session, &RunSession::finished, &app, &QApplication::quit);
    if (!session.start(scenario, options)) {
        std::printf("cannot start: %s\n", qPrintable(session.lastError()));
        return 1;
    }
    clock.start();
    tick.start();
    app.exec();
    mock.terminate();
    mock.waitForFinished();
    std::sort(perSecond.begin(), perSecond.end());
    std::printf("full-rate run, %d s, closed model 50 users, local pool: %llu requests (%.0f/s)\n", runSeconds,
                static_cast<unsigned long long>(total), double(total) / runSeconds);
    std::printf("event loop: longest stall %lld ms, median of the per-second longest %lld ms (limit 50 ms)\n",
                static_cast<long long>(worst),
                static_cast<long long>(perSecond.empty() ? 0 : perSecond[perSecond.size() / 2]));
    std::printf("GUI resident memory: %ld KiB at 10 s, %ld KiB at the end (%+.1f %%)\n", rssAt10, rssKiB(),
                rssAt10 ? 100.0 * double(rssKiB() - rssAt10) / double(rssAt10) : 0.0);
    return 0;
}
