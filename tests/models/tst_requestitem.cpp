// The request item's one owner: its JSON round trip, and what it becomes (a
// scenario step, a curl command, the exchange Send makes) with auth and body
// modes applied in one place.
#include "jobrunner.h"
#include "requestitem.h"

#include "core/curlcommand.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

#include <thread>

class TestRequestItem : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void jsonRoundTrip()
    {
        RequestItem r;
        r.method = QStringLiteral("POST");
        r.url = QStringLiteral("http://a/x?q=${q}");
        r.headers = {{QStringLiteral("X-A"), QStringLiteral("1")}};
        r.bodyMode = RequestItem::BodyMode::UrlEncoded;
        r.form = {{QStringLiteral("user"), QStringLiteral("${who}")}, {QStringLiteral("n"), QStringLiteral("a b")}};
        r.auth = RequestItem::Auth::Basic;
        r.user = QStringLiteral("u");
        r.password = QStringLiteral("p");
        r.timeoutMs = 5000;
        r.insecure = true;
        r.version = RequestItem::Version::Http1;
        const RequestItem back = RequestItem::fromJson(r.toJson());
        QCOMPARE(back.toJson(), r.toJson());
        QCOMPARE(back.form, r.form);
        QCOMPARE(back.version, RequestItem::Version::Http1);
        QCOMPARE(back.auth, RequestItem::Auth::Basic);
        QCOMPARE(back.timeoutMs, 5000);

        RequestItem g;
        g.kind = RequestItem::Kind::Grpc;
        g.target = QStringLiteral("127.0.0.1:9");
        g.grpcMethod = QStringLiteral("a.B/C");
        g.data = QStringLiteral("{}");
        g.metadata = {{QStringLiteral("k"), QStringLiteral("v")}};
        g.deadlineMs = 250;
        g.descriptors = QByteArray("\x01\x02", 2);
        const RequestItem gb = RequestItem::fromJson(g.toJson());
        QCOMPARE(gb.kind, RequestItem::Kind::Grpc);
        QCOMPARE(gb.descriptors, g.descriptors);
        QCOMPARE(gb.toJson(), g.toJson());
        // a new request's payload, as the main window creates it
        QCOMPARE(RequestItem::fromJson(RequestItem().toJson()).method, QStringLiteral("GET"));
    }

    void curlKeepsAuthAndFormBodies()
    {
        RequestItem r;
        r.method = QStringLiteral("POST");
        r.url = QStringLiteral("http://127.0.0.1/login?q=${q}");
        r.bodyMode = RequestItem::BodyMode::UrlEncoded;
        r.form = {{QStringLiteral("user"), QStringLiteral("${who}")}};
        r.auth = RequestItem::Auth::Bearer;
        r.token = QStringLiteral("${tok}");
        const QString curl = r.toCurl({{QStringLiteral("q"), QStringLiteral("x")},
                                       {QStringLiteral("who"), QStringLiteral("Li")},
                                       {QStringLiteral("tok"), QStringLiteral("s3cret")}});
        QVERIFY2(curl.contains(QStringLiteral("Authorization: Bearer s3cret")), qPrintable(curl));
        QVERIFY2(curl.contains(QStringLiteral("user=Li")), qPrintable(curl));
        QVERIFY2(curl.contains(QStringLiteral("application/x-www-form-urlencoded")), qPrintable(curl));
        QVERIFY2(curl.contains(QStringLiteral("login?q=x")), qPrintable(curl));
        // and it parses back to the same request
        std::string err;
        const auto parsed = stampede::parseCurl(curl.toStdString(), err);
        QVERIFY2(parsed, err.c_str());
        QCOMPARE(parsed->body, std::string("user=Li"));
        QCOMPARE(parsed->method, std::string("POST"));
    }

    void exchangeLetsTheUserWin()
    {
        RequestItem r;
        r.bodyMode = RequestItem::BodyMode::Json;
        r.body = QStringLiteral("{\"a\": ${n}}");
        r.headers = {{QStringLiteral("content-type"), QStringLiteral("application/vnd.x+json")}};
        r.auth = RequestItem::Auth::Basic;
        r.user = QStringLiteral("u");
        r.password = QStringLiteral("p");
        const auto rq = r.toExchange({{QStringLiteral("n"), QStringLiteral("7")}});
        QCOMPARE(rq.body, std::string("{\"a\": 7}"));
        int contentTypes = 0;
        bool auth = false;
        for (const auto& [n, v] : rq.headers) {
            contentTypes += QString::fromStdString(n).compare(QLatin1String("content-type"), Qt::CaseInsensitive) == 0;
            auth |= n == "Authorization" && v == "Basic dTpw";
        }
        QCOMPARE(contentTypes, 1); // the user's, not a second one
        QVERIFY(auth);
        QCOMPARE(rq.timeout, 30 * stampede::kNanosPerSecond);
    }

    void stepsEncodeTheBodyMode()
    {
        RequestItem r;
        r.method = QStringLiteral("post");
        r.url = QStringLiteral("${base}/form");
        r.bodyMode = RequestItem::BodyMode::Multipart;
        r.form = {{QStringLiteral("id"), QStringLiteral("${users.id}")}};
        const QJsonObject rq = r.toStep(QStringLiteral("send form")).value(QStringLiteral("request")).toObject();
        QCOMPARE(rq.value(QStringLiteral("method")).toString(), QStringLiteral("POST"));
        const QString body = rq.value(QStringLiteral("body")).toString();
        QVERIFY2(body.contains(QStringLiteral("name=\"id\"\r\n\r\n${users.id}")), qPrintable(body)); // names kept
        const QJsonObject h = rq.value(QStringLiteral("headers")).toArray()[0].toObject();
        QVERIFY(
            h.value(QStringLiteral("value")).toString().startsWith(QStringLiteral("multipart/form-data; boundary=")));
        QVERIFY(!rq.contains(QStringLiteral("timeout")));
    }

    // Background work: a newer job makes an older result stale, and a result
    // never reaches a receiver that is gone.
    void jobRunnerDeliversOnlyFresh()
    {
        auto* receiver = new QObject;
        JobRunner jobs(receiver);
        QList<int> got;
        jobs.start(
            [] {
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
                return 1;
            },
            [&](int v) { got << v; });
        jobs.start([] { return 2; }, [&](int v) { got << v; });
        QTRY_COMPARE(got, QList<int>{2});
        QTest::qWait(300);
        QCOMPARE(got, QList<int>{2}); // the first one's result was dropped

        jobs.start(
            [] {
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
                return 3;
            },
            [&](int v) { got << v; });
        delete receiver;
        jobs.wait();
        QTest::qWait(100);
        QCOMPARE(got, QList<int>{2});
    }
};

QTEST_MAIN(TestRequestItem)
#include "tst_requestitem.moc"
