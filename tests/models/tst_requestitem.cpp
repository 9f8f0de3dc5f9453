// The request item's one owner: its JSON round trip, and what it becomes (a
// scenario step, a curl command, the exchange Send makes) with auth and body
// modes applied in one place.
#include "enginetext.h"
#include "jobrunner.h"
#include "requestitem.h"

#include "core/curlcommand.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
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
                                       {QStringLiteral("who"), QStringLiteral("Li Wei")},
                                       {QStringLiteral("tok"), QStringLiteral("s3cret")}});
        QVERIFY2(curl.contains(QStringLiteral("Authorization: Bearer s3cret")), qPrintable(curl));
        QVERIFY2(curl.contains(QStringLiteral("user=Li%20Wei")), qPrintable(curl));
        QVERIFY2(curl.contains(QStringLiteral("application/x-www-form-urlencoded")), qPrintable(curl));
        QVERIFY2(curl.contains(QStringLiteral("login?q=x")), qPrintable(curl));
        // and it parses back to the same request
        std::string err;
        const auto parsed = stampede::parseCurl(curl.toStdString(), err);
        QVERIFY2(parsed, err.c_str());
        QCOMPARE(parsed->body, std::string("user=Li%20Wei"));
        QCOMPARE(parsed->method, std::string("POST"));
    }

    // Files go to curl as paths (a file body's --data-binary @path, a form's -F name=@path), made absolute from the
    // project's folder; without the folder a relative path is not found, and that is said.
    void curlSendsFilesAsPaths()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("me.png")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray("\x89PNG\0\x01", 6));
        f.close();
        RequestItem r;
        r.method = QStringLiteral("PUT");
        r.url = QStringLiteral("http://127.0.0.1/avatar");
        r.bodyMode = RequestItem::BodyMode::File;
        r.bodyFile = QStringLiteral("me.png");
        QString error;
        QVERIFY(r.toCurl({}, &error).isEmpty());
        QVERIFY2(error.contains(QStringLiteral("me.png")), qPrintable(error));
        const QString body = r.toCurl({}, &error, dir.path());
        QVERIFY2(body.contains(QStringLiteral("--data-binary '@") + dir.filePath(QStringLiteral("me.png")) +
                               QLatin1Char('\'')),
                 qPrintable(body));
        QVERIFY2(body.contains(QStringLiteral("-X PUT")) && body.contains(QStringLiteral("image/png")),
                 qPrintable(body));
        QVERIFY2(!body.contains(QStringLiteral("PNG")) && !body.contains(QStringLiteral("Content-Length")),
                 qPrintable(body));

        r.method = QStringLiteral("POST");
        r.bodyMode = RequestItem::BodyMode::Multipart;
        r.form = {{QStringLiteral("note"), QStringLiteral("for ${who}")}, {QStringLiteral("pic"), QString()}};
        r.formFiles = {{1, {QStringLiteral("me.png")}}};
        const QString form = r.toCurl({{QStringLiteral("who"), QStringLiteral("Li")}}, &error, dir.path());
        QVERIFY2(form.contains(QStringLiteral("-F 'note=for Li'")), qPrintable(form));
        QVERIFY2(
            form.contains(QStringLiteral("-F 'pic=@") + dir.filePath(QStringLiteral("me.png")) + QLatin1Char('\'')),
            qPrintable(form));
        QVERIFY2(!form.contains(QStringLiteral("multipart/form-data")) && !form.contains(QStringLiteral(" -X ")),
                 qPrintable(form));
        // and curl's own -F @ reads back as the same file field
        std::string err;
        const auto parsed = stampede::parseCurl(form.toStdString(), err);
        QVERIFY2(parsed, err.c_str());
        QCOMPARE(parsed->formFiles.size(), std::size_t(1));
        QCOMPARE(parsed->formFiles[0].second, dir.filePath(QStringLiteral("me.png")).toStdString());
        QCOMPARE(parsed->form[0].second, std::string("for Li"));
        // a text field is the engine's rendering: Postman's dynamic names too, not left as written
        r.form[0].second = QStringLiteral("id ${$guid}");
        const QString guid = r.toCurl({}, &error, dir.path());
        const auto withGuid = stampede::parseCurl(guid.toStdString(), err);
        QVERIFY2(withGuid, err.c_str());
        QVERIFY2(QRegularExpression(QStringLiteral("^id [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"))
                     .match(QString::fromStdString(withGuid->form[0].second))
                     .hasMatch(),
                 qPrintable(guid));
        // and a name nothing defines goes as written, as Send sends it
        r.form[0].second = QStringLiteral("for ${nobody}");
        const auto unknown = stampede::parseCurl(r.toCurl({}, &error, dir.path()).toStdString(), err);
        QVERIFY2(unknown, err.c_str());
        QCOMPARE(unknown->form[0].second, std::string("for ${nobody}"));
    }

    // What Send sends is the engine's rendering of the step as written: the
    // body byte for byte (keys in the author's order, spacing kept), the
    // user's Content-Type winning over the mode's, Basic encoded at send time.
    // Send draws Postman's dynamic names as a run's iteration does (it sent them empty): one value for the
    // request, the same at each use.
    void sendDrawsDynamicNames()
    {
        RequestItem r;
        r.method = QStringLiteral("POST");
        r.url = QStringLiteral("http://127.0.0.1:9/x?t=${$timestamp}");
        r.bodyMode = RequestItem::BodyMode::Raw;
        r.body = QStringLiteral("a=${$guid}&b=${$guid}");
        stampede::SentRequest sent;
        std::string error;
        QVERIFY2(stampede::renderOnce(r.toSend({}), sent, error), error.c_str());
        const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("^a=([0-9a-f-]{36})&b=([0-9a-f-]{36})$"))
                                              .match(QString::fromStdString(sent.body));
        QVERIFY2(m.hasMatch() && m.captured(1) == m.captured(2), sent.body.c_str());
        QVERIFY2(QRegularExpression(QStringLiteral("t=1[0-9]{9}$")).match(QString::fromStdString(sent.url)).hasMatch(),
                 sent.url.c_str());
    }

    void sendRendersTheStepAsWritten()
    {
        RequestItem r;
        r.method = QStringLiteral("POST");
        r.url = QStringLiteral("http://127.0.0.1:9/x");
        r.bodyMode = RequestItem::BodyMode::Json;
        r.body = QStringLiteral("{\"z\": ${n},\n   \"a\": \"\\u00e9\"}");
        r.headers = {{QStringLiteral("content-type"), QStringLiteral("application/vnd.x+json")}};
        r.auth = RequestItem::Auth::Basic;
        r.user = QStringLiteral("${who}");
        r.password = QStringLiteral("p");
        stampede::SentRequest sent;
        std::string error;
        QVERIFY2(stampede::renderOnce(r.toSend({{QStringLiteral("n"), QStringLiteral("7")},
                                                {QStringLiteral("who"), QStringLiteral("u")}}),
                                      sent, error),
                 error.c_str());
        QCOMPARE(sent.body, std::string("{\"z\": 7,\n   \"a\": \"\\u00e9\"}"));
        int contentTypes = 0;
        bool auth = false;
        for (const auto& [n, v] : sent.headers) {
            contentTypes += QString::fromStdString(n).compare(QLatin1String("content-type"), Qt::CaseInsensitive) == 0;
            auth |= n == "Authorization" && v == "Basic dTpw";
        }
        QCOMPARE(contentTypes, 1); // the user's, not a second one
        QVERIFY(auth);
        QCOMPARE(sent.url, std::string("http://127.0.0.1:9/x"));
        // a name nothing defines goes out as its text, when the user says so
        r.body = QStringLiteral("${nobody}");
        QVERIFY(stampede::renderOnce(r.toSend({{QStringLiteral("who"), QStringLiteral("u")}}), sent, error));
        QCOMPARE(sent.body, std::string("${nobody}"));
        // a data set's column from its first row
        r.body = QStringLiteral("${users.city}");
        QVERIFY2(stampede::renderOnce(r.toSend({{QStringLiteral("who"), QStringLiteral("u")},
                                                {QStringLiteral("users.city"), QStringLiteral("Hang\"zhou")}}),
                                      sent, error),
                 error.c_str());
        QCOMPARE(sent.body, std::string("Hang\"zhou"));
    }

    // A step keeps the request as written: the form's fields and the auth's
    // with their ${…}, the body as typed; the engine encodes them when it sends.
    void stepsKeepTheRequestAsWritten()
    {
        RequestItem r;
        r.method = QStringLiteral("post");
        r.url = QStringLiteral("${base}/form");
        r.bodyMode = RequestItem::BodyMode::UrlEncoded;
        r.form = {{QStringLiteral("id"), QStringLiteral("${users.id}")}};
        r.auth = RequestItem::Auth::Basic;
        r.user = QStringLiteral("${username}");
        r.password = QStringLiteral("${password}");
        const QJsonObject rq = r.toStep(QStringLiteral("send form")).value(QStringLiteral("request")).toObject();
        QCOMPARE(rq.value(QStringLiteral("method")).toString(), QStringLiteral("POST"));
        QVERIFY(!rq.contains(QStringLiteral("body")));
        const QJsonObject form = rq.value(QStringLiteral("form")).toObject();
        QCOMPARE(form.value(QStringLiteral("fields")).toArray()[0].toObject().value(QStringLiteral("value")).toString(),
                 QStringLiteral("${users.id}"));
        const QJsonObject basic = rq.value(QStringLiteral("auth")).toObject().value(QStringLiteral("basic")).toObject();
        QCOMPARE(basic.value(QStringLiteral("user")).toString(), QStringLiteral("${username}"));
        QCOMPARE(basic.value(QStringLiteral("password")).toString(), QStringLiteral("${password}"));
        QVERIFY(!rq.contains(QStringLiteral("headers"))); // no Authorization frozen into a header
        QCOMPARE(rq.value(QStringLiteral("timeout")).toString(), QStringLiteral("30s"));
        r.bodyMode = RequestItem::BodyMode::Raw;
        r.body = QStringLiteral("{\"b\":1, \"a\":2}");
        QCOMPARE(r.toStep(QStringLiteral("raw"))
                     .value(QStringLiteral("request"))
                     .toObject()
                     .value(QStringLiteral("body"))
                     .toString(),
                 r.body);
    }

    // curl: every option curl documents is applied or named as not taken; a proxy is refused.
    void curlOptionsAreAppliedOrNamed()
    {
        QStringList notTaken;
        QString error;
        auto r = RequestItem::fromCurl(
            QStringLiteral(
                "curl -sSL -k -u 'li:pa:ss' -m 5 --compressed -F 'a=1' -F 'pic=@me.png' "
                "-F 'doc=@files/a b.pdf;type=application/pdf' -F 'v=<value.txt' --http2 https://127.0.0.1/up"),
            &error, &notTaken);
        QVERIFY2(r, qPrintable(error));
        QCOMPARE(r->auth, RequestItem::Auth::Basic);
        QCOMPARE(r->user, QStringLiteral("li"));
        QCOMPARE(r->password, QStringLiteral("pa:ss"));
        QVERIFY(r->insecure);
        QCOMPARE(r->timeoutMs, 5000);
        QCOMPARE(r->bodyMode, RequestItem::BodyMode::Multipart);
        // -F name=@path: a file field with the path as written (the project's folder is where it is read from)
        QCOMPARE(r->form, (RequestItem::Pairs{{QStringLiteral("a"), QStringLiteral("1")},
                                              {QStringLiteral("pic"), {}},
                                              {QStringLiteral("doc"), {}}}));
        QCOMPARE(r->formFiles,
                 (QMap<int, QStringList>{{1, {QStringLiteral("me.png")}}, {2, {QStringLiteral("files/a b.pdf")}}}));
        QCOMPARE(r->version, RequestItem::Version::Http2);
        QCOMPARE(r->method, QStringLiteral("POST"));
        QCOMPARE(notTaken,
                 (QStringList{
                     QStringLiteral("-s"), QStringLiteral("-S"), QStringLiteral("-L"), QStringLiteral("--compressed"),
                     QStringLiteral("-F doc=@files/a b.pdf;type=application/pdf (type=application/pdf is not taken)"),
                     QStringLiteral("-F v=<value.txt (a value read from a file is not taken)")}));
        // --data-urlencode encodes; -G moves the data into the query
        r = RequestItem::fromCurl(
            QStringLiteral("curl -G --data-urlencode 'q=a b&c' --data-urlencode '=x/y' http://127.0.0.1/s"), &error);
        QVERIFY2(r, qPrintable(error));
        QCOMPARE(r->url, QStringLiteral("http://127.0.0.1/s?q=a%20b%26c&x%2Fy"));
        QCOMPARE(r->method, QStringLiteral("GET"));
        QVERIFY(r->body.isEmpty());
        // -XPOST joined, -d then a value that is not a file
        r = RequestItem::fromCurl(QStringLiteral("curl -XPUT -d 'k=v' http://127.0.0.1/p"), &error);
        QVERIFY2(r, qPrintable(error));
        QCOMPARE(r->method, QStringLiteral("PUT"));
        QCOMPARE(r->body, QStringLiteral("k=v"));
        // a proxy would send the request elsewhere: refused, naming it
        QVERIFY(!RequestItem::fromCurl(QStringLiteral("curl -x http://proxy:3128 http://127.0.0.1/"), &error));
        QVERIFY2(error.startsWith(QStringLiteral("-x: the request would go through a proxy")), qPrintable(error));
        QVERIFY(!RequestItem::fromCurl(QStringLiteral("curl --frobnicate http://127.0.0.1/"), &error));
        QCOMPARE(error, QStringLiteral("\"--frobnicate\" is not a curl option"));
        // a value-taking option swallows its value, not the URL
        r = RequestItem::fromCurl(QStringLiteral("curl --retry 3 -o out.html http://127.0.0.1/z"), &error, &notTaken);
        QVERIFY2(r, qPrintable(error));
        QCOMPARE(r->url, QStringLiteral("http://127.0.0.1/z"));
    }

    // The engine's messages are known by their form: a code each, the field
    // and the parts (names, hosts) kept, a message inside a message too.
    void engineMessagesHaveCodes()
    {
        QCOMPARE(engineTextCode(QStringLiteral("steps[1].request.url: unknown variable ${token}")),
                 QStringLiteral("unknown-variable"));
        QCOMPARE(engineText(QStringLiteral("steps[1].request.url: unknown variable ${token}")),
                 QStringLiteral("steps[1].request.url: unknown variable ${token}"));
        QCOMPARE(engineTextCode(QStringLiteral("not sent: cannot connect to 127.0.0.1:9: Connection refused")),
                 QStringLiteral("not-sent"));
        QCOMPARE(engineText(QStringLiteral("not sent: cannot connect to 127.0.0.1:9: Connection refused")),
                 QStringLiteral("not sent: cannot connect to 127.0.0.1:9: the connection was refused"));
        QCOMPARE(engineTextCode(QStringLiteral("no request succeeded (12 failed)")),
                 QStringLiteral("no-request-succeeded"));
        QCOMPARE(engineTextCode(QStringLiteral(
                     "not as planned: 80 of 400 planned iterations were made (20.000 %); 320 arrivals were dropped")),
                 QStringLiteral("not-as-planned"));
        QCOMPARE(engineTextCode(QStringLiteral("something the engine never says")), QString());
        QCOMPARE(engineText(QStringLiteral("something the engine never says")),
                 QStringLiteral("something the engine never says")); // shown as it came
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

        // a job that takes the cancel check stops early once a newer job (or cancel()) makes it stale
        auto* owner = new QObject;
        JobRunner runner(owner);
        std::atomic<int> turns{0};
        std::atomic<bool> stopped{false};
        runner.start(
            [&](const JobRunner::Cancelled& cancelled) {
                for (int i = 0; i < 500; ++i) { // 5 s unless told
                    if (cancelled()) {
                        stopped = true;
                        return -1;
                    }
                    ++turns;
                    std::this_thread::sleep_for(std::chrono::milliseconds(10));
                }
                return 0;
            },
            [&](int v) { got << v; });
        QTRY_VERIFY(turns.load() > 0);
        runner.cancel();
        runner.wait();
        QVERIFY(stopped.load());
        QVERIFY(turns.load() < 500);
        QTest::qWait(50);
        QCOMPARE(got, QList<int>{2}); // and its result is not delivered
        delete owner;
    }
};

QTEST_MAIN(TestRequestItem)
#include "tst_requestitem.moc"
