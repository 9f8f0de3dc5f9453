// GUI benchmarks (a program, not a test; `make bench-gui`):
//  1. a saved one-hour report with 10 steps: time to load it and build its view;
//  2. the event loop's longest stall per second (a 10 ms timer) while the
//     dashboard follows a full-rate run on the local pool against the mock
//     server (a separate process), and the GUI's resident memory.
#include "reportmodel.h"
#include "reportview.h"
#include "rundashboard.h"
#include "runsession.h"

#include "store/projectstore.h"
#include "store/runlog.h"

#include <QApplication>
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
        auto reopened = stampede::ProjectStore::open(path, error);
        auto* model = new ReportModel;
        model->load(*reopened);
        const qint64 loaded = t.elapsed();
        ReportView view(model);
        view.resize(1280, 800);
        view.show();
        QCoreApplication::processEvents();
        std::printf("one-hour report, 10 steps (36,000 per-second rows): loaded in %lld ms, view shown in %lld ms\n",
                    static_cast<long long>(loaded), static_cast<long long>(t.elapsed()));
    }

    // 2. the dashboard during a full-rate run
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
