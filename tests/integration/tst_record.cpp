// Issue 29, end to end against Debian's nginx: a `mirror` sends a copy of
// every request to `stampede-cli record`, which masks and keeps them in a
// project; Ctrl-C finishes the set. Every request is kept, in order, with its
// body, masked (no original anywhere in the project), the excluded path not
// at all; then the set replays at x2 with --trace to a server of the test's,
// each request with a W3C traceparent and the stress tag in its baggage.
#include "testsupport.h"

#include "store/projectstore.h"
#include "traffic/trafficstore.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <csignal>
#include <map>
#include <set>
#include <unistd.h>

using namespace testsupport;
using namespace stampede;

namespace {

QString nginxServers(int front, int backend, int recorder)
{
    return QStringLiteral("server { listen 127.0.0.1:%2; location / { return 200 \"ok\\n\"; } }\n"
                          "upstream stampede_recorder { server 127.0.0.1:%3; keepalive 16; }\n"
                          "server { listen 127.0.0.1:%1;\n"
                          "  location / { mirror /stampede_mirror; mirror_request_body on;\n"
                          "               proxy_pass http://127.0.0.1:%2; }\n"
                          "  location = /stampede_mirror { internal;\n"
                          "    proxy_pass http://stampede_recorder$request_uri;\n"
                          "    proxy_http_version 1.1; proxy_set_header Connection \"\";\n"
                          "    proxy_set_header Host $host; proxy_set_header X-Real-IP $remote_addr; }\n"
                          "}\n")
        .arg(front)
        .arg(backend)
        .arg(recorder);
}

// The originals that must not reach the project.
const char* const kOriginals[] = {"13812345678", "abc123", "alice@example.com", "s3cret-pw", "13987654321", "deadbeef"};

bool containsAny(const std::string& text, std::string& which)
{
    for (const char* o : kOriginals)
        if (text.find(o) != std::string::npos) {
            which = o;
            return true;
        }
    return false;
}

} // namespace

class TestRecord : public QObject
{
    Q_OBJECT

private slots:
    void mirrorRecordReplay()
    {
        if (!Nginx::installed())
            QFAIL("nginx is not installed: run scripts/install-deps.sh");
        QTemporaryDir dir;
        const QString project = dir.filePath(QStringLiteral("traffic.stampede"));
        const int recorderPort = freePort(), front = freePort(), backend = freePort();

        QProcess recorder;
        recorder.start(cliPath(), {QStringLiteral("record"), QStringLiteral("--listen"),
                                   QStringLiteral("127.0.0.1:%1").arg(recorderPort), QStringLiteral("--project"),
                                   project, QStringLiteral("--name"), QStringLiteral("gateway"),
                                   QStringLiteral("--exclude"), QStringLiteral("^/static/")});
        QVERIFY(recorder.waitForReadyRead(10000));
        QVERIFY2(recorder.readAllStandardOutput().contains("recording on"), "the recorder did not start");

        Nginx nginx;
        QVERIFY2(nginx.start(dir.path(), nginxServers(front, backend, recorderPort), front), qPrintable(nginx.error()));
        // one client connection, one request after another, as a user's browser
        const QString base = QStringLiteral("http://127.0.0.1:%1").arg(front);
        QStringList args{QStringLiteral("-s"),
                         QStringLiteral("-o"),
                         QStringLiteral("/dev/null"),
                         base + QStringLiteral("/api/users?phone=13812345678&token=abc123&page=1"),
                         QStringLiteral("--next"),
                         QStringLiteral("-s"),
                         QStringLiteral("-o"),
                         QStringLiteral("/dev/null"),
                         QStringLiteral("-H"),
                         QStringLiteral("Content-Type: application/json"),
                         QStringLiteral("--data-binary"),
                         QStringLiteral("{\"user\": \"alice@example.com\", \"password\": \"s3cret-pw\", "
                                        "\"phone\": \"13987654321\", \"qty\": 3}"),
                         base + QStringLiteral("/api/login"),
                         QStringLiteral("--next"),
                         QStringLiteral("-s"),
                         QStringLiteral("-o"),
                         QStringLiteral("/dev/null"),
                         base + QStringLiteral("/static/app.js"),
                         QStringLiteral("--next"),
                         QStringLiteral("-s"),
                         QStringLiteral("-o"),
                         QStringLiteral("/dev/null"),
                         QStringLiteral("--data-binary"),
                         QStringLiteral("name=x&sign=deadbeef"),
                         base + QStringLiteral("/api/form"),
                         QStringLiteral("--next"),
                         QStringLiteral("-s"),
                         QStringLiteral("-o"),
                         QStringLiteral("/dev/null"),
                         base + QStringLiteral("/api/seq?i=[0-99]")};
        QProcess curl;
        curl.start(QStringLiteral("curl"), args);
        QVERIFY(curl.waitForFinished(30000));
        QCOMPARE(curl.exitCode(), 0);

        QThread::msleep(1500); // the mirror's last subrequests, and the recorder's next second
        QVERIFY(signalProcess(recorder.processId(), SIGINT));
        QVERIFY(recorder.waitForFinished(10000));
        const QString out = QString::fromUtf8(recorder.readAllStandardOutput());
        QVERIFY2(recorder.exitStatus() == QProcess::NormalExit && recorder.exitCode() == 0,
                 qPrintable(out + QString::fromUtf8(recorder.readAllStandardError())));
        QVERIFY2(out.contains(QStringLiteral("stored 103 requests")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("1 filtered")), qPrintable(out));

        // the set: in order, with bodies, masked
        std::string error;
        auto store = ProjectStore::openReadOnly(project.toStdString(), error);
        QVERIFY2(store, error.c_str());
        TrafficStore traffic(*store);
        std::vector<TrafficRecord> rs;
        QVERIFY(traffic.load(traffic.find("gateway"), rs));
        QCOMPARE(rs.size(), std::size_t(103));
        QVERIFY2(rs[0].target.rfind("/api/users?phone=138", 0) == 0, rs[0].target.c_str());
        QVERIFY(rs[0].target.find("page=1") != std::string::npos);
        QCOMPARE(rs[1].method, std::string("POST"));
        QCOMPARE(rs[1].target, std::string("/api/login"));
        QVERIFY2(rs[1].body.find("\"qty\": 3") != std::string::npos, rs[1].body.c_str());
        QCOMPARE(rs[1].client, std::string("127.0.0.1"));
        QCOMPARE(rs[2].target, std::string("/api/form"));
        QVERIFY2(rs[2].body.rfind("name=x&sign=", 0) == 0, rs[2].body.c_str());
        for (int i = 0; i < 100; ++i)
            QCOMPARE(rs[std::size_t(3 + i)].target, "/api/seq?i=" + std::to_string(i));
        for (std::size_t i = 1; i < rs.size(); ++i)
            QVERIFY(rs[i].atNanos >= rs[i - 1].atNanos);
        std::string which;
        for (const TrafficRecord& r : rs) {
            std::string all = r.target + r.body + r.host;
            for (const auto& [n, v] : r.headers)
                all += n + v;
            QVERIFY2(!containsAny(all, which), which.c_str());
        }
        store.reset();
        for (const QString& file : QStringList{project, project + QStringLiteral("-wal")}) {
            QFile f(file);
            if (f.open(QIODevice::ReadOnly))
                QVERIFY2(!containsAny(f.readAll().toStdString(), which), which.c_str());
        }

        // replayed at x2 with trace context, to a server of the test's own
        RecordingServer target;
        const CliResult replay =
            runCli({QStringLiteral("replay"), project + QStringLiteral("@gateway"), QStringLiteral("--target"),
                    target.url(), QStringLiteral("--speed"), QStringLiteral("2"), QStringLiteral("--trace"),
                    QStringLiteral("--stress-header"), QStringLiteral("baggage"), QStringLiteral("-q"),
                    QStringLiteral("--engines"), QStringLiteral("1")});
        QVERIFY2(replay.exitCode == 0, qPrintable(replay.out + replay.err));
        const auto seen = target.requests();
        QCOMPARE(seen.size(), std::size_t(103));
        const QRegularExpression grammar(QStringLiteral("^00-([0-9a-f]{32})-([0-9a-f]{16})-01$"));
        std::set<std::string> spans;
        for (const auto& r : seen) {
            const auto m = grammar.match(QString::fromStdString(r.header("traceparent")));
            QVERIFY2(m.hasMatch(), r.header("traceparent").c_str());
            QVERIFY(m.captured(1) != QString(32, QLatin1Char('0')) && m.captured(2) != QString(16, QLatin1Char('0')));
            spans.insert(m.captured(2).toStdString());
            QVERIFY2(QString::fromStdString(r.header("baggage")).contains(QStringLiteral("stress_test=st-")),
                     r.header("baggage").c_str());
        }
        QCOMPARE(spans.size(), seen.size()); // a span of its own per request
        const auto login = target.requestsTo("POST /api/login");
        QCOMPARE(login.size(), std::size_t(1));
        QCOMPARE(login[0].body, rs[1].body); // sent as kept, byte for byte
    }

    // --trace on written steps: a flow's requests share their iteration's
    // trace id, each has a span of its own, and a step's own baggage takes
    // the stress tag as a member (one header).
    void traceOnAFlow()
    {
        QTemporaryDir dir;
        RecordingServer target;
        const QString scenario = writeFile(
            dir, "flow.json",
            QStringLiteral("{\"steps\": [{\"name\": \"a\", \"request\": {\"url\": \"%1/a\", \"headers\": "
                           "[{\"name\": \"baggage\", \"value\": \"userId=7\"}]}}, {\"name\": \"b\", "
                           "\"request\": {\"url\": \"%1/b\"}, \"checks\": [{\"status\": [201]}]}], \"load\": "
                           "{\"closed\": {\"users\": 2}}, "
                           "\"iterations\": 3, \"duration\": \"20s\", \"stressTag\": {\"header\": \"baggage\"}}")
                .arg(target.url())
                .toUtf8());
        const QString project = dir.filePath(QStringLiteral("runs.stampede"));
        const CliResult r =
            runCli({QStringLiteral("run"), scenario, QStringLiteral("--trace"), QStringLiteral("-q"),
                    QStringLiteral("--engines"), QStringLiteral("1"), QStringLiteral("--project"), project});
        QVERIFY2(r.exitCode == 0 || r.exitCode == 1, qPrintable(r.out + r.err)); // b's check fails
        const auto a = target.requestsTo("GET /a"), b = target.requestsTo("GET /b");
        QCOMPARE(a.size(), std::size_t(6));
        QCOMPARE(b.size(), std::size_t(6));
        const QRegularExpression grammar(QStringLiteral("^00-([0-9a-f]{32})-([0-9a-f]{16})-01$"));
        std::set<std::string> tracesA, tracesB, spans;
        for (const auto* list : {&a, &b})
            for (const auto& rq : *list) {
                const auto m = grammar.match(QString::fromStdString(rq.header("traceparent")));
                QVERIFY2(m.hasMatch(), rq.header("traceparent").c_str());
                (list == &a ? tracesA : tracesB).insert(m.captured(1).toStdString());
                spans.insert(m.captured(2).toStdString());
            }
        QCOMPARE(tracesA.size(), std::size_t(6)); // one per iteration
        QCOMPARE(tracesA, tracesB);               // shared by the iteration's requests
        QCOMPARE(spans.size(), std::size_t(12));  // one per request
        QVERIFY2(QString::fromStdString(a[0].header("baggage"))
                     .contains(QRegularExpression(QStringLiteral("^userId=7,stress_test=st-[0-9a-f]+$"))),
                 a[0].header("baggage").c_str());
        QVERIFY2(QString::fromStdString(b[0].header("baggage")).startsWith(QStringLiteral("stress_test=st-")),
                 b[0].header("baggage").c_str());
        // b's failed check kept as a sample with its request's trace id, in the saved run and its export
        const QString exported = dir.filePath(QStringLiteral("run.json"));
        const CliResult e =
            runCli({QStringLiteral("report"), QStringLiteral("export"), project, QStringLiteral("--format"),
                    QStringLiteral("json"), QStringLiteral("-o"), exported});
        QVERIFY2(e.exitCode == 0, qPrintable(e.err));
        const QJsonArray samples = readJson(exported).value(QStringLiteral("error_samples")).toArray();
        QVERIFY(!samples.isEmpty());
        for (const auto& v : samples) {
            const std::string id = v.toObject().value(QStringLiteral("trace_id")).toString().toStdString();
            QVERIFY2(tracesB.count(id), id.c_str());
        }
    }

    // A replay with --trace keeps a recorded traceparent's trace id (a new
    // span), gives an amplified copy a trace derived from it (the same in
    // every run), a request recorded without one a new trace; and with
    // --new-trace-ids, none is the recorded one.
    void replayKeepsRecordedTraces()
    {
        QTemporaryDir dir;
        const QString project = dir.filePath(QStringLiteral("t.stampede"));
        const std::string recorded = "4bf92f3577b34da6a3ce929d0e0e4736";
        {
            std::string error;
            auto store = ProjectStore::create(project.toStdString(), error);
            QVERIFY2(store, error.c_str());
            std::vector<TrafficRecord> rs(2);
            rs[0].atNanos = 1764000000000000000LL;
            rs[0].target = "/traced";
            rs[0].headers = {{"traceparent", "00-" + recorded + "-00f067aa0ba902b7-01"}};
            rs[1].atNanos = rs[0].atNanos + 100000000;
            rs[1].target = "/untraced";
            QVERIFY(TrafficStore(*store).save("set", rs, "{}"));
        }
        const auto replay = [&](const QStringList& extra) {
            RecordingServer target;
            const CliResult r = runCli(
                QStringList{QStringLiteral("replay"), project + QStringLiteral("@set"), QStringLiteral("--target"),
                            target.url(), QStringLiteral("--trace"), QStringLiteral("--amplify"), QStringLiteral("2"),
                            QStringLiteral("-q"), QStringLiteral("--engines"), QStringLiteral("1")} +
                extra);
            std::map<std::string, std::vector<std::string>> byPath; // path -> traceparents, in order
            if (r.exitCode == 0)
                for (const auto& rq : target.requests())
                    byPath[rq.line.substr(4, rq.line.find(' ', 4) - 4)].push_back(rq.header("traceparent"));
            return byPath;
        };
        const auto first = replay({}), second = replay({});
        QCOMPARE(first.at("/traced").size(), std::size_t(2));
        std::set<std::string> traces;
        for (const std::string& tp : first.at("/traced"))
            traces.insert(tp.substr(3, 32));
        QVERIFY2(traces.count(recorded), first.at("/traced").front().c_str()); // the request itself
        QCOMPARE(traces.size(), std::size_t(2));                               // its copy: a trace of its own
        for (const std::string& tp : first.at("/traced"))
            QVERIFY2(tp.substr(36, 16) != "00f067aa0ba902b7", tp.c_str()); // a span of this run
        std::set<std::string> again;
        for (const std::string& tp : second.at("/traced"))
            again.insert(tp.substr(3, 32));
        QCOMPARE(again, traces); // derived, stable run after run
        QVERIFY(first.at("/untraced")[0].substr(3, 32) != second.at("/untraced")[0].substr(3, 32)); // new ones
        const auto fresh = replay({QStringLiteral("--new-trace-ids")});
        for (const std::string& tp : fresh.at("/traced"))
            QVERIFY2(tp.substr(3, 32) != recorded, tp.c_str());
    }

    // Bad input exits 2 with a message and records nothing.
    // Issue 47: on a full disk the recorder said "100 kept" when nothing of
    // the last chunk was stored. A 512 KiB tmpfs (root only, as CI runs):
    // two small requests are stored, then 40 of 40 KB of random bytes fill
    // it; what the recorder says it kept is what the project holds.
    void aFullDiskKeepsWhatItSays()
    {
        QVERIFY2(::geteuid() == 0, "mounting a tmpfs takes root: run the tests as root, as CI does");
        QTemporaryDir dir;
        const QString full = dir.filePath(QStringLiteral("full"));
        QVERIFY(QDir().mkpath(full));
        QProcess mount;
        mount.start(QStringLiteral("mount"), {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                                              QStringLiteral("size=512k"), QStringLiteral("tmpfs"), full});
        QVERIFY(mount.waitForFinished(10000));
        QVERIFY2(mount.exitCode() == 0, mount.readAllStandardError().constData());
        struct Unmount
        {
            QString at;
            ~Unmount() { QProcess::execute(QStringLiteral("umount"), {at}); }
        } unmount{full};
        const QString project = full + QStringLiteral("/p.stampede");
        const int port = freePort();
        QProcess recorder;
        recorder.start(cliPath(),
                       {QStringLiteral("record"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(port),
                        QStringLiteral("--project"), project, QStringLiteral("--name"), QStringLiteral("gw"),
                        QStringLiteral("--no-mask"), QStringLiteral("--max-requests"), QStringLiteral("42")});
        QVERIFY(recorder.waitForReadyRead(10000));
        const QString url = QStringLiteral("http://127.0.0.1:%1/").arg(port);
        QVERIFY(QProcess::execute(QStringLiteral("curl"),
                                  {QStringLiteral("-s"), QStringLiteral("-o"), QStringLiteral("/dev/null"),
                                   url + QStringLiteral("a"), url + QStringLiteral("b")}) == 0);
        QThread::msleep(1500); // stored with the recorder's next second
        QFile random(dir.filePath(QStringLiteral("random.bin")));
        QVERIFY(random.open(QIODevice::WriteOnly));
        QFile urandom(QStringLiteral("/dev/urandom"));
        QVERIFY(urandom.open(QIODevice::ReadOnly));
        random.write(urandom.read(40 * 1024));
        random.close();
        QStringList big{QStringLiteral("-s")};
        for (int i = 0; i < 40; ++i)
            big << QStringLiteral("-o") << QStringLiteral("/dev/null") << QStringLiteral("--data-binary")
                << QStringLiteral("@") + random.fileName() << url + QStringLiteral("big%1").arg(i)
                << QStringLiteral("--next");
        big.removeLast();
        QProcess::execute(QStringLiteral("curl"), big);
        QVERIFY(recorder.waitForFinished(20000));
        const QString out = QString::fromUtf8(recorder.readAllStandardOutput());
        const QString err = QString::fromUtf8(recorder.readAllStandardError());
        QCOMPARE(recorder.exitCode(), 3); // the traffic could not all be stored: said, not hidden
        const QRegularExpressionMatch m =
            QRegularExpression(QStringLiteral("received (\\d+) requests: (\\d+) kept")).match(out);
        QVERIFY2(m.hasMatch(), qPrintable(out + err));
        qInfo("%s", qPrintable(out.trimmed() + QStringLiteral(" | ") + err.trimmed().section(QLatin1Char('\n'), -1)));
        QCOMPARE(m.captured(1).toInt(), 42);
        const int kept = m.captured(2).toInt();
        QVERIFY2(kept < 42, qPrintable(out)); // the chunk the disk refused is not counted
        std::string error;
        bool readOnly = false; // the disk is full: read as `report list` reads
        auto store = ProjectStore::openForReading(project.toStdString(), error, readOnly);
        QVERIFY2(store, error.c_str());
        TrafficStore traffic(*store);
        std::vector<TrafficRecord> rs;
        if (const std::int64_t item = traffic.find("gw"))
            QVERIFY(traffic.load(item, rs));
        QCOMPARE(int(rs.size()), kept);
    }

    void badInput()
    {
        QTemporaryDir dir;
        const QString project = dir.filePath(QStringLiteral("p.stampede"));
        const QStringList base{QStringLiteral("record"), QStringLiteral("--project"), project};
        const struct
        {
            QStringList args;
            const char* message;
        } cases[] = {
            {{QStringLiteral("--name"), QStringLiteral("x")}, "--listen"},
            {{QStringLiteral("--listen"), QStringLiteral(":0")}, "--name"},
            {{QStringLiteral("--listen"), QStringLiteral(":0"), QStringLiteral("--name"), QStringLiteral("x"),
              QStringLiteral("--sample"), QStringLiteral("101")},
             "--sample"},
            {{QStringLiteral("--listen"), QStringLiteral(":0"), QStringLiteral("--name"), QStringLiteral("x"),
              QStringLiteral("--include"), QStringLiteral("([")},
             "--include"},
            {{QStringLiteral("--listen"), QStringLiteral(":0"), QStringLiteral("--name"), QStringLiteral("x"),
              QStringLiteral("--mask"), QStringLiteral("body:x=hash")},
             "expected FIELD:NAME=ACTION"},
            {{QStringLiteral("--listen"), QStringLiteral("127.0.0.1:99999"), QStringLiteral("--name"),
              QStringLiteral("x")},
             "bad port"},
        };
        for (const auto& c : cases) {
            const CliResult r = runCli(base + c.args, 10000);
            QVERIFY2(r.exitCode == 2 && r.err.contains(QString::fromUtf8(c.message)), qPrintable(r.err));
        }
        // --duration finishes by itself; nothing recorded keeps no set
        const CliResult r = runCli(base + QStringList{QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                                                      QStringLiteral("--name"), QStringLiteral("quiet"),
                                                      QStringLiteral("--duration"), QStringLiteral("1s")},
                                   10000);
        QVERIFY2(r.exitCode == 3 && r.err.contains(QStringLiteral("nothing was recorded")), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestRecord)
#include "tst_record.moc"
