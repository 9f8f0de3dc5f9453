// "Record traffic from a gateway…" (issue 29): Start listens, requests sent to
// it are counted live, Stop stores the last second and finishes the set,
// masked with the defaults; a bad address, rule or name disables Start and
// says why; an empty recording keeps no set. Screenshots in en and zh_CN.
#include "trafficrecorddialog.h"
#include "uilanguage.h"

#include "store/projectstore.h"
#include "traffic/trafficstore.h"

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

class TestTrafficRecordDialog : public QObject
{
    Q_OBJECT
private slots:
    void recordThenStop_data() { uitest::addLanguageRows(); }
    void recordThenStop()
    {
        QFETCH(QString, language);
        uitest::UiLanguage ui;
        QVERIFY(ui.install(language));
        QTemporaryDir dir;
        std::string error;
        auto store = stampede::ProjectStore::create(dir.filePath(QStringLiteral("p.stampede")).toStdString(), error);
        QVERIFY(store);
        TrafficRecordDialog d(*store);
        auto* start = d.findChild<QPushButton*>(QStringLiteral("start"));
        // what cannot start says why
        d.setListen(QStringLiteral("127.0.0.1:99999"));
        QVERIFY(!start->isEnabled());
        QVERIFY2(d.state().contains(QStringLiteral("65,535")), qPrintable(d.state()));
        d.setListen(QStringLiteral("127.0.0.1:0"));
        d.findChild<QLineEdit*>(QStringLiteral("include"))->setText(QStringLiteral("(["));
        QVERIFY(!start->isEnabled());
        d.findChild<QLineEdit*>(QStringLiteral("include"))->setText(QStringLiteral("^/api/"));
        d.findChild<QLineEdit*>(QStringLiteral("name"))->setText(QStringLiteral("live"));
        QVERIFY(start->isEnabled());

        start->click();
        QVERIFY2(d.recording().running(), qPrintable(d.state()));
        const QString address = d.recording().address();
        const quint16 port = quint16(address.mid(address.lastIndexOf(QLatin1Char(':')) + 1).toUInt());
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        const auto closeSocket = qScopeGuard([fd] { ::close(fd); });
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(port);
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QVERIFY(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
        const std::string requests = "GET /api/users?phone=13812345678&token=abc123 HTTP/1.1\r\nHost: shop\r\n\r\n"
                                     "POST /api/login HTTP/1.1\r\nHost: shop\r\nContent-Length: 40\r\n\r\n"
                                     "{\"user\":\"a@example.com\",\"password\":\"x\"}"
                                     "GET /static/app.js HTTP/1.1\r\nHost: shop\r\n\r\n";
        QCOMPARE(::send(fd, requests.data(), requests.size(), MSG_NOSIGNAL), ssize_t(requests.size()));
        QTRY_VERIFY_WITH_TIMEOUT(d.state().contains(QStringLiteral(" 2 ")), 5000);
        QVERIFY2(d.state().contains(QStringLiteral("1 ")), qPrintable(d.state())); // the filtered one
        d.show();
        if (qEnvironmentVariableIsSet("STAMPEDE_SHOT_DIR"))
            d.grab().save(qEnvironmentVariable("STAMPEDE_SHOT_DIR") +
                          QStringLiteral("/record-dialog%1.png")
                              .arg(language.isEmpty() ? QString() : QStringLiteral("-") + language));
        start->click(); // Stop
        QTRY_VERIFY_WITH_TIMEOUT(d.item() != 0, 10000);
        QVERIFY(!d.recording().running());
        std::vector<stampede::TrafficRecord> stored;
        QVERIFY(stampede::TrafficStore(*store).load(d.item(), stored));
        QCOMPARE(stored.size(), std::size_t(2));
        QVERIFY(stored[0].target.rfind("/api/users?phone=138", 0) == 0);
        QVERIFY2(stored[0].target.find("13812345678") == std::string::npos, stored[0].target.c_str());
        QVERIFY2(stored[0].target.find("abc123") == std::string::npos, stored[0].target.c_str());
        QVERIFY2(stored[1].body.find("a@example.com") == std::string::npos, stored[1].body.c_str());
        const std::string payload = store->item(d.item())->payload;
        QVERIFY2(payload.find("\"recording\": false") != std::string::npos, payload.c_str());
        QVERIFY2(payload.find("\"filtered\": 1") != std::string::npos, payload.c_str());

        // a recording that gets nothing keeps no set
        d.findChild<QLineEdit*>(QStringLiteral("name"))->setText(QStringLiteral("empty"));
        start->click();
        QVERIFY(d.recording().running());
        start->click();
        QTRY_VERIFY_WITH_TIMEOUT(!d.recording().running() && !start->text().isEmpty() && start->isEnabled(), 5000);
        QVERIFY(!stampede::TrafficStore(*store).find("empty"));
    }
};

QTEST_MAIN(TestTrafficRecordDialog)
#include "tst_trafficrecorddialog.moc"
