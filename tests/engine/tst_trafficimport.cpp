// Recorded traffic read for replay (issue "Traffic replay"): nginx's combined
// format and log_format directives compiled (unknown variables refused),
// lines read with their times, requests, headers and bodies unescaped as
// nginx writes them, bad lines counted with their numbers, gzip'd logs,
// progress and cancel, HAR 1.2 files, and the import's speed.
#include "traffic/trafficimport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <zlib.h>

#include <fstream>

using namespace stampede;

namespace {

constexpr std::int64_t kSecond = 1000000000;

LogFormat compile(const char* text)
{
    std::string error;
    auto f = LogFormat::compile(text, error);
    if (!f)
        qFatal("%s", error.c_str());
    return *f;
}

std::string header(const TrafficRecord& r, const char* name)
{
    for (const auto& [n, v] : r.headers)
        if (n == name)
            return v;
    return "(none)";
}

// JSON access log lines of the tests below (raw strings: kept out of the class for moc)
const char* const kLine0 =
    "{\"ua\":\"curl/8\",\"status\":201,\"extra\":{\"x\":1},\"rt\":0.004,\"req\":{\"body\":"
    "\"{\\\"k\\\":\\\"\\u5f20\\\"}\","
    R"("uri":"/api/orders?id=7","method":"POST"},"remote":"10.0.0.9","time":"2026-12-01T10:00:00Z"})";
const char* const kLine1 = R"({"req":{"uri":"/a","method":"GET"},"status":"abc"})";
const char* const kLine2 = R"({"status":200})";
const char* const kLine3 = R"({"level":"info","ts":1646861401.524,"logger":"http.log.access","msg":"handled request",)"
                           R"("request":{"remote_ip":"127.0.0.1","remote_port":"41342","client_ip":"10.1.1.1",)"
                           R"("proto":"HTTP/1.1","method":"GET","host":"shop.example","uri":"/cart?x=1",)"
                           R"("headers":{"User-Agent":["curl/7.82.0"],"Accept":["text/html","application/json"]}},)"
                           R"("bytes_read":0,"user_id":"","duration":0.000929675,"size":10900,"status":200,)"
                           R"("resp_headers":{"Server":["Caddy"]}})";
const char* const kLine4 = R"({"ClientAddr":"10.0.0.5:53110","ClientHost":"10.0.0.5","DownstreamStatus":404,)"
                           R"("Duration":2543000,"RequestHost":"api.example","RequestMethod":"DELETE",)"
                           R"("RequestPath":"/v1/items/3","RequestProtocol":"HTTP/2.0",)"
                           R"("StartUTC":"2026-12-01T10:00:00.5Z","request_X-Request-Id":"abc"})";

} // namespace

class TestTrafficImport : public QObject
{
    Q_OBJECT
private slots:
    void combinedLine()
    {
        TrafficRecord r;
        std::string why;
        QVERIFY2(LogFormat::combined().parse("127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] \"GET /apache_pb.gif?a=1 "
                                             "HTTP/1.0\" 200 2326 \"http://www.example.com/start.html\" \"Mozilla/4.08 "
                                             "[en] (Win98; I ;Nav)\"",
                                             r, why),
                 why.c_str());
        QCOMPARE(r.atNanos, 971211336 * kSecond); // 13:55:36 at -07:00 is 20:55:36 UTC
        QCOMPARE(r.client, std::string("127.0.0.1"));
        QCOMPARE(r.method, std::string("GET"));
        QCOMPARE(r.target, std::string("/apache_pb.gif?a=1"));
        QCOMPARE(r.status, 200);
        QCOMPARE(header(r, "referer"), std::string("http://www.example.com/start.html"));
        QCOMPARE(header(r, "user-agent"), std::string("Mozilla/4.08 [en] (Win98; I ;Nav)"));
        // "-" is no value: no header at all
        QVERIFY(LogFormat::combined().parse(
            "10.0.0.2 - - [01/Dec/2026:00:00:01 +0800] \"POST /api/orders HTTP/1.1\" 201 17 \"-\" \"-\"", r, why));
        QCOMPARE(header(r, "referer"), std::string("(none)"));
        QCOMPARE(r.atNanos, 1796054401 * kSecond); // 00:00:01 at +08:00 is 16:00:01 UTC the day before
        QCOMPARE(r.method, std::string("POST"));
    }

    void logFormatDirective()
    {
        const LogFormat f = compile("log_format replay escape=json '$remote_addr [$time_iso8601] $msec '\n"
                                    "    '\"$request\" $status rt=$request_time body=\"$request_body\" "
                                    "tok=\"$http_x_token\" host=$host up=$upstream_response_time';");
        TrafficRecord r;
        std::string why;
        QVERIFY2(f.parse("10.1.2.3 [2026-12-01T10:00:00+08:00] 1796090400.250 \"POST /api/login?next=%2F HTTP/2.0\" "
                         "200 rt=0.012 body=\"{\\\"user\\\":\\\"\\u5f20\\u4e09\\\",\\\"pw\\\":\\\"a\\\\\\\"b\\\"}\" "
                         "tok=\"Bearer abc\" host=api.example.com up=0.010",
                         r, why),
                 why.c_str());
        QCOMPARE(r.atNanos, 1796090400 * kSecond + 250000000); // $msec is the last time in the line
        QCOMPARE(r.method, std::string("POST"));
        QCOMPARE(r.target, std::string("/api/login?next=%2F"));
        QCOMPARE(r.body, std::string("{\"user\":\"\xe5\xbc\xa0\xe4\xb8\x89\",\"pw\":\"a\\\"b\"}"));
        QCOMPARE(header(r, "x-token"), std::string("Bearer abc"));
        QCOMPARE(r.host, std::string("api.example.com"));
        QCOMPARE(r.durationS, 0.012);
        // nginx's default escaping: \xHH
        const LogFormat g = compile("'$time_local|$request_method|$uri|$args|$request_body'");
        QVERIFY2(g.parse("01/Dec/2026:10:00:00 +0000|PUT|/a b|x=1|{\\x22k\\x22: 1}", r, why), why.c_str());
        QCOMPARE(r.method, std::string("PUT"));
        QCOMPARE(r.target, std::string("/a b?x=1"));
        QCOMPARE(r.body, std::string("{\"k\": 1}"));
        // a bare format string works the same
        QVERIFY(LogFormat::compile("$remote_addr $request_uri", why));
    }

    // Issue 29: a JSON log written by nginx's own escape=json log_format is read
    // by key, in any order, nested keys by dots, unknown keys ignored.
    void jsonLogByKey()
    {
        const LogFormat f =
            compile("log_format json_combined escape=json '{\"time\":\"$time_iso8601\",\"remote\":\"$remote_addr\","
                    "\"req\":{\"method\":\"$request_method\",\"uri\":\"$request_uri\",\"body\":\"$request_body\"},"
                    "\"status\": $status, \"rt\": $request_time, \"ua\":\"$http_user_agent\", \"v\": \"1\"}';");
        QCOMPARE(f.name(), std::string("json"));
        TrafficRecord r;
        std::string why;
        // keys in another order than the format's, an extra key, a JSON-escaped body
        QVERIFY2(f.parse(kLine0, r, why), why.c_str());
        QCOMPARE(r.method, std::string("POST"));
        QCOMPARE(r.target, std::string("/api/orders?id=7"));
        QCOMPARE(r.body, std::string("{\"k\":\"\xe5\xbc\xa0\"}"));
        QCOMPARE(r.status, 201);
        QCOMPARE(r.durationS, 0.004);
        QCOMPARE(r.client, std::string("10.0.0.9"));
        QCOMPARE(header(r, "user-agent"), std::string("curl/8"));
        QCOMPARE(r.atNanos, std::int64_t(1796119200) * kSecond);
        // what does not match names the format and the key
        QVERIFY(!f.parse(kLine1, r, why));
        QVERIFY2(why.find("format json") == 0 && why.find("\"status\"") != std::string::npos, why.c_str());
        QVERIFY(!f.parse("10.0.0.1 - - [01/Dec/2026:10:00:00 +0000] \"GET / HTTP/1.1\" 200 1", r, why));
        QVERIFY2(why == "format json: not a JSON object", why.c_str());
        QVERIFY(!f.parse(kLine2, r, why));
        QVERIFY2(why.find("no request target") != std::string::npos, why.c_str());
    }

    // The default access logs of Caddy, Traefik, Envoy and HAProxy, by name.
    void presets()
    {
        TrafficRecord r;
        std::string why;
        const LogFormat caddy = compile("caddy");
        QVERIFY2(caddy.parse(kLine3, r, why), why.c_str());
        QCOMPARE(r.target, std::string("/cart?x=1"));
        QCOMPARE(r.host, std::string("shop.example"));
        QCOMPARE(r.client, std::string("10.1.1.1"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.atNanos, std::int64_t(1646861401524) * 1000000);
        QCOMPARE(header(r, "user-agent"), std::string("curl/7.82.0"));
        QCOMPARE(header(r, "accept"), std::string("text/html, application/json"));
        QCOMPARE(header(r, "server"), std::string("(none)")); // the answer's, not the request's

        const LogFormat traefik = compile("traefik");
        QVERIFY2(traefik.parse(kLine4, r, why), why.c_str());
        QCOMPARE(r.method, std::string("DELETE"));
        QCOMPARE(r.target, std::string("/v1/items/3"));
        QCOMPARE(r.status, 404);
        QCOMPARE(r.durationS, 0.002543);
        QCOMPARE(header(r, "x-request-id"), std::string("abc"));
        QCOMPARE(r.atNanos, std::int64_t(1796119200) * kSecond + 500000000);

        const LogFormat envoy = compile("envoy");
        QVERIFY2(envoy.parse("[2016-04-15T20:17:00.310Z] \"POST /api/v1/locations HTTP/2\" 204 - 154 0 226 100 "
                             "\"10.0.35.28\" \"nsq2http\" \"cc21d9b0-cf5c-432b-8c7e-98aeb7988cd2\" \"locations\" "
                             "\"tcp://10.0.2.1:80\"",
                             r, why),
                 why.c_str());
        QCOMPARE(r.method, std::string("POST"));
        QCOMPARE(r.target, std::string("/api/v1/locations"));
        QCOMPARE(r.status, 204);
        QCOMPARE(r.durationS, 0.226);
        QCOMPARE(r.host, std::string("locations"));
        QCOMPARE(header(r, "x-forwarded-for"), std::string("10.0.35.28"));

        const LogFormat haproxy = compile("haproxy");
        for (const char* prefix : {"", "Feb  6 12:14:14 localhost haproxy[14389]: "}) {
            QVERIFY2(haproxy.parse(std::string(prefix) +
                                       "10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1 "
                                       "10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {1wt.eu} {} \"GET /index.html "
                                       "HTTP/1.1\"",
                                   r, why),
                     why.c_str());
            QCOMPARE(r.client, std::string("10.0.1.2"));
            QCOMPARE(r.target, std::string("/index.html"));
            QCOMPARE(r.status, 200);
            QCOMPARE(r.durationS, 0.109);
            QCOMPARE(r.atNanos, std::int64_t(1233922454) * kSecond + 655000000);
        }
        QVERIFY(!haproxy.parse("10.0.1.2:33317 [2009-02-06 12:14:14] x y 1/2/3/4/5 200 1 \"GET / HTTP/1.1\"", r, why));
        QVERIFY2(why.find("format haproxy: $haproxy_time: the time") == 0, why.c_str());
        // the combined format names the field after which the line stopped matching
        QVERIFY(!LogFormat::combined().parse("10.0.0.1 - - 01/Dec/2026 \"GET / HTTP/1.1\" 200 1", r, why));
        QVERIFY2(why == "format combined: the line ends before \" [\" (after $remote_user)", why.c_str());
    }

    void badFormatsNameTheProblem_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown variable") << "log_format x '$remote_addr $nope \"$request\"';"
                                          << "unknown variable $nope in the log format";
        QTest::newRow("adjacent") << "$remote_addr$request"
                                  << "$request follows another variable";
        QTest::newRow("no request") << "$remote_addr [$time_local]"
                                    << "the log format has no $request";
        QTest::newRow("unclosed quote") << "log_format x '$request"
                                        << "a quote of the log format is not closed";
        QTest::newRow("unquoted") << "log_format x $request;"
                                  << "the log format's parts must be quoted";
        QTest::newRow("empty") << ""
                               << "the log format is empty";
        QTest::newRow("bare dollar") << "$ $request"
                                     << "a \"$\" in the log format names no variable";
    }
    void badFormatsNameTheProblem()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        std::string error;
        QVERIFY(!LogFormat::compile(text.toStdString(), error));
        QVERIFY2(QString::fromStdString(error).startsWith(message), error.c_str());
    }

    void badLinesAreCountedWithTheirNumbers()
    {
        std::string text;
        for (int i = 0; i < 30; ++i) {
            text += "10.0.0.1 - - [01/Dec/2026:10:00:0" + std::to_string(i % 10) +
                    " +0000] \"GET /ok HTTP/1.1\" 200 1 \"-\" \"-\"\n";
            if (i % 3 == 0)
                text += "garbage line " + std::to_string(i) + "\n";
            if (i == 4)
                text += "\n   \n"; // blank lines are not lines of traffic
        }
        text += "10.0.0.1 - - [31/Foo/2026:10:00:00 +0000] \"GET / HTTP/1.1\" 200 1 \"-\" \"-\"\n";
        text += "10.0.0.1 - - [01/Dec/2026:10:00:00 +0000] \"\\x16\\x03\\x01\" 400 1 \"-\" \"-\"";
        TrafficImport out;
        importLogText(text, LogFormat::combined(), out);
        QCOMPARE(out.records.size(), std::size_t(30));
        QCOMPARE(out.bad, std::uint64_t(12));
        QCOMPARE(out.lines, std::uint64_t(42));
        QCOMPARE(out.problems.size(), std::size_t(12));
        QCOMPARE(out.problems[0].line, std::uint64_t(2)); // after the first good line
        QCOMPARE(out.problems[0].text, std::string("garbage line 0"));
        QCOMPARE(out.problems[0].why, // no " - " after the address
                 std::string("format combined: the line ends before \" - \" (after $remote_addr)"));
        QCOMPARE(out.problems[2].line,
                 std::uint64_t(12)); // "garbage line 6": the two blank lines count as lines of the file
        QVERIFY(out.problems[10].why.find("is not dd/Mon/yyyy") != std::string::npos);
        QVERIFY(out.problems[11].why.find("is not METHOD TARGET PROTOCOL") != std::string::npos);
        for (std::size_t i = 1; i < out.records.size(); ++i) // in time order
            QVERIFY(out.records[i - 1].atNanos <= out.records[i].atNanos);
        // only the first 20 problems are kept, every one is counted
        TrafficImport many;
        std::string junk;
        for (int i = 0; i < 50; ++i)
            junk += "junk\n";
        importLogText(junk, LogFormat::combined(), many);
        QCOMPARE(many.bad, std::uint64_t(50));
        QCOMPARE(many.problems.size(), TrafficImport::kMaxProblems);
        QCOMPARE(many.problems.back().line, std::uint64_t(20));
    }

    // A gzip'd log reads as the plain one; progress is told and a cancel keeps what was read.
    void gzipProgressAndCancel()
    {
        QTemporaryDir dir;
        std::string text;
        for (int i = 0; i < 100000; ++i)
            text += "10.0.0." + std::to_string(i % 250) + " - - [01/Dec/2026:10:" + (i / 6000 < 10 ? "0" : "") +
                    std::to_string(i / 6000) + ":00 +0000] \"GET /item/" + std::to_string(i) +
                    " HTTP/1.1\" 200 5 \"-\" \"bench\"\n";
        const std::string plain = dir.filePath(QStringLiteral("access.log")).toStdString();
        const std::string packed = dir.filePath(QStringLiteral("access.log.gz")).toStdString();
        std::ofstream(plain) << text;
        gzFile gz = gzopen(packed.c_str(), "wb");
        QVERIFY(gz);
        QCOMPARE(gzwrite(gz, text.data(), unsigned(text.size())), int(text.size()));
        gzclose(gz);
        TrafficImport a, b;
        std::string error;
        std::vector<double> seen;
        QVERIFY2(importLog(plain, LogFormat::combined(), a, error), error.c_str());
        QVERIFY2(importLog(packed, LogFormat::combined(), b, error,
                           [&](double f) {
                               seen.push_back(f);
                               return true;
                           }),
                 error.c_str());
        QCOMPARE(a.records.size(), std::size_t(100000));
        QCOMPARE(b.records.size(), a.records.size());
        QCOMPARE(b.records.back().target, std::string("/item/99999"));
        QCOMPARE(a.bad + b.bad, std::uint64_t(0));
        QVERIFY(!seen.empty() && seen.back() <= 1.0);
        TrafficImport c;
        int calls = 0;
        QVERIFY(importLog(plain, LogFormat::combined(), c, error, [&](double) { return ++calls < 2; }));
        QVERIFY(c.cancelled);
        QVERIFY(!c.records.empty() && c.records.size() < a.records.size());
        QVERIFY(!importLog(dir.filePath(QStringLiteral("nope.log")).toStdString(), LogFormat::combined(), c, error));
        QVERIFY(error.find("nope.log") != std::string::npos);
    }

    // A browser's recording, written to HAR 1.2 by hand: a redirect, a POST body,
    // HTTP/2 pseudo-headers; a broken entry is a problem, not a failure.
    void harFile()
    {
        // tests/engine/data/browser.har
        QFile file(qEnvironmentVariable("STAMPEDE_SOURCE_DIR") + QStringLiteral("/tests/engine/data/browser.har"));
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
        const std::string har = file.readAll().toStdString();
        HarRead out;
        std::string error;
        QVERIFY2(readHar(har, out, error), error.c_str());
        QCOMPARE(out.entries, std::uint64_t(3));
        QCOMPARE(out.records.size(), std::size_t(2));
        QCOMPARE(out.bad, std::uint64_t(1));
        QVERIFY(out.problems[0].why.find("entries[2]: startedDateTime \"yesterday\"") == 0);
        const TrafficRecord& home = out.records[0]; // 02:00:00.100Z comes before 10:00:00.500+08:00
        QCOMPARE(home.target, std::string("https://shop.example.com/home?from=login"));
        const TrafficRecord& login = out.records[1];
        QCOMPARE(login.atNanos - home.atNanos, std::int64_t(400000000));
        QCOMPARE(login.method, std::string("POST"));
        QCOMPARE(login.body, std::string("{\"user\":\"a\",\"pw\":\"secret\"}"));
        QCOMPARE(login.status, 302);
        QCOMPARE(login.host, std::string("shop.example.com"));
        QCOMPARE(login.headers.size(), std::size_t(1)); // no :authority, no Content-Length
        QCOMPARE(login.headers[0].first, std::string("content-type"));
        QCOMPARE(login.durationS, 0.0125);
        QVERIFY(!readHar("{\"not\": \"har\"}", out, error));
        QVERIFY(error.find("no \"log\"") != std::string::npos);
        QVERIFY(!readHar("<html>", out, error));
    }

    void times()
    {
        QCOMPARE(parseIso8601("1970-01-01T00:00:00Z").value_or(-1), std::int64_t(0));
        QCOMPARE(parseIso8601("1970-01-01T08:00:01.5+08:00").value_or(-1), std::int64_t(1500000000));
        QCOMPARE(parseIso8601("1970-01-01T00:00:01-0100").value_or(-1), std::int64_t(3601) * kSecond);
        QCOMPARE(parseIso8601("2024-02-29 12:00:00").value_or(-1), std::int64_t(1709208000) * kSecond);
        QVERIFY(!parseIso8601("2024-13-01T00:00:00Z"));
        QVERIFY(!parseIso8601("2024-01-01T00:00:00.Z"));
        QVERIFY(!parseIso8601("2024-01-01T00:00:00Zjunk"));
        QCOMPARE(parseTimeLocal("01/Jan/1970:00:00:00 +0000").value_or(-1), std::int64_t(0));
        QVERIFY(!parseTimeLocal("1/Jan/1970:00:00:00 +0000"));
        QVERIFY(!parseTimeLocal("01/Foo/1970:00:00:00 +0000"));
        QCOMPARE(unescapeLogValue("a\\x41\\u00e9\\\"\\q"), std::string("aA\xc3\xa9\"\\q"));
    }

    // The issue asks 200,000 lines a second on one core (measured in a release
    // build by the benchmark); here a debug-friendly floor, and the figure.
    void importSpeed()
    {
        std::string text;
        for (int i = 0; i < 200000; ++i)
            text += "10.0.0." + std::to_string(i % 250) + " - - [01/Dec/2026:10:00:" + (i % 60 < 10 ? "0" : "") +
                    std::to_string(i % 60) + " +0800] \"GET /api/items/" + std::to_string(i) +
                    "?user=" + std::to_string(i * 7) +
                    " HTTP/1.1\" 200 512 \"https://shop.example.com/\" "
                    "\"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36\"\n";
        QElapsedTimer t;
        t.start();
        TrafficImport out;
        importLogText(text, LogFormat::combined(), out);
        const double perSecond = 200000.0 / (double(t.nsecsElapsed()) / 1e9);
        qInfo("imported %.0f combined lines a second", perSecond);
        QCOMPARE(out.records.size(), std::size_t(200000));
#if defined(__SANITIZE_ADDRESS__)
        QVERIFY(perSecond > 5000); // instrumented: ten times slower, still not a crawl
#else
        QVERIFY2(perSecond > 50000, qPrintable(QString::number(perSecond)));
#endif
    }
};

QTEST_APPLESS_MAIN(TestTrafficImport)
#include "tst_trafficimport.moc"
