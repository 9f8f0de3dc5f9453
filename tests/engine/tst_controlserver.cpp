// The control endpoint against hostile callers: idle sockets do not keep a
// status or a stop out of reach (connections are served at once, side by
// side), the documented limits hold (a 16 KiB head: 431 past it; a 4 KiB
// body: 413, read as an answer, not a reset), the token is checked from the
// head before any body is read, a caller that trickles its request is cut at
// 2 s, and a scale factor outside its range is refused.
#include "control/controlserver.h"
#include "rawclient.h"

#include <QElapsedTimer>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

using namespace stampede;

namespace {

using rawclient::sendAll;

// The port of a bound "127.0.0.1:PORT".
std::uint16_t portOf(const std::string& address)
{
    return std::uint16_t(std::stoi(address.substr(address.rfind(':') + 1)));
}
int connectTo(const std::string& address)
{
    return rawclient::connectTo(portOf(address));
}
std::string readAll(int fd, int ms = 5000)
{
    return rawclient::readUntilClose(fd, ms);
}
std::string call(const std::string& address, const std::string& request, bool* reset = nullptr)
{
    return rawclient::ask(portOf(address), request, nullptr, reset);
}

int statusOf(const std::string& answer)
{
    return answer.size() > 12 && answer.compare(0, 9, "HTTP/1.1 ") == 0 ? std::stoi(answer.substr(9, 3)) : 0;
}

} // namespace

class TestControlServer : public QObject
{
    Q_OBJECT
    ControlServer m_server;
    std::atomic<int> m_handled{0};
    std::string m_lastBody;

private Q_SLOTS:
    void initTestCase()
    {
        std::string error;
        QVERIFY2(m_server.start(
                     {"127.0.0.1:0", "s3cret", {}, {}},
                     [this](const ControlRequest& rq) {
                         ++m_handled;
                         m_lastBody = rq.body;
                         return ControlReply{200, "{\"path\": \"" + rq.path + "\"}"};
                     },
                     error),
                 error.c_str());
    }

    // Before: one connection at a time, each idle one holding the next for
    // its 2 s (five took /v1/status to 10 s).
    void idleSocketsDoNotHoldACall()
    {
        std::vector<int> idle;
        for (int i = 0; i < 5; ++i)
            idle.push_back(connectTo(m_server.address()));
        QElapsedTimer t;
        t.start();
        const std::string answer =
            call(m_server.address(), "GET /v1/status HTTP/1.1\r\nAuthorization: Bearer s3cret\r\n\r\n");
        QCOMPARE(statusOf(answer), 200);
        QVERIFY2(t.elapsed() < 1500, qPrintable(QString::number(t.elapsed())));
        for (const int fd : idle)
            ::close(fd);
    }

    // The head's limit is the README's 16 KiB: a 20 KiB head is answered 431.
    void aHeadOver16KiBIs431()
    {
        std::string head = "GET /v1/status HTTP/1.1\r\nAuthorization: Bearer s3cret\r\n";
        while (head.size() < 20 * 1024)
            head += "X-Pad: " + std::string(100, 'p') + "\r\n";
        const int before = m_handled.load();
        QCOMPARE(statusOf(call(m_server.address(), head + "\r\n")), 431);
        QCOMPARE(m_handled.load(), before);
        // just under the limit is read
        std::string fits = "GET /v1/status HTTP/1.1\r\nAuthorization: Bearer s3cret\r\n";
        while (fits.size() < 16 * 1024 - 200)
            fits += "X-Pad: " + std::string(100, 'p') + "\r\n";
        QCOMPARE(statusOf(call(m_server.address(), fits + "\r\n")), 200);
    }

    // A 5 KB body: 413, and the client reads it (the rest of its body is read
    // and dropped before the close, which would otherwise reset the connection).
    void aBodyOver4KiBIs413NotAReset()
    {
        const std::string body(5000, 'x');
        bool reset = false;
        const std::string answer = call(
            m_server.address(),
            "POST /v1/scale HTTP/1.1\r\nAuthorization: Bearer s3cret\r\nContent-Length: 5000\r\n\r\n" + body, &reset);
        QCOMPARE(statusOf(answer), 413);
        QVERIFY(!reset);
    }

    // A wrong token is answered from the head: the body is not waited for.
    void theTokenIsCheckedBeforeTheBody()
    {
        const int fd = connectTo(m_server.address());
        sendAll(fd, "POST /v1/stop HTTP/1.1\r\nAuthorization: Bearer wrong\r\nContent-Length: 4000\r\n\r\n");
        QElapsedTimer t;
        t.start();
        const std::string answer = readAll(fd, 3000);
        ::close(fd);
        QCOMPARE(statusOf(answer), 401);
        QVERIFY2(t.elapsed() < 1000, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(statusOf(call(m_server.address(), "POST /v1/stop HTTP/1.1\r\nContent-Length: 0\r\n\r\n")), 401);
    }

    // A caller that sends a byte every 100 ms is cut at 2 s (before: 2 s a read, for ever).
    void aTricklingCallerIsCutAt2s()
    {
        const int fd = connectTo(m_server.address());
        const std::string request = "GET /v1/status HTTP/1.1\r\nX-Slow: " + std::string(200, 's');
        QElapsedTimer t;
        t.start();
        bool closed = false;
        for (std::size_t i = 0; i < request.size() && t.elapsed() < 6000; ++i) {
            if (::send(fd, &request[i], 1, MSG_NOSIGNAL) != 1) {
                closed = true;
                break;
            }
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, 100) > 0) { // its answer (400) and close
                closed = true;
                break;
            }
        }
        ::close(fd);
        QVERIFY(closed);
        QVERIFY2(t.elapsed() >= 1900 && t.elapsed() < 4000, qPrintable(QString::number(t.elapsed())));
    }

    // More idle sockets than it serves at once: the extra ones are closed at
    // once, and a call still gets through once they are.
    void idleSocketsBeyondTheCapAreClosed()
    {
        std::vector<int> idle;
        for (int i = 0; i < ControlServer::kMaxConnections + 4; ++i)
            idle.push_back(connectTo(m_server.address()));
        int closedAtOnce = 0;
        for (const int fd : idle) {
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, 300) > 0 && readAll(fd, 100).empty())
                ++closedAtOnce;
        }
        QVERIFY2(closedAtOnce >= 4, qPrintable(QString::number(closedAtOnce)));
        for (const int fd : idle)
            ::close(fd);
        QElapsedTimer t;
        t.start();
        std::string answer;
        while (statusOf(answer) != 200 && t.elapsed() < 5000)
            answer = call(m_server.address(), "GET /v1/status HTTP/1.1\r\nAuthorization: Bearer s3cret\r\n\r\n");
        QCOMPARE(statusOf(answer), 200);
    }

    void scaleRange_data()
    {
        QTest::addColumn<QString>("body");
        QTest::addColumn<bool>("ok");
        QTest::addRow("factor 0.5") << "{\"factor\": 0.5}" << true;
        QTest::addRow("factor 0.01") << "{\"factor\": 0.01}" << true;
        QTest::addRow("factor 100") << "{\"factor\": 100}" << true;
        QTest::addRow("factor 0") << "{\"factor\": 0}" << false;
        QTest::addRow("factor 1e-20") << "{\"factor\": 1e-20}" << false;
        QTest::addRow("factor 0.001") << "{\"factor\": 0.001}" << false;
        QTest::addRow("factor 101") << "{\"factor\": 101}" << false;
        QTest::addRow("factor -1") << "{\"factor\": -1}" << false;
        QTest::addRow("factor nan") << "{\"factor\": nan}" << false;
        QTest::addRow("rate 800") << "{\"rate\": 800}" << true;
        QTest::addRow("rate 0") << "{\"rate\": 0}" << false;
        QTest::addRow("two keys") << "{\"factor\": 1, \"rate\": 2}" << false;
    }
    void scaleRange()
    {
        QFETCH(QString, body);
        QFETCH(bool, ok);
        bool isRate = false;
        double value = 0;
        std::string error;
        QCOMPARE(parseScaleBody(body.toStdString(), isRate, value, error), ok);
        QCOMPARE(error.empty(), ok);
    }

    // stop() ends while sockets sit idle: within their 2 s deadline.
    void stopEndsWithIdleSockets()
    {
        ControlServer server;
        std::string error;
        QVERIFY(server.start(
            {"127.0.0.1:0", {}, {}, {}}, [](const ControlRequest&) { return ControlReply{}; }, error));
        std::vector<int> idle;
        for (int i = 0; i < 3; ++i)
            idle.push_back(connectTo(server.address()));
        QTest::qWait(100);
        QElapsedTimer t;
        t.start();
        server.stop();
        QVERIFY2(t.elapsed() < 5000, qPrintable(QString::number(t.elapsed())));
        for (const int fd : idle)
            ::close(fd);
    }
};

QTEST_GUILESS_MAIN(TestControlServer)
#include "tst_controlserver.moc"
