// Business flows (issue "Business flows"), run by stampede-cli against a
// server in another process: think time between steps and pacing between
// iterations shape the load the server sees, and latency is measured from
// when a pause ended, never across it. Checks, extraction, cookies and
// redirects against a small shop in Python (flows_server.py, not the mock):
// what the server counted equals what Stampede counted.
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <map>

using namespace testsupport;

namespace {

// flows_server.py on a free port, for one test.
class Shop
{
public:
    Shop()
    {
        m_process.start(QStringLiteral("/usr/bin/python3"),
                        {sourceDir() + QStringLiteral("/tests/integration/flows_server.py"), QStringLiteral("0")});
        if (!m_process.waitForStarted(10000))
            return;
        for (int i = 0; i < 100 && !m_process.canReadLine(); ++i)
            m_process.waitForReadyRead(100);
        m_port = m_process.readLine().trimmed().toInt();
    }
    ~Shop()
    {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
    QByteArray url() const { return "http://127.0.0.1:" + QByteArray::number(m_port); }
    bool started() const { return m_port > 0; }
    QJsonObject stats() const
    {
        return QJsonDocument::fromJson(QByteArray::fromStdString(httpGet(m_port, "/stats"))).object();
    }

private:
    QProcess m_process;
    int m_port = 0;
};

// login (cookie + token) -> cart (needs both) -> order (every 5th a business
// error in a 200) -> a two-hop redirect, for 2 users over 2 s.
QByteArray shopScenario(const QByteArray& url, bool cookies, const char* tokenPath = "$.data.token")
{
    return "{\"name\": \"shop\", \"cookies\": " + QByteArray(cookies ? "true" : "false") +
           ", \"followRedirects\": 5, \"steps\": ["
           "{\"name\": \"login\", \"request\": {\"method\": \"POST\", \"url\": \"" +
           url +
           "/login\", \"body\": \"{}\"}, \"checks\": [{\"name\": \"ok\", \"status\": [200]}, {\"name\": "
           "\"json\", \"header\": \"Content-Type\", \"matches\": \"application/json\"}], \"extract\": [{\"name\": "
           "\"token\", \"jsonPath\": \"" +
           tokenPath +
           "\"}, {\"name\": \"sid\", \"header\": \"X-Session\"}]},"
           "{\"name\": \"cart\", \"request\": {\"url\": \"" +
           url +
           "/cart\", \"headers\": [{\"name\": \"Authorization\", \"value\": \"Bearer ${token}\"}]}, "
           "\"checks\": [{\"name\": \"items\", \"jsonPath\": \"$.items\", \"equals\": \"3\"}]},"
           "{\"name\": \"order\", \"request\": {\"method\": \"POST\", \"url\": \"" +
           url +
           "/order\", \"body\": \"{\\\"sid\\\": \\\"${sid}\\\"}\", \"headers\": [{\"name\": \"Authorization\", "
           "\"value\": \"Bearer ${token}\"}]}, \"checks\": [{\"name\": \"biz code\", \"jsonPath\": \"$.code\", "
           "\"equals\": \"0\"}, {\"name\": \"no failure\", \"bodyContains\": \"failed\", \"negate\": true}]},"
           "{\"name\": \"moved\", \"request\": {\"url\": \"" +
           url +
           "/old\"}, \"checks\": [{\"name\": \"landed\", \"jsonPath\": \"$.page\", \"equals\": \"new\"}]}],"
           "\"load\": {\"closed\": {\"users\": 2}}, \"duration\": \"2s\"}";
}

qint64 checkCount(const QJsonObject& total, const char* name, const char* what)
{
    return total.value(QStringLiteral("checks"))
        .toObject()
        .value(QString::fromUtf8(name))
        .toObject()
        .value(QString::fromLatin1(what))
        .toInteger(-1);
}

qint64 field(const QJsonObject& o, const char* key)
{
    return o.value(QString::fromLatin1(key)).toInteger(-1);
}

qint64 errorsOf(const QJsonObject& total, const char* errorClass)
{
    return total.value(QStringLiteral("errors_by_class"))
        .toObject()
        .value(QString::fromLatin1(errorClass))
        .toInteger(-1);
}

} // namespace

class TestFlows : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    // Runs `scenario` on one engine; the summary's steps by name.
    QJsonArray run(const char* name, const QByteArray& scenario)
    {
        const QString file = writeFile(m_dir, name, scenario);
        const QString summary = m_dir.filePath(QString::fromLatin1(name) + QStringLiteral(".summary"));
        const auto r = runCli({QStringLiteral("run"), file, QStringLiteral("--engines"), QStringLiteral("1"),
                               QStringLiteral("-q"), QStringLiteral("--summary-json"), summary});
        if (r.exitCode != 0)
            qWarning("%s", qPrintable(r.err));
        return readJson(summary).value(QStringLiteral("steps")).toArray();
    }
    // The same, the whole summary, and the exit code.
    QJsonObject runWhole(const char* name, const QByteArray& scenario, int& exitCode, QString* err = nullptr)
    {
        const QString file = writeFile(m_dir, name, scenario);
        const QString summary = m_dir.filePath(QString::fromLatin1(name) + QStringLiteral(".summary"));
        const auto r = runCli({QStringLiteral("run"), file, QStringLiteral("--engines"), QStringLiteral("1"),
                               QStringLiteral("-q"), QStringLiteral("--summary-json"), summary});
        exitCode = r.exitCode;
        if (err)
            *err = r.err;
        return readJson(summary);
    }

private Q_SLOTS:
    // One user, two steps, 300 ms of think time after the first: about 6.7
    // iterations in 2 s, and the second step's latency without the pause.
    void thinkTimePausesBetweenSteps()
    {
        MockProcess mock;
        QVERIFY(mock.started());
        const QByteArray url = mock.url().toUtf8();
        const QJsonArray steps =
            run("think.json", "{\"steps\": [{\"name\": \"first\", \"request\": {\"url\": \"" + url +
                                  "a\"}, \"thinkTime\": {\"fixed\": \"300ms\"}}, {\"name\": \"second\", "
                                  "\"request\": {\"url\": \"" +
                                  url + "b\"}}], \"load\": {\"closed\": {\"users\": 1}}, \"duration\": \"2s\"}");
        QCOMPARE(steps.size(), 2);
        const auto first = steps[0].toObject(), second = steps[1].toObject();
        const qint64 a = first.value(QStringLiteral("requests")).toInteger();
        const qint64 b = second.value(QStringLiteral("requests")).toInteger();
        // at most 7 (the pause bounds it, whatever the machine); 6 or 7 on a quiet one, fewer on a busy one
        QVERIFY2(a >= 3 && a <= 7, qPrintable(QString::number(a)));
        QVERIFY2(b >= a - 1 && b <= a, qPrintable(QString::number(b)));
        // the server saw exactly what was counted
        QCOMPARE(mock.stats().value(QStringLiteral("total")).toInteger(), a + b);
        const double p99 =
            second.value(QStringLiteral("latency_ms")).toObject().value(QStringLiteral("p99")).toDouble();
        QVERIFY2(p99 < 250, qPrintable(QString::number(p99))); // not the 300 ms pause (a busy machine's wake-ups)
    }

    // Pacing: one user's iterations start 500 ms apart however fast they
    // are: 4 in 2 s (without it, thousands).
    void pacingSpacesIterations()
    {
        MockProcess mock;
        QVERIFY(mock.started());
        const QJsonArray steps = run("pacing.json", "{\"steps\": [{\"request\": {\"url\": \"" + mock.url().toUtf8() +
                                                        "\"}}], \"load\": {\"closed\": {\"users\": 1, \"pacing\": "
                                                        "\"500ms\"}}, \"duration\": \"2s\"}");
        QCOMPARE(steps.size(), 1);
        const qint64 n = steps[0].toObject().value(QStringLiteral("requests")).toInteger();
        QCOMPARE(n, 4);
        QCOMPARE(mock.stats().value(QStringLiteral("total")).toInteger(), n);
    }

    // The shop flow: every cart and order carries this user's token and
    // cookie (the server refused none), every business error in a 200 is a
    // failed check and nothing else is, and every redirect hop the server
    // served was followed.
    void shopFlowMatchesTheServersCounts()
    {
        Shop shop;
        QVERIFY(shop.started());
        int code = -1;
        const QJsonObject s = runWhole("shop.json", shopScenario(shop.url(), true), code);
        const QJsonObject total = s.value(QStringLiteral("total")).toObject();
        const QJsonObject server = shop.stats();
        QCOMPARE(field(server, "unauthorised"), 0);
        QVERIFY2(field(server, "orders") >= 10, qPrintable(QString::number(field(server, "orders"))));
        QVERIFY(field(server, "business_errors") > 0);
        QCOMPARE(checkCount(total, "order/biz code", "failed"), field(server, "business_errors"));
        QCOMPARE(checkCount(total, "order/no failure", "failed"), field(server, "business_errors"));
        QCOMPARE(checkCount(total, "order/biz code", "passed"),
                 field(server, "orders") - field(server, "business_errors"));
        QCOMPARE(errorsOf(total, "check"), field(server, "business_errors"));
        QCOMPARE(field(total, "errors"), field(server, "business_errors"));
        QCOMPARE(checkCount(total, "login/ok", "passed"), field(server, "logins"));
        QCOMPARE(checkCount(total, "cart/items", "passed"), field(server, "carts"));
        QCOMPARE(field(total, "redirects"), field(server, "hops"));
        QCOMPARE(checkCount(total, "moved/landed", "passed"), field(server, "new"));
        QVERIFY(field(server, "hops") >= 2 * field(server, "new")); // each landing took two hops
        // a threshold on the checks' pass rate fails the run, and so does the order step's error rate
        QCOMPARE(code, 0);
        const QJsonObject bad =
            runWhole("shop-thresholds.json",
                     shopScenario(shop.url(), true)
                         .replace("\"duration\": \"2s\"", "\"duration\": \"1s\", \"thresholds\": [{\"expr\": "
                                                          "\"checks > 99%\"}, {\"expr\": \"login: error_rate < 1%\"}]"),
                     code);
        QCOMPARE(code, 1);
        const QJsonArray thresholds = bad.value(QStringLiteral("thresholds")).toArray();
        QCOMPARE(thresholds.size(), 2);
        QVERIFY(!thresholds[0].toObject().value(QStringLiteral("passed")).toBool());
        QVERIFY(thresholds[1].toObject().value(QStringLiteral("passed")).toBool()); // login itself is fine
    }

    // The checks are kept in the saved report: the JSON export re-read from
    // the file has the live counts, the JUnit export one case per check (the
    // order's business check failing), the HTML a checks table and a failed
    // check's sample with its answer, the timeline the checks per second.
    void checksAreInTheReport()
    {
        Shop shop;
        QVERIFY(shop.started());
        const QString scenario = writeFile(m_dir, "report-shop.json", shopScenario(shop.url(), true));
        const QString report = m_dir.filePath(QStringLiteral("shop.streport"));
        const QString live = m_dir.filePath(QStringLiteral("shop-live.json"));
        QCOMPARE(
            runCli({QStringLiteral("run"), scenario, QStringLiteral("--engines"), QStringLiteral("1"),
                    QStringLiteral("-q"), QStringLiteral("--summary-json"), live, QStringLiteral("--report"), report})
                .exitCode,
            0);
        const auto exported = [&](const char* format) {
            const QString out = m_dir.filePath(QStringLiteral("shop.") + QString::fromLatin1(format));
            const auto r = runCli({QStringLiteral("report"), QStringLiteral("export"), report,
                                   QStringLiteral("--format"), QString::fromLatin1(format), QStringLiteral("-o"), out});
            if (r.exitCode != 0)
                qWarning("%s", qPrintable(r.err));
            QFile f(out);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        const QJsonObject back = QJsonDocument::fromJson(exported("json")).object();
        const QJsonObject liveTotal = readJson(live).value(QStringLiteral("total")).toObject();
        const QJsonObject backTotal = back.value(QStringLiteral("total")).toObject();
        QCOMPARE(backTotal.value(QStringLiteral("checks")), liveTotal.value(QStringLiteral("checks")));
        QCOMPARE(field(backTotal, "redirects"), field(liveTotal, "redirects"));
        const qint64 businessErrors = field(shop.stats(), "business_errors");
        QCOMPARE(checkCount(backTotal, "order/biz code", "failed"), businessErrors);
        qint64 perSecond = 0;
        for (const auto& t : back.value(QStringLiteral("timeline")).toArray())
            perSecond += field(t.toObject(), "checks_failed");
        QCOMPARE(perSecond, 2 * businessErrors); // "biz code" and "no failure" fail on each

        QXmlStreamReader xml(exported("junit"));
        QStringList cases, failing;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement() && xml.name() == QLatin1String("testcase") &&
                xml.attributes().value(QStringLiteral("classname")) == QLatin1String("checks"))
                cases << xml.attributes().value(QStringLiteral("name")).toString();
            if (xml.isStartElement() && xml.name() == QLatin1String("failure") &&
                xml.attributes().value(QStringLiteral("type")) == QLatin1String("check"))
                failing << xml.attributes().value(QStringLiteral("message")).toString();
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(cases, QStringList({QStringLiteral("login/ok"), QStringLiteral("login/json"),
                                     QStringLiteral("cart/items"), QStringLiteral("order/biz code"),
                                     QStringLiteral("order/no failure"), QStringLiteral("moved/landed")}));
        QCOMPARE(failing.size(), 2);
        QVERIFY2(failing[0].startsWith(QString::number(businessErrors) + QStringLiteral(" of ")),
                 qPrintable(failing[0]));

        const QByteArray html = exported("html");
        QVERIFY(html.contains("<h2>Checks</h2>"));
        QVERIFY(html.contains("order/biz code"));
        QVERIFY(html.contains("check &quot;biz code&quot;: $.code is &quot;500&quot;, expected &quot;0&quot;"));
        QVERIFY(html.contains("stock service failed")); // the answer's body, kept with the sample
    }

    // The demo's flow is real: login's token goes with every order (the mock
    // refuses an order without it), and each business error the mock
    // injects in a 200 is caught by the order's check, and nothing else is.
    void demoFlowIsReal()
    {
        QFile rulesFile(sourceDir() + QStringLiteral("/resources/demo/mock-rules.json"));
        QVERIFY(rulesFile.open(QIODevice::ReadOnly));
        const QString rules = QString::fromUtf8(rulesFile.readAll())
                                  .replace(QStringLiteral("\"shop.proto\""),
                                           QStringLiteral("\"%1/resources/demo/shop.proto\"").arg(sourceDir()));
        MockProcess mock(rules);
        QVERIFY(mock.started());
        const QString base = mock.url().chopped(1);
        const auto runDemo = [&](const QString& scenarioPath) {
            const QString summary = m_dir.filePath(QStringLiteral("demo.summary"));
            const auto r = runCli({QStringLiteral("run"), scenarioPath, QStringLiteral("--var"),
                                   QStringLiteral("mock_url=") + base, QStringLiteral("-d"), QStringLiteral("2s"),
                                   QStringLiteral("--engines"), QStringLiteral("1"), QStringLiteral("-q"),
                                   QStringLiteral("--summary-json"), summary});
            if (r.exitCode != 0)
                qWarning("%s", qPrintable(r.err));
            return readJson(summary).value(QStringLiteral("total")).toObject();
        };
        const auto orderRule = [&]() {
            for (const auto& r : mock.stats().value(QStringLiteral("rules")).toArray())
                if (r.toObject().value(QStringLiteral("name")).toString() == QLatin1String("order"))
                    return r.toObject();
            return QJsonObject();
        };
        const QString demoScenario = sourceDir() + QStringLiteral("/resources/demo/scenario.json");
        const QJsonObject total = runDemo(demoScenario);
        QJsonObject order = orderRule();
        QCOMPARE(field(order, "refused"), 0);
        QVERIFY(field(order, "injected") > 0);
        QCOMPARE(checkCount(total, "order/biz code", "failed"), field(order, "injected"));
        QCOMPARE(errorsOf(total, "check"), field(order, "injected"));
        QCOMPARE(checkCount(total, "login/has token", "failed"), 0);

        // the same scenario without the Authorization header: every order refused, 401
        QFile scenarioFile(demoScenario);
        QVERIFY(scenarioFile.open(QIODevice::ReadOnly));
        QByteArray text = scenarioFile.readAll();
        text.replace("\"headers\": [{\"name\": \"Authorization\", \"value\": \"Bearer ${token}\"}],", "");
        QFile::remove(m_dir.filePath(QStringLiteral("users.csv")));
        QVERIFY(QFile::copy(sourceDir() + QStringLiteral("/resources/demo/users.csv"),
                            m_dir.filePath(QStringLiteral("users.csv"))));
        const QJsonObject refused = runDemo(writeFile(m_dir, "demo-noauth.json", text));
        const qint64 before = field(order, "refused");
        order = orderRule();
        QVERIFY(field(order, "refused") - before > 100);
        QCOMPARE(errorsOf(refused, "http_4xx"), field(order, "refused") - before);
    }

    // The same flow over HTTP/2 (h2c) against the mock: the cookie and the
    // token reach every cart (the rule requires both), redirects are
    // followed on the same connection.
    void http2FlowCarriesCookiesAndFollowsRedirects()
    {
        MockProcess mock(QStringLiteral(
            "{\"rules\": ["
            "{\"name\": \"login\", \"method\": \"POST\", \"path\": \"/login\", \"body\": \"{\\\"token\\\": "
            "\\\"t1\\\"}\", "
            "\"headers\": [{\"name\": \"Set-Cookie\", \"value\": \"sid=abc; Path=/; HttpOnly\"}]},"
            "{\"name\": \"cart\", \"path\": \"/cart\", \"body\": \"{\\\"items\\\": 3}\", \"require\": "
            "[{\"name\": \"cookie\", \"value\": \"sid=abc\"}, {\"name\": \"authorization\", \"value\": \"Bearer "
            "t1\"}]},"
            "{\"name\": \"old\", \"path\": \"/old\", \"status\": 302, \"headers\": [{\"name\": \"Location\", "
            "\"value\": \"/new\"}]},"
            "{\"name\": \"new\", \"path\": \"/new\", \"body\": \"{\\\"page\\\": \\\"new\\\"}\"}]}"));
        QVERIFY(mock.started());
        const QByteArray url = mock.url().chopped(1).toUtf8();
        int code = -1;
        const QJsonObject s = runWhole(
            "h2flow.json",
            "{\"http\": \"HTTP_2\", \"cookies\": true, \"followRedirects\": 2, \"steps\": ["
            "{\"name\": \"login\", \"request\": {\"method\": \"POST\", \"url\": \"" +
                url +
                "/login\"}, \"extract\": [{\"name\": \"token\", \"jsonPath\": \"$.token\"}]},"
                "{\"name\": \"cart\", \"request\": {\"url\": \"" +
                url +
                "/cart\", \"headers\": [{\"name\": \"Authorization\", \"value\": \"Bearer ${token}\"}]}, "
                "\"checks\": [{\"name\": \"items\", \"jsonPath\": \"$.items\", \"equals\": \"3\"}]},"
                "{\"name\": \"moved\", \"request\": {\"url\": \"" +
                url +
                "/old\"}, \"checks\": [{\"name\": \"landed\", \"jsonPath\": \"$.page\", \"equals\": \"new\"}]}],"
                "\"load\": {\"closed\": {\"users\": 4}}, \"streams\": 2, \"duration\": \"1s\"}",
            code);
        QCOMPARE(code, 0);
        const QJsonObject total = s.value(QStringLiteral("total")).toObject();
        QJsonObject rules;
        for (const auto& r : mock.stats().value(QStringLiteral("rules")).toArray())
            rules[r.toObject().value(QStringLiteral("name")).toString()] = r.toObject();
        const auto rule = [&](const char* name) { return rules.value(QString::fromLatin1(name)).toObject(); };
        QVERIFY(field(rule("cart"), "served") > 50);
        QCOMPARE(field(rule("cart"), "refused"), 0);
        QCOMPARE(checkCount(total, "cart/items", "passed"), field(rule("cart"), "served"));
        QCOMPARE(field(total, "redirects"), field(rule("old"), "served"));
        QCOMPARE(checkCount(total, "moved/landed", "passed"), field(rule("new"), "served"));
        QCOMPARE(field(total, "errors"), 0);
    }

    // A saved run is judged by its scenario's thresholds (checks > 98% and a
    // step's p99 among them) even where the scenario's CSV file is not
    // beside the report: a verdict is never a default.
    void savedDemoRunKeepsItsThresholds()
    {
        const QString demo = sourceDir() + QStringLiteral("/resources/demo/");
        const QString report = m_dir.filePath(QStringLiteral("demo.streport"));
        const QString back = m_dir.filePath(QStringLiteral("demo-back.json"));
        QFile::remove(report);
        QCOMPARE(runCli({QStringLiteral("run"), demo + QStringLiteral("scenario.json"), QStringLiteral("--mock"),
                         demo + QStringLiteral("mock-rules.json"), QStringLiteral("-d"), QStringLiteral("2s"),
                         QStringLiteral("-q"), QStringLiteral("--report"), report})
                     .exitCode,
                 0);
        QCOMPARE(runCli({QStringLiteral("report"), QStringLiteral("export"), report, QStringLiteral("--format"),
                         QStringLiteral("json"), QStringLiteral("-o"), back})
                     .exitCode,
                 0);
        const QJsonArray thresholds = readJson(back).value(QStringLiteral("thresholds")).toArray();
        QStringList exprs;
        for (const auto& t : thresholds)
            exprs << t.toObject().value(QStringLiteral("expr")).toString();
        QCOMPARE(exprs, (QStringList{QStringLiteral("p99 < 250ms"), QStringLiteral("error_rate < 2%"),
                                     QStringLiteral("checks > 98%"), QStringLiteral("login: p99 < 100ms")}));
    }

    // Without the cookie jar the server refuses the cart: every refusal is
    // an HTTP 4xx of the cart step, as many as the server counted.
    void withoutCookiesTheCartIsRefused()
    {
        Shop shop;
        QVERIFY(shop.started());
        int code = -1;
        const QJsonObject s = runWhole("nocookies.json", shopScenario(shop.url(), false), code);
        const QJsonObject server = shop.stats();
        QVERIFY(field(server, "unauthorised") > 0);
        QCOMPARE(field(server, "carts"), 0);
        QCOMPARE(errorsOf(s.value(QStringLiteral("total")).toObject(), "http_4xx"), field(server, "unauthorised"));
    }

    // A token that is never found: the steps that need it are not sent
    // (an `extract` error each), so the server sees no cart or order at all.
    void unextractedNameIsNotSent()
    {
        Shop shop;
        QVERIFY(shop.started());
        int code = -1;
        const QJsonObject s = runWhole("notoken.json", shopScenario(shop.url(), true, "$.data.nope"), code);
        const QJsonObject total = s.value(QStringLiteral("total")).toObject();
        const QJsonObject server = shop.stats();
        QCOMPARE(field(server, "carts") + field(server, "orders") + field(server, "unauthorised"), 0);
        QCOMPARE(errorsOf(total, "extract"), field(server, "logins"));
        const QJsonArray steps = s.value(QStringLiteral("steps")).toArray();
        QCOMPARE(field(steps[1].toObject(), "requests"), field(server, "logins")); // failed, not sent
        QCOMPARE(field(total, "bytes_out") > 0, true);

        // a step that uses the token before the login extracts it: the run warns before it starts
        QString err;
        runWhole("early.json",
                 "{\"steps\": [{\"name\": \"cart\", \"request\": {\"url\": \"" + shop.url() +
                     "/cart\", \"headers\": [{\"name\": \"Authorization\", \"value\": \"Bearer ${token}\"}]}}, "
                     "{\"name\": \"login\", \"request\": {\"method\": \"POST\", \"url\": \"" +
                     shop.url() +
                     "/login\"}, \"extract\": [{\"name\": \"token\", \"jsonPath\": \"$.data.token\"}]}], "
                     "\"load\": {\"open\": {\"rate\": 5}}, \"duration\": \"1s\"}",
                 code, &err);
        QVERIFY2(err.contains(QStringLiteral("warning: steps[0]: ${token} is used before any step extracts it "
                                             "(\"login\" extracts it later): every request of this step fails")),
                 qPrintable(err));
    }

    // Bad checks are bad input: exit 2 before any load, naming the field.
    void badChecksAreBadInput_data()
    {
        QTest::addColumn<QByteArray>("step");
        QTest::addColumn<QString>("message");
        QTest::addRow("json path") << QByteArray("\"checks\": [{\"jsonPath\": \"$..a\", \"exists\": true}]")
                                   << "steps[0].checks[0].jsonPath";
        QTest::addRow("regex") << QByteArray("\"extract\": [{\"name\": \"t\", \"regex\": \"(\"}]")
                               << "steps[0].extract[0].regex: the regular expression does not compile";
        QTest::addRow("no condition") << QByteArray("\"checks\": [{\"negate\": true}]")
                                      << "steps[0].checks[0]: a check needs a condition";
        QTest::addRow("distribution") << QByteArray("\"thinkTime\": {\"pareto\": {}}") << "pareto";
    }
    void badChecksAreBadInput()
    {
        QFETCH(QByteArray, step);
        QFETCH(QString, message);
        Shop shop;
        QVERIFY(shop.started());
        int code = -1;
        QString err;
        runWhole("bad.json",
                 "{\"steps\": [{\"request\": {\"url\": \"" + shop.url() + "/cart\"}, " + step +
                     "}], \"load\": {\"closed\": {\"users\": 1}}, \"duration\": \"1s\"}",
                 code, &err);
        QCOMPARE(code, 2);
        QVERIFY2(err.contains(message), qPrintable(err));
        QCOMPARE(field(shop.stats(), "unauthorised"), 0); // nothing was sent
    }

    // Issue 28: a Postman collection with its scripts, imported and run as
    // written: the login's test script stores the token and the session the
    // order sends, the order's pre-request script signs its body
    // (CryptoJS.HmacSHA256, checked by the server), and its business test
    // fails on every fifth answer of the server: the failures counted are
    // the server's.
    void postmanScriptsRun()
    {
        Shop shop;
        QVERIFY(shop.started());
        QFile source(sourceDir() + QStringLiteral("/tests/integration/data/shop_scripts.postman_collection.json"));
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QString collection = writeFile(m_dir, "shop_scripts.postman_collection.json",
                                             source.readAll().replace("http://127.0.0.1:1", shop.url()));
        const QString project = m_dir.filePath(QStringLiteral("scripts.stampede"));
        const auto imported = runCli({QStringLiteral("import"), collection, QStringLiteral("--project"), project});
        QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));
        const QString summary = m_dir.filePath(QStringLiteral("scripts.summary"));
        const auto r =
            runCli({QStringLiteral("run"), project + QStringLiteral("@Scripted shop"), QStringLiteral("--env"),
                    QStringLiteral("Scripted shop"), QStringLiteral("-c"), QStringLiteral("2"), QStringLiteral("-d"),
                    QStringLiteral("2s"), QStringLiteral("--engines"), QStringLiteral("1"), QStringLiteral("-q"),
                    QStringLiteral("--summary-json"), summary});
        // its business test fails on purpose: the run fails as newman's would (issue 48)
        QVERIFY2(r.exitCode == 1, qPrintable(r.err));
        QVERIFY2(readJson(summary).value(QStringLiteral("reason")).toString().contains(QStringLiteral("tests failed")),
                 qPrintable(readJson(summary).value(QStringLiteral("reason")).toString()));
        const QJsonObject total = readJson(summary).value(QStringLiteral("total")).toObject();
        const QJsonObject stats = shop.stats();
        const qint64 orders = field(stats, "orders");
        QVERIFY2(orders >= 20, qPrintable(QString::number(orders)));
        QCOMPARE(field(stats, "unauthorised"), 0); // the token and session the test script set were sent
        QCOMPARE(field(stats, "signed"), orders);  // every order signed by its pre-request script
        QCOMPARE(field(stats, "badly_signed"), 0);
        QCOMPARE(checkCount(total, "Place order/code is 0", "failed"), field(stats, "business_errors"));
        QCOMPARE(checkCount(total, "Place order/code is 0", "passed"), orders - field(stats, "business_errors"));
        QCOMPARE(checkCount(total, "Login/token given", "passed"), field(stats, "logins"));
        // the collection's test ran on both requests
        QCOMPARE(checkCount(total, "Login/answered below 400", "passed"), field(stats, "logins"));
        QCOMPARE(checkCount(total, "Place order/answered below 400", "passed"), orders);
        QCOMPARE(errorsOf(total, "check"), field(stats, "business_errors"));
        QCOMPARE(errorsOf(total, "script"), 0);
    }

    // pm.sendRequest under load: each goes to the server (its own count there), counted beside the step as
    // script_requests (those without an answer as script_request_errors), its callback's tests counted; the
    // step's own requests are the step's alone.
    void sendRequestIsCountedBesideTheStep()
    {
        Shop shop;
        QVERIFY(shop.started());
        int exitCode = -1;
        const QJsonObject summary =
            runWhole("send.json",
                     "{\"iterations\": 5, \"load\": {\"closed\": {\"users\": 1}}, \"steps\": [{\"name\": \"page\", "
                     "\"request\": {\"url\": \"" +
                         shop.url() + "/new\"}, \"preRequestScript\": \"pm.sendRequest({url: '" + shop.url() +
                         "/login', method: 'POST', body: {mode: 'raw', raw: '{}'}}, (e, r) => pm.test('token ' + "
                         "(r.json().data.token ? 'given' : 'none'), () => pm.expect(r.code).to.eql(200)));\\n"
                         "pm.sendRequest('http://127.0.0.1:9/x', (e, r) => pm.test('refused', () => "
                         "pm.expect(e).to.be.ok));\"}]}",
                     exitCode);
        QCOMPARE(exitCode, 0); // a scenario's verdict: its own requests all answered
        const QJsonObject total = summary.value(QStringLiteral("total")).toObject();
        QCOMPARE(field(total, "requests"), 5);
        QCOMPARE(field(total, "script_requests"), 10);
        QCOMPARE(field(total, "script_request_errors"), 5);
        QCOMPARE(checkCount(total, "page/token given", "passed"), 5);
        QCOMPARE(checkCount(total, "page/refused", "passed"), 5);
        const QJsonObject stats = shop.stats();
        QCOMPARE(field(stats, "logins"), 5);
        QCOMPARE(field(stats, "new"), 5);
    }

    // A script that throws fails its request as a `script` error (with the
    // script's line in the sample), and the run goes on; a syntax error or an
    // unsupported call is bad input before anything is sent.
    void scriptErrors()
    {
        Shop shop;
        QVERIFY(shop.started());
        const QByteArray login = "{\"name\": \"login\", \"request\": {\"method\": \"POST\", \"url\": \"" + shop.url() +
                                 "/login\", \"body\": \"{}\"}, \"testScript\": ";
        const QJsonArray steps =
            run("throws.json", "{\"steps\": [" + login +
                                   "\"const n = pm.info.iteration;\\nif (n % 2 === 0) undefinedThing.call();\"}], "
                                   "\"load\": {\"closed\": {\"users\": 1}}, \"duration\": \"1s\"}");
        QCOMPARE(steps.size(), 1);
        const QJsonObject step = steps[0].toObject();
        const qint64 requests = step.value(QStringLiteral("requests")).toInteger();
        QVERIFY(requests >= 4);
        QCOMPARE(errorsOf(step, "script"), (requests + 1) / 2); // iterations 0, 2, 4 ... (pm.info.iteration from 0)
        for (const auto& [script, message] :
             {std::pair{QByteArray("\"pm.test('a', () => {\""),
                        QStringLiteral("steps[0].testScript: line 1: SyntaxError")},
              {QByteArray("\"\\n\\nrequire('fs').readFileSync('/etc/passwd');\""),
               QStringLiteral("steps[0].testScript: line 3: require('fs') is not run by Stampede")}}) {
            const QString file =
                writeFile(m_dir, "bad-script.json", "{\"steps\": [" + login + script + "}], \"duration\": \"1s\"}");
            const auto r = runCli({QStringLiteral("run"), file, QStringLiteral("-q")});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(message), qPrintable(r.err));
        }
    }

    // Issue 47: a script that queues a Promise job (any imported collection
    // with a .then) killed the engine ("agent lost", exit 3). Its jobs now run
    // within the script's run: a pm.test in a .then counts with the others,
    // and a variable set there reaches the request.
    void promisesInScriptsRunOnAnEngine()
    {
        Shop shop;
        QVERIFY(shop.started());
        int exitCode = -1;
        QString err;
        const QJsonObject summary = runWhole(
            "promises.json",
            "{\"steps\": [{\"name\": \"login\", \"request\": {\"method\": \"POST\", \"url\": \"" + shop.url() +
                "/login\", \"body\": \"{}\"}, \"preRequestScript\": \"Promise.resolve().then(() => 1);\", "
                "\"testScript\": \"Promise.resolve(pm.response.code).then((c) => pm.test('async', () => "
                "pm.expect(c).to.eql(200)));\"}], \"load\": {\"closed\": {\"users\": 1}}, \"duration\": \"1s\"}",
            exitCode, &err);
        QVERIFY2(exitCode == 0, qPrintable(err));
        const QJsonObject total = summary.value(QStringLiteral("total")).toObject();
        const qint64 requests = total.value(QStringLiteral("requests")).toInteger();
        QVERIFY(requests >= 2);
        QCOMPARE(errorsOf(total, "script"), 0);
        QCOMPARE(checkCount(total, "login/async", "passed"), requests);
    }

    // console.log goes to the run's events (a JSON lines output shows them):
    // an engine's first ten lines a second, each with its step, and how many
    // more it wrote.
    void consoleLinesAreTheRunsEvents()
    {
        Shop shop;
        QVERIFY(shop.started());
        const QString file = writeFile(
            m_dir, "console.json",
            "{\"steps\": [{\"name\": \"login\", \"request\": {\"method\": \"POST\", \"url\": \"" + shop.url() +
                "/login\", \"body\": \"{}\"}, \"testScript\": \"console.log('status', pm.response.code, {n: "
                "pm.info.iteration});\"}], \"load\": {\"closed\": {\"users\": 2}}, \"duration\": \"2s\"}");
        const QString jsonl = m_dir.filePath(QStringLiteral("console.jsonl"));
        const QString summary = m_dir.filePath(QStringLiteral("console.summary"));
        const auto r = runCli({QStringLiteral("run"), file, QStringLiteral("--engines"), QStringLiteral("1"),
                               QStringLiteral("-q"), QStringLiteral("--out"), QStringLiteral("jsonl=") + jsonl,
                               QStringLiteral("--summary-json"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QFile f(jsonl);
        QVERIFY(f.open(QIODevice::ReadOnly));
        std::map<int, int> linesBySecond;
        qint64 dropped = 0;
        for (const QByteArray& line : f.readAll().split('\n')) {
            const QJsonObject e = QJsonDocument::fromJson(line).object();
            if (e.value(QStringLiteral("type")).toString() != QStringLiteral("event"))
                continue;
            const QString kind = e.value(QStringLiteral("kind")).toString();
            const QString detail = e.value(QStringLiteral("detail")).toString();
            if (kind == QStringLiteral("console")) {
                QVERIFY2(detail.startsWith(QStringLiteral("steps[0]: status 200 {\"n\":")), qPrintable(detail));
                ++linesBySecond[int(e.value(QStringLiteral("at_s")).toDouble())];
            } else if (kind == QStringLiteral("console_dropped")) {
                dropped += detail.section(QLatin1Char(' '), 0, 0).toLongLong();
            }
        }
        QVERIFY(!linesBySecond.empty());
        for (const auto& [second, n] : linesBySecond)
            QVERIFY2(n <= 10, qPrintable(QString::number(n)));
        const QJsonObject step = readJson(summary).value(QStringLiteral("steps")).toArray().at(0).toObject();
        qint64 kept = 0;
        for (const auto& [second, n] : linesBySecond)
            kept += n;
        QCOMPARE(kept + dropped, step.value(QStringLiteral("requests")).toInteger()); // one line a request
    }

    // Distributions in the open model too: 20 iterations/s of two steps with
    // a uniform 50-150 ms pause; every iteration's second step is sent.
    void uniformThinkTimeInTheOpenModel()
    {
        MockProcess mock;
        QVERIFY(mock.started());
        const QByteArray url = mock.url().toUtf8();
        const QJsonArray steps =
            run("open-think.json", "{\"steps\": [{\"request\": {\"url\": \"" + url +
                                       "a\"}, \"thinkTime\": {\"uniform\": [\"50ms\", \"150ms\"]}}, {\"request\": "
                                       "{\"url\": \"" +
                                       url +
                                       "b\"}}], \"load\": {\"open\": {\"rate\": 20}}, \"connections\": 8, "
                                       "\"duration\": \"2s\"}");
        QCOMPARE(steps.size(), 2);
        const qint64 a = steps[0].toObject().value(QStringLiteral("requests")).toInteger();
        const qint64 b = steps[1].toObject().value(QStringLiteral("requests")).toInteger();
        QCOMPARE(a, 40);
        QVERIFY2(b >= 37 && b <= 40, qPrintable(QString::number(b))); // pauses past the end end their iteration
        QCOMPARE(mock.stats().value(QStringLiteral("total")).toInteger(), a + b);
    }
};

QTEST_GUILESS_MAIN(TestFlows)
#include "tst_flows.moc"
