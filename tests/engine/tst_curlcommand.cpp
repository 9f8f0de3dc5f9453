#include "core/curlcommand.h"

#include <QTest>

using namespace stampede;

class TestCurlCommand : public QObject
{
    Q_OBJECT
private slots:
    void parsesBrowserCopies()
    {
        std::string error;
        const std::string text = "curl 'https://api.example.test/v1/orders?x=1' \\\n"
                                 "  -H 'accept: application/json' \\\n"
                                 "  -H \"Authorization: Bearer abc\" \\\n"
                                 "  --data-raw $'{\"item\": \"tea\\'s\"}' --compressed";
        const auto r = parseCurl(text, error);
        QVERIFY2(r, error.c_str());
        QCOMPARE(r->method, std::string("POST"));
        QCOMPARE(r->url, std::string("https://api.example.test/v1/orders?x=1"));
        QCOMPARE(r->headers.size(), std::size_t(3)); // curl types --data-raw as a form, as it sends it
        QCOMPARE(r->headers[1].second, std::string("Bearer abc"));
        QCOMPARE(r->headers[2].second, std::string("application/x-www-form-urlencoded"));
        QCOMPARE(r->body, std::string("{\"item\": \"tea's\"}"));
        QCOMPARE(r->notTaken, std::vector<std::string>{"--compressed"});
    }
    void methodsAndAuth()
    {
        std::string error;
        auto r = parseCurl("curl -X DELETE localhost:8080/items/7 -u alice:secret", error);
        QVERIFY(r);
        QCOMPARE(r->method, std::string("DELETE"));
        QCOMPARE(r->url, std::string("http://localhost:8080/items/7"));
        QVERIFY(r->basic); // Basic auth, kept as user and password
        QCOMPARE(r->user, std::string("alice"));
        QCOMPARE(r->password, std::string("secret"));
        QVERIFY(!r->digest);
        r = parseCurl("curl --digest -u alice:secret http://h/", error); // Digest: no longer "not taken"
        QVERIFY(r && r->basic && r->digest && r->notTaken.empty());
        r = parseCurl("curl --digest --basic -u alice:secret http://h/", error); // the last one wins, as curl's
        QVERIFY(r && r->basic && !r->digest);
        r = parseCurl("curl -I http://h/", error);
        QCOMPARE(r->method, std::string("HEAD"));
        r = parseCurl("curl -d a=1 -d b=2 http://h/form", error);
        QCOMPARE(r->body, std::string("a=1&b=2"));
        QCOMPARE(r->headers[0].second, std::string("application/x-www-form-urlencoded"));
    }
    void roundTrip()
    {
        CurlRequest r;
        r.method = "PUT";
        r.url = "http://127.0.0.1:9/a b";
        r.headers = {{"X-Quote", "it's"}, {"Content-Type", "application/json"}};
        r.body = "{\"a\": 1}";
        std::string error;
        const auto back = parseCurl(toCurl(r), error);
        QVERIFY2(back, error.c_str());
        QCOMPARE(back->method, r.method);
        QCOMPARE(back->url, r.url);
        QCOMPARE(back->headers, r.headers);
        QCOMPARE(back->body, r.body);
    }
    void rejects_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::addRow("not curl") << "wget http://x"
                                  << "not a curl command (it must start with \"curl\")";
        QTest::addRow("no url") << "curl -H 'a: b'"
                                << "the curl command has no URL";
        QTest::addRow("open quote") << "curl 'http://x"
                                    << "unclosed ' quote";
        QTest::addRow("bad header") << "curl -H nocolon http://x"
                                    << "header \"nocolon\" has no colon";
        QTest::addRow("missing value") << "curl http://x -X"
                                       << "-X needs a value";
    }
    void rejects()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        std::string error;
        QVERIFY(!parseCurl(text.toStdString(), error));
        QCOMPARE(QString::fromStdString(error), message);
    }
};

QTEST_APPLESS_MAIN(TestCurlCommand)
#include "tst_curlcommand.moc"
