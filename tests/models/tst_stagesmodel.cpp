#include "csvpreviewmodel.h"
#include "scenariocheck.h"
#include "stagesmodel.h"
#include "variablesmodel.h"

#include "bundle/bundlefile.h"
#include "stampede/v1/bundle.pb.h"

#include <QTemporaryDir>

#include <QFile>
#include <QJsonDocument>

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

class TestStagesModel : public QObject
{
    Q_OBJECT
private slots:
    void threeStagePreview()
    {
        StagesModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(m.insertRows(0, 3));
        // ramp 0 -> 100 over 10 s, hold 20 s, step to 200 in 4 steps over 20 s
        QVERIFY(m.setData(m.index(0, StagesModel::KindColumn), int(StagesModel::Ramp)));
        QVERIFY(m.setData(m.index(0, StagesModel::DurationColumn), 10));
        QVERIFY(m.setData(m.index(0, StagesModel::TargetColumn), 100));
        QVERIFY(m.setData(m.index(1, StagesModel::DurationColumn), 20));
        QVERIFY(m.setData(m.index(1, StagesModel::TargetColumn), 100));
        QVERIFY(m.setData(m.index(2, StagesModel::KindColumn), int(StagesModel::Step)));
        QVERIFY(m.setData(m.index(2, StagesModel::DurationColumn), 20));
        QVERIFY(m.setData(m.index(2, StagesModel::TargetColumn), 200));
        QVERIFY(m.setData(m.index(2, StagesModel::StepsColumn), 4));
        QVERIFY(!m.setData(m.index(2, StagesModel::DurationColumn), -1)); // refused
        QCOMPARE(m.totalSeconds(), 50.0);
        const QList<QPointF> p = m.preview(0, m.totalSeconds());
        const QList<QPointF> expected = {{0, 0},    {10, 100}, {30, 100}, {30, 125}, {35, 125}, {35, 150},
                                         {40, 150}, {40, 175}, {45, 175}, {45, 200}, {50, 200}};
        QCOMPARE(p, expected);
        // round trip through the scenario's JSON
        StagesModel back;
        back.fromJson(m.toJson());
        QCOMPARE(back.preview(0, 50), expected);
        QCOMPARE(m.toJson().at(2).toObject().value(QStringLiteral("kind")).toString(), QStringLiteral("STAGE_STEP"));
        QVERIFY(m.removeRows(1, 1));
        QCOMPARE(m.rowCount(), 2);
    }

    // Issue 52: a new stage holds the level it finds ("keep", written without a target), which can be typed
    // back; only a hold keeps; a number in the user's locale or C's; a ramp made of a kept hold starts from the
    // level before, shown, never a hidden 0.
    void aNewHoldKeepsTheLevel()
    {
        StagesModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(m.insertRows(0, 2));
        QCOMPARE(m.data(m.index(0, StagesModel::TargetColumn)).toString(), QStringLiteral("(keep)"));
        QVERIFY(!m.toJson().at(0).toObject().contains(QStringLiteral("target")));
        QVERIFY(m.setData(m.index(0, StagesModel::TargetColumn), QStringLiteral("250")));
        QCOMPARE(m.data(m.index(0, StagesModel::TargetColumn)).toDouble(), 250.0);
        QVERIFY(m.setData(m.index(0, StagesModel::TargetColumn), QStringLiteral(" keep ")));
        QVERIFY(!m.toJson().at(0).toObject().contains(QStringLiteral("target")));
        QVERIFY(m.setData(m.index(0, StagesModel::TargetColumn), QString()));
        QVERIFY(!m.setData(m.index(0, StagesModel::TargetColumn), QStringLiteral("lots")));
        QVERIFY(!m.setData(m.index(0, StagesModel::TargetColumn), QStringLiteral("-5")));
        QVERIFY(m.setData(m.index(0, StagesModel::TargetColumn), QStringLiteral("120.5")));
        QVERIFY(m.setData(m.index(1, StagesModel::KindColumn), int(StagesModel::Ramp)));
        QCOMPARE(m.data(m.index(1, StagesModel::TargetColumn)).toDouble(), 120.5);          // from the level before
        QVERIFY(!m.setData(m.index(1, StagesModel::TargetColumn), QStringLiteral("keep"))); // a ramp goes somewhere
        QCOMPARE(m.data(m.index(1, StagesModel::TargetColumn), Qt::EditRole).toString(), QStringLiteral("120.5"));
    }

    void variablesFromAndToTheScenario()
    {
        VariablesModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QFile f(qEnvironmentVariable("STAMPEDE_SOURCE_DIR") + QStringLiteral("/resources/demo/scenario.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject scenario = QJsonDocument::fromJson(f.readAll()).object();
        m.fromJson(scenario.value(QStringLiteral("variables")).toArray());
        QCOMPARE(m.rowCount(), 4);
        QCOMPARE(m.index(1, VariablesModel::SourceColumn).data().toString(), QStringLiteral("data set"));
        QCOMPARE(m.index(2, VariablesModel::SettingsColumn).data().toString(), QStringLiteral("1..1000000 step 1"));
        m.setUsageText({{QStringLiteral("login"), QStringLiteral("{\"body\": \"${users.user_id}\"}")},
                        {QStringLiteral("order"), QStringLiteral("/orders/${order_no}")}});
        QCOMPARE(m.index(1, VariablesModel::UsedColumn).data().toString(), QStringLiteral("login"));
        QCOMPARE(m.index(2, VariablesModel::UsedColumn).data().toString(), QStringLiteral("order"));
        const QJsonArray out = m.toJson(
            [](const QString& name) { return name == QLatin1String("users") ? QStringLiteral("id\n1\n") : QString(); });
        QCOMPARE(out.at(1).toObject().value(QStringLiteral("csv")).toObject().value(QStringLiteral("data")).toString(),
                 QStringLiteral("id\n1\n"));
        QCOMPARE(
            out.at(2).toObject().value(QStringLiteral("increment")).toObject().value(QStringLiteral("max")).toString(),
            QStringLiteral("1000000"));
        // bad settings are shown, names are checked
        QVERIFY(m.setData(m.index(2, VariablesModel::SettingsColumn), QStringLiteral("9..1")));
        QCOMPARE(m.index(2, VariablesModel::SettingsColumn).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("MAX must not be below MIN"));
        QVERIFY(!m.setData(m.index(0, VariablesModel::NameColumn), QStringLiteral("no spaces")));
        QVERIFY(m.setData(m.index(0, VariablesModel::SourceColumn), int(VariablesModel::RandomString)));
        QCOMPARE(m.index(0, VariablesModel::SettingsColumn).data().toString(), QStringLiteral("16"));
        QVERIFY(m.insertRows(4, 1));
        QVERIFY(m.removeRows(0, 2));
        QCOMPARE(m.rowCount(), 3);
    }

    // An account pool: "checkout" (and "checkout 2s", its wait) to CSV_MODE_CHECKOUT and back; a wait
    // the engine reads; other words refused, saying what to write.
    void dataSetsCheckOut()
    {
        VariablesModel m;
        m.fromJson(QJsonArray{QJsonObject{
            {QStringLiteral("name"), QStringLiteral("accounts")},
            {QStringLiteral("csv"), QJsonObject{{QStringLiteral("mode"), QStringLiteral("CSV_MODE_CHECKOUT")},
                                                {QStringLiteral("checkoutWait"), QStringLiteral("2s")}}}}});
        QCOMPARE(m.index(0, VariablesModel::SettingsColumn).data().toString(), QStringLiteral("checkout 2s"));
        const auto csvOut = [&] {
            return m.toJson([](const QString&) { return QStringLiteral("user\nu1\n"); })
                .at(0)
                .toObject()
                .value(QStringLiteral("csv"))
                .toObject();
        };
        QCOMPARE(csvOut().value(QStringLiteral("mode")).toString(), QStringLiteral("CSV_MODE_CHECKOUT"));
        QCOMPARE(csvOut().value(QStringLiteral("checkoutWait")).toString(), QStringLiteral("2s"));
        QVERIFY(m.setData(m.index(0, VariablesModel::SettingsColumn), QStringLiteral("checkout")));
        QVERIFY(!csvOut().contains(QStringLiteral("checkoutWait")));
        QVERIFY(m.index(0, VariablesModel::SettingsColumn).data(Qt::ToolTipRole).toString().isEmpty() ||
                !m.index(0, VariablesModel::SettingsColumn)
                     .data(Qt::ToolTipRole)
                     .toString()
                     .startsWith(QStringLiteral("write")));
        QVERIFY(m.setData(m.index(0, VariablesModel::SettingsColumn), QStringLiteral("checkout soon")));
        QVERIFY(m.index(0, VariablesModel::SettingsColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("write wrap, stop, per-user or checkout")));
        QVERIFY(m.setData(m.index(0, VariablesModel::SettingsColumn), QStringLiteral("checkout 500ms")));
        const QJsonObject scenario{
            {QStringLiteral("name"), QStringLiteral("pool")},
            {QStringLiteral("load"),
             QJsonObject{{QStringLiteral("closed"), QJsonObject{{QStringLiteral("users"), 2}}}}},
            {QStringLiteral("variables"), m.toJson([](const QString&) { return QStringLiteral("user\nu1\n"); })},
            {QStringLiteral("steps"),
             QJsonArray{QJsonObject{
                 {QStringLiteral("request"),
                  QJsonObject{{QStringLiteral("url"), QStringLiteral("http://127.0.0.1:9/${accounts.user}")}}}}}}};
        const auto faults = ScenarioCheck::validate(QJsonDocument(scenario).toJson());
        QVERIFY2(faults.isEmpty(), qPrintable(faults.isEmpty() ? QString() : faults.first().second));
    }

    void exportsABundleTheEngineReads()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.stbundle"));
        const QByteArray json = QByteArrayLiteral(
            "{\"name\": \"exported\", \"steps\": [{\"request\": {\"url\": \"http://127.0.0.1:9/${u.id}\"}}],"
            " \"variables\": [{\"name\": \"u\", \"csv\": {\"data\": \"id\\n1\\n\"}}], \"load\": {\"closed\": "
            "{\"users\": 2}}}");
        QVERIFY(ScenarioCheck::validate(json).isEmpty());
        QString error;
        QVERIFY2(ScenarioCheck::exportBundle(json, dir.path(), path, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        stampede::v1::Bundle bundle;
        std::string err;
        QVERIFY2(stampede::decodeBundle(f.readAll().toStdString(), bundle, err), err.c_str());
        QCOMPARE(bundle.scenario().name(), std::string("exported"));
        QCOMPARE(bundle.scenario().variables(0).csv().data(), std::string("id\n1\n"));
        QVERIFY(!ScenarioCheck::exportBundle(QByteArrayLiteral("{not json"), dir.path(), path, &error));
        QVERIFY(!error.isEmpty());
    }

    // Export bundle carries the project's environments; the constants take the chosen one's values.
    void bundlesCarryTheEnvironmentChosen()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("e.stbundle"));
        const QByteArray json = QByteArrayLiteral(
            "{\"name\": \"env\", \"steps\": [{\"request\": {\"url\": \"${base}/x\"}}], \"variables\": [{\"name\": "
            "\"base\", \"constant\": {\"value\": \"http://127.0.0.1:9\"}}], \"load\": {\"closed\": {\"users\": 1}}}");
        ScenarioCheck::EnvironmentChoice envs;
        envs.environments = {
            {QStringLiteral("local"), QByteArrayLiteral("{\"base\": \"http://127.0.0.1:8080\", \"k\": 7}")},
            {QStringLiteral("staging"), QByteArrayLiteral("{\"base\": \"http://127.0.0.2:80\"}")}};
        envs.current = QStringLiteral("local");
        QString error;
        QVERIFY2(ScenarioCheck::exportBundle(json, dir.path(), path, &error, {}, envs, QStringLiteral("staging")),
                 qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        stampede::v1::Bundle bundle;
        std::string err;
        QVERIFY2(stampede::decodeBundle(f.readAll().toStdString(), bundle, err), err.c_str());
        QCOMPARE(bundle.environments_size(), 2);
        QCOMPARE(bundle.environment(), std::string("staging"));
        QCOMPARE(bundle.scenario().variables_size(), 1); // replaced, not added twice
        QCOMPARE(bundle.scenario().variables(0).constant().value(), std::string("http://127.0.0.2:80"));
        QCOMPARE(bundle.environments(0).values().at("k"), std::string("7"));
        // none chosen: the scenario as it is, the environments still carried
        QVERIFY(ScenarioCheck::exportBundle(json, dir.path(), path, &error, {}, envs, QString()));
        // an environment that is not a JSON object of values, or a choice that is not there: nothing written
        f.close();
        const QByteArray before = [&] {
            QFile g(path);
            g.open(QIODevice::ReadOnly);
            return g.readAll();
        }();
        envs.environments.append({QStringLiteral("bad"), QByteArrayLiteral("[1, 2")});
        QVERIFY(!ScenarioCheck::exportBundle(json, dir.path(), path, &error, {}, envs, QStringLiteral("local")));
        QVERIFY2(error.contains(QStringLiteral("\"bad\" is not a JSON object")), qPrintable(error));
        envs.environments.removeLast();
        QVERIFY(!ScenarioCheck::exportBundle(json, dir.path(), path, &error, {}, envs, QStringLiteral("prod")));
        QVERIFY2(error.contains(QStringLiteral("no environment named \"prod\"")), qPrintable(error));
        QFile g(path);
        QVERIFY(g.open(QIODevice::ReadOnly));
        QCOMPARE(g.readAll(), before);
    }

    void csvPreviewDetectsAndShows()
    {
        CsvPreviewModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(m.load(QByteArrayLiteral("id;name;city\n1;Li Wei;北京\n2;Wang Fang;上海\n")));
        QCOMPARE(m.delimiter(), QLatin1Char(';'));
        QCOMPARE(m.columns(), (QStringList{QStringLiteral("id"), QStringLiteral("name"), QStringLiteral("city")}));
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(m.index(1, 2).data().toString(), QStringLiteral("上海"));
        QVERIFY(!m.load(QByteArrayLiteral("a,b\n1\n")));
        QCOMPARE(m.errorString(), QStringLiteral("line 2: 1 field, the header has 2"));
        QCOMPARE(m.rowCount(), 0);
        // GB18030 text read as such
        const QByteArray gb = QByteArrayLiteral("id,city\n1,\xb1\xb1\xbe\xa9\n"); // 北京 in GB18030
        QVERIFY(!m.load(gb, QLatin1Char(','), QStringLiteral("UTF-8")));
        QVERIFY(m.load(gb, QLatin1Char(','), QStringLiteral("GB18030")));
        QCOMPARE(m.index(0, 1).data().toString(), QStringLiteral("北京"));
    }
};

QTEST_GUILESS_MAIN(TestStagesModel)
#include "tst_stagesmodel.moc"
