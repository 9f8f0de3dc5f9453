// The mock server against careless and hostile clients: a head over its
// 64 KiB limit is answered 431 (it was reset), a Content-Length that is not
// digits 400 (-5 was 413), a head that never ends 408 after the header
// timeout, and an idle connection is closed after the idle timeout (neither
// existed: a socket held a connection for ever).
#include "core/clock.h"
#include "mock/mockrules.h"
#include "mock/mockserver.h"
#include "rawclient.h"

#include <QElapsedTimer>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

using namespace stampede;

namespace {

using rawclient::ask;
using rawclient::connectTo;
using rawclient::readUntilClose;

} // namespace

class TestMockServer : public QObject
{
    Q_OBJECT
    std::unique_ptr<MockServer> m_mock;

private Q_SLOTS:
    void initTestCase()
    {
        m_mock = std::make_unique<MockServer>(MockRuleSet::defaults(), 1);
        m_mock->setTimeouts(300 * kNanosPerMilli, 600 * kNanosPerMilli);
        std::string error;
        QVERIFY2(m_mock->start("127.0.0.1:0", error), error.c_str());
    }
    void cleanupTestCase() { m_mock->stop(); }

    void aRightRequestIsAnswered()
    {
        const std::string answer = ask(m_mock->port(), "GET /a HTTP/1.1\r\nConnection: close\r\n\r\n");
        QVERIFY2(answer.rfind("HTTP/1.1 200 ", 0) == 0, answer.c_str());
    }

    void aHeadOver64KiBIs431()
    {
        std::string head = "GET /a HTTP/1.1\r\n";
        while (head.size() < 70 * 1024)
            head += "X-Pad: " + std::string(200, 'p') + "\r\n";
        const std::string answer = ask(m_mock->port(), head + "\r\n");
        QVERIFY2(answer.rfind("HTTP/1.1 431 Request Header Fields Too Large", 0) == 0, answer.substr(0, 80).c_str());
    }

    void aLengthThatIsNotDigitsIs400_data()
    {
        QTest::addColumn<QByteArray>("length");
        QTest::addRow("negative") << QByteArray("-5");
        QTest::addRow("exponent") << QByteArray("1e3");
        QTest::addRow("empty") << QByteArray("");
        QTest::addRow("20 digits") << QByteArray("18446744073709551617");
    }
    void aLengthThatIsNotDigitsIs400()
    {
        QFETCH(QByteArray, length);
        const std::string answer =
            ask(m_mock->port(), "POST /a HTTP/1.1\r\nContent-Length: " + length.toStdString() + "\r\n\r\nhello");
        QVERIFY2(answer.rfind("HTTP/1.1 400 ", 0) == 0, answer.substr(0, 80).c_str());
    }

    // A head that never ends: 408 at the header timeout, then the close.
    void aHeadThatNeverEndsIs408()
    {
        bool closed = false;
        QElapsedTimer t;
        t.start();
        const std::string answer = ask(m_mock->port(), "GET /a HTTP/1.1\r\nX-Slow: 1\r\n", &closed);
        QVERIFY2(answer.rfind("HTTP/1.1 408 ", 0) == 0, answer.c_str());
        QVERIFY(closed);
        QVERIFY2(t.elapsed() >= 250, qPrintable(QString::number(t.elapsed())));
    }

    // An idle keep-alive connection is closed at the idle timeout; one in use is not.
    void anIdleConnectionIsClosed()
    {
        const int fd = connectTo(m_mock->port());
        const std::string request = "GET /a HTTP/1.1\r\n\r\n";
        QCOMPARE(::send(fd, request.data(), request.size(), MSG_NOSIGNAL), ssize_t(request.size()));
        bool closed = false;
        QElapsedTimer t;
        t.start();
        const std::string answers = readUntilClose(fd, 3000, &closed);
        ::close(fd);
        QVERIFY2(answers.rfind("HTTP/1.1 200 ", 0) == 0, answers.c_str());
        QVERIFY(closed);
        QVERIFY2(t.elapsed() >= 500, qPrintable(QString::number(t.elapsed())));
    }
};

QTEST_GUILESS_MAIN(TestMockServer)
#include "tst_mockserver.moc"
