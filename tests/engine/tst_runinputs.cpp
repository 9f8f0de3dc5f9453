// The one preparation of a run (control/runinputs.h), from each place a scenario is written: the workbench's
// editor text in its project, a scenario file, a bundle, a project's scenario or collection by name (with its
// stored environment, newman's files), a scenario the caller built; and --var over every scope.
#include "bundle/bundlefile.h"
#include "control/runinputs.h"
#include "store/projectstore.h"

#include "stampede/v1/bundle.pb.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace stampede;

namespace {

// The value of the constant `name`, or "(none)".
std::string constant(const v1::Scenario& s, const std::string& name)
{
    for (const auto& v : s.variables())
        if (v.name() == name)
            return v.has_constant() ? v.constant().value() : "(not a constant)";
    return "(none)";
}

bool secret(const v1::Scenario& s, const std::string& name)
{
    for (const auto& v : s.variables())
        if (v.name() == name)
            return v.constant().secret();
    return false;
}

void write(const std::string& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary) << bytes;
}

} // namespace

class TestRunInputs : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    std::string path(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)).toStdString(); }

    // A project with a scenario "Checkout", a collection "Shop" (its own variables as the environment "Shop"),
    // and the environments "staging" (the stored choice) and "prod".
    std::unique_ptr<ProjectStore> project(const char* name)
    {
        std::string error;
        auto p = ProjectStore::create(path(name), error);
        if (!p)
            qFatal("%s", error.c_str());
        p->addItem(
            0, ItemKind::Scenario, "Checkout",
            "{\"name\": \"checkout\", \"variables\": [{\"name\": \"base\", \"constant\": {\"value\": \"http://own\"}}],"
            " \"steps\": [{\"request\": {\"url\": \"${base}/pay\"}}]}");
        const auto shop = p->addItem(0, ItemKind::Collection, "Shop", "{}");
        p->addItem(shop, ItemKind::Request, "Home", "{\"url\": \"${base}/\"}");
        p->addItem(0, ItemKind::Environment, "Shop", "{\"base\": \"http://collection\", \"u\": \"7\"}");
        p->addItem(0, ItemKind::Environment, "staging",
                   "{\"base\": \"http://staging\", \"token\": \"s3\", \"$secrets\": [\"token\"]}");
        p->addItem(0, ItemKind::Environment, "prod", "{\"base\": \"http://prod\"}");
        p->setSetting("environment", "staging");
        return p;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void editorTextInItsProject()
    {
        auto p = project("editor.stampede");
        RunInputs in;
        in.scenarioJson =
            "{\"name\": \"s\", \"variables\": [{\"name\": \"base\", \"constant\": {\"value\": \"http://own\"}}],"
            " \"steps\": [{\"request\": {\"url\": \"${base}/\"}}]}";
        in.project = p.get();
        in.environment = "prod";
        in.baseDir = "/data";
        RunRequest rq;
        PreparedRun found;
        std::string error;
        QVERIFY2(prepareRun(in, rq, found, error), error.c_str());
        QCOMPARE(constant(rq.scenario, "base"), std::string("http://prod"));
        QCOMPARE(found.environment, std::string("prod"));
        QCOMPARE(rq.baseDir, std::string("/data"));
        QCOMPARE(rq.scenarioJson, in.scenarioJson); // recorded as written
        QVERIFY(!found.collection);

        in.environment = "qa"; // not the project's
        QVERIFY(!prepareRun(in, rq, found, error));
        QVERIFY2(error.find("no environment named \"qa\"") != std::string::npos, error.c_str());
        in.project = nullptr; // an environment needs its project
        in.environment = "prod";
        QVERIFY(!prepareRun(in, rq, found, error));
        QVERIFY2(error.find("needs the project") != std::string::npos, error.c_str());
        in.environment.clear();
        in.scenarioJson = "{\"name\": ";
        QVERIFY(!prepareRun(in, rq, found, error));
    }

    // A step that runs a project's request sends what the request says at the run, keeps its own options, and is
    // recorded as it ran; a copy stays as it was; a request gone is said with the step's name.
    void stepsFollowTheirRequests()
    {
        std::string error;
        auto p = ProjectStore::create(path("linked.stampede"), error);
        QVERIFY2(p, error.c_str());
        const auto shop = p->addItem(0, ItemKind::Collection, "Shop", "{}");
        const auto pay = p->addItem(shop, ItemKind::Request, "Pay",
                                    "{\"method\": \"POST\", \"url\": \"http://127.0.0.1:9/old\", \"body\": \"a\"}");
        const std::string scenario =
            "{\"name\": \"s\", \"steps\": ["
            "{\"name\": \"Pay\", \"requestItem\": \"" +
            std::to_string(pay) +
            "\", \"group\": \"checkout\", \"repeat\": 2, \"thinkTime\": {\"fixed\": \"1s\"},"
            " \"request\": {\"method\": \"POST\", \"url\": \"http://127.0.0.1:9/old\", \"body\": \"a\"}},"
            "{\"name\": \"Copy\", \"request\": {\"method\": \"POST\", \"url\": \"http://127.0.0.1:9/old\"}}]}";
        p->addItem(0, ItemKind::Scenario, "Linked", scenario);
        // the request edited and renamed after the step was added
        QVERIFY(p->rename(pay, "Pay now"));
        QVERIFY(p->setPayload(pay, "{\"method\": \"PUT\", \"url\": \"http://127.0.0.1:9/new\", \"body\": \"b\","
                                   " \"checks\": [{\"status\": [201]}]}"));
        RunInputs in;
        in.scenarioJson = scenario;
        in.project = p.get();
        RunRequest rq;
        PreparedRun found;
        QVERIFY2(prepareRun(in, rq, found, error), error.c_str());
        QCOMPARE(rq.scenario.steps_size(), 2);
        const v1::Step& linked = rq.scenario.steps(0);
        QCOMPARE(linked.name(), std::string("Pay now"));
        QCOMPARE(linked.request().method(), std::string("PUT"));
        QCOMPARE(linked.request().url(), std::string("http://127.0.0.1:9/new"));
        QCOMPARE(linked.request().body(), std::string("b"));
        QCOMPARE(linked.checks_size(), 1);
        QCOMPARE(linked.group(), std::string("checkout")); // the step's own
        QCOMPARE(linked.repeat(), 2u);
        QVERIFY(linked.has_think_time());
        QCOMPARE(linked.request_item(), std::int64_t(0)); // what goes to agents names no project item
        QCOMPARE(rq.scenario.steps(1).request().url(), std::string("http://127.0.0.1:9/old")); // the copy
        QVERIFY(rq.scenarioJson.empty()); // recorded as it ran, not as the editor held it

        // a test plan's setup and scenarios too
        RunInputs plan;
        plan.project = p.get();
        plan.scenarioJson =
            "{\"name\": \"plan\", \"setup\": [{\"name\": \"Pay\", \"requestItem\": " + std::to_string(pay) +
            ", \"request\": {\"url\": \"http://127.0.0.1:9/old\"}}], \"scenarios\": [{\"name\": "
            "\"a\", \"steps\": [{\"name\": \"Pay\", \"requestItem\": " +
            std::to_string(pay) +
            ", \"request\": {\"url\": \"http://127.0.0.1:9/old\"}}], \"load\": {\"open\": "
            "{\"rate\": 1}}, \"duration\": \"1s\"}]}";
        QVERIFY2(prepareRun(plan, rq, found, error), error.c_str());
        QCOMPARE(rq.scenario.setup(0).request().url(), std::string("http://127.0.0.1:9/new"));
        QCOMPARE(rq.scenario.scenarios(0).steps(0).request().url(), std::string("http://127.0.0.1:9/new"));

        // the command line's PROJECT@SCENARIO reads the same
        p.reset();
        RunInputs cli;
        cli.projectFile = path("linked.stampede");
        cli.projectItem = "Linked";
        QVERIFY2(prepareRun(cli, rq, found, error), error.c_str());
        QCOMPARE(rq.scenario.steps(0).request().url(), std::string("http://127.0.0.1:9/new"));

        p = ProjectStore::open(path("linked.stampede"), error);
        QVERIFY2(p, error.c_str());
        QVERIFY(p->remove(pay));
        in.project = p.get();
        QVERIFY(!prepareRun(in, rq, found, error));
        QVERIFY2(error.find("the step \"Pay\" runs a request that is no longer in the project") != std::string::npos,
                 error.c_str());
    }

    void aScenarioFileAndABundle()
    {
        write(path("plain.json"), "{\"name\": \"f\", \"steps\": [{\"request\": {\"url\": \"http://127.0.0.1:9/\"}}]}");
        RunInputs in;
        in.scenarioFile = path("plain.json");
        RunRequest rq;
        PreparedRun found;
        std::string error;
        QVERIFY2(prepareRun(in, rq, found, error), error.c_str());
        QCOMPARE(rq.scenario.name(), std::string("f"));
        QCOMPARE(rq.baseDir, m_dir.path().toStdString()); // its files are read beside it
        QVERIFY(rq.scenarioJson.empty());                 // recorded as it runs (flags change it)
        in.environment = "prod";
        QVERIFY(!prepareRun(in, rq, found, error));
        QVERIFY2(error.find("a scenario file has no environments") != std::string::npos, error.c_str());

        v1::Bundle b;
        b.set_format_version(kBundleFormatVersion);
        b.mutable_scenario()->set_name("b");
        auto* c = b.mutable_scenario()->add_variables();
        c->set_name("base");
        c->mutable_constant()->set_value("http://own");
        b.mutable_scenario()->add_steps()->mutable_request()->set_url("${base}/");
        auto* e = b.add_environments();
        e->set_name("prod");
        (*e->mutable_values())["base"] = "http://prod";
        write(path("b.stampede-bundle"), encodeBundle(b));
        in.scenarioFile = path("b.stampede-bundle");
        QVERIFY2(prepareRun(in, rq, found, error), error.c_str());
        QCOMPARE(constant(rq.scenario, "base"), std::string("http://prod"));
        QCOMPARE(found.environment, std::string("prod"));
        in.environment = "qa";
        QVERIFY(!prepareRun(in, rq, found, error));
        QVERIFY2(error.find("qa") != std::string::npos, error.c_str());

        in.scenarioFile = path("absent.json");
        in.environment.clear();
        QVERIFY(!prepareRun(in, rq, found, error));
        QVERIFY2(error.find("cannot read scenario file") != std::string::npos, error.c_str());
        write(path("broken.json"), "{\"steps\": [");
        in.scenarioFile = path("broken.json");
        QVERIFY(!prepareRun(in, rq, found, error));
        QVERIFY2(error.find("not a valid scenario") != std::string::npos, error.c_str());
    }

    void aProjectScenarioByName()
    {
        project("named.stampede").reset(); // closed: read from its file, as the command line does
        RunInputs in;
        in.projectFile = path("named.stampede");
        in.projectItem = "Checkout";
        RunRequest rq;
        PreparedRun found;
        std::string error;
        QVERIFY2(prepareRun(in, rq, found, error), error.c_str());
        QCOMPARE(found.environment, std::string("staging")); // the workbench's last choice
        QCOMPARE(constant(rq.scenario, "base"), std::string("http://staging"));
        QCOMPARE(rq.baseDir, m_dir.path().toStdString());
        in.storedEnvironment = false;
        QVERIFY2(prepareRun(in, rq, found, error), error.c_str());
        QVERIFY(found.environment.empty());
        QCOMPARE(constant(rq.scenario, "base"), std::string("http://own"));
        in.environment = "prod";
        QVERIFY2(prepareRun(in, rq, found, error), error.c_str());
        QCOMPARE(constant(rq.scenario, "base"), std::string("http://prod"));

        in.projectItem = "Nothing";
        QVERIFY(!prepareRun(in, rq, found, error));
        QVERIFY2(error.find("no scenario or collection named \"Nothing\"") != std::string::npos, error.c_str());
        in.projectItem.clear(); // PROJECT.stampede@ names nothing
        QVERIFY(!prepareRun(in, rq, found, error));
        QVERIFY2(error.find("no scenario or collection named \"\"") != std::string::npos, error.c_str());
        in.projectFile = path("absent.stampede");
        in.projectItem = "Checkout";
        QVERIFY(!prepareRun(in, rq, found, error));

        // held by a workbench: read beside it
        auto held = ProjectStore::open(path("named.stampede"), error);
        QVERIFY2(held, error.c_str());
        in.projectFile = path("named.stampede");
        in.environment.clear();
        in.storedEnvironment = true;
        QVERIFY2(prepareRun(in, rq, found, error), error.c_str());
        QCOMPARE(found.environment, std::string("staging"));
        held.reset();

        // an older project that no workbench holds is upgraded as the workbench would (its backup kept), not
        // refused as if a window held it
        const std::string old = path("old.stampede");
        QVERIFY(QFile::copy(QFINDTESTDATA("data/project-v4.stampede"), QString::fromStdString(old)));
        QFile::setPermissions(QString::fromStdString(old), QFile::ReadOwner | QFile::WriteOwner);
        in.projectFile = old;
        in.projectItem = "Nothing";
        QVERIFY(!prepareRun(in, rq, found, error));
        QVERIFY2(error.find("has no scenario or collection named \"Nothing\"") != std::string::npos, error.c_str());
        QVERIFY(QFile::exists(QString::fromStdString(old + ".v4.bak")));
    }

    void aCollectionWithNewmansFiles()
    {
        auto p = project("col.stampede");
        RunInputs in;
        in.project = p.get();
        in.projectItem = "Shop";
        in.storedEnvironment = false;
        PostmanVariables env;
        env.name = "ci";
        env.values = {{"u", "42"}};
        in.newman.environment = env;
        in.newman.globalVars = {{"g", "1"}, {"base", "http://global"}};
        IterationData data;
        data.csv = "id\n1\n2\n3\n";
        data.columns = {"id"};
        data.rows = 3;
        in.newman.data = data;
        RunRequest rq;
        PreparedRun found;
        std::string error;
        QVERIFY2(prepareRun(in, rq, found, error), error.c_str());
        QVERIFY(found.collection);
        QCOMPARE(found.environment, std::string("ci"));
        QCOMPARE(found.dataRows, std::size_t(3));
        QCOMPARE(constant(rq.scenario, "base"), std::string("http://collection")); // above a global
        QCOMPARE(constant(rq.scenario, "u"), std::string("42"));                   // the environment above both
        QCOMPARE(constant(rq.scenario, "g"), std::string("1"));
        QCOMPARE(constant(rq.scenario, "iterationData"), std::string("(not a constant)")); // a row an iteration

        // the workbench's runner names the collection by its item: the same preparation
        in.projectItem.clear();
        for (const ProjectItem& i : p->children(0))
            if (i.kind == ItemKind::Collection)
                in.projectCollection = i.id;
        QVERIFY(in.projectCollection);
        in.environment = "prod";
        in.newman = {};
        QVERIFY2(prepareRun(in, rq, found, error), error.c_str());
        QVERIFY(found.collection);
        QCOMPARE(found.environment, std::string("prod"));
        QCOMPARE(constant(rq.scenario, "base"), std::string("http://prod")); // the environment over the collection's
        QCOMPARE(constant(rq.scenario, "u"), std::string("7"));              // the collection's own
        QCOMPARE(rq.scenario.steps_size(), 1);
        in.projectCollection = 999999;
        QVERIFY(!prepareRun(in, rq, found, error));
    }

    void aBuiltScenarioAndOverrides()
    {
        auto p = project("built.stampede");
        RunInputs in;
        in.scenario.emplace();
        in.scenario->set_name("quick");
        in.scenario->add_steps()->mutable_request()->set_url("${base}/");
        in.project = p.get();
        in.environment = "prod";
        in.overrides = {{"base", "http://var"}, {"extra", "x"}};
        RunRequest rq;
        PreparedRun found;
        std::string error;
        QVERIFY2(prepareRun(in, rq, found, error), error.c_str());
        QCOMPARE(rq.scenario.name(), std::string("quick"));
        QCOMPARE(constant(rq.scenario, "base"), std::string("http://var")); // --var over the environment
        QCOMPARE(constant(rq.scenario, "extra"), std::string("x"));
        QVERIFY(secret(rq.scenario, "base")); // a --var value is never in the record
        QVERIFY(rq.scenarioJson.empty());
        QCOMPARE(rq.baseDir, std::string("."));
    }
};

QTEST_GUILESS_MAIN(TestRunInputs)
#include "tst_runinputs.moc"
