// Issue 49: the compile is pure, and the resolve step (resolve/targets.h) is where a run's servers are looked up
// and asked which HTTP they speak. The compile of a name that cannot resolve succeeds and names the server; the
// resolve step reports it under the field that wrote it (a plan's scenario's too), or, in a collection run, keeps
// it as newman does; an https plan at http auto is settled by the server's ALPN (a TLS server of the test's own).
#include "grpc/reflection.h"
#include "loopbackserver.h"
#include "plan/scenarioplan.h"
#include "resolve/targets.h"
#include "tlstestserver.h"

#include "stampede/v1/scenario.pb.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <openssl/ssl.h>

#include <csignal>
#include <thread>

using namespace stampede;

namespace {

std::optional<ScenarioPlan> compile(const std::string& json, std::vector<PlanError>& errors)
{
    v1::Scenario s;
    std::string error;
    if (!parseScenarioJson(json, s, error))
        qFatal("%s", error.c_str());
    PlanOptions o;
    o.runId = "st-test";
    return compileScenario(s, o, errors);
}

std::string scenario(const std::string& url, const std::string& more = {})
{
    return "{\"steps\": [{\"name\": \"a\", \"request\": {\"url\": \"" + url +
           "\"}}], \"load\": {\"closed\": {\"users\": 1}}" + more + "}";
}

// A TLS server on loopback that settles on `protocol` by ALPN for the one connection it accepts.
struct AlpnServer
{
    explicit AlpnServer(const char* protocol) : m_protocol(protocol)
    {
        SSL_CTX_set_alpn_select_cb(m_ctx, &AlpnServer::select, this);
        m_thread = std::thread([this] {
            const int fd = ::accept(m_listener.fd, nullptr, nullptr);
            if (fd < 0)
                return;
            SSL* ssl = SSL_new(m_ctx);
            SSL_set_fd(ssl, fd);
            (void)SSL_accept(ssl);
            SSL_shutdown(ssl);
            SSL_free(ssl);
            ::close(fd);
        });
    }
    ~AlpnServer()
    {
        ::shutdown(m_listener.fd, SHUT_RDWR); // an accept that no probe came to returns
        m_thread.join();
        SSL_CTX_free(m_ctx);
    }
    std::string url() const
    {
        const auto* a = reinterpret_cast<const sockaddr_in*>(&m_listener.endpoint.address);
        return "https://127.0.0.1:" + std::to_string(ntohs(a->sin_port)) + "/";
    }

private:
    static int select(SSL*, const unsigned char** out, unsigned char* outlen, const unsigned char* in,
                      unsigned int inlen, void* arg)
    {
        const auto* self = static_cast<AlpnServer*>(arg);
        for (unsigned i = 0; i + 1 <= inlen; i += 1u + in[i]) {
            const std::string_view offered(reinterpret_cast<const char*>(in + i + 1), in[i]);
            if (offered == self->m_protocol) {
                *out = in + i + 1;
                *outlen = in[i];
                return SSL_TLSEXT_ERR_OK;
            }
        }
        return SSL_TLSEXT_ERR_NOACK;
    }
    std::string m_protocol;
    loopbacktest::Listener m_listener;
    SSL_CTX* m_ctx = loopbacktest::serverContext(TLS1_3_VERSION);
    std::thread m_thread;
};

const char* firstError(const std::vector<PlanError>& errors)
{
    static std::string text;
    text = errors.empty() ? std::string("(none)") : errors.front().text();
    return text.c_str();
}

} // namespace

class TestResolveTargets : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        ::signal(SIGPIPE, SIG_IGN); // the test's server may write its close after the probe has gone
    }

    // The compile names the server and looks nothing up: a name that cannot resolve compiles; the resolve step
    // says so under the step's URL; a loopback address is given its address.
    void theCompileNamesTheResolveStepLooksUp()
    {
        std::vector<PlanError> errors;
        auto plan = compile(scenario("http://stampede-test.invalid:8080/x"), errors);
        QVERIFY2(plan, firstError(errors));
        QCOMPARE(plan->steps[0].endpoint.length, socklen_t(0));
        QCOMPARE(plan->steps[0].endpoint.label, std::string("stampede-test.invalid:8080"));
        QVERIFY(!resolveTargets(*plan, errors));
        QCOMPARE(errors.size(), std::size_t(1));
        QCOMPARE(errors[0].field, std::string("steps[0].request.url"));
        QVERIFY2(errors[0].message.find("cannot resolve host \"stampede-test.invalid\"") == 0, firstError(errors));

        errors.clear();
        auto good = compile(scenario("http://127.0.0.1:9/x"), errors);
        QVERIFY2(good && resolveTargets(*good, errors), firstError(errors));
        QVERIFY(good->steps[0].endpoint.length != 0);
        const auto* a = reinterpret_cast<const sockaddr_in*>(&good->steps[0].endpoint.address);
        QCOMPARE(ntohs(a->sin_port), std::uint16_t(9));
    }

    // A plan of several scenarios: the fault is under the scenario's field; the run's copies of its steps and the
    // scenario's own steps (what its workers run) both get the address.
    void aPlansScenariosAreLookedUpUnderTheirFields()
    {
        std::vector<PlanError> errors;
        const std::string json = "{\"scenarios\": [" + scenario("http://127.0.0.1:9/a", ", \"name\": \"one\"") + ", " +
                                 scenario("http://stampede-test.invalid/b", ", \"name\": \"two\"") + "]}";
        auto plan = compile(json, errors);
        QVERIFY2(plan, firstError(errors));
        QVERIFY(!resolveTargets(*plan, errors));
        QCOMPARE(errors.size(), std::size_t(1));
        QCOMPARE(errors[0].field, std::string("scenarios[1].steps[0].request.url"));
        QVERIFY(plan->scenarios[0].steps[0].endpoint.length != 0);
        QVERIFY(plan->steps[0].endpoint.length != 0);
        QCOMPARE(plan->steps[1].endpoint.length, socklen_t(0));
    }

    // A collection run (newman's verdict): the name that does not resolve is no fault; its requests fail as connect
    // errors, and the plan says why once.
    void aCollectionRunGoesOnPastAnUnresolvedName()
    {
        std::vector<PlanError> errors;
        auto plan = compile("{\"verdict\": \"tests\", \"steps\": [{\"name\": \"a\", \"request\": {\"url\": "
                            "\"http://stampede-test.invalid/a\"}}, {\"name\": \"b\", \"request\": {\"url\": "
                            "\"http://stampede-test.invalid/b\"}}], \"load\": {\"closed\": {\"users\": 1}}}",
                            errors);
        QVERIFY2(plan, firstError(errors));
        QVERIFY2(resolveTargets(*plan, errors), firstError(errors));
        QCOMPARE(plan->unresolvedHosts.size(), std::size_t(1));
        QVERIFY(!plan->steps[0].endpoint.unresolved.empty());
        QVERIFY(!plan->steps[1].endpoint.unresolved.empty());
    }

    // https at http auto: the compile leaves the version to the server; the resolve step asks it by ALPN. A server
    // that settles on h2 makes the plan HTTP/2 (its streams allowed); one that settles on http/1.1 keeps HTTP/1.1,
    // and streams are then a fault.
    void alpnSettlesTheVersionInTheResolveStep_data()
    {
        QTest::addColumn<QString>("protocol");
        QTest::addColumn<bool>("http2");
        QTest::newRow("h2") << QStringLiteral("h2") << true;
        QTest::newRow("http/1.1") << QStringLiteral("http/1.1") << false;
    }
    void alpnSettlesTheVersionInTheResolveStep()
    {
        QFETCH(QString, protocol);
        QFETCH(bool, http2);
        AlpnServer server(protocol.toUtf8().constData());
        std::vector<PlanError> errors;
        auto plan = compile(scenario(server.url(), ", \"streams\": 4, \"tls\": {\"insecure\": true}"), errors);
        QVERIFY2(plan, firstError(errors)); // streams at auto over TLS: the server decides, not the compile
        QVERIFY(plan->alpnDecides);
        QCOMPARE(plan->http, HttpVersion::Http1);
        QCOMPARE(resolveTargets(*plan, errors), http2);
        QCOMPARE(plan->http, http2 ? HttpVersion::Http2 : HttpVersion::Http1);
        QVERIFY(!plan->alpnDecides);
        if (!http2) {
            QCOMPARE(errors.size(), std::size_t(1));
            QCOMPARE(errors[0].field, std::string("streams"));
        }
    }

    // Reflection: the compile asks no server; it asks through what its caller lends (an engine lends
    // serverReflection()), with the step's target and TLS choice; unlent, the step is validated without its schema.
    void reflectionIsAskedThroughWhatTheCallerLends()
    {
        QTemporaryDir dir;
        QFile proto(dir.filePath(QStringLiteral("echo.proto")));
        QVERIFY(proto.open(QIODevice::WriteOnly));
        proto.write("syntax = \"proto3\"; package t; message M { string s = 1; } "
                    "service E { rpc Say(M) returns (M); }\n");
        proto.close();
        std::string err;
        const auto schema = ProtoSchema::import({proto.fileName().toStdString()}, {}, err);
        QVERIFY2(schema, err.c_str());
        const std::string json =
            "{\"steps\": [{\"name\": \"say\", \"grpc\": {\"target\": \"http://127.0.0.1:9\", "
            "\"method\": \"t.E/Say\", \"reflection\": true, \"data\": \"{\\\"s\\\": \\\"hi\\\"}\"}}], "
            "\"load\": {\"closed\": {\"users\": 1}}}";
        v1::Scenario s;
        QVERIFY2(parseScenarioJson(json, s, err), err.c_str());
        std::vector<PlanError> errors;
        PlanOptions o;
        QVERIFY2(compileScenario(s, o, errors), firstError(errors)); // unlent: validated without the schema
        std::vector<std::string> asked;
        o.reflection = [&](const ReflectionOptions& ask, std::string&) {
            asked.push_back(ask.target + (ask.verify ? " verify" : " insecure"));
            return schema;
        };
        auto plan = compileScenario(s, o, errors);
        QVERIFY2(plan, firstError(errors));
        QCOMPARE(asked, std::vector<std::string>{"http://127.0.0.1:9 verify"});
        QVERIFY(plan->steps[0].grpc && plan->steps[0].grpc->input);
        QCOMPARE(plan->steps[0].grpc->method, std::string("t.E/Say"));
        o.reflection = [](const ReflectionOptions&, std::string& error) {
            error = "the server gave no reflection";
            return std::shared_ptr<ProtoSchema>();
        };
        QVERIFY(!compileScenario(s, o, errors));
        QCOMPARE(errors.size(), std::size_t(1));
        QCOMPARE(errors[0].field, std::string("steps[0].grpc.reflection"));
        QCOMPARE(errors[0].message, std::string("the server gave no reflection"));
    }

    // Plain http at auto is HTTP/1.1 from the compile: nothing to ask, and streams are a fault there.
    void plainHttpIsSettledByTheCompile()
    {
        std::vector<PlanError> errors;
        auto plan = compile(scenario("http://127.0.0.1:9/", ", \"streams\": 4"), errors);
        QVERIFY(!plan);
        QCOMPARE(errors.size(), std::size_t(1));
        QCOMPARE(errors[0].field, std::string("streams"));
    }
};

QTEST_GUILESS_MAIN(TestResolveTargets)
#include "tst_resolvetargets.moc"
