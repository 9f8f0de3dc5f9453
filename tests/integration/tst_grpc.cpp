// gRPC unary calls against independent peers: a Python grpcio server
// (Debian's python3-grpcio) with the tests' own echo.proto, and a C++ server
// with gRPC's reflection library. Templates and metadata reach the server,
// UNAVAILABLE answers are counted by code, deadlines are enforced, descriptors
// come by reflection, and bad input is refused with a clear message.
#include "store/projectstore.h"
#include "store/runlog.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace testsupport;

namespace {

PeerProcess* pythonPeer(int unavailableEvery = 0, const QStringList& extra = {})
{
    return new PeerProcess(QStringLiteral("/usr/bin/python3"),
                           QStringList{sourceDir() + QStringLiteral("/tests/integration/grpc/echo_server.py"),
                                       QStringLiteral("--descriptors"), QStringLiteral(ECHO_DESCRIPTORS),
                                       QStringLiteral("--unavailable-every"), QString::number(unavailableEvery)} +
                               extra);
}

qint64 num(const QJsonObject& o, const char* key)
{
    return o[QString::fromLatin1(key)].toInteger();
}

} // namespace

class TestGrpc : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString file(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }
    RunOutcome run(const QStringList& args) { return runOneEngine(file("s.json"), args); }
    static qint64 grpcCode(const QJsonObject& total, const char* code)
    {
        return total[QStringLiteral("grpc_status")].toObject()[QString::fromLatin1(code)].toInteger();
    }
    static qint64 byClass(const QJsonObject& total, const char* c)
    {
        return total[QStringLiteral("errors_by_class")].toObject()[QString::fromLatin1(c)].toInteger();
    }
    void write(const char* name, const QByteArray& text)
    {
        QFile f(file(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // A scenario file: an increment id and a constant in the JSON template,
    // metadata, every call reaching the Python server with its own id.
    void templatesAndMetadataReachTheServer()
    {
        std::unique_ptr<PeerProcess> peer(pythonPeer());
        QVERIFY(peer->port() > 0);
        const QString scenario =
            QStringLiteral("{\n"
                           "  \"name\": \"grpc templates\",\n"
                           "  \"variables\": [{\"name\": \"id\", \"increment\": {\"min\": 1, \"max\": 1000000}},\n"
                           "                {\"name\": \"who\", \"constant\": {\"value\": \"tester\"}}],\n"
                           "  \"steps\": [{\"grpc\": {\"target\": \"%1\", \"method\": \"stampede.test.Echo/Say\",\n"
                           "             \"protos\": [\"%2\"],\n"
                           "             \"data\": \"{\\\"text\\\": \\\"call ${id}\\\", \\\"id\\\": ${id}, "
                           "\\\"mood\\\": \\\"MOOD_HURRIED\\\", \\\"tags\\\": [\\\"a\\\"]}\",\n"
                           "             \"metadata\": [{\"name\": \"x-user\", \"value\": \"${who}\"}]}}],\n"
                           "  \"load\": {\"open\": {\"rate\": 200}}, \"connections\": 4, \"duration\": \"2s\",\n"
                           "  \"trace\": true\n"
                           "}")
                .arg(peer->target(), QStringLiteral(ECHO_PROTO));
        write("templates.json", scenario.toUtf8());
        const auto o = run({file("templates.json")});
        QCOMPARE(o.cli.exitCode, 0);
        QVERIFY2(o.cli.err.contains(QStringLiteral("gRPC stampede.test.Echo/Say over HTTP/2")), qPrintable(o.cli.err));
        const QJsonObject seen = peer->finish();
        QVERIFY(num(o.total, "requests") >= 350);
        QCOMPARE(num(o.total, "errors"), 0);
        QCOMPARE(num(seen, "calls"), num(o.total, "requests"));
        QCOMPARE(num(seen, "distinct_ids"), num(seen, "calls"));
        QCOMPARE(num(seen, "distinct_texts"), num(seen, "calls"));
        QCOMPARE(seen[QStringLiteral("users")].toArray(), QJsonArray{QStringLiteral("tester")});
        // issue 29: with trace on, every call carries a W3C traceparent, a trace of its own per iteration
        QCOMPARE(num(seen, "traced"), num(seen, "calls"));
        QCOMPARE(num(seen, "distinct_traces"), num(seen, "calls"));
    }

    // A flow over gRPC: the first call's answer (its text, read by a JSON
    // path from the reply message) goes into the next call's message and
    // metadata; status checks take codes by name, and a status check that
    // accepts UNAVAILABLE makes it no error.
    void answerFieldGoesIntoTheNextCall()
    {
        std::unique_ptr<PeerProcess> peer(pythonPeer(7));
        QVERIFY(peer->port() > 0);
        const QString scenario =
            QStringLiteral(
                "{\"name\": \"grpc flow\",\n"
                " \"variables\": [{\"name\": \"id\", \"increment\": {\"min\": 1, \"max\": 1000000}}],\n"
                " \"steps\": [\n"
                "  {\"name\": \"login\", \"grpc\": {\"target\": \"%1\", \"method\": \"stampede.test.Echo/Say\",\n"
                "   \"protos\": [\"%2\"], \"data\": \"{\\\"text\\\": \\\"tok-${id}\\\", \\\"id\\\": ${id}}\"},\n"
                "   \"checks\": [{\"name\": \"ok\", \"status\": [\"OK\"]},\n"
                "              {\"name\": \"tok\", \"jsonPath\": \"$.text\", \"matches\": \"^tok-[0-9]+$\"}],\n"
                "   \"extract\": [{\"name\": \"token\", \"jsonPath\": \"$.text\"}]},\n"
                "  {\"name\": \"use\", \"grpc\": {\"target\": \"%1\", \"method\": \"stampede.test.Echo/Say\",\n"
                "   \"protos\": [\"%2\"], \"data\": \"{\\\"text\\\": \\\"${token}/again\\\"}\",\n"
                "   \"metadata\": [{\"name\": \"x-user\", \"value\": \"${token}\"}]},\n"
                "   \"checks\": [{\"name\": \"ok or busy\", \"status\": [\"OK\", \"UNAVAILABLE\"]},\n"
                "              {\"name\": \"echoed\", \"jsonPath\": \"$.user\", \"matches\": \"^tok-\", "
                "\"negate\": false}]}],\n"
                " \"load\": {\"closed\": {\"users\": 2}}, \"duration\": \"2s\"}")
                .arg(peer->target(), QStringLiteral(ECHO_PROTO));
        write("flow.json", scenario.toUtf8());
        const QString summary = file("flow.summary");
        const auto o = runOneEngine(summary, {file("flow.json")});
        const QJsonObject seen = peer->finish();
        const QJsonObject checks = o.total[QStringLiteral("checks")].toObject();
        const auto count = [&](const char* name, const char* what) {
            return checks[QString::fromLatin1(name)].toObject()[QString::fromLatin1(what)].toInteger(-1);
        };
        QVERIFY2(num(seen, "calls") >= 20, qPrintable(QString::number(num(seen, "calls"))));
        QCOMPARE(num(o.total, "requests"), num(seen, "calls"));
        QCOMPARE(byClass(o.total, "extract"), 0);
        // UNAVAILABLE on login fails its status check and is a gRPC error; on "use" it is accepted
        QCOMPARE(byClass(o.total, "grpc"), count("login/ok", "failed"));
        QCOMPARE(count("use/ok or busy", "failed"), 0);
        QCOMPARE(count("login/tok", "failed"), count("login/ok", "failed")); // no reply message to read
        QCOMPARE(count("login/ok", "failed") + count("use/echoed", "failed"), num(seen, "unavailable"));
        // every user the server saw on "use" is a token a login answer gave
        const QJsonArray users = seen[QStringLiteral("users")].toArray();
        QVERIFY(users.size() >= 5);
        for (const auto& u : users)
            QVERIFY2(u.toString().isEmpty() || u.toString().startsWith(QStringLiteral("tok-")),
                     qPrintable(u.toString()));
    }

    // Every tenth call answered UNAVAILABLE: counted as gRPC errors, by code,
    // exactly as many as the server sent.
    void unavailableIsCountedByCode()
    {
        std::unique_ptr<PeerProcess> peer(pythonPeer(10));
        QVERIFY(peer->port() > 0);
        const QString report = file("unavailable.streport");
        QFile::remove(report);
        const auto o =
            run({QStringLiteral("--grpc"), peer->target(), QStringLiteral("--proto"), QStringLiteral(ECHO_PROTO),
                 QStringLiteral("--call"), QStringLiteral("stampede.test.Echo/Say"), QStringLiteral("--data"),
                 QStringLiteral("{\"text\": \"hi\"}"), QStringLiteral("--rate"), QStringLiteral("300"),
                 QStringLiteral("-c"), QStringLiteral("4"), QStringLiteral("-d"), QStringLiteral("2s"),
                 QStringLiteral("--report"), report});
        QCOMPARE(o.cli.exitCode, 0);
        const QJsonObject seen = peer->finish();
        const qint64 calls = num(seen, "calls");
        QVERIFY(calls >= 500);
        QCOMPARE(num(o.total, "requests"), calls);
        QCOMPARE(num(seen, "unavailable"), calls / 10);
        QCOMPARE(grpcCode(o.total, "UNAVAILABLE"), calls / 10);
        QCOMPARE(byClass(o.total, "grpc"), calls / 10);
        QCOMPARE(num(o.total, "errors"), calls / 10);
        QVERIFY2(o.cli.out.contains(QStringLiteral("UNAVAILABLE=")), qPrintable(o.cli.out));
        // the saved report keeps the codes, second by second, and samples saying which
        std::string error;
        auto store = stampede::ProjectStore::open(report.toStdString(), error);
        QVERIFY2(store, error.c_str());
        stampede::RunLog log(*store);
        const auto saved = log.load(log.runs().at(0).id);
        QVERIFY(saved);
        QCOMPARE(qint64(saved->total.total().counters.grpcCodes[14]), calls / 10);
        qint64 perSecond = 0;
        for (const auto& row : saved->rows)
            if (row.step < 0)
                perSecond += qint64(row.counters.grpcCodes[14]);
        QCOMPARE(perSecond, calls / 10);
        QVERIFY(!saved->samples.empty());
        QCOMPARE(saved->samples[0].detail, std::string("grpc-status 14 UNAVAILABLE: busy: try again later"));
    }

    // A server slower than the deadline: every call fails as DEADLINE_EXCEEDED.
    void deadlineExceeded()
    {
        std::unique_ptr<PeerProcess> peer(pythonPeer());
        QVERIFY(peer->port() > 0);
        const auto o =
            run({QStringLiteral("--grpc"), peer->target(), QStringLiteral("--proto"), QStringLiteral(ECHO_PROTO),
                 QStringLiteral("--call"), QStringLiteral("stampede.test.Echo/Say"), QStringLiteral("--data"),
                 QStringLiteral("{\"delay_ms\": 400}"), QStringLiteral("--timeout"), QStringLiteral("100ms"),
                 QStringLiteral("-c"), QStringLiteral("2"), QStringLiteral("-d"), QStringLiteral("1s")});
        QCOMPARE(o.cli.exitCode, 1); // every call failed: no request succeeded, never a pass
        QVERIFY(num(o.total, "requests") >= 4);
        QCOMPARE(grpcCode(o.total, "DEADLINE_EXCEEDED"), num(o.total, "requests"));
        QCOMPARE(num(o.total, "errors"), num(o.total, "requests"));
    }

    // Descriptors fetched from gRPC's own reflection service (C++ server).
    void reflectionFromAGrpcCppServer()
    {
        PeerProcess peer(QStringLiteral(ECHO_REFLECTION_SERVER), {});
        QVERIFY(peer.port() > 0);
        const auto o =
            run({QStringLiteral("--grpc"), peer.target(), QStringLiteral("--reflection"), QStringLiteral("--call"),
                 QStringLiteral("stampede.test.Echo/Say"), QStringLiteral("--data"),
                 QStringLiteral("{\"text\": \"by reflection\", \"at\": \"2026-11-30T12:00:00Z\"}"),
                 QStringLiteral("-c"), QStringLiteral("2"), QStringLiteral("-d"), QStringLiteral("1s")});
        QVERIFY2(o.cli.exitCode == 0, qPrintable(o.cli.err));
        QVERIFY(num(o.total, "requests") > 50);
        QCOMPARE(num(o.total, "errors"), 0);
        // a method the server does not have is named with those it has
        const auto bad =
            runCli({QStringLiteral("run"), QStringLiteral("--grpc"), peer.target(), QStringLiteral("--reflection"),
                    QStringLiteral("--call"), QStringLiteral("stampede.test.Echo/Shout")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(QStringLiteral("no method \"Shout\"")) && bad.err.contains(QStringLiteral("Say")),
                 qPrintable(bad.err));
    }

    void badInputIsRefused()
    {
        // an invalid .proto: the file, line and column
        write("broken.proto", "syntax = \"proto3\";\npackage x;\nmessage M { int32 a = 1 }\n");
        auto r = runCli({QStringLiteral("run"), QStringLiteral("--grpc"), QStringLiteral("127.0.0.1:9"),
                         QStringLiteral("--proto"), file("broken.proto"), QStringLiteral("--call"),
                         QStringLiteral("x.S/M")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("broken.proto:3:")), qPrintable(r.err));
        // JSON that does not fit the message names the field
        r = runCli({QStringLiteral("run"), QStringLiteral("--grpc"), QStringLiteral("127.0.0.1:9"),
                    QStringLiteral("--proto"), QStringLiteral(ECHO_PROTO), QStringLiteral("--call"),
                    QStringLiteral("stampede.test.Echo/Say"), QStringLiteral("--data"),
                    QStringLiteral("{\"text\": \"x\", \"colour\": \"red\"}")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("colour")) && r.err.contains(QStringLiteral("grpc.data")),
                 qPrintable(r.err));
        r = runCli({QStringLiteral("run"), QStringLiteral("--grpc"), QStringLiteral("127.0.0.1:9"),
                    QStringLiteral("--proto"), QStringLiteral(ECHO_PROTO), QStringLiteral("--call"),
                    QStringLiteral("stampede.test.Echo/Say"), QStringLiteral("--data"),
                    QStringLiteral("{\"id\": \"not a number\"}")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("id")), qPrintable(r.err));
        // (streaming methods and their fields: tst_grpcstreams)
        // no schema at all
        r = runCli({QStringLiteral("run"), QStringLiteral("--grpc"), QStringLiteral("127.0.0.1:9"),
                    QStringLiteral("--call"), QStringLiteral("stampede.test.Echo/Say")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--proto")), qPrintable(r.err));
        // gRPC cannot be HTTP/1.1
        r = runCli({QStringLiteral("run"), QStringLiteral("--grpc"), QStringLiteral("127.0.0.1:9"),
                    QStringLiteral("--proto"), QStringLiteral(ECHO_PROTO), QStringLiteral("--call"),
                    QStringLiteral("stampede.test.Echo/Say"), QStringLiteral("--http"), QStringLiteral("1.1")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("need HTTP/2")), qPrintable(r.err));
    }

    // gRPC over TLS (h2 by ALPN) to the Python server with a certificate the
    // test makes: verified against its CA; refused as a TLS error without it.
    void grpcOverTls()
    {
        const QString made = makeCertificates(m_dir.path());
        QVERIFY2(made.isEmpty(), qPrintable(made));
        std::unique_ptr<PeerProcess> peer(
            pythonPeer(0, {QStringLiteral("--cert"), file("server.pem"), QStringLiteral("--key"), file("server.key")}));
        QVERIFY(peer->port() > 0);
        const QString target = QStringLiteral("https://127.0.0.1:%1").arg(peer->port());
        const QStringList call{QStringLiteral("--grpc"),  target,
                               QStringLiteral("--proto"), QStringLiteral(ECHO_PROTO),
                               QStringLiteral("--call"),  QStringLiteral("stampede.test.Echo/Say"),
                               QStringLiteral("--data"),  QStringLiteral("{\"text\": \"secret\"}"),
                               QStringLiteral("-c"),      QStringLiteral("2"),
                               QStringLiteral("-d"),      QStringLiteral("1s")};
        auto o = run(call + QStringList{QStringLiteral("--cacert"), file("ca.pem")});
        QVERIFY2(o.cli.exitCode == 0, qPrintable(o.cli.err));
        QVERIFY(num(o.total, "requests") > 20);
        QCOMPARE(num(o.total, "errors"), 0);
        QCOMPARE(o.total[QStringLiteral("connections")].toObject()[QStringLiteral("tls_handshakes")].toInteger(), 2);
        // the system's CAs do not know the test's CA: every call is a TLS error
        o = run(call);
        QCOMPARE(o.cli.exitCode, 1); // every call failed: no request succeeded, never a pass
        QVERIFY(num(o.total, "requests") > 0);
        QCOMPARE(byClass(o.total, "tls"), num(o.total, "requests"));
        const QJsonObject seen = peer->finish();
        QVERIFY(num(seen, "calls") > 20);
    }

    // Reflection asked of a server that does not offer it (the Python one).
    void reflectionUnavailableIsExplained()
    {
        std::unique_ptr<PeerProcess> peer(pythonPeer());
        QVERIFY(peer->port() > 0);
        const auto r =
            runCli({QStringLiteral("run"), QStringLiteral("--grpc"), peer->target(), QStringLiteral("--reflection"),
                    QStringLiteral("--call"), QStringLiteral("stampede.test.Echo/Say")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("UNIMPLEMENTED")) &&
                     r.err.contains(QStringLiteral("does not offer reflection")),
                 qPrintable(r.err));
    }

    // A server that is not HTTP/2 (the mock server over HTTP/1.1 only when it
    // is not asked in HTTP/2): protocol errors saying so.
    void serverThatIsNotHttp2()
    {
        RawServer http1([](int fd) {
            readRequestHead(fd);
            const char reply[] = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
            [[maybe_unused]] auto n = ::write(fd, reply, sizeof reply - 1);
        });
        const auto o =
            run({QStringLiteral("--grpc"), QStringLiteral("127.0.0.1:%1").arg(http1.port()), QStringLiteral("--proto"),
                 QStringLiteral(ECHO_PROTO), QStringLiteral("--call"), QStringLiteral("stampede.test.Echo/Say"),
                 QStringLiteral("-c"), QStringLiteral("1"), QStringLiteral("-d"), QStringLiteral("500ms")});
        QCOMPARE(o.cli.exitCode, 1); // every call failed: no request succeeded, never a pass
        QVERIFY(num(o.total, "requests") > 0);
        QCOMPARE(byClass(o.total, "protocol"), num(o.total, "requests"));
    }

    // The mock server over h2c: nghttp (an independent HTTP/2 client) gets a
    // plain rule's answer; stampede's gRPC calls get the rule's message, its
    // injected UNAVAILABLE, and descriptors by the mock's own reflection.
    void mockServerSpeaksH2cAndGrpc()
    {
        const QString rules = QStringLiteral("{\"protos\": [\"%1\"], \"rules\": ["
                                             "{\"name\": \"say\", \"grpc\": {\"method\": \"stampede.test.Echo/Say\", "
                                             "\"response\": \"{\\\"text\\\": \\\"from the mock\\\", \\\"id\\\": 7}\"}, "
                                             "\"errorPercent\": 20},"
                                             "{\"name\": \"hello\", \"path\": \"/hello\", \"body\": \"hello over h2\", "
                                             "\"headers\": [{\"name\": \"X-Mock\", \"value\": \"yes\"}]}]}")
                                  .arg(QStringLiteral(ECHO_PROTO));
        MockProcess mock(rules);
        QVERIFY(mock.started());
        QProcess nghttp;
        nghttp.start(QStringLiteral("nghttp"), {QStringLiteral("-v"), mock.url(QStringLiteral("/hello"))});
        QVERIFY(nghttp.waitForFinished(10000));
        const QString out = QString::fromUtf8(nghttp.readAllStandardOutput());
        QCOMPARE(nghttp.exitCode(), 0);
        QVERIFY2(out.contains(QStringLiteral(":status: 200")) && out.contains(QStringLiteral("x-mock: yes")) &&
                     out.contains(QStringLiteral("hello over h2")),
                 qPrintable(out));
        // a path with no rule: 404 over HTTP/2 too
        nghttp.start(QStringLiteral("nghttp"), {QStringLiteral("-v"), mock.url(QStringLiteral("/nothing"))});
        QVERIFY(nghttp.waitForFinished(10000));
        QVERIFY(QString::fromUtf8(nghttp.readAllStandardOutput()).contains(QStringLiteral(":status: 404")));

        const auto o = run({QStringLiteral("--grpc"), QStringLiteral("127.0.0.1:%1").arg(mock.port()),
                            QStringLiteral("--reflection"), QStringLiteral("--call"),
                            QStringLiteral("stampede.test.Echo/Say"), QStringLiteral("--rate"), QStringLiteral("500"),
                            QStringLiteral("-c"), QStringLiteral("4"), QStringLiteral("-d"), QStringLiteral("2s")});
        QVERIFY2(o.cli.exitCode == 0, qPrintable(o.cli.err));
        const qint64 requests = num(o.total, "requests");
        QVERIFY(requests >= 900);
        const qint64 unavailable = grpcCode(o.total, "UNAVAILABLE");
        QCOMPARE(num(o.total, "errors"), unavailable);
        // 20 % injected, within a wide binomial margin
        QVERIFY2(unavailable > requests / 10 && unavailable < requests * 3 / 10,
                 qPrintable(QString::number(unavailable)));
        const auto stats = mock.stats();
        QCOMPARE(stats[QStringLiteral("rules")].toArray()[0].toObject()[QStringLiteral("served")].toInteger(),
                 requests);
    }

    // --mock with gRPC rules: ${mock_url} stands for the target.
    void quickModeAgainstTheEmbeddedMock()
    {
        write("mockrules.json", QStringLiteral("{\"protos\": [\"%1\"], \"rules\": [{\"grpc\": {\"method\": "
                                               "\"stampede.test.Echo/Say\", \"response\": \"{}\"}}]}")
                                    .arg(QStringLiteral(ECHO_PROTO))
                                    .toUtf8());
        const auto o = run({QStringLiteral("--mock"), file("mockrules.json"), QStringLiteral("--grpc"),
                            QStringLiteral("${mock_url}"), QStringLiteral("--proto"), QStringLiteral(ECHO_PROTO),
                            QStringLiteral("--call"), QStringLiteral("stampede.test.Echo/Say"), QStringLiteral("-r"),
                            QStringLiteral("200"), QStringLiteral("-c"), QStringLiteral("2"), QStringLiteral("-d"),
                            QStringLiteral("1s")});
        QVERIFY2(o.cli.exitCode == 0, qPrintable(o.cli.err));
        // every arrival of the second sent or counted dropped (a busy machine may drop some; issue 49)
        QCOMPARE(num(o.total, "requests") + num(o.total, "dropped"), 200);
        QVERIFY(num(o.total, "requests") >= 100);
        QCOMPARE(num(o.total, "errors"), 0);
        // a per-iteration value cannot choose the server
        write("pertarget.json",
              QStringLiteral("{\"variables\": [{\"name\": \"n\", \"increment\": {\"min\": 1, \"max\": 9}}],"
                             " \"steps\": [{\"grpc\": {\"target\": \"127.0.0.${n}:1\", \"method\": \"a.B/C\","
                             " \"reflection\": true}}], \"load\": {\"closed\": {\"users\": 1}}}")
                  .toUtf8());
        const auto bad = runCli({QStringLiteral("run"), file("pertarget.json")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(QStringLiteral("steps[0].grpc.target: the target must be written out")),
                 qPrintable(bad.err));
    }

    // A rule answering a chosen gRPC status, and a method without a rule.
    void mockServerAnswersAChosenStatus()
    {
        const QString rules = QStringLiteral("{\"protos\": [\"%1\"], \"rules\": [{\"grpc\": {\"method\": "
                                             "\"stampede.test.Echo/Say\", \"status\": 7, \"message\": \"go away\"}}]}")
                                  .arg(QStringLiteral(ECHO_PROTO));
        MockProcess mock(rules);
        QVERIFY(mock.started());
        const auto o =
            run({QStringLiteral("--grpc"), QStringLiteral("127.0.0.1:%1").arg(mock.port()), QStringLiteral("--proto"),
                 QStringLiteral(ECHO_PROTO), QStringLiteral("--call"), QStringLiteral("stampede.test.Echo/Say"),
                 QStringLiteral("-c"), QStringLiteral("2"), QStringLiteral("-d"), QStringLiteral("500ms")});
        QCOMPARE(o.cli.exitCode, 1); // every call failed: no request succeeded, never a pass
        QVERIFY(num(o.total, "requests") > 0);
        QCOMPARE(grpcCode(o.total, "PERMISSION_DENIED"), num(o.total, "requests"));
        // bad rules are refused with the field named
        const auto bad = runCli({QStringLiteral("mock"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                                 QStringLiteral("--rules"), file("badrules.json")},
                                10000);
        QVERIFY(bad.exitCode != 0);
        write("badrules.json", QStringLiteral("{\"protos\": [\"%1\"], \"rules\": [{\"grpc\": {\"method\": "
                                              "\"stampede.test.Echo/Say\", \"response\": \"{\\\"nope\\\": 1}\"}}]}")
                                   .arg(QStringLiteral(ECHO_PROTO))
                                   .toUtf8());
        const auto bad2 = runCli({QStringLiteral("mock"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                                  QStringLiteral("--rules"), file("badrules.json")},
                                 10000);
        QCOMPARE(bad2.exitCode, 2);
        QVERIFY2(bad2.err.contains(QStringLiteral("rules[0].grpc.response")) &&
                     bad2.err.contains(QStringLiteral("nope")),
                 qPrintable(bad2.err));
    }
};

QTEST_MAIN(TestGrpc)
#include "tst_grpc.moc"
