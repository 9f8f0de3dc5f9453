// A project's scenario run straight from the command line, and bundles that
// carry the project's environments (issue "workbench …", point 4):
// `run PROJECT.stampede@SCENARIO [--env NAME]` takes the workbench's current
// environment by default, another with --env, reads a project the workbench
// holds, and names what is missing; `bundle PROJECT@SCENARIO` carries every
// environment, and `run BUNDLE --env NAME` swaps them.
#include "testsupport.h"

#include "bundle/bundlefile.h"
#include "core/text.h"
#include "store/projectstore.h"

#include "stampede/v1/bundle.pb.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>
#include <QXmlStreamReader>

using namespace testsupport;

class TestProjectRun : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    MockProcess m_mock;
    QString m_project;
    QString m_summary;

    // A run of 1 s at 50/s with one engine; the error rate must stay under 1 %.
    CliResult run(const QStringList& args)
    {
        return runCli(QStringList{QStringLiteral("run")} + args +
                      QStringList{QStringLiteral("-q"), QStringLiteral("--engines"), QStringLiteral("1"),
                                  QStringLiteral("--summary-json"), m_summary});
    }
    qint64 served() const { return m_mock.stats().value(QStringLiteral("total")).toInteger(); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_mock.started());
        m_project = m_dir.filePath(QStringLiteral("shop.stampede"));
        m_summary = m_dir.filePath(QStringLiteral("summary.json"));
        std::string error;
        auto store = stampede::ProjectStore::create(m_project.toStdString(), error);
        QVERIFY2(store, error.c_str());
        using stampede::ItemKind;
        const std::string local = "{\"base\": \"" + m_mock.url(QString()).toStdString() + "\", \"n\": 1}";
        QVERIFY(store->addItem(0, ItemKind::Environment, "local", local));
        QVERIFY(store->addItem(0, ItemKind::Environment, "broken", "{\"base\": \"http://127.0.0.1:9\"}"));
        const std::string scenario =
            "{\"name\": \"smoke\", \"steps\": [{\"request\": {\"url\": \"${base}/smoke?n=${n}\"}}], "
            "\"variables\": [{\"name\": \"base\", \"constant\": {\"value\": \"http://127.0.0.1:9\"}}, "
            "{\"name\": \"n\", \"constant\": {\"value\": \"0\"}}], "
            "\"load\": {\"open\": {\"rate\": 50}}, \"connections\": 2, \"duration\": \"1s\", "
            "\"thresholds\": [{\"expr\": \"error_rate < 1%\"}]}";
        QVERIFY(store->addItem(0, ItemKind::Scenario, "smoke", scenario));
        QVERIFY(store->setSetting("environment", "local")); // the workbench's current one
    }

    void runsWithTheCurrentEnvironment()
    {
        const qint64 before = served();
        const auto r = run({m_project + QStringLiteral("@smoke")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("environment \"local\"")), qPrintable(r.err));
        // what a busy machine cannot change: every request the run counted reached the environment's server, and
        // each of the 50 planned arrivals was sent or, when the run's end came first, dropped (counted)
        const QJsonObject total = readJson(m_summary).value(QStringLiteral("total")).toObject();
        const qint64 requests = total.value(QStringLiteral("requests")).toInteger();
        QCOMPARE(served() - before, requests);
        QCOMPARE(requests + total.value(QStringLiteral("dropped")).toInteger(), 50);
        QVERIFY(requests > 0);
    }

    void envChoosesAnother()
    {
        const auto r = run({m_project + QStringLiteral("@smoke"), QStringLiteral("--env"), QStringLiteral("broken")});
        QCOMPARE(r.exitCode, 1); // every request refused: the threshold fails
        const QJsonObject total = readJson(m_summary).value(QStringLiteral("total")).toObject();
        QCOMPARE(total.value(QStringLiteral("errors")).toInteger(),
                 total.value(QStringLiteral("requests")).toInteger());
        // --var still wins over the environment
        const qint64 before = served();
        const auto v = run({m_project + QStringLiteral("@smoke"), QStringLiteral("--env"), QStringLiteral("broken"),
                            QStringLiteral("--var"), QStringLiteral("base=") + m_mock.url(QString())});
        QVERIFY2(v.exitCode == 0, qPrintable(v.err));
        QCOMPARE(served() - before, 50);
    }

    void readsAProjectTheWorkbenchHolds()
    {
        std::string error;
        auto held = stampede::ProjectStore::open(m_project.toStdString(), error); // as the workbench does
        QVERIFY2(held, error.c_str());
        const auto r = run({m_project + QStringLiteral("@smoke")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    void namesWhatIsMissing_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::addRow("no such scenario") << QStringList{QStringLiteral("@nope")}
                                          << QStringLiteral("has no scenario or collection named \"nope\" (scenarios: "
                                                            "\"smoke\"; collections: none)");
        QTest::addRow("no such environment")
            << QStringList{QStringLiteral("@smoke"), QStringLiteral("--env"), QStringLiteral("prod")}
            << QStringLiteral("--env: %1 has no environment named \"prod\" (it has \"local\", \"broken\")");
    }
    void namesWhatIsMissing()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        args[0] = m_project + args[0];
        const qint64 before = served();
        const auto r = run(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message.contains(QLatin1String("%1")) ? message.arg(m_project) : message),
                 qPrintable(r.err));
        QCOMPARE(served(), before);
        const auto gone = run({m_dir.filePath(QStringLiteral("gone.stampede@smoke"))});
        QCOMPARE(gone.exitCode, 2);
        const auto file = run({m_project, QStringLiteral("--env"), QStringLiteral("local")}); // not a scenario file
        QCOMPARE(file.exitCode, 2);
    }

    void bundlesCarryTheEnvironments()
    {
        const QString bundle = m_dir.filePath(QStringLiteral("smoke.stbundle"));
        const auto b =
            runCli({QStringLiteral("bundle"), m_project + QStringLiteral("@smoke"), QStringLiteral("-o"), bundle});
        QVERIFY2(b.exitCode == 0, qPrintable(b.err));
        QVERIFY2(b.out.contains(QStringLiteral("environment \"local\"")), qPrintable(b.out));
        QFile f(bundle);
        QVERIFY(f.open(QIODevice::ReadOnly));
        stampede::v1::Bundle decoded;
        std::string error;
        QVERIFY2(stampede::decodeBundle(f.readAll().toStdString(), decoded, error), error.c_str());
        QCOMPARE(decoded.environments_size(), 2);
        QCOMPARE(QString::fromStdString(decoded.environment()), QStringLiteral("local"));
        QCOMPARE(QString::fromStdString(decoded.environments(0).values().at("n")),
                 QStringLiteral("1")); // a number's text

        qint64 before = served();
        auto r = run({bundle}); // the constants took local's values
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(served() - before, 50);
        r = run({bundle, QStringLiteral("--env"), QStringLiteral("broken")});
        QCOMPARE(r.exitCode, 1);
        before = served();
        r = run({bundle, QStringLiteral("--env"), QStringLiteral("staging")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("the bundle has no environment named \"staging\" (it has \"local\", "
                                               "\"broken\")")),
                 qPrintable(r.err));
        QCOMPARE(served(), before);
        // a bundle made with another environment, and -o over the project refused
        const auto other = runCli({QStringLiteral("bundle"), m_project + QStringLiteral("@smoke"),
                                   QStringLiteral("--env"), QStringLiteral("broken"), QStringLiteral("-o"), bundle});
        QVERIFY2(other.exitCode == 0, qPrintable(other.err));
        QCOMPARE(run({bundle}).exitCode, 1);
        const QByteArray digest = digestOf(m_project);
        const auto over =
            runCli({QStringLiteral("bundle"), m_project + QStringLiteral("@smoke"), QStringLiteral("-o"), m_project});
        QCOMPARE(over.exitCode, 2);
        QVERIFY2(over.err.contains(QStringLiteral("is the project being read")), qPrintable(over.err));
        QCOMPARE(digestOf(m_project), digest);
    }
    // A collection (or a folder of it) runs as newman runs one: its requests
    // in order, as written, with the project's environment and data sets,
    // one iteration by one user unless --iterations says how many.
    void collectionsRunAsNewmanRunsThem()
    {
        RecordingServer server;
        const QString project = m_dir.filePath(QStringLiteral("coll.stampede"));
        {
            std::string error;
            auto store = stampede::ProjectStore::create(project.toStdString(), error);
            QVERIFY2(store, error.c_str());
            using stampede::ItemKind;
            const auto shop = store->addItem(0, ItemKind::Collection, "Shop", "{}");
            store->addItem(shop, ItemKind::Request, "login",
                           "{\"method\": \"POST\", \"url\": \"${base}/login\", \"bodyMode\": \"json\", \"body\": "
                           "\"{\\\"z\\\": 1, \\\"user\\\": \\\"${users.name}\\\"}\", \"auth\": {\"type\": \"basic\", "
                           "\"user\": \"${username}\", \"password\": \"pw\"}}");
            const auto folder = store->addItem(shop, ItemKind::Folder, "Checkout", "{}");
            store->addItem(folder, ItemKind::Request, "pay",
                           "{\"method\": \"POST\", \"url\": \"${base}/pay\", \"bodyMode\": \"urlencoded\", "
                           "\"form\": [{\"name\": \"card\", \"value\": \"${users.card}\"}]}");
            store->addItem(shop, ItemKind::Request, "logout", "{\"method\": \"GET\", \"url\": \"${base}/logout\"}");
            store->addItem(0, ItemKind::DataSet, "users", "{\"csv\": \"name,card\\nLi Wei,4111 1111\\n\"}");
            store->addItem(0, ItemKind::Environment, "local",
                           "{\"base\": \"" + server.url().toStdString() + "\", \"username\": \"tester\"}");
            store->setSetting("environment", "local");
            store->addItem(0, ItemKind::Scenario, "Twice", "{\"steps\": []}");
            store->addItem(0, ItemKind::Collection, "Twice", "{}");
        }
        auto r = runCli({QStringLiteral("run"), project + QStringLiteral("@Shop"), QStringLiteral("--iterations"),
                         QStringLiteral("2"), QStringLiteral("-q"), QStringLiteral("--engines"), QStringLiteral("1"),
                         QStringLiteral("--summary-json"), m_summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        std::vector<std::string> lines;
        for (const auto& rq : server.requests())
            lines.push_back(rq.line);
        const std::vector<std::string> once = {"POST /login HTTP/1.1", "POST /pay HTTP/1.1", "GET /logout HTTP/1.1"};
        std::vector<std::string> twice = once;
        twice.insert(twice.end(), once.begin(), once.end());
        QCOMPARE(lines, twice); // in tree order, folders depth first, twice
        const auto login = server.requestsTo("POST /login").front();
        QCOMPARE(login.body, std::string("{\"z\": 1, \"user\": \"Li Wei\"}"));      // as written, its key order
        QCOMPARE(login.header("authorization"), std::string("Basic dGVzdGVyOnB3")); // tester:pw, at send time
        QCOMPARE(login.header("content-type"), std::string("application/json"));
        QCOMPARE(server.requestsTo("POST /pay").front().body, std::string("card=4111%201111"));
        QCOMPARE(
            readJson(m_summary).value(QStringLiteral("total")).toObject().value(QStringLiteral("requests")).toInt(), 6);
        // a folder alone, by its path
        r = runCli({QStringLiteral("run"), project + QStringLiteral("@Shop/Checkout"), QStringLiteral("-q"),
                    QStringLiteral("--engines"), QStringLiteral("1")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(server.requests().size(), std::size_t(7));
        QCOMPARE(server.requests().back().line, std::string("POST /pay HTTP/1.1"));
        // a name that is a scenario and a collection is refused, naming both
        r = runCli({QStringLiteral("run"), project + QStringLiteral("@Twice"), QStringLiteral("--engines"),
                    QStringLiteral("1")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("is ambiguous: it names 1 scenario \"Twice\" and 1 collection or folder "
                                               "\"Twice\"")),
                 qPrintable(r.err));
        r = runCli({QStringLiteral("run"), project + QStringLiteral("@Shop"), QStringLiteral("--iterations"),
                    QStringLiteral("")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--iterations")), qPrintable(r.err));
        QCOMPARE(server.requests().size(), std::size_t(7));
    }
    // A CI job: import a Postman collection, then run it as newman would,
    // against a recording server: each request byte for byte as written.
    void importThenRunACollection()
    {
        RecordingServer server;
        const QByteArray collection =
            "\xEF\xBB\xBF{\"info\": {\"name\": \"Wire\", \"schema\": "
            "\"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"},"
            " \"variable\": [{\"key\": \"base\", \"value\": \"" +
            server.url().toUtf8() +
            "\"}, {\"key\": \"v\", \"value\": \"a b&c\"}, {\"key\": \"user\", \"value\": \"J\u00f6\"}],"
            " \"item\": ["
            "  {\"name\": \"json\", \"request\": {\"method\": \"POST\", \"url\": \"{{base}}/json\", \"header\": "
            "[{\"key\": \"Content-Type\", \"value\": \"application/json\"}], \"body\": {\"mode\": \"raw\", \"raw\": "
            "\"{\\\"z\\\": 1,\\n  \\\"a\\\": \\\"{{v}}\\\"}\"}}},"
            "  {\"name\": \"basic\", \"request\": {\"method\": \"GET\", \"url\": \"{{base}}/basic\", \"auth\": "
            "{\"type\": "
            "\"basic\", \"basic\": [{\"key\": \"username\", \"value\": \"{{user}}\"}, {\"key\": \"password\", "
            "\"value\": \"pw\"}]}}},"
            "  {\"name\": \"form\", \"request\": {\"method\": \"POST\", \"url\": \"{{base}}/form\", \"body\": "
            "{\"mode\": "
            "\"urlencoded\", \"urlencoded\": [{\"key\": \"q\", \"value\": \"{{v}}\"}]}}}]}";
        const QString file = writeFile(m_dir, "wire.postman_collection.json", collection);
        const QString project = m_dir.filePath(QStringLiteral("ci.stampede"));
        auto r = runCli({QStringLiteral("import"), file, QStringLiteral("--project"), project});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("imported 3 requests")), qPrintable(r.out));
        r = runCli({QStringLiteral("run"), project + QStringLiteral("@Wire"), QStringLiteral("--env"),
                    QStringLiteral("Wire"), QStringLiteral("--iterations"), QStringLiteral("1"), QStringLiteral("-q"),
                    QStringLiteral("--engines"), QStringLiteral("1"), QStringLiteral("--no-stress-tag")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto got = server.requests();
        QCOMPARE(got.size(), std::size_t(3));
        QCOMPARE(got[0].line, std::string("POST /json HTTP/1.1"));
        QCOMPARE(got[0].body, std::string("{\"z\": 1,\n  \"a\": \"a b&c\"}"));
        std::string auth = "Basic ";
        stampede::appendBase64(auth, "J\u00f6:pw");
        QCOMPARE(got[1].header("authorization"), auth);
        QCOMPARE(got[2].body, std::string("q=a%20b%26c"));
    }

    // Issue 48: a collection run sends the headers newman sends on every request (Accept, Accept-Encoding with br,
    // Cache-Control, a fresh Postman-Token, Connection), each unless the request has its own; --no-default-header
    // leaves one out; a name newman does not add is refused.
    void aCollectionRunSendsNewmansHeaders()
    {
        RecordingServer server;
        const QByteArray collection =
            "{\"info\": {\"name\": \"Heads\", \"schema\": "
            "\"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"}, \"item\": ["
            " {\"name\": \"a\", \"request\": {\"method\": \"GET\", \"url\": \"" +
            server.url(QStringLiteral("/a")).toUtf8() +
            "\"}}, {\"name\": \"b\", \"request\": {\"method\": \"GET\", \"url\": \"" +
            server.url(QStringLiteral("/b")).toUtf8() +
            "\", \"header\": [{\"key\": \"accept\", \"value\": \"text/plain\"}]}}]}";
        const QString project = m_dir.filePath(QStringLiteral("heads.stampede"));
        CliResult r = importAndRun("heads.postman_collection.json", collection, project, QStringLiteral("Heads"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        auto got = server.requests();
        QCOMPARE(got.size(), std::size_t(2));
        QCOMPARE(got[0].header("accept"), std::string("*/*"));
        QCOMPARE(got[0].header("accept-encoding"), std::string("gzip, deflate, br"));
        QCOMPARE(got[0].header("cache-control"), std::string("no-cache"));
        QCOMPARE(got[0].header("connection"), std::string("keep-alive"));
        QCOMPARE(got[0].header("postman-token").size(), std::size_t(36));
        QVERIFY(got[0].header("postman-token") != got[1].header("postman-token")); // fresh per request
        QCOMPARE(got[1].header("accept"), std::string("text/plain"));              // the request's own
        r = runCli({QStringLiteral("run"), project + QStringLiteral("@Heads"), QStringLiteral("-q"),
                    QStringLiteral("--engines"), QStringLiteral("1"), QStringLiteral("--no-default-header"),
                    QStringLiteral("postman-token")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        got = server.requests();
        QCOMPARE(got.size(), std::size_t(4));
        QCOMPARE(got[2].header("postman-token"), std::string());
        QCOMPARE(got[2].header("accept"), std::string("*/*"));
        r = runCli({QStringLiteral("run"), project + QStringLiteral("@Heads"), QStringLiteral("-q"),
                    QStringLiteral("--no-default-header"), QStringLiteral("X-Mine")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("\"X-Mine\" is not one of the headers")), qPrintable(r.err));
        // --delay-request: newman's milliseconds between two requests (none after the last): the run lasts at least
        // that long; a value that is no time is refused before anything is sent
        const QString summary = m_dir.filePath(QStringLiteral("delayed.json"));
        r = runCli({QStringLiteral("run"), project + QStringLiteral("@Heads"), QStringLiteral("-q"),
                    QStringLiteral("--engines"), QStringLiteral("1"), QStringLiteral("--delay-request"),
                    QStringLiteral("400"), QStringLiteral("--summary-json"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(server.requests().size(), std::size_t(6));
        QFile f(summary);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const double took =
            QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("duration_s")).toDouble();
        QVERIFY2(took >= 0.4 && took < 30, qPrintable(QString::number(took)));
        r = runCli({QStringLiteral("run"), project + QStringLiteral("@Heads"), QStringLiteral("-q"),
                    QStringLiteral("--delay-request"), QStringLiteral("soon")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--delay-request: \"soon\" is not a duration")), qPrintable(r.err));
        QCOMPARE(server.requests().size(), std::size_t(6));
    }

    // Issue 48: a test named at run time (tests['id ' + id], pm.test('code ' + code)) is counted under that name,
    // as newman lists it: in the summary, the exit code, and the report saved in the project.
    void testsNamedAtRunTimeAreCounted()
    {
        RecordingServer server;
        const QByteArray collection = "{\"info\": {\"name\": \"Named\", \"schema\": "
                                      "\"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"},"
                                      " \"item\": [{\"name\": \"r\", \"request\": {\"method\": \"GET\", \"url\": \"" +
                                      server.url(QStringLiteral("/r")).toUtf8() +
                                      "\"}, \"event\": [{\"listen\": \"test\", \"script\": {\"exec\": ["
                                      "  \"[1, 2].forEach(function (i) { tests['id ' + i] = i === 1; });\","
                                      "  \"pm.test('code ' + pm.response.code, function () {});\","
                                      "  \"tests['literal'] = true;\"]}}]}]}";
        const QString project = m_dir.filePath(QStringLiteral("named.stampede"));
        const QString report = m_dir.filePath(QStringLiteral("named.streport"));
        const CliResult r = importAndRun("named.postman_collection.json", collection, project, QStringLiteral("Named"),
                                         {QStringLiteral("--summary-json"), m_summary, QStringLiteral("--iterations"),
                                          QStringLiteral("2"), QStringLiteral("--report"), report});
        QCOMPARE(r.exitCode, 1); // 'id 2' failed, as in newman
        QCOMPARE(checkCount(QStringLiteral("r/literal")), 2);
        QCOMPARE(checkCount(QStringLiteral("r/id 1")), 2);
        QCOMPARE(checkCount(QStringLiteral("r/id 2"), QStringLiteral("failed")), 2);
        QCOMPARE(checkCount(QStringLiteral("r/code 200")), 2);
        // the saved run names them too
        const QString exported = m_dir.filePath(QStringLiteral("named-export.json"));
        const CliResult e =
            runCli({QStringLiteral("report"), QStringLiteral("export"), report, QStringLiteral("--format"),
                    QStringLiteral("json"), QStringLiteral("-o"), exported});
        QVERIFY2(e.exitCode == 0, qPrintable(e.err));
        const QJsonObject checks =
            readJson(exported).value(QStringLiteral("total")).toObject().value(QStringLiteral("checks")).toObject();
        QVERIFY2(checks.contains(QStringLiteral("r/id 2")), QJsonDocument(checks).toJson().constData());
        QCOMPARE(checks.value(QStringLiteral("r/id 2")).toObject().value(QStringLiteral("failed")).toInt(), 2);
    }

    // Issue 48: a collection run's JUnit is newman's: a suite per request named by its folders, its tests as
    // cases with the failure's message (the engine's first, carried to the saved run), its own class name;
    // counts over the iterations; valid against Jenkins' xUnit schema.
    void aCollectionRunsJUnitIsNewmans()
    {
        RecordingServer server;
        const QByteArray url = server.url(QStringLiteral("/r")).toUtf8();
        const QByteArray collection =
            "{\"info\": {\"name\": \"Shop\", \"schema\": "
            "\"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"}, \"item\": ["
            " {\"name\": \"Users\", \"item\": [{\"name\": \"Admin\", \"item\": [{\"name\": \"create <1>\", "
            "\"request\": "
            "   {\"method\": \"GET\", \"url\": \"" +
            url +
            "\"}, \"event\": [{\"listen\": \"test\", \"script\": "
            "   {\"exec\": [\"pm.test('ok', function () {});\","
            "              \"pm.test('is 404', function () { pm.response.to.have.status(404); });\"]}}]}]}]},"
            " {\"name\": \"ping\", \"request\": {\"method\": \"GET\", \"url\": \"" +
            url +
            "\"}, \"event\": [{\"listen\":"
            "   \"test\", \"script\": {\"exec\": [\"tests['named ' + 1] = false;\"]}}]}]}";
        const QString project = m_dir.filePath(QStringLiteral("junit.stampede"));
        const QString report = m_dir.filePath(QStringLiteral("junit.streport"));
        const CliResult r =
            importAndRun("junit.postman_collection.json", collection, project, QStringLiteral("Shop"),
                         {QStringLiteral("--iterations"), QStringLiteral("2"), QStringLiteral("--report"), report});
        QCOMPARE(r.exitCode, 1);
        const QString out = m_dir.filePath(QStringLiteral("junit.xml"));
        const CliResult e = runCli({QStringLiteral("report"), QStringLiteral("export"), report,
                                    QStringLiteral("--format"), QStringLiteral("junit"), QStringLiteral("-o"), out});
        QVERIFY2(e.exitCode == 0, qPrintable(e.err));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(f.readAll());
        QStringList suites, cases;
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement())
                continue;
            const auto a = xml.attributes();
            if (xml.name() == QLatin1String("testsuites"))
                QCOMPARE(a.value(QStringLiteral("name")).toString(), QStringLiteral("Shop"));
            if (xml.name() == QLatin1String("testsuite"))
                suites << a.value(QStringLiteral("name")) + QLatin1Char(' ') + a.value(QStringLiteral("tests")) +
                              QLatin1Char('/') + a.value(QStringLiteral("failures"));
            if (xml.name() == QLatin1String("testcase"))
                cases << a.value(QStringLiteral("classname")) + QLatin1Char('.') + a.value(QStringLiteral("name"));
            if (xml.name() == QLatin1String("failure"))
                cases.last() += QStringLiteral(" [") + a.value(QStringLiteral("type")) + QStringLiteral(": ") +
                                a.value(QStringLiteral("message")) + QLatin1Char(']');
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(suites, QStringList({QStringLiteral("Users / Admin / create <1> 2/2"), QStringLiteral("ping 1/2")}));
        QCOMPARE(cases,
                 QStringList({QStringLiteral("UsersAdminCreate1.ok"),
                              QStringLiteral("UsersAdminCreate1.is 404 [AssertionFailure: expected response to have "
                                             "status code 404 but got 200]"),
                              QStringLiteral("Ping.named 1 [AssertionFailure: expected false to be truthy]")}));
        QProcess lint;
        lint.start(QStringLiteral("xmllint"),
                   {QStringLiteral("--noout"), QStringLiteral("--schema"),
                    sourceDir() + QStringLiteral("/tests/integration/data/junit-10.xsd"), out});
        QVERIFY(lint.waitForFinished(20000));
        QVERIFY2(lint.exitCode() == 0, qPrintable(QString::fromUtf8(lint.readAllStandardError())));
    }

    // Issue 48: a Postman Collection v1 (newman's older fixtures, Postman's first app) runs as newman runs it:
    // its folders by folders_order (a sub-folder inside its folder, before the folder's requests), then the
    // collection's own requests by order; "Name: value" header lines ("//" disables one); the basicAuth helper;
    // tests and preRequestScript as text; a request's description, which its scripts read.
    void aPostmanV1CollectionRuns()
    {
        RecordingServer server;
        const QByteArray base = server.url().toUtf8();
        const auto request = [&](const char* id, const char* path, const QByteArray& more) -> QByteArray {
            return QByteArray("{\"id\": \"") + id + "\", \"name\": \"" + path + "\", \"method\": \"GET\", \"url\": \"" +
                   base + "/" + path + "\"" + more + "}";
        };
        const QByteArray collection =
            "{\"id\": \"c\", \"name\": \"Old\", \"order\": [\"r4\", \"nowhere\"], \"folders_order\": [\"f1\"],"
            " \"folders\": [{\"id\": \"f1\", \"name\": \"F1\", \"order\": [\"r1\"], \"folders_order\": [\"f2\"]},"
            "   {\"id\": \"f2\", \"name\": \"F2\", \"order\": [\"r2\", \"r3\"]}],"
            " \"requests\": [" +
            request("r1", "one",
                    ", \"headers\": \"X-On: yes\\n//X-Off: no\\n\", \"tests\": \"tests['order'] = "
                    "postman.getEnvironmentVariable('n') === '3';\", \"preRequestScript\": \"var n = "
                    "parseInt(postman.getEnvironmentVariable('n')); postman.setEnvironmentVariable('n', isNaN(n) ? 1 "
                    ": n + 1);\"") +
            "," +
            request(
                "r2", "two",
                ", \"currentHelper\": \"basicAuth\", \"helperAttributes\": {\"username\": \"u\", \"password\": \"p\"},"
                " \"description\": \"said\", \"tests\": \"tests['described'] = request.description === 'said';"
                " tests['signed'] = pm.request.headers.get('Authorization') === 'Basic dTpw'; tests['its id'] = "
                "pm.info.requestId === 'r2';\","
                " \"preRequestScript\": \"postman.setEnvironmentVariable('n', 1);\"") +
            "," +
            request(
                "r3", "three",
                ", \"dataMode\": \"urlencoded\", \"data\": [{\"key\": \"a\", \"value\": \"1\"}, {\"key\": \"b\","
                " \"value\": \"2\", \"enabled\": false}], \"preRequestScript\": \"postman.setEnvironmentVariable('n', "
                "2);\"") +
            "," +
            request("r4", "four",
                    ", \"tests\": \"tests['last'] = pm.environment.get('t') === 0;\", \"preRequestScript\": "
                    "\"pm.environment.set('t', 0);\"") +
            "]}";
        const QString project = m_dir.filePath(QStringLiteral("old.stampede"));
        const CliResult r = importAndRun("old.json", collection, project, QStringLiteral("Old"),
                                         {QStringLiteral("--summary-json"), m_summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const auto got = server.requests();
        QStringList order;
        for (const auto& rq : got)
            order << QString::fromStdString(rq.line).section(QLatin1Char(' '), 1, 1);
        QCOMPARE(order.join(QLatin1Char(' ')), QStringLiteral("/two /three /one /four"));
        QCOMPARE(got[0].header("authorization"), std::string("Basic dTpw"));
        QCOMPARE(got[1].body, std::string("a=1"));
        QCOMPARE(got[2].header("x-on"), std::string("yes"));
        QCOMPARE(got[2].header("x-off"), std::string());
        for (const char* check : {"two/described", "two/signed", "two/its id", "one/order", "four/last"})
            QVERIFY2(checkCount(QString::fromLatin1(check)) == 1, check);
    }

    // Imports `json` (written to `file`) into `project`, then runs its collection `name` on one engine, quietly:
    // the run's result, or the import's when the import failed.
    CliResult importAndRun(const char* file, const QByteArray& json, const QString& project, const QString& name,
                           const QStringList& extra = {})
    {
        const CliResult imported =
            runCli({QStringLiteral("import"), writeFile(m_dir, file, json), QStringLiteral("--project"), project});
        if (imported.exitCode != 0)
            return imported;
        return runCli(QStringList{QStringLiteral("run"), project + QLatin1Char('@') + name, QStringLiteral("-q"),
                                  QStringLiteral("--engines"), QStringLiteral("1")} +
                      extra);
    }

    // How many times the last run's check `name` ("step/test") came out `verdict` ("passed" or "failed"), from
    // its summary (m_summary).
    int checkCount(const QString& name, const QString& verdict = QStringLiteral("passed")) const
    {
        return readJson(m_summary)
            .value(QStringLiteral("total"))
            .toObject()
            .value(QStringLiteral("checks"))
            .toObject()
            .value(name)
            .toObject()
            .value(verdict)
            .toInt();
    }

    // Issue 48: a collection run is judged as newman judges it. Every request is sent whatever failed before
    // it (a failed test, a script that threw); the run fails (exit 1) naming what failed; Postman's older
    // sandbox API runs (tests[], responseCode, postman.setEnvironmentVariable, iteration from 0); the
    // collection's own variables are used without --env, and a script's pm.collectionVariables.set reaches
    // the next request. With --bail the run stops at the first failure.
    void aCollectionRunIsJudgedAsNewmanJudgesIt()
    {
        RecordingServer server;
        const QByteArray collection =
            "{\"info\": {\"name\": \"Judged\", \"schema\": "
            "\"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"},"
            " \"variable\": [{\"key\": \"base\", \"value\": \"" +
            server.url().toUtf8() +
            "\"}, {\"key\": \"c\", \"value\": \"\"}],"
            " \"item\": ["
            "  {\"name\": \"first\", \"request\": {\"method\": \"GET\", \"url\": \"{{base}}/first\"},"
            "   \"event\": [{\"listen\": \"test\", \"script\": {\"exec\": ["
            "     \"tests['status is 200'] = responseCode.code === 200;\","
            "     \"tests['body has code'] = JSON.parse(responseBody).code === 0;\","
            "     \"tests['fails on purpose'] = false;\","
            "     \"postman.setEnvironmentVariable('u', '42');\","
            "     \"pm.collectionVariables.set('c', '7');\"]}}]},"
            "  {\"name\": \"second\", \"request\": {\"method\": \"GET\", \"url\": \"{{base}}/second?u={{u}}&c={{c}}\"},"
            "   \"event\": [{\"listen\": \"test\", \"script\": {\"exec\": ["
            "     \"pm.test('iteration from 0', () => pm.expect(pm.info.iteration).to.eql(0));\","
            "     \"tests['older iteration'] = iteration === 0 && postman.getEnvironmentVariable('u') === '42';\"]}}]},"
            "  {\"name\": \"third\", \"request\": {\"method\": \"GET\", \"url\": \"{{base}}/third\"},"
            "   \"event\": [{\"listen\": \"test\", \"script\": {\"exec\": [\"undefinedThing();\"]}}]},"
            "  {\"name\": \"fourth\", \"request\": {\"method\": \"GET\", \"url\": \"{{base}}/fourth\"}}]}";
        const QString project = m_dir.filePath(QStringLiteral("judged.stampede"));
        auto r = runCli({QStringLiteral("import"), writeFile(m_dir, "judged.postman_collection.json", collection),
                         QStringLiteral("--project"), project});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = runCli({QStringLiteral("run"), project + QStringLiteral("@Judged"), QStringLiteral("-q"),
                    QStringLiteral("--engines"), QStringLiteral("1"), QStringLiteral("--summary-json"), m_summary});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("the collection's variables, no environment")), qPrintable(r.err));
        std::vector<std::string> lines;
        for (const auto& rq : server.requests())
            lines.push_back(rq.line);
        const std::vector<std::string> sent = {"GET /first HTTP/1.1", "GET /second?u=42&c=7 HTTP/1.1",
                                               "GET /third HTTP/1.1", "GET /fourth HTTP/1.1"};
        QCOMPARE(lines, sent);
        const QJsonObject summary = readJson(m_summary);
        QCOMPARE(summary.value(QStringLiteral("passed")).toBool(), false);
        QCOMPARE(summary.value(QStringLiteral("reason")).toString(),
                 QStringLiteral("1 of 5 tests failed; 1 script failed"));
        const QJsonObject checks =
            summary.value(QStringLiteral("total")).toObject().value(QStringLiteral("checks")).toObject();
        for (const char* name :
             {"first/status is 200", "first/body has code", "second/iteration from 0", "second/older iteration"})
            QVERIFY2(checks.value(QLatin1String(name)).toObject().value(QStringLiteral("passed")).toInt() == 1, name);
        QCOMPARE(
            checks.value(QStringLiteral("first/fails on purpose")).toObject().value(QStringLiteral("failed")).toInt(),
            1);
        // --bail: the run stops at the first failure
        r = runCli({QStringLiteral("run"), project + QStringLiteral("@Judged"), QStringLiteral("--bail"),
                    QStringLiteral("-q"), QStringLiteral("--engines"), QStringLiteral("1")});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(server.requests().size(), std::size_t(5));
        // --bail is for collections
        r = runCli({QStringLiteral("run"), QStringLiteral("--url"), server.url(), QStringLiteral("--bail")});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(server.requests().size(), std::size_t(5));
        // as newman sends them: a URL without a scheme is http://, a name nothing defines goes as written (with a
        // warning); a collection's name may hold a "/"
        const QByteArray literal = "{\"info\": {\"name\": \"Literal/with slash\", \"schema\": "
                                   "\"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"},"
                                   " \"variable\": [{\"key\": \"hostport\", \"value\": \"127.0.0.1:" +
                                   QByteArray::number(server.port()) +
                                   "\"}], \"item\": [{\"name\": \"lit\", \"request\": {\"method\": \"GET\", \"url\": "
                                   "\"{{hostport}}/lit?q={{nothing}}&l={{later}}\"}},"
                                   " {\"name\": \"sets\", \"request\": {\"method\": \"GET\", \"url\": "
                                   "\"{{hostport}}/sets\"}, \"event\": [{\"listen\": \"test\", \"script\": {\"exec\": "
                                   "[\"pm.environment.set('later', 'v');\"]}}]},"
                                   " {\"name\": \"after\", \"request\": {\"method\": \"GET\", \"url\": "
                                   "\"{{hostport}}/after?l={{later}}\"}}]}";
        r = importAndRun("literal.postman_collection.json", literal, project, QStringLiteral("Literal/with slash"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("{{nothing}} is not defined: sent as written")), qPrintable(r.err));
        const auto all = server.requests();
        QVERIFY(all.size() >= 3);
        // a name a script sets later goes as written until it is set
        QCOMPARE(all[all.size() - 3].line, std::string("GET /lit?q=%7B%7Bnothing%7D%7D&l=%7B%7Blater%7D%7D HTTP/1.1"));
        QCOMPARE(all.back().line, std::string("GET /after?l=v HTTP/1.1"));
        // every test passing: exit 0, whatever status came (an HTTP status is no failure, as in newman)
        MockProcess mock(QStringLiteral("{\"rules\": [{\"path\": \"/missing\", \"status\": 404}]}"));
        QVERIFY(mock.started());
        const QByteArray statuses =
            "{\"info\": {\"name\": \"Statuses\", \"schema\": "
            "\"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"},"
            " \"item\": [{\"name\": \"missing\", \"request\": {\"method\": \"GET\", \"url\": \"" +
            mock.url(QStringLiteral("/missing")).toUtf8() +
            "\"}, \"event\": [{\"listen\": \"test\", \"script\": {\"exec\": "
            "[\"pm.test('not found', () => pm.response.to.have.status(404));\"]}}]}]}";
        r = importAndRun("statuses.postman_collection.json", statuses, project, QStringLiteral("Statuses"),
                         {QStringLiteral("--summary-json"), m_summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject total = readJson(m_summary).value(QStringLiteral("total")).toObject();
        QCOMPARE(total.value(QStringLiteral("errors_by_class")).toObject().value(QStringLiteral("http_4xx")).toInt(),
                 1);
    }

    // Issue 48: newman's files beside a collection. --globals below the collection's variables, --environment
    // (a UTF-16 export, a disabled value left out) above them, --iteration-data above both: a row an iteration,
    // as many iterations as rows, {{column}} in requests and pm.iterationData (typed as newman types it) in
    // scripts; a Postman name ("fo/o") is a name. Bad files and misplaced flags exit 2 before anything is sent.
    void newmansFilesBesideACollection()
    {
        RecordingServer server;
        const QByteArray collection =
            "{\"info\": {\"name\": \"Files\", \"schema\": "
            "\"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"},"
            " \"variable\": [{\"key\": \"who\", \"value\": \"collection\"}, {\"key\": \"where\", \"value\": \"c\"}],"
            " \"item\": [{\"name\": \"one\", \"request\": {\"method\": \"GET\", \"url\": \"{{base}}/one?"
            "g={{g}}&who={{who}}&where={{where}}&id={{id}}&slash={{fo/o}}&off={{off}}\"},"
            "   \"event\": [{\"listen\": \"test\", \"script\": {\"exec\": ["
            "     \"pm.test('typed', () => pm.expect(pm.iterationData.get('n')).to.equal(pm.info.iteration + 1));\","
            "     \"pm.test('quoted stays text', () => pm.expect(data.q).to.equal('007'));\","
            "     \"pm.test('a global', () => pm.expect(pm.globals.get('g')).to.equal('global'));\"]}}]}]}";
        const QString project = m_dir.filePath(QStringLiteral("files.stampede"));
        auto r = runCli({QStringLiteral("import"), writeFile(m_dir, "files.postman_collection.json", collection),
                         QStringLiteral("--project"), project, QStringLiteral("-q")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString env16 = m_dir.filePath(QStringLiteral("env16.json"));
        {
            const QString env = QStringLiteral("{\"name\": \"staging\", \"values\": ["
                                               "{\"key\": \"base\", \"value\": \"%1\"},"
                                               "{\"key\": \"who\", \"value\": \"environment\"},"
                                               "{\"key\": \"fo/o\", \"value\": \"alpha\"},"
                                               "{\"key\": \"off\", \"value\": \"never\", \"enabled\": false}]}")
                                    .arg(server.url());
            QFile f(env16);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("\xFF\xFE");
            f.write(reinterpret_cast<const char*>(env.utf16()), env.size() * 2);
        }
        const QString globals = writeFile(
            m_dir, "g.json", "[{\"key\": \"g\", \"value\": \"global\"}, {\"key\": \"who\", \"value\": \"global\"}]");
        const QString data = writeFile(m_dir, "d.csv", "id, n ,q,where\nfirst,1,\"007\",data\nsecond,2,\"007\",data\n");
        r = runCli({QStringLiteral("run"), project + QStringLiteral("@Files"), QStringLiteral("-e"), env16,
                    QStringLiteral("-g"), globals, QStringLiteral("--iteration-data"), data, QStringLiteral("-q"),
                    QStringLiteral("--engines"), QStringLiteral("1"), QStringLiteral("--summary-json"), m_summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("environment \"staging\"")), qPrintable(r.err));
        std::vector<std::string> lines;
        for (const auto& rq : server.requests())
            lines.push_back(rq.line);
        const std::vector<std::string> sent = {
            "GET /one?g=global&who=environment&where=data&id=first&slash=alpha&off=%7B%7Boff%7D%7D HTTP/1.1",
            "GET /one?g=global&who=environment&where=data&id=second&slash=alpha&off=%7B%7Boff%7D%7D HTTP/1.1"};
        QCOMPARE(lines, sent);
        const QJsonObject checks =
            readJson(m_summary).value(QStringLiteral("total")).toObject().value(QStringLiteral("checks")).toObject();
        for (const char* name : {"one/typed", "one/quoted stays text", "one/a global"})
            QVERIFY2(checks.value(QLatin1String(name)).toObject().value(QStringLiteral("passed")).toInt() == 2, name);
        // --iterations over the rows: the rows wrap
        r = runCli({QStringLiteral("run"), project + QStringLiteral("@Files"), QStringLiteral("--environment"), env16,
                    QStringLiteral("--iteration-data"), data, QStringLiteral("--iterations"), QStringLiteral("3"),
                    QStringLiteral("--env-var"), QStringLiteral("who=flag"), QStringLiteral("-q"),
                    QStringLiteral("--engines"), QStringLiteral("1")});
        QCOMPARE(r.exitCode, 1); // no globals: the test of the global fails
        QCOMPARE(server.requests().size(), std::size_t(5));
        QVERIFY2(server.requests().back().line.find("g=%7B%7Bg%7D%7D&who=flag&where=data&id=first") !=
                     std::string::npos,
                 server.requests().back().line.c_str());
        // refused before anything is sent
        const QString broken = writeFile(m_dir, "broken.csv", "a,b\n\"never closed\n");
        const QList<QStringList> refused = {
            {project + QStringLiteral("@Files"), QStringLiteral("--iteration-data"), broken},
            {project + QStringLiteral("@Files"), QStringLiteral("--environment"), data},
            {project + QStringLiteral("@Files"), QStringLiteral("--globals"), m_dir.filePath(QStringLiteral("none"))},
            {project + QStringLiteral("@Files"), QStringLiteral("--env-var"), QStringLiteral("noequals")},
            {project + QStringLiteral("@Files"), QStringLiteral("--env"), QStringLiteral("x"), QStringLiteral("-e"),
             env16},
            {QStringLiteral("--url"), server.url(), QStringLiteral("--iteration-data"), data},
            {m_project + QStringLiteral("@smoke"), QStringLiteral("--globals"), globals}};
        const QStringList says = {QStringLiteral("line 2: a quoted field is not closed"),
                                  QStringLiteral("--environment: "),
                                  QStringLiteral("--globals: cannot read"),
                                  QStringLiteral("--env-var: NAME=VALUE"),
                                  QStringLiteral("not both"),
                                  QStringLiteral("for PROJECT.stampede@COLLECTION"),
                                  QStringLiteral("--no-default-header: for a collection")};
        for (int k = 0; k < refused.size(); ++k) {
            r = runCli(QStringList{QStringLiteral("run")} + refused[k] + QStringList{QStringLiteral("-q")});
            QVERIFY2(r.exitCode == 2, qPrintable(refused[k].join(QLatin1Char(' ')) + QStringLiteral(": ") + r.err));
            QVERIFY2(r.err.contains(says[k]), qPrintable(r.err));
        }
        QCOMPARE(server.requests().size(), std::size_t(5));
    }

    // Issue 48: an answer nginx compressed (gzip, as the request asked) is read decoded by the test script, as
    // newman reads it; the header still says what came.
    void aCompressedAnswerIsReadDecoded()
    {
        Nginx nginx;
        const int port = freePort();
        const QString servers =
            QStringLiteral("server { listen 127.0.0.1:%1; gzip on; gzip_types application/json; gzip_min_length 1;\n"
                           "  default_type application/json;\n"
                           "  location /gz { return 200 '{\"gzipped\": true, \"pad\": \"%2\"}'; } }\n")
                .arg(port)
                .arg(QString(300, QLatin1Char('x')));
        QTemporaryDir dir;
        QVERIFY2(nginx.start(dir.path(), servers, port), qPrintable(nginx.error()));
        const QByteArray collection =
            "{\"info\": {\"name\": \"Gz\", \"schema\": "
            "\"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"},"
            " \"item\": [{\"name\": \"gz\", \"request\": {\"method\": \"GET\", \"url\": \"http://127.0.0.1:" +
            QByteArray::number(port) +
            "/gz\", \"header\": [{\"key\": \"Accept-Encoding\", \"value\": \"gzip\"}]},"
            "   \"event\": [{\"listen\": \"prerequest\", \"script\": {\"exec\": ["
            "     \"pm.test('before', () => pm.expect(pm.request.url.toString()).to.include('/gz'));\","
            "     \"pm.test('before fails', () => pm.expect(1).to.equal(2));\"]}},"
            "    {\"listen\": \"test\", \"script\": {\"exec\": ["
            "     \"pm.test('decoded', () => pm.expect(pm.response.json().gzipped).to.equal(true));\","
            "     \"pm.test('as text', () => pm.expect(pm.response.text()).to.include('xxxx'));\","
            "     \"pm.test('it came compressed', () => pm.response.to.have.header('Content-Encoding', "
            "'gzip'));\"]}}]}]}";
        const QString project = m_dir.filePath(QStringLiteral("gz.stampede"));
        const CliResult r = importAndRun("gz.postman_collection.json", collection, project, QStringLiteral("Gz"),
                                         {QStringLiteral("--summary-json"), m_summary});
        QCOMPARE(r.exitCode, 1); // a pre-request script's test failed: counted as newman counts it
        const QJsonObject checks =
            readJson(m_summary).value(QStringLiteral("total")).toObject().value(QStringLiteral("checks")).toObject();
        QCOMPARE(checks.value(QStringLiteral("gz/before fails")).toObject().value(QStringLiteral("failed")).toInt(), 1);
        for (const char* name : {"gz/before", "gz/decoded", "gz/as text", "gz/it came compressed"})
            QVERIFY2(checks.value(QLatin1String(name)).toObject().value(QStringLiteral("passed")).toInt() == 1, name);
    }

    // Issue 48: a request that could not be made still has its test script run, on no answer (code 0), and its
    // tests counted, as newman counts them; the run fails for the request all the same.
    void testsRunWhenNoAnswerCame()
    {
        const QByteArray collection =
            "{\"info\": {\"name\": \"Refused\", \"schema\": "
            "\"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"},"
            " \"item\": [{\"name\": \"closed\", \"request\": {\"method\": \"GET\", \"url\": \"http://127.0.0.1:" +
            QByteArray::number(freePort()) +
            "/x\"},"
            "   \"event\": [{\"listen\": \"test\", \"script\": {\"exec\": ["
            "     \"pm.test('status 200', () => pm.response.to.have.status(200));\","
            "     \"pm.test('runs anyway', () => pm.expect(pm.response.code).to.be.undefined);\"]}}]}]}";
        const QString project = m_dir.filePath(QStringLiteral("refused.stampede"));
        const CliResult r = importAndRun("refused.postman_collection.json", collection, project,
                                         QStringLiteral("Refused"), {QStringLiteral("--summary-json"), m_summary});
        QCOMPARE(r.exitCode, 1);
        const QJsonObject summary = readJson(m_summary);
        const QJsonObject checks =
            summary.value(QStringLiteral("total")).toObject().value(QStringLiteral("checks")).toObject();
        QCOMPARE(checks.value(QStringLiteral("closed/status 200")).toObject().value(QStringLiteral("failed")).toInt(),
                 1);
        QCOMPARE(checks.value(QStringLiteral("closed/runs anyway")).toObject().value(QStringLiteral("passed")).toInt(),
                 1);
        QVERIFY2(summary.value(QStringLiteral("reason")).toString().contains(QStringLiteral("1 of 2 tests failed")),
                 qPrintable(summary.value(QStringLiteral("reason")).toString()));
    }

    // Issue 48: postman.setNextRequest jumps by name after the request (the test script's call over the
    // pre-request script's), null ends the iteration, a name no request has ends it too (as Postman's runner);
    // a loop through it is bounded by what the scripts count. The order on the wire is the proof.
    void setNextRequestJumpsByName()
    {
        RecordingServer server;
        const auto item = [&](const char* name, const char* test, const char* pre = "") -> QByteArray {
            return QByteArray("{\"name\": \"") + name + "\", \"request\": {\"method\": \"GET\", \"url\": \"" +
                   server.url(QStringLiteral("/%1").arg(QLatin1String(name))).toUtf8() +
                   "\"}, \"event\": [{\"listen\": \"test\", \"script\": {\"exec\": [\"" + test +
                   "\"]}}, {\"listen\": \"prerequest\", \"script\": {\"exec\": [\"" + pre + "\"]}}]}";
        };
        const QByteArray collection =
            "{\"info\": {\"name\": \"Jumps\", \"schema\": "
            "\"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"},"
            " \"variable\": [{\"key\": \"n\", \"value\": \"0\"}], \"item\": [" +
            item("a", "postman.setNextRequest('c');") + ", " + item("b", "pm.test('never', () => {});") + ", " +
            item("c",
                 "const n = Number(pm.collectionVariables.get('n')) + 1; pm.collectionVariables.set('n', String(n));"
                 " pm.test('looped', () => {}); postman.setNextRequest(n < 3 ? 'a' : 'd');",
                 "postman.setNextRequest(null);") +
            ", " + item("d", "postman.setNextRequest(null);", "postman.setNextRequest('b');") + ", " +
            item("e", "pm.test('after the end', () => {});") + "]}";
        const QString project = m_dir.filePath(QStringLiteral("jumps.stampede"));
        const CliResult r = importAndRun("jumps.postman_collection.json", collection, project, QStringLiteral("Jumps"),
                                         {QStringLiteral("--summary-json"), m_summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QStringList order;
        for (const auto& rq : server.requests())
            order << QString::fromStdString(rq.line).section(QLatin1Char(' '), 1, 1);
        // a c a c a c d: the test's 'a' over c's pre-request null; d's test's null over its pre-request 'b'
        QCOMPARE(order.join(QLatin1Char(' ')), QStringLiteral("/a /c /a /c /a /c /d"));
        QCOMPARE(checkCount(QStringLiteral("c/looped")), 3);
        QCOMPARE(checkCount(QStringLiteral("b/never")), 0); // absent or never run: 0 either way
    }

    // Issue 48: a collection run keeps newman's cookie jar, and its scripts read it: pm.cookies and Postman's
    // older postman.getResponseCookie / responseCookies see what an earlier answer set, for the URL asked.
    void scriptsReadTheCookieJar()
    {
        MockProcess mock(QStringLiteral(
            "{\"rules\": [{\"path\": \"/set\", \"body\": \"set\", \"headers\": [{\"name\": \"Set-Cookie\", "
            "\"value\": \"foo=bar; Path=/\"}, {\"name\": \"Set-Cookie\", \"value\": \"only=here; Path=/set\"}]},"
            " {\"path\": \"/check\", \"body\": \"ok\"}]}"));
        QVERIFY(mock.started());
        const QByteArray collection =
            "{\"info\": {\"name\": \"Jar\", \"schema\": "
            "\"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"},"
            " \"item\": [{\"name\": \"set\", \"request\": {\"method\": \"GET\", \"url\": \"" +
            mock.url(QStringLiteral("/set")).toUtf8() +
            "\"}, \"event\": [{\"listen\": \"test\", \"script\": {\"exec\": ["
            "\"pm.test('both here', () => pm.expect(pm.cookies.toObject()).to.eql({foo: 'bar', only: 'here'}));\"]}}]},"
            " {\"name\": \"check\", \"request\": {\"method\": \"GET\", \"url\": \"" +
            mock.url(QStringLiteral("/check")).toUtf8() +
            "\"}, \"event\": [{\"listen\": \"test\", \"script\": {\"exec\": ["
            "\"tests['legacy'] = postman.getResponseCookie('foo').value === 'bar' && responseCookies.length === 1;\","
            "\"pm.test('by path', () => pm.expect(pm.cookies.has('only')).to.be.false);\"]}}]}]}";
        const QString project = m_dir.filePath(QStringLiteral("jar.stampede"));
        const CliResult r = importAndRun("jar.postman_collection.json", collection, project, QStringLiteral("Jar"),
                                         {QStringLiteral("--summary-json"), m_summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        for (const char* name : {"set/both here", "check/legacy", "check/by path"})
            QVERIFY2(checkCount(QLatin1String(name)) == 1, name);
    }

    // Issue 48: a collection run's script has newman's time (newman sets no limit; here 10 s of CPU, so that a
    // run still ends): newman's own timeout fixture waits 300 ms in a loop in its test script.
    void aCollectionsScriptHasNewmansTime()
    {
        RecordingServer server;
        const QByteArray collection =
            "{\"info\": {\"name\": \"Slow\", \"schema\": "
            "\"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"},"
            " \"item\": [{\"name\": \"wait\", \"request\": {\"method\": \"GET\", \"url\": \"" +
            server.url(QStringLiteral("/w")).toUtf8() +
            "\"}, \"event\": [{\"listen\": \"test\", \"script\": {\"exec\": ["
            "\"let n = 0; const later = Date.now() + 300; while (Date.now() < later) n++;\","
            "\"pm.test('after the wait', () => pm.expect(n).to.be.above(0));\"]}}]}]}";
        const QString project = m_dir.filePath(QStringLiteral("slow.stampede"));
        const CliResult r = importAndRun("slow.postman_collection.json", collection, project, QStringLiteral("Slow"),
                                         {QStringLiteral("--summary-json"), m_summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QCOMPARE(checkCount(QStringLiteral("wait/after the wait")), 1);
    }

    // Issue 48: a host that does not resolve fails its own request, a connect error (its test script runs on
    // no answer), and the collection goes on, as newman counts it; the run says so before it starts.
    void aNameThatDoesNotResolveFailsItsRequest()
    {
        RecordingServer server;
        const QByteArray collection =
            "{\"info\": {\"name\": \"Unresolved\", \"schema\": "
            "\"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"},"
            " \"item\": [{\"name\": \"nowhere\", \"request\": {\"method\": \"GET\", \"url\": "
            "\"http://stampede-test.invalid/x\"},"
            "   \"event\": [{\"listen\": \"test\", \"script\": {\"exec\": ["
            "     \"pm.test('no answer', () => pm.expect(pm.response.code).to.be.undefined);\"]}}]},"
            " {\"name\": \"here\", \"request\": {\"method\": \"GET\", \"url\": \"" +
            server.url(QStringLiteral("/here")).toUtf8() + "\"}}]}";
        const QString project = m_dir.filePath(QStringLiteral("unresolved.stampede"));
        const CliResult r = importAndRun("unresolved.postman_collection.json", collection, project,
                                         QStringLiteral("Unresolved"), {QStringLiteral("--summary-json"), m_summary});
        QVERIFY2(r.exitCode == 1, qPrintable(r.err + r.out));
        QVERIFY2(r.err.contains(QStringLiteral("cannot resolve host \"stampede-test.invalid\"")), qPrintable(r.err));
        QCOMPARE(server.requestsTo("GET /here").size(), std::size_t(1));
        const QJsonObject total = readJson(m_summary).value(QStringLiteral("total")).toObject();
        QCOMPARE(total.value(QStringLiteral("errors_by_class")).toObject().value(QStringLiteral("connect")).toInt(), 1);
        QCOMPARE(checkCount(QStringLiteral("nowhere/no answer")), 1);
        // a scenario (not a collection) is still refused before any load
        const QString scenario = writeFile(
            m_dir, "unresolved.json", "{\"steps\": [{\"request\": {\"url\": \"http://stampede-test.invalid/\"}}]}");
        const CliResult refused = runCli({QStringLiteral("run"), scenario, QStringLiteral("-q")});
        QCOMPARE(refused.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestProjectRun)
#include "tst_projectrun.moc"
