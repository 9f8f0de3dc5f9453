// `stampede-cli replay` (issue "Traffic replay") against a counting server of
// the test's own: a generated access log of 100,000 lines with a known shape
// (steady seconds, a quiet gap, bursts) replayed at x1 and x4 keeps its
// per-second counts, at the server and in the engine; x3 amplification with a
// query offset sends three disjoint key ranges; masked values never reach the
// wire; a HAR recording (a redirect, a POST body) replays to its host's
// server; a scenario's replay step runs on two engines with each client's
// requests in order; lines that do not read are reported by number; bad
// input exits 2 with nothing sent.
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

using namespace testsupport;

namespace {

// An HTTP/1.1 server that answers 200 to everything and keeps what came:
// when (steady clock), the request head and its body.
class CountingServer
{
public:
    struct Seen
    {
        std::int64_t atNs = 0;
        int connection = 0; // which of the server's connections it came on
        std::string head;
        std::string body;
        std::string target() const
        {
            return head.substr(head.find(' ') + 1, head.find(' ', head.find(' ') + 1) - head.find(' ') - 1);
        }
    };
    CountingServer() : m_server([this](int fd) { serve(fd); }) {}
    int port() const { return m_server.port(); }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(port()); }
    std::vector<Seen> seen()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        std::vector<Seen> out = m_seen;
        std::sort(out.begin(), out.end(), [](const Seen& a, const Seen& b) { return a.atNs < b.atNs; });
        return out;
    }
    std::string wire()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        return m_wire;
    }

private:
    void serve(int fd)
    {
        const int connection = ++m_connections;
        std::string in;
        char buf[65536];
        for (;;) {
            const std::size_t headEnd = in.find("\r\n\r\n");
            std::size_t length = 0;
            if (headEnd != std::string::npos) {
                static const std::regex kLength("\r\ncontent-length: *([0-9]+)", std::regex::icase);
                std::smatch m;
                const std::string head = in.substr(0, headEnd + 2);
                if (std::regex_search(head, m, kLength))
                    length = std::stoul(m[1]);
                if (in.size() >= headEnd + 4 + length) {
                    Seen s;
                    s.connection = connection;
                    s.atNs = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                 std::chrono::steady_clock::now().time_since_epoch())
                                 .count();
                    s.head = head;
                    s.body = in.substr(headEnd + 4, length);
                    {
                        // kept before it is answered: whatever the client saw answered, the test sees
                        std::lock_guard<std::mutex> lock(m_mutex);
                        m_wire += in.substr(0, headEnd + 4 + length);
                        m_seen.push_back(std::move(s));
                    }
                    in.erase(0, headEnd + 4 + length);
                    static const char kAnswer[] = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
                    if (::send(fd, kAnswer, sizeof kAnswer - 1, MSG_NOSIGNAL) < 0)
                        break;
                    continue;
                }
            }
            const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
            if (n <= 0)
                break;
            in.append(buf, std::size_t(n));
        }
        ::close(fd);
    }

    std::mutex m_mutex;
    std::atomic<int> m_connections{0};
    std::vector<Seen> m_seen;
    std::string m_wire;
    RawServer m_server; // last: its threads stop before the rest goes
};

std::string timeLocal(int second)
{
    const int s = second % 60, m = second / 60;
    char buf[64];
    std::snprintf(buf, sizeof buf, "[01/Dec/2026:10:%02d:%02d +0800]", m, s);
    return buf;
}

// The combined format, one line.
std::string logLine(const std::string& client, int second, const std::string& target)
{
    return client + " - - " + timeLocal(second) + " \"GET " + target + " HTTP/1.1\" 200 12 \"-\" \"app/1\"\n";
}

// Requests per second of the 100,000-line log: steady, a quiet gap, bursts.
std::vector<int> shape()
{
    std::vector<int> s;
    s.insert(s.end(), 8, 3000);
    s.insert(s.end(), 3, 0);
    s.insert(s.end(), 6, 5000);
    s.insert(s.end(), 7, 2000);
    s.insert(s.end(), 8, 4000);
    return s; // 24000 + 30000 + 14000 + 32000: at x4, up to 20,000 requests/s
}

std::map<std::string, std::int64_t> queryNumbers(const std::string& target)
{
    std::map<std::string, std::int64_t> out;
    static const std::regex kPair("[?&]([a-z]+)=([0-9]+)");
    for (auto it = std::sregex_iterator(target.begin(), target.end(), kPair); it != std::sregex_iterator(); ++it)
        out[(*it)[1]] = std::stoll((*it)[2]);
    return out;
}

} // namespace

class TestReplay : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_shapeLog;

    QString shapedLog()
    {
        if (!m_shapeLog.isEmpty())
            return m_shapeLog;
        std::string log;
        int n = 0;
        const auto s = shape();
        for (std::size_t sec = 0; sec < s.size(); ++sec)
            for (int i = 0; i < s[sec]; ++i, ++n)
                log += logLine("10.1." + std::to_string(n % 250) + "." + std::to_string(n % 7), int(sec),
                               "/api/items?uid=" + std::to_string(n));
        m_shapeLog = writeFile(m_dir, "shape.log", QByteArray::fromStdString(log));
        return m_shapeLog;
    }

private slots:
    void keepsTheShape_data()
    {
        QTest::addColumn<int>("speed");
        QTest::newRow("x1") << 1;
        QTest::newRow("x4") << 4;
    }
    void keepsTheShape()
    {
        QFETCH(int, speed);
        CountingServer server;
        const QString summary = m_dir.filePath(QStringLiteral("shape%1.json").arg(speed));
        const auto r =
            runCli({QStringLiteral("replay"), shapedLog(), QStringLiteral("--target"), server.url(),
                    QStringLiteral("--speed"), QString::number(speed), QStringLiteral("--engines"), QStringLiteral("1"),
                    QStringLiteral("--threads"), QStringLiteral("2"), QStringLiteral("--connections"),
                    QStringLiteral("200"), QStringLiteral("-q"), QStringLiteral("--summary-json"), summary},
                   120000);
        const QJsonObject s = readJson(summary);
        QCOMPARE(s[QStringLiteral("replay")][QStringLiteral("planned")].toInteger(), 100000);
        const auto seen = server.seen();
        // A generator that could not keep x4's 12,500 requests a second (under make asan: 81,000 to 91,000 made,
        // the rest dropped) says so (a warning; below 90 % of the plan made, the run fails "not as planned"); then
        // only what time cannot change is judged: every planned arrival made or counted dropped, and each one made
        // seen by the server once.
        const qint64 made = s[QStringLiteral("total")][QStringLiteral("requests")].toInteger();
        const qint64 dropped = s[QStringLiteral("total")][QStringLiteral("dropped")].toInteger();
        bool limited = false;
        for (const QJsonValue a : s[QStringLiteral("agents")].toArray())
            limited |= a[QStringLiteral("limited_seconds")].toInt() > 0;
        if (limited && dropped > 0) {
            QVERIFY2(r.out.contains(QStringLiteral("the generator, not the target, limited this run")),
                     qPrintable(r.out.right(800)));
            QCOMPARE(r.exitCode != 0, made < 90000);
            QCOMPARE(r.out.contains(QStringLiteral("FAILED: not as planned")), made < 90000);
            QCOMPARE(made + dropped, 100000);
            QCOMPARE(qint64(seen.size()), made);
            qInfo("x%d: the generator was limited on this machine (%lld made, %lld dropped, exit %d, as the run "
                  "says): the shape is not judged",
                  speed, made, dropped, r.exitCode);
            return;
        }
        QVERIFY2(r.exitCode == 0,
                 qPrintable(QString::number(r.exitCode) + QLatin1Char(' ') + r.err + r.out.right(800)));
        QVERIFY2(made == 100000,
                 qPrintable(QString::fromUtf8(
                                QJsonDocument(s[QStringLiteral("total")].toObject()).toJson(QJsonDocument::Compact))
                                .left(600) +
                            r.out.right(600)));
        QCOMPARE(seen.size(), std::size_t(100000));

        // what each run second should carry: the log's seconds, compressed
        const auto log = shape();
        std::vector<double> expected((log.size() + speed - 1) / std::size_t(speed));
        for (std::size_t sec = 0; sec < log.size(); ++sec)
            expected[sec / std::size_t(speed)] += log[sec];
        // The server's seconds: its clock is not the engine's, so arrivals are
        // set against their intended times (uid n is the log's line n, spread
        // over its second as the engine does), the median difference taken as
        // the clocks' offset; what is left is how far each came from its time.
        std::vector<std::int64_t> intended;
        for (std::size_t sec = 0; sec < log.size(); ++sec)
            for (int i = 0; i < log[sec]; ++i)
                intended.push_back(std::llround((double(sec) + double(i) / log[sec]) * 1e9 / speed));
        std::vector<std::int64_t> offsets;
        for (const auto& x : seen)
            offsets.push_back(x.atNs - intended[std::size_t(queryNumbers(x.target())["uid"])]);
        std::vector<std::int64_t> sorted = offsets;
        std::nth_element(sorted.begin(), sorted.begin() + std::ptrdiff_t(sorted.size() / 2), sorted.end());
        const std::int64_t offset = sorted[sorted.size() / 2];
        std::vector<double> arrived(expected.size() + 2);
        std::vector<double> errorsMs;
        // The gap's seconds, less 50 ms at each edge: a request due at the very
        // end of the second before may arrive a little into the gap (and one due
        // at its end a little before), as any arrival carries the server's delay.
        std::vector<std::pair<std::int64_t, std::int64_t>> gaps; // run time, ns
        for (std::size_t k = 0; k < log.size(); ++k)
            if (log[k] == 0 && (k == 0 || log[k - 1] != 0)) {
                std::size_t end = k;
                while (end < log.size() && log[end] == 0)
                    ++end;
                gaps.emplace_back(std::int64_t(k) * 1000000000 / speed + 50000000,
                                  std::int64_t(end) * 1000000000 / speed - 50000000);
            }
        QVERIFY(!gaps.empty());
        std::vector<std::int64_t> gapArrivals;
        for (std::size_t i = 0; i < seen.size(); ++i) {
            const std::int64_t t = seen[i].atNs - offset;
            arrived[std::min(arrived.size() - 1, std::size_t(std::max<std::int64_t>(0, t) / 1000000000))] += 1;
            errorsMs.push_back(std::abs(double(offsets[i] - offset)) / 1e6);
            for (const auto& [from, to] : gaps)
                if (t >= from && t < to)
                    gapArrivals.push_back(t);
        }
        std::sort(errorsMs.begin(), errorsMs.end());
        qInfo("x%d: at the server, |arrival - intended| (offset removed): p50 %.3f ms, p99 %.3f ms", speed,
              errorsMs[errorsMs.size() / 2], errorsMs[errorsMs.size() * 99 / 100]);
        // The engine says how late it sent (its send lag). When it kept time (p99 under 50 ms), each inner
        // second is the log's to 1 % at the send and 3 % at the server; when a busy machine kept it from its
        // times, the run says so in that figure and only what time cannot change is judged: every second
        // planned as the log says, the quiet gap quiet but for sends that were late into it (issue 49).
        const QJsonObject lag = s[QStringLiteral("total")][QStringLiteral("send_lag_ms")].toObject();
        qInfo("x%d: send lag p50 %.3f ms, p99 %.3f ms, max %.3f ms", speed, lag[QStringLiteral("p50")].toDouble(),
              lag[QStringLiteral("p99")].toDouble(), lag[QStringLiteral("max")].toDouble());
        QVERIFY(lag.contains(QStringLiteral("p99")));
        const bool keptTime = lag[QStringLiteral("p99")].toDouble() < 50;
        if (!keptTime)
            qInfo("x%d: the engine sent late on this machine (its own send lag says so): the seconds' counts are "
                  "not judged",
                  speed);
        const QJsonArray timeline = s[QStringLiteral("timeline")].toArray();
        for (std::size_t k = 1; k + 1 < expected.size(); ++k) { // the inner seconds
            const double want = expected[k];
            const double sent = timeline[qsizetype(k)][QStringLiteral("sent")].toDouble();
            const double planned = timeline[qsizetype(k)][QStringLiteral("planned")].toDouble();
            QCOMPARE(planned, want);
            if (!keptTime)
                continue;
            // 1 %, and one more, and what of the second before was due within the engine's largest lag of this
            // one's start: a request due at a second's very end may be sent just after it
            const double late = expected[k - 1] * lag[QStringLiteral("max")].toDouble() / 1000;
            QVERIFY2(std::abs(sent - want) <= want * 0.01 + 1 + late,
                     qPrintable(QStringLiteral("second %1: sent %2, the log %3").arg(k + 1).arg(sent).arg(want)));
            // the server's count also carries its own scheduling (threads of a
            // test process beside the engines): a looser bound than the send's
            QVERIFY2(
                std::abs(arrived[k] - want) <= want * 0.03 + 2 + late,
                qPrintable(
                    QStringLiteral("second %1: the server saw %2, the log %3").arg(k + 1).arg(arrived[k]).arg(want)));
        }
        // the quiet gap is quiet: nothing was due in it, and what was sent late went out within the run's
        // own largest lag of the gap's start
        const auto maxLagNs = std::int64_t(lag[QStringLiteral("max")].toDouble() * 1e6);
        const auto lateIntoTheGap = [&](std::int64_t t) {
            return std::any_of(gaps.begin(), gaps.end(),
                               [&](const auto& g) { return t >= g.first && t < g.first + maxLagNs; });
        };
        gapArrivals.erase(std::remove_if(gapArrivals.begin(), gapArrivals.end(), lateIntoTheGap), gapArrivals.end());
        QVERIFY2(gapArrivals.empty(),
                 qPrintable(QStringLiteral("%1 requests arrived inside the log's quiet gap, the first at %2 s")
                                .arg(gapArrivals.size())
                                .arg(gapArrivals.empty() ? 0.0 : double(gapArrivals.front()) / 1e9)));
    }

    void amplifiedCopiesUseDisjointKeys()
    {
        std::string log;
        for (int i = 0; i < 3000; ++i)
            log += logLine("10.2.0." + std::to_string(i % 40), i / 1000, "/order?uid=" + std::to_string(i + 1));
        const QString file = writeFile(m_dir, "amplify.log", QByteArray::fromStdString(log));
        CountingServer server;
        const QString summary = m_dir.filePath(QStringLiteral("amplify.json"));
        const auto r =
            runCli({QStringLiteral("replay"), file, QStringLiteral("--target"), server.url(), QStringLiteral("--speed"),
                    QStringLiteral("2"), QStringLiteral("--amplify"), QStringLiteral("3"), QStringLiteral("--offset"),
                    QStringLiteral("query:uid+1000000"), QStringLiteral("--engines"), QStringLiteral("2"),
                    QStringLiteral("-q"), QStringLiteral("--summary-json"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto seen = server.seen();
        QCOMPARE(seen.size(), std::size_t(9000));
        std::set<std::int64_t> ranges[3];
        for (const auto& x : seen) {
            const std::int64_t uid = queryNumbers(x.target())["uid"];
            const std::int64_t copy = uid / 1000000;
            QVERIFY2(copy >= 0 && copy < 3 && uid % 1000000 >= 1 && uid % 1000000 <= 3000, x.target().c_str());
            QVERIFY2(ranges[copy].insert(uid).second, "a key was sent twice");
        }
        for (int k = 0; k < 3; ++k) {
            QCOMPARE(ranges[k].size(), std::size_t(3000));
            QCOMPARE(*ranges[k].begin(), k * 1000000 + 1);
            QCOMPARE(*ranges[k].rbegin(), k * 1000000 + 3000);
        }
        const QJsonObject s = readJson(summary);
        QCOMPARE(s[QStringLiteral("replay")][QStringLiteral("amplify")].toInt(), 3);
        QCOMPARE(s[QStringLiteral("total")][QStringLiteral("requests")].toInteger(), 9000);
    }

    // Each line's phone and token are masked before the wire: no token and no line's own phone is sent. (A
    // masked phone keeps its 138 and draws 8 digits: it may, by chance, be another line's phone, so each is
    // compared with its own line's, found by its page.)
    void maskedValuesNeverReachTheWire()
    {
        std::string log;
        std::set<std::string> tokens;
        std::vector<std::string> phones;
        for (int i = 0; i < 400; ++i) {
            const std::string phone = "138" + std::to_string(20000000 + i * 7);
            const std::string token = "tok" + std::to_string(500000 + i);
            phones.push_back(phone);
            tokens.insert(token);
            log += "10.3.0." + std::to_string(i % 9) + " - - " + timeLocal(i / 200) + " \"GET /profile?phone=" + phone +
                   "&page=" + std::to_string(i) + " HTTP/1.1\" 200 5 \"-\" \"app\" \"Bearer " + token + "\"\n";
        }
        const QString file = writeFile(m_dir, "secret.log", QByteArray::fromStdString(log));
        const QString format = QStringLiteral("$remote_addr - $remote_user [$time_local] \"$request\" $status "
                                              "$body_bytes_sent \"$http_referer\" \"$http_user_agent\" "
                                              "\"$http_authorization\"");
        const QStringList masks = {QStringLiteral("--mask"), QStringLiteral("preset:cn-mobile"),
                                   QStringLiteral("--mask"), QStringLiteral("preset:bearer")};
        // from the file, masked on the way
        CountingServer direct;
        auto r = runCli(QStringList{QStringLiteral("replay"), file, QStringLiteral("--format"), format,
                                    QStringLiteral("--target"), direct.url(), QStringLiteral("--speed"),
                                    QStringLiteral("10"), QStringLiteral("-q")} +
                        masks);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // from a project's traffic set, masked when imported
        const QString project = m_dir.filePath(QStringLiteral("masked.stampede"));
        r = runCli(QStringList{QStringLiteral("import"), file, QStringLiteral("--project"), project,
                               QStringLiteral("--format"), format, QStringLiteral("--name"), QStringLiteral("secret"),
                               QStringLiteral("-q")} +
                   masks);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        CountingServer fromProject;
        r = runCli({QStringLiteral("replay"), project + QStringLiteral("@secret"), QStringLiteral("--target"),
                    fromProject.url(), QStringLiteral("--speed"), QStringLiteral("10"), QStringLiteral("-q")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        for (CountingServer* server : {&direct, &fromProject}) {
            const std::string wire = server->wire();
            QCOMPARE(server->seen().size(), std::size_t(400));
            for (const std::string& o : tokens)
                QVERIFY2(wire.find(o) == std::string::npos, ("an original on the wire: " + o).c_str());
            std::set<std::int64_t> pages;
            for (const auto& x : server->seen()) {
                auto numbers = queryNumbers(x.target());
                const std::int64_t page = numbers["page"];
                QVERIFY2(page >= 0 && page < 400 && pages.insert(page).second, x.target().c_str());
                QVERIFY2(std::to_string(numbers["phone"]) != phones[std::size_t(page)],
                         ("an original on the wire: " + x.target()).c_str());
            }
            // masked, still a phone number of the same length, and a bearer token
            const auto first = server->seen().front();
            const auto phone = queryNumbers(first.target())["phone"];
            QVERIFY2(std::to_string(phone).size() == 11, first.target().c_str());
            QVERIFY2(first.head.find("authorization: Bearer ") != std::string::npos, first.head.c_str());
        }
    }

    void harRecordingReplaysToItsHost()
    {
        const QString har = sourceDir() + QStringLiteral("/tests/engine/data/browser.har");
        CountingServer server;
        const QString summary = m_dir.filePath(QStringLiteral("har.json"));
        const auto r = runCli({QStringLiteral("replay"), har, QStringLiteral("--host"),
                               QStringLiteral("shop.example.com=") + server.url(), QStringLiteral("-q"),
                               QStringLiteral("--summary-json"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("browser.har: line 3: ")),
                 qPrintable(r.err)); // the entry without a time
        const auto seen = server.seen();
        QCOMPARE(seen.size(), std::size_t(2));
        // in recorded time order: the GET at 02:00:00.100Z, the POST at 10:00:00.500+08:00
        QVERIFY2(seen[0].head.rfind("GET /home?from=login HTTP/1.1\r\n", 0) == 0, seen[0].head.c_str());
        QVERIFY2(seen[1].head.rfind("POST /api/login HTTP/1.1\r\n", 0) == 0, seen[1].head.c_str());
        QCOMPARE(seen[1].body, std::string("{\"user\":\"a\",\"pw\":\"secret\"}"));
        QVERIFY2(seen[1].head.find("Host: shop.example.com\r\n") != std::string::npos, seen[1].head.c_str());
        QVERIFY2(seen[1].head.find("content-type: application/json\r\n") != std::string::npos, seen[1].head.c_str());
        QVERIFY2(seen[1].head.find(":authority") == std::string::npos, seen[1].head.c_str());
        // 400 ms apart as recorded, give or take how late the engine says it sent and 50 ms of the server's
        // own (on a busy machine its thread waits its turn too)
        const double gapMs = double(seen[1].atNs - seen[0].atNs) / 1e6;
        const double lagMs = readJson(summary)
                                 .value(QStringLiteral("total"))
                                 .toObject()
                                 .value(QStringLiteral("send_lag_ms"))
                                 .toObject()
                                 .value(QStringLiteral("max"))
                                 .toDouble();
        QVERIFY2(gapMs > 350 - lagMs && gapMs < 600 + lagMs,
                 qPrintable(QStringLiteral("%1 ms apart, the engine's send lag up to %2 ms").arg(gapMs).arg(lagMs)));
    }

    // The step source in a scenario file, on two engines of two threads: each
    // client's requests stay on one engine thread. A connection belongs to one
    // thread, so clients that share connections belong to one thread: joined
    // by the connections they came on, the clients make one group per thread
    // (four); spread request by request, they would make one.
    void scenarioStepOnTwoEngines()
    {
        std::string log;
        for (int i = 0; i < 4000; ++i)
            log += logLine("10.4.0." + std::to_string(i % 37), i / 2000,
                           "/c?client=" + std::to_string(i % 37) + "&seq=" + std::to_string(i));
        log.insert(log.find('\n', log.size() / 2) + 1, "garbage in the middle\n");
        writeFile(m_dir, "clients.log", QByteArray::fromStdString(log));
        CountingServer server;
        const QString scenario = writeFile(
            m_dir, "replay.json",
            QStringLiteral("{\"name\": \"clients\", \"threads\": 2, \"connections\": 8, \"steps\": [{\"name\": "
                           "\"recorded\", \"replay\": {\"file\": \"clients.log\", \"speed\": 2, \"target\": \"%1\"}}],"
                           " \"thresholds\": [{\"expr\": \"error_rate < 1%\"}]}")
                .arg(server.url())
                .toUtf8());
        const QString summary = m_dir.filePath(QStringLiteral("clients.json"));
        const auto r = runCli({QStringLiteral("run"), scenario, QStringLiteral("--engines"), QStringLiteral("2"),
                               QStringLiteral("-q"), QStringLiteral("--summary-json"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto seen = server.seen();
        // every recorded request reached the server, or was counted as dropped at the run's end: what
        // still waited for a connection then (how many depends on how busy the machine is, so the test
        // holds the count, not the number; the grouping below needs most of them sent)
        const qint64 dropped =
            readJson(summary)[QStringLiteral("total")].toObject()[QStringLiteral("dropped")].toInteger();
        QCOMPARE(qint64(seen.size()) + dropped, qint64(4000));
        QVERIFY2(seen.size() >= 2000, qPrintable(QString::number(dropped)));
        std::map<std::string, std::string> parent; // union-find over "client N" and "connection N"
        std::function<std::string(const std::string&)> root = [&](const std::string& x) {
            auto it = parent.find(x);
            if (it == parent.end() || it->second == x)
                return parent[x] = x;
            return it->second = root(it->second);
        };
        for (const auto& x : seen)
            parent[root("client " + std::to_string(queryNumbers(x.target())["client"]))] =
                root("connection " + std::to_string(x.connection));
        std::set<std::string> groups;
        for (const auto& x : seen)
            groups.insert(root("client " + std::to_string(queryNumbers(x.target())["client"])));
        QCOMPARE(int(groups.size()), 4);
        const QJsonObject s = readJson(summary);
        QCOMPARE(s[QStringLiteral("steps")].toArray()[0][QStringLiteral("name")].toString(),
                 QStringLiteral("recorded"));
        QCOMPARE(s[QStringLiteral("engines")].toArray().size(), 2);
    }

    // Issue 53: a replay's answers are judged by its step's checks (Havok's custom assertions): 50 recorded
    // requests to a path the mock answers 200 "fine", 50 to one it answers 201 "made"; each check counts every
    // answer, a failed one an error of the step. Extraction stays refused, naming why.
    void checksJudgeReplayedAnswers()
    {
        std::string log;
        for (int i = 0; i < 100; ++i)
            log += logLine("10.5.0." + std::to_string(i % 7), i / 50, i % 2 ? "/b?i=" + std::to_string(i) : "/a");
        writeFile(m_dir, "judged.log", QByteArray::fromStdString(log));
        MockProcess mock(QStringLiteral("{\"rules\": [{\"path\": \"/a\", \"status\": 200, \"body\": \"fine\"}, "
                                        "{\"path\": \"/b\", \"status\": 201, \"body\": \"made\"}]}"));
        QVERIFY(mock.started());
        const QString scenario = writeFile(
            m_dir, "judged.json",
            QStringLiteral("{\"name\": \"judged\", \"steps\": [{\"name\": \"recorded\", \"replay\": {\"file\": "
                           "\"judged.log\", \"speed\": 4, \"target\": \"%1\"}, \"checks\": [{\"name\": \"ok\", "
                           "\"status\": [200]}, {\"name\": \"says fine\", \"bodyContains\": \"fine\"}]}]}")
                .arg(mock.url(QString()))
                .toUtf8());
        const QString summary = m_dir.filePath(QStringLiteral("judged-summary.json"));
        const auto r = runCli({QStringLiteral("run"), scenario, QStringLiteral("--engines"), QStringLiteral("1"),
                               QStringLiteral("-q"), QStringLiteral("--summary-json"), summary});
        const QJsonObject step = readJson(summary)[QStringLiteral("steps")].toArray()[0].toObject();
        const QJsonObject checks = step[QStringLiteral("checks")].toObject();
        QVERIFY2(step[QStringLiteral("requests")].toInteger() == 100, qPrintable(r.err));
        QCOMPARE(checks[QStringLiteral("recorded/ok")].toObject()[QStringLiteral("passed")].toInteger(), 50);
        QCOMPARE(checks[QStringLiteral("recorded/ok")].toObject()[QStringLiteral("failed")].toInteger(), 50);
        QCOMPARE(checks[QStringLiteral("recorded/ok")].toObject()[QStringLiteral("message")].toString(),
                 QStringLiteral("status 201, expected 200"));
        QCOMPARE(checks[QStringLiteral("recorded/says fine")].toObject()[QStringLiteral("passed")].toInteger(), 50);
        QCOMPARE(step[QStringLiteral("errors")].toInteger(), 50);

        const QString extracting = writeFile(
            m_dir, "extracting.json",
            QStringLiteral("{\"name\": \"x\", \"steps\": [{\"replay\": {\"file\": \"judged.log\", \"target\": "
                           "\"%1\"}, \"extract\": [{\"name\": \"t\", \"jsonPath\": \"$.t\"}]}]}")
                .arg(mock.url(QString()))
                .toUtf8());
        const auto refused = runCli({QStringLiteral("run"), extracting, QStringLiteral("-q")});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains(QStringLiteral("checks judge its answers")), qPrintable(refused.err));
    }

    // --compare-recorded: each answer's status against the recorded one. /a
    // (recorded 200, answered 200), /c (recorded 404, answered 404: as recorded,
    // no error), /d (recorded 200, answered 500): 20 fail, saying both.
    void compareRecordedJudgesEachAnswer()
    {
        std::string log;
        const auto line = [](int i, const char* path, int status) {
            return "10.7.0." + std::to_string(i % 5) + " - - " + timeLocal(i / 40) + " \"GET " + path +
                   "?i=" + std::to_string(i) + " HTTP/1.1\" " + std::to_string(status) + " 12 \"-\" \"app/1\"\n";
        };
        for (int i = 0; i < 80; ++i)
            log += i % 8 < 5 ? line(i, "/a", 200) : i % 8 < 6 ? line(i, "/c", 404) : line(i, "/d", 200);
        const QString file = writeFile(m_dir, "compared.log", QByteArray::fromStdString(log));
        MockProcess mock(QStringLiteral("{\"rules\": [{\"path\": \"/a\", \"status\": 200}, {\"path\": \"/c\", "
                                        "\"status\": 404}, {\"path\": \"/d\", \"status\": 500}]}"));
        QVERIFY(mock.started());
        const QString summary = m_dir.filePath(QStringLiteral("compared.json"));
        const auto r = runCli({QStringLiteral("replay"), file, QStringLiteral("--target"), mock.url(QString()),
                               QStringLiteral("--speed"), QStringLiteral("4"), QStringLiteral("--compare-recorded"),
                               QStringLiteral("-q"), QStringLiteral("--engines"), QStringLiteral("1"),
                               QStringLiteral("--summary-json"), summary});
        const QJsonObject step = readJson(summary)[QStringLiteral("steps")].toArray()[0].toObject();
        QVERIFY2(step[QStringLiteral("requests")].toInteger() == 80, qPrintable(r.err));
        const QJsonObject checks = step[QStringLiteral("checks")].toObject();
        QVERIFY2(checks.size() == 1, QJsonDocument(checks).toJson().constData());
        const QJsonObject recorded = checks.begin().value().toObject();
        QVERIFY2(checks.begin().key().endsWith(QStringLiteral("recorded status")), qPrintable(checks.begin().key()));
        QCOMPARE(recorded[QStringLiteral("passed")].toInteger(), 60);
        QCOMPARE(recorded[QStringLiteral("failed")].toInteger(), 20);
        QCOMPARE(recorded[QStringLiteral("message")].toString(), QStringLiteral("status 500, recorded 200"));
        QCOMPARE(step[QStringLiteral("errors")].toInteger(), 20); // the 404s were as recorded: no error
        QCOMPARE(r.exitCode, 0);                                  // no threshold: errors alone judge nothing
    }

    // --diff-against: each request to a second server too, the answers
    // compared. Of 60 requests, /a differs only in $.ts (left out) and in its
    // keys' order, /c in a price within 1 %, /b in its price: the 20 to /b
    // fail "same as first", saying where; the first server's step has none.
    void diffAgainstASecondServer()
    {
        std::string log;
        const char* paths[] = {"/a", "/b", "/c"};
        for (int i = 0; i < 60; ++i)
            log += logLine("10.8.0." + std::to_string(i % 5), i / 30,
                           std::string(paths[i % 3]) + "?i=" + std::to_string(i));
        const QString file = writeFile(m_dir, "diffed.log", QByteArray::fromStdString(log));
        const auto rule = [](const char* path, const char* body) {
            return QStringLiteral("{\"path\": \"%1\", \"status\": 200, \"body\": \"%2\", \"headers\": "
                                  "[{\"name\": \"Content-Type\", \"value\": \"application/json\"}]}")
                .arg(QLatin1String(path),
                     QString::fromLatin1(body).replace(QLatin1String("\""), QLatin1String("\\\"")));
        };
        MockProcess first(QStringLiteral("{\"rules\": [%1, %2, %3]}")
                              .arg(rule("/a", "{\"id\":1,\"price\":10.0,\"ts\":111}"),
                                   rule("/b", "{\"id\":2,\"price\":10.0,\"ts\":111}"),
                                   rule("/c", "{\"id\":3,\"price\":10.0}")));
        MockProcess second(QStringLiteral("{\"rules\": [%1, %2, %3]}")
                               .arg(rule("/a", "{\"ts\":999,\"price\":10.0,\"id\":1}"),
                                    rule("/b", "{\"id\":2,\"price\":11.5,\"ts\":5}"),
                                    rule("/c", "{\"id\":3,\"price\":10.05}")));
        QVERIFY(first.started() && second.started());
        const QString summary = m_dir.filePath(QStringLiteral("diffed.json"));
        const auto r =
            runCli({QStringLiteral("replay"), file, QStringLiteral("--target"), first.url(QString()),
                    QStringLiteral("--diff-against"), second.url(QString()), QStringLiteral("--diff-ignore"),
                    QStringLiteral("$.ts"), QStringLiteral("--diff-tolerance"), QStringLiteral("1%"),
                    QStringLiteral("--speed"), QStringLiteral("4"), QStringLiteral("-q"), QStringLiteral("--engines"),
                    QStringLiteral("1"), QStringLiteral("--summary-json"), summary});
        const QJsonArray steps = readJson(summary)[QStringLiteral("steps")].toArray();
        QVERIFY2(steps.size() == 2, qPrintable(r.err));
        const QJsonObject one = steps[0].toObject(), two = steps[1].toObject();
        QCOMPARE(one[QStringLiteral("requests")].toInteger(), 60);
        QCOMPARE(one[QStringLiteral("errors")].toInteger(), 0);
        QCOMPARE(two[QStringLiteral("requests")].toInteger(), 60);
        QVERIFY2(two[QStringLiteral("name")].toString().startsWith(QStringLiteral("replay (second) 127.0.0.1:")),
                 qPrintable(two[QStringLiteral("name")].toString()));
        const QJsonObject same = two[QStringLiteral("checks")].toObject().begin().value().toObject();
        QCOMPARE(same[QStringLiteral("passed")].toInteger(), 40);
        QCOMPARE(same[QStringLiteral("failed")].toInteger(), 20);
        QCOMPARE(same[QStringLiteral("message")].toString(), QStringLiteral("$.price: 11.5, first 10.0"));
        QCOMPARE(two[QStringLiteral("errors")].toInteger(), 20);

        // bad rules are refused before any load
        const auto bad = runCli({QStringLiteral("replay"), file, QStringLiteral("--target"), first.url(QString()),
                                 QStringLiteral("--diff-against"), second.url(QString()),
                                 QStringLiteral("--diff-ignore"), QStringLiteral("ts"), QStringLiteral("-q")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(QStringLiteral("is not a JSON path")), qPrintable(bad.err));
        const auto alone = runCli({QStringLiteral("replay"), file, QStringLiteral("--target"), first.url(QString()),
                                   QStringLiteral("--diff-tolerance"), QStringLiteral("1%"), QStringLiteral("-q")});
        QCOMPARE(alone.exitCode, 2);
        QVERIFY2(alone.err.contains(QStringLiteral("give --diff-against")), qPrintable(alone.err));
    }

    // The same recorded requests over HTTP/2 (h2c with prior knowledge) to
    // the mock: every one answered, none an error.
    void overHttp2()
    {
        std::string log;
        for (int i = 0; i < 600; ++i)
            log += logLine("10.6.0." + std::to_string(i % 11), i / 300, "/h2?uid=" + std::to_string(i));
        const QString file = writeFile(m_dir, "h2.log", QByteArray::fromStdString(log));
        MockProcess mock;
        QVERIFY(mock.started());
        const QString summary = m_dir.filePath(QStringLiteral("h2.json"));
        const auto r = runCli({QStringLiteral("replay"), file, QStringLiteral("--target"), mock.url(QString()),
                               QStringLiteral("--http"), QStringLiteral("2"), QStringLiteral("--streams"),
                               QStringLiteral("4"), QStringLiteral("--connections"), QStringLiteral("4"),
                               QStringLiteral("-q"), QStringLiteral("--summary-json"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject total = readJson(summary)[QStringLiteral("total")].toObject();
        QCOMPARE(total[QStringLiteral("requests")].toInteger(), 600);
        QCOMPARE(total[QStringLiteral("errors")].toInteger(), 0);
    }

    void badInputExitsTwo_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown variable")
            << QStringList{QStringLiteral("--format"), QStringLiteral("$remote_addr [$time_local] \"$request\" $nope")}
            << "$nope";
        QTest::newRow("speed 0") << QStringList{QStringLiteral("--speed"), QStringLiteral("0")}
                                 << "--speed: must be above 0";
        QTest::newRow("negative speed") << QStringList{QStringLiteral("--speed=-2")} << "--speed";
        QTest::newRow("offset on a missing key")
            << QStringList{QStringLiteral("--offset"), QStringLiteral("query:account+5")}
            << "no request of the traffic has the query parameter \"account\"";
        QTest::newRow("amplify 0") << QStringList{QStringLiteral("--amplify"), QStringLiteral("0")} << "--amplify";
        QTest::newRow("loop without duration") << QStringList{QStringLiteral("--loop")} << "a loop needs";
        QTest::newRow("no target") << QStringList{QStringLiteral("--target=")} << "--target";
        QTest::newRow("a rate") << QStringList{QStringLiteral("--rate"), QStringLiteral("100")} << "--rate";
    }
    void badInputExitsTwo()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        std::string log;
        for (int i = 0; i < 50; ++i)
            log += logLine("10.5.0.1", 0, "/x?uid=" + std::to_string(i));
        const QString file = writeFile(m_dir, "bad.log", QByteArray::fromStdString(log));
        CountingServer server;
        QStringList all = {QStringLiteral("replay"), file};
        if (!args.contains(QStringLiteral("--target=")))
            all << QStringLiteral("--target") << server.url();
        const auto r = runCli(all + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QCOMPARE(server.seen().size(), std::size_t(0));
    }

    void missingSetOrFileExitsTwo()
    {
        const QString project = m_dir.filePath(QStringLiteral("empty.stampede"));
        CountingServer server;
        auto r = runCli({QStringLiteral("import"), sourceDir() + QStringLiteral("/tests/engine/data/browser.har"),
                         QStringLiteral("--project"), project, QStringLiteral("--traffic"), QStringLiteral("-q")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = runCli(
            {QStringLiteral("replay"), project + QStringLiteral("@nope"), QStringLiteral("--target"), server.url()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("no traffic set named \"nope\"")), qPrintable(r.err));
        r = runCli({QStringLiteral("replay"), m_dir.filePath(QStringLiteral("absent.log")), QStringLiteral("--target"),
                    server.url()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("absent.log")), qPrintable(r.err));
        // a set that replays: the HAR's two requests, to its mapped host
        r = runCli({QStringLiteral("replay"), project + QStringLiteral("@browser.har"), QStringLiteral("--host"),
                    QStringLiteral("shop.example.com=") + server.url(), QStringLiteral("-q")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(server.seen().size(), std::size_t(2));
    }
};

QTEST_GUILESS_MAIN(TestReplay)
#include "tst_replay.moc"
