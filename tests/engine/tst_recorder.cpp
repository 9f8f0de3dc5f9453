// The traffic recorder (issue 29): requests read from a peer's bytes
// (pipelined, split anywhere, chunked, HTTP/1.0, strict about smuggling and
// limits), kept by a live recorder on loopback over HTTP/1.1 and h2c with
// their bodies and client, filtered by host, path and sample, bounded by its
// queue (drops counted, never a wait); a traffic set appended chunk by chunk
// reads back whole. Trace context's grammar and derived ids.
#include "core/tracecontext.h"
#include "store/projectstore.h"
#include "traffic/recorder.h"
#include "traffic/requestreader.h"
#include "traffic/trafficstore.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace stampede;

namespace {

using Result = HttpRequestReader::Result;

// Every request in `bytes`, fed `step` bytes at a time as a connection would.
std::vector<HttpRequest> readAll(const std::string& bytes, std::size_t step, std::string* error = nullptr)
{
    HttpRequestReader reader;
    std::vector<HttpRequest> out;
    std::string in;
    std::size_t start = 0;
    for (std::size_t at = 0; at < bytes.size();) {
        const std::size_t n = std::min(step, bytes.size() - at);
        in.append(bytes, at, n);
        at += n;
        for (;;) {
            HttpRequest r;
            std::size_t used = 0;
            const Result res = reader.read(std::string_view(in).substr(start), r, used);
            if (res == Result::Error) {
                if (error)
                    *error = reader.error();
                return out;
            }
            if (res == Result::NeedMore)
                break;
            start += used;
            out.push_back(std::move(r));
        }
    }
    return out;
}

int connectTo(std::uint16_t port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// Sends `bytes` and reads until `answers` 204s came (or 5 s).
std::string exchange(std::uint16_t port, const std::string& bytes, int answers)
{
    const int fd = connectTo(port);
    if (fd < 0)
        return {};
    [[maybe_unused]] auto w = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    std::string got;
    timeval tv{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char buf[4096];
    int seen = 0;
    while (seen < answers) {
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0)
            break;
        got.append(buf, std::size_t(n));
        seen = 0;
        for (std::size_t p = 0; (p = got.find("HTTP/1.1 ", p)) != std::string::npos; ++p)
            ++seen;
    }
    ::close(fd);
    return got;
}

std::vector<TrafficRecord> takeAtLeast(Recorder& r, std::size_t n)
{
    std::vector<TrafficRecord> out;
    for (int i = 0; i < 500 && out.size() < n; ++i) {
        r.take(out);
        if (out.size() < n)
            QThread::msleep(10);
    }
    return out;
}

std::string header(const TrafficRecord& r, const char* name)
{
    for (const auto& [n, v] : r.headers)
        if (n == name)
            return v;
    return "(none)";
}

} // namespace

class TestRecorder : public QObject
{
    Q_OBJECT

private slots:
    // Pipelined requests, fed a byte at a time and all at once, read the same.
    void readsPipelinedAndSplit()
    {
        const std::string bytes = "GET /a?x=1 HTTP/1.1\r\nHost: shop.example\r\nX-Trace: t1\r\n\r\n"
                                  "POST /b HTTP/1.1\r\nHost: shop.example\r\nContent-Length: 5\r\n\r\nhello"
                                  "PUT /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                                  "3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nX-Trailer: t\r\n\r\n"
                                  "GET /d HTTP/1.0\r\n\r\n";
        for (const std::size_t step : {std::size_t(1), std::size_t(7), bytes.size()}) {
            const auto rs = readAll(bytes, step);
            QCOMPARE(rs.size(), std::size_t(4));
            QCOMPARE(rs[0].method, std::string("GET"));
            QCOMPARE(rs[0].target, std::string("/a?x=1"));
            QCOMPARE(rs[0].headers.size(), std::size_t(2));
            QCOMPARE(rs[0].headers[1].first, std::string("x-trace"));
            QVERIFY(rs[0].keepAlive);
            QCOMPARE(rs[1].body, std::string("hello"));
            QCOMPARE(rs[2].body, std::string("abcde"));
            QCOMPARE(rs[3].target, std::string("/d"));
            QVERIFY(rs[3].http10 && !rs[3].keepAlive);
        }
    }

    void refusesWhatItCannotTrust_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        QTest::newRow("smuggling") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: "
                                                 "chunked\r\n\r\n0\r\n\r\n")
                                   << "both chunked and a content-length";
        QTest::newRow("two lengths") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n")
                                     << "two different content-length";
        QTest::newRow("signed length") << QByteArray("POST / HTTP/1.1\r\nContent-Length: -3\r\n\r\n")
                                       << "content-length";
        QTest::newRow("huge length") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n")
                                     << "content-length";
        QTest::newRow("folded") << QByteArray("GET / HTTP/1.1\r\nA: b\r\n c\r\n\r\n") << "folded";
        QTest::newRow("version") << QByteArray("GET / HTTP/2.0\r\n\r\n") << "not HTTP/1.0 or HTTP/1.1";
        QTest::newRow("control") << QByteArray("GET / HTTP/1.1\r\nA: b\x01\r\n\r\n") << "control character";
        QTest::newRow("gzip") << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n") << "other than";
        QTest::newRow("chunk size") << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
                                    << "chunk size";
        QTest::newRow("big chunk") << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nffffffff\r\n")
                                   << "past 16 MiB";
        QTest::newRow("head") << QByteArray("GET / HTTP/1.1\r\nA: ") + QByteArray(70000, 'a') << "64 KiB";
        QByteArray chunks = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
        for (int i = 0; i < 4097; ++i) // 16 MiB and a chunk more, in chunks of 4 KiB, never ended
            chunks += "1000\r\n" + QByteArray(4096, 'a') + "\r\n";
        QTest::newRow("many chunks") << chunks << "past 16 MiB";
    }
    void refusesWhatItCannotTrust()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        std::string error;
        const auto rs = readAll(bytes.toStdString(), 13, &error);
        QVERIFY(rs.empty());
        QVERIFY2(QString::fromStdString(error).contains(message), error.c_str());
    }

    // A client that sends a chunked body that never ends, as fast as it can: the recorder reads what comes at
    // once and stops at the body's 16 MiB (a 400, the connection closed), not after its buffer took all that
    // came (it read on while the socket had more: 200 MB of a 200 MB body were held, and more would have been).
    void aBodyThatNeverEndsIsStoppedAtItsLimit()
    {
        Recorder rec({});
        std::string error;
        QVERIFY2(rec.start("127.0.0.1:0", error), error.c_str());
        const int fd = connectTo(rec.port());
        QVERIFY(fd >= 0);
        timeval tv{5, 0};
        ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
        ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        std::string chunk = "POST /up HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n";
        std::string piece;
        for (int i = 0; i < 16; ++i)
            piece += "1000\r\n" + std::string(4096, 'b') + "\r\n";
        std::uint64_t sent = 0;
        const std::uint64_t most = 256ull << 20;
        for (bool first = true; sent < most; first = false) {
            const std::string& bytes = first ? chunk + piece : piece;
            const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
            if (n <= 0)
                break;
            sent += std::uint64_t(n);
        }
        std::string answer(64, '\0');
        const ssize_t got = ::recv(fd, answer.data(), answer.size(), 0);
        ::close(fd);
        QVERIFY2(sent < (48ull << 20), qPrintable(QString::number(sent))); // 16 MiB and what the sockets hold
        QVERIFY2(got <= 0 || answer.rfind("HTTP/1.1 400", 0) == 0, answer.c_str());
        std::vector<TrafficRecord> none;
        rec.take(none);
        QVERIFY(none.empty());
    }

    // A live recorder on loopback: HTTP/1.1 keep-alive with a chunked body,
    // HTTP/1.0, the client from X-Forwarded-For; all answered 204, kept in order.
    void recordsOverHttp1()
    {
        Recorder rec({});
        std::string error;
        QVERIFY2(rec.start("127.0.0.1:0", error), error.c_str());
        const std::string got = exchange(rec.port(),
                                         "POST /login HTTP/1.1\r\nHost: api.example\r\nX-Forwarded-For: 10.0.0.7, "
                                         "10.0.0.1\r\nContent-Length: 9\r\n\r\n{\"a\": 1}\n"
                                         "PUT /c HTTP/1.1\r\nHost: api.example\r\nX-Real-IP: 10.9.9.9\r\n"
                                         "Transfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n0\r\n\r\n"
                                         "GET /last HTTP/1.0\r\nHost: api.example\r\n\r\n",
                                         3);
        QCOMPARE(got, std::string("HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"
                                  "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n"));
        const auto rs = takeAtLeast(rec, 3);
        QCOMPARE(rs.size(), std::size_t(3));
        QCOMPARE(rs[0].method, std::string("POST"));
        QCOMPARE(rs[0].body, std::string("{\"a\": 1}\n"));
        QCOMPARE(rs[0].client, std::string("10.0.0.7"));
        QCOMPARE(rs[0].host, std::string("api.example"));
        QCOMPARE(header(rs[0], "content-length"), std::string("(none)")); // the connection's, not the request's
        QCOMPARE(rs[1].body, std::string("abcd"));
        QCOMPARE(rs[1].client, std::string("10.9.9.9"));
        QCOMPARE(header(rs[1], "transfer-encoding"), std::string("(none)"));
        QCOMPARE(rs[2].client, std::string("127.0.0.1"));
        QVERIFY(rs[0].atNanos > 1700000000000000000 && rs[0].atNanos <= rs[2].atNanos);
        const auto c = rec.counts();
        QCOMPARE(c.received, std::uint64_t(3));
        QCOMPARE(c.kept, std::uint64_t(3));
        // a bad request: 400, the connection closed, counted
        QVERIFY(exchange(rec.port(), "GET / HTTP/9\r\n\r\n", 1).rfind("HTTP/1.1 400", 0) == 0);
        QTRY_COMPARE(rec.counts().bad, std::uint64_t(1));
        rec.stop();
    }

    // h2c with prior knowledge, by nghttp2's own client (nghttp from
    // nghttp2-client): the request, its body and its authority kept.
    void recordsOverH2c()
    {
        const QString nghttp = QStringLiteral("/usr/bin/nghttp");
        if (!QFile::exists(nghttp))
            QFAIL("nghttp is not installed: run scripts/install-deps.sh (nghttp2-client)");
        Recorder rec({});
        std::string error;
        QVERIFY2(rec.start("127.0.0.1:0", error), error.c_str());
        QTemporaryDir dir;
        QFile body(dir.filePath(QStringLiteral("body")));
        QVERIFY(body.open(QIODevice::WriteOnly));
        body.write("{\"order\": 42}");
        body.close();
        QProcess p;
        p.start(nghttp, {QStringLiteral("-d"), body.fileName(), QStringLiteral("-H"), QStringLiteral("x-k: v"),
                         QStringLiteral("http://127.0.0.1:%1/h2/path?q=1").arg(rec.port())});
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 0);
        const auto rs = takeAtLeast(rec, 1);
        QCOMPARE(rs.size(), std::size_t(1));
        QCOMPARE(rs[0].method, std::string("POST"));
        QCOMPARE(rs[0].target, std::string("/h2/path?q=1"));
        QCOMPARE(rs[0].body, std::string("{\"order\": 42}"));
        QCOMPARE(header(rs[0], "x-k"), std::string("v"));
        QCOMPARE(rs[0].host, "127.0.0.1:" + std::to_string(rec.port()));
    }

    // Host, path and sample decide what is kept; the rest is counted.
    void filters()
    {
        Recorder::Options o;
        o.filter.host = "api.example";
        std::string error;
        o.filter.include = Regex::compile("^/api/", error);
        o.filter.exclude = Regex::compile("^/api/health", error);
        Recorder rec(o);
        QVERIFY2(rec.start("127.0.0.1:0", error), error.c_str());
        std::string bytes;
        for (const char* line : {"GET /api/a HTTP/1.1\r\nHost: api.example:8080", "GET /api/b HTTP/1.1\r\nHost: other",
                                 "GET /static/x HTTP/1.1\r\nHost: api.example",
                                 "GET /api/health HTTP/1.1\r\nHost: "
                                 "API.example",
                                 "GET /api/c HTTP/1.1\r\nHost: API.EXAMPLE"})
            bytes += std::string(line) + "\r\n\r\n";
        exchange(rec.port(), bytes, 5);
        const auto rs = takeAtLeast(rec, 2);
        QCOMPARE(rs.size(), std::size_t(2));
        QCOMPARE(rs[0].target, std::string("/api/a"));
        QCOMPARE(rs[1].target, std::string("/api/c"));
        QTRY_COMPARE(rec.counts().filtered, std::uint64_t(3));

        // a 25 % sample of 4,000 requests keeps about a quarter
        FastRandom rng(7);
        RecordFilter sample;
        sample.samplePercent = 25;
        TrafficRecord r;
        int kept = 0;
        for (int i = 0; i < 4000; ++i)
            kept += sample.keeps(r, rng);
        QVERIFY2(kept > 850 && kept < 1150, std::to_string(kept).c_str());
    }

    // Past its queue's bound the recorder drops (and counts) instead of
    // making the gateway wait; --max-requests bounds what is kept.
    void dropsRatherThanBlocks()
    {
        Recorder::Options o;
        o.maxQueuedBytes = 64 * 1024; // about 100 requests of 500 bytes
        Recorder rec(o);
        std::string error;
        QVERIFY2(rec.start("127.0.0.1:0", error), error.c_str());
        std::string bytes;
        const std::string body(400, 'b');
        for (int i = 0; i < 400; ++i)
            bytes += "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 400\r\n\r\n" + body;
        // nothing is taken meanwhile: every request is still answered at once
        QElapsedTimer t;
        t.start();
        const std::string got = exchange(rec.port(), bytes, 400);
        QVERIFY(t.elapsed() < 3000);
        QTRY_COMPARE(rec.counts().kept + rec.counts().dropped, std::uint64_t(400));
        const auto c = rec.counts();
        QVERIFY2(c.dropped > 0 && c.kept + c.dropped == 400, std::to_string(c.dropped).c_str());
        std::vector<TrafficRecord> rs;
        rec.take(rs);
        QCOMPARE(rs.size(), std::size_t(c.kept));

        Recorder::Options bounded;
        bounded.maxRequests = 5;
        Recorder few(bounded);
        QVERIFY(few.start("127.0.0.1:0", error));
        std::string eight;
        for (int i = 0; i < 8; ++i)
            eight += "GET /" + std::to_string(i) + " HTTP/1.1\r\nHost: h\r\n\r\n";
        exchange(few.port(), eight, 8);
        QTRY_COMPARE(few.counts().kept, std::uint64_t(5));
        QCOMPARE(few.counts().over, std::uint64_t(3));
    }

    // A set appended chunk by chunk (as `record` writes it each second) reads
    // back whole and in order; its payload is the last one written.
    void appendedSetReadsBack()
    {
        QTemporaryDir dir;
        std::string error;
        auto store = ProjectStore::create(dir.filePath(QStringLiteral("p.stampede")).toStdString(), error);
        QVERIFY2(store, error.c_str());
        TrafficStore traffic(*store);
        const std::int64_t item = traffic.create("live", "{\"recording\": true}");
        QVERIFY(item);
        std::int64_t seq = 0;
        for (int chunk = 0; chunk < 3; ++chunk) {
            std::vector<TrafficRecord> rs(10);
            for (int i = 0; i < 10; ++i) {
                rs[std::size_t(i)].atNanos = chunk * 10 + i;
                rs[std::size_t(i)].target = "/" + std::to_string(chunk * 10 + i);
            }
            QVERIFY2(
                traffic.append(item, seq++, encodeChunk(rs), "{\"records\": " + std::to_string(chunk * 10 + 10) + "}"),
                traffic.error().c_str());
        }
        QVERIFY(traffic.append(item, -1, TrafficChunk{}, "{\"records\": 30, \"recording\": false}"));
        std::vector<TrafficRecord> all;
        QVERIFY(traffic.load(traffic.find("live"), all));
        QCOMPARE(all.size(), std::size_t(30));
        for (std::size_t i = 0; i < all.size(); ++i)
            QCOMPARE(all[i].target, "/" + std::to_string(i));
        QCOMPARE(store->item(item)->payload, std::string("{\"records\": 30, \"recording\": false}"));
    }

    void traceContext()
    {
        QCOMPARE(traceIdOf("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
                 std::string_view("4bf92f3577b34da6a3ce929d0e0e4736"));
        for (const char* bad : {"00-00000000000000000000000000000000-00f067aa0ba902b7-01", // zero trace id
                                "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", // zero span
                                "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", // upper case
                                "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", // version ff
                                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x", "", "00-abc"})
            QVERIFY2(traceIdOf(bad).empty(), bad);
        QVERIFY(!traceIdOf("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-later").empty());
        // a copy's trace: stable, its own, valid
        const std::string a = derivedTraceId("4bf92f3577b34da6a3ce929d0e0e4736", 1);
        QCOMPARE(a, derivedTraceId("4bf92f3577b34da6a3ce929d0e0e4736", 1));
        QVERIFY(a != derivedTraceId("4bf92f3577b34da6a3ce929d0e0e4736", 2));
        QVERIFY(a != derivedTraceId("4bf92f3577b34da6a3ce929d0e0e4737", 1));
        QVERIFY(traceHex(a, 32));
        FastRandom rng(1);
        std::string span;
        appendTraceHex(span, rng, 16);
        QVERIFY(traceHex(span, 16));
    }
};

QTEST_GUILESS_MAIN(TestRecorder)
#include "tst_recorder.moc"
