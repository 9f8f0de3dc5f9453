// Agents that join by themselves (`agent --join`, `run --accept-agents`): the
// join's body as a table of hostile shapes and what each must give; the
// registry's listing by the clock (an agent not heard from is dropped); the
// caller's address taken when the agent names none; the endpoint's token.
#include "control/agentdiscovery.h"
#include "control/agentregistry.h"
#include "control/controlserver.h"
#include "core/utf8.h"
#include "rawclient.h"

#include <QTest>

#include <memory>
#include <string>

using namespace stampede;

Q_DECLARE_METATYPE(std::string)

class TestAgentRegistry : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void body_data()
    {
        QTest::addColumn<std::string>("body");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<std::string>("said"); // the read (port name host) or a part of the error
        QTest::newRow("a real agent's") << std::string("port=46593&name=agent%20%E5%8C%97%E4%BA%AC-1&host=127.0.0.1")
                                        << true << std::string("46593|agent 北京-1|127.0.0.1");
        QTest::newRow("port only") << std::string("port=7070") << true << std::string("7070||");
        QTest::newRow("plus is a space") << std::string("name=a+b&port=1") << true << std::string("1|a b|");
        QTest::newRow("v6 host") << std::string("port=7070&host=fd00%3A%3A1") << true << std::string("7070||fd00::1");
        QTest::newRow("empty pairs skipped") << std::string("&&port=9&&") << true << std::string("9||");
        QTest::newRow("empty") << std::string() << false << std::string("port: missing");
        QTest::newRow("no port") << std::string("name=a") << false << std::string("port: missing");
        QTest::newRow("port 0") << std::string("port=0") << false << std::string("port");
        QTest::newRow("port too big") << std::string("port=65536") << false << std::string("port");
        QTest::newRow("port overflow") << std::string("port=99999999999999999999") << false << std::string("port");
        QTest::newRow("port negative") << std::string("port=-1") << false << std::string("port");
        QTest::newRow("port with text") << std::string("port=80x") << false << std::string("port");
        QTest::newRow("port not UTF-8") << std::string("port=70%F8%F8") << false
                                        << std::string("port: \"70\\xF8\\xF8\" is not a port (1 to 65535)");
        QTest::newRow("not key=value") << std::string("port") << false << std::string("is not key=value");
        QTest::newRow("cut percent") << std::string("port=1&name=%E") << false << std::string("is not key=value");
        QTest::newRow("bad percent") << std::string("port=1&name=%zz") << false << std::string("is not key=value");
        QTest::newRow("name not UTF-8") << std::string("port=1&name=%FF%FE") << false
                                        << std::string("name: at most 63");
        QTest::newRow("name with a newline") << std::string("port=1&name=a%0Ab") << false << std::string("name");
        QTest::newRow("name of 64 bytes")
            << std::string("port=1&name=" + std::string(64, 'n')) << false << std::string("name");
        QTest::newRow("host with CRLF") << std::string("port=80&host=a%0d%0aX:%20y") << false
                                        << std::string("is not an IP address or a DNS name");
        QTest::newRow("host with a slash") << std::string("port=80&host=a/b") << false << std::string("host");
        QTest::newRow("host of 254") << std::string("port=80&host=" + std::string(254, 'h')) << false
                                     << std::string("host");
        QTest::newRow("unknown field") << std::string("port=1&admin=1") << false
                                       << std::string("unknown field \"admin\"");
        QTest::newRow("field not UTF-8") << std::string("port=1&%FF=1") << false
                                         << std::string("unknown field \"\\xFF\"");
        QTest::newRow("many fields") << std::string("port=1&port=1&port=1&port=1&port=1&port=1&port=1&port=1&port=1")
                                     << false << std::string("more than 8 fields");
    }
    void body()
    {
        QFETCH(std::string, body);
        QFETCH(bool, ok);
        QFETCH(std::string, said);
        JoinRequest j;
        std::string error;
        QCOMPARE(parseJoinBody(body, j, error), ok);
        if (ok)
            QCOMPARE(std::to_string(j.port) + "|" + j.name + "|" + j.host, said);
        else
            QVERIFY2(error.find(said) != std::string::npos && isUtf8(error), error.c_str());
    }

    // Listed in the order they joined; a heartbeat keeps one listed; one not
    // heard from for 10 s on the clock is not; the caller's address and the
    // port given (v6 in brackets); a named host wins over the caller's.
    void listedWhileHeard()
    {
        auto clock = std::make_shared<FakeClock>();
        AgentRegistry r(clock);
        const auto join = [&](const std::string& body, const std::string& peer) {
            return r.handle({"POST", "/v1/join", body, peer});
        };
        ControlReply a = join("port=7070&name=a", "10.1.2.3:50000");
        QCOMPARE(a.status, 200);
        QCOMPARE(a.body, std::string("{\"joined\": \"a (10.1.2.3:7070)\", \"heartbeat_s\": 2}"));
        QCOMPARE(join("port=7071", "[fd00::7]:1234").status, 200);
        QCOMPARE(join("port=7072&host=agent-3.pool", "10.9.9.9:1").status, 200);
        QCOMPARE(r.live(), (std::vector<std::string>{"10.1.2.3:7070", "[fd00::7]:7071", "agent-3.pool:7072"}));
        clock->advance(6 * kNanosPerSecond);
        QCOMPARE(join("port=7070&name=a", "10.1.2.3:50001").status, 200); // a's heartbeat, another source port
        clock->advance(5 * kNanosPerSecond);
        QCOMPARE(r.live(), std::vector<std::string>{"10.1.2.3:7070"});
        QCOMPARE(r.joins(), std::size_t(4));
        // the others come back where they were in the order
        QCOMPARE(join("port=7071", "[fd00::7]:9").status, 200);
        QCOMPARE(r.live(), (std::vector<std::string>{"10.1.2.3:7070", "[fd00::7]:7071"}));
        // not a join
        QCOMPARE(r.handle({"GET", "/v1/join", {}, "127.0.0.1:1"}).status, 405);
        QCOMPARE(r.handle({"POST", "/v1/status", {}, "127.0.0.1:1"}).status, 404);
        const ControlReply bad = join("port=1&name=%0A", "127.0.0.1:1");
        QCOMPARE(bad.status, 400);
        QVERIFY(isUtf8(bad.body) && bad.body.find('\n') == std::string::npos);
    }

    // At most kMaxAgents listed: the next is 503 until one expires.
    void boundedAtTheAgentLimit()
    {
        auto clock = std::make_shared<FakeClock>();
        AgentRegistry r(clock);
        for (std::size_t i = 0; i < kMaxAgents; ++i)
            QCOMPARE(r.handle({"POST", "/v1/join", "port=" + std::to_string(1000 + i), "10.0.0.1:1"}).status, 200);
        QCOMPARE(r.handle({"POST", "/v1/join", "port=9999", "10.0.0.1:1"}).status, 503);
        QCOMPARE(r.live().size(), kMaxAgents);
        clock->advance(11 * kNanosPerSecond);
        QCOMPARE(r.handle({"POST", "/v1/join", "port=9999", "10.0.0.1:1"}).status, 200);
        QCOMPARE(r.live(), std::vector<std::string>{"10.0.0.1:9999"});
    }

    // Through the endpoint: a wrong token is 401 and lists nothing; the right
    // one lists the caller's address; `--agents joined` expands to it; without
    // a registry, "joined" says what it needs.
    void throughTheEndpoint()
    {
        auto registry = std::make_shared<AgentRegistry>(std::make_shared<SteadyClock>());
        ControlServer server;
        std::string error;
        QVERIFY2(server.start(
                     {"127.0.0.1:0", "tok", {}, {}},
                     [registry](const ControlRequest& rq) { return registry->handle(rq); }, error),
                 error.c_str());
        const auto port = std::uint16_t(std::stoi(server.address().substr(server.address().rfind(':') + 1)));
        const std::string body = "port=7123&name=x";
        const auto ask = [&](const std::string& token) {
            return rawclient::ask(port, "POST /v1/join HTTP/1.1\r\nAuthorization: Bearer " + token +
                                            "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
        };
        QVERIFY(ask("wrong").rfind("HTTP/1.1 401", 0) == 0);
        QVERIFY(registry->live().empty());
        const std::string ok = ask("tok");
        QVERIFY2(ok.rfind("HTTP/1.1 200", 0) == 0, ok.c_str());
        QCOMPARE(registry->live(), std::vector<std::string>{"127.0.0.1:7123"});
        std::vector<std::string> found;
        QVERIFY(expandAgents({"joined", "127.0.0.1:7000"}, found, error, registry.get()));
        QCOMPARE(found, (std::vector<std::string>{"127.0.0.1:7123", "127.0.0.1:7000"}));
        QVERIFY(!expandAgents({"joined"}, found, error));
        QVERIFY2(error.find("--accept-agents") != std::string::npos, error.c_str());
        server.stop();
    }
};

QTEST_GUILESS_MAIN(TestAgentRegistry)
#include "tst_agentregistry.moc"
