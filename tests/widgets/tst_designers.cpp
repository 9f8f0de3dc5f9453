// The data-set editor and the scenario designer, offscreen.
#include "breakereditor.h"
#include "capacitydialog.h"
#include "csvpreviewmodel.h"
#include "dataseteditor.h"
#include "enginesdialog.h"
#include "environmenteditor.h"
#include "grpc/protoschema.h"
#include "notifytable.h"
#include "planeditor.h"
#include "replayform.h"
#include "scenarioeditor.h"
#include "stagesmodel.h"
#include "traffic/trafficcodec.h"
#include "uilanguage.h"
#include "variablesmodel.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSet>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QThread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <tuple>

class TestDesigners : public QObject
{
    Q_OBJECT
private slots:
    // Run → Engines by default: the local pool fitted to the CPUs, said in
    // full in the spin box (en and zh_CN), its tooltip saying how.
    void enginesDialogSaysTheDefault_data() { uitest::addLanguageRows(); }
    void enginesDialogSaysTheDefault()
    {
        QFETCH(QString, language);
        uitest::UiLanguage ui;
        QVERIFY(ui.install(language));
        EnginesDialog d{EngineSettings{}};
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        QSpinBox* engines = nullptr;
        for (QSpinBox* box : d.findChildren<QSpinBox*>())
            if (box->maximum() == 256)
                engines = box;
        QVERIFY(engines);
        QCOMPARE(engines->value(), 0);
        QCOMPARE(engines->text(),
                 language.isEmpty() ? QStringLiteral("fit to the CPUs") : QStringLiteral("按可用 CPU"));
        QVERIFY2(engines->width() >= engines->fontMetrics().horizontalAdvance(engines->text()) + 16,
                 qPrintable(QStringLiteral("%1 px for \"%2\"").arg(engines->width()).arg(engines->text())));
        QVERIFY(engines->toolTip().contains(QStringLiteral("NUMA")));
        // the project's error budget for every run: entered here, in the settings it gives back
        auto* budget = d.findChild<QLineEdit*>(QStringLiteral("maxErrorRate"));
        QVERIFY(budget && budget->isVisible() && budget->text().isEmpty());
        budget->setText(QStringLiteral(" 1% "));
        QCOMPARE(d.settings().maxErrorRate, QStringLiteral("1%"));
        if (qEnvironmentVariableIsSet("STAMPEDE_SHOTS"))
            d.grab().save(
                QStringLiteral("%1/engines-%2.png")
                    .arg(qEnvironmentVariable("STAMPEDE_SHOTS"), language.isEmpty() ? QStringLiteral("en") : language));
    }

    // Find capacity: OK only when the SLOs parse and the levels can run; the
    // options are what was entered.
    // Issue 52: "Add request…" tells requests of one name apart, one label each in their order (the one picked is
    // the one added).
    void requestsOfOneNameAreToldApart()
    {
        const QList<ScenarioEditor::ProjectRequest> requests{
            {1, QStringLiteral("New request"), QByteArrayLiteral("{\"method\": \"GET\", \"url\": \"http://a/1\"}")},
            {1, QStringLiteral("login"), QByteArrayLiteral("{\"method\": \"POST\", \"url\": \"http://a/login\"}")},
            {1, QStringLiteral("New request"), QByteArrayLiteral("{\"method\": \"POST\", \"url\": \"http://a/2\"}")},
            {1, QStringLiteral("New request"), QByteArrayLiteral("{\"method\": \"POST\", \"url\": \"http://a/2\"}")}};
        const QStringList labels = ScenarioEditor::requestLabels(requests);
        QCOMPARE(labels.size(), 4);
        QCOMPARE(labels[0], QStringLiteral("New request — GET http://a/1"));
        QCOMPARE(labels[1], QStringLiteral("login"));
        QCOMPARE(labels[2], QStringLiteral("New request — POST http://a/2"));
        QCOMPARE(labels[3], QStringLiteral("New request — POST http://a/2 (2)"));
        QCOMPARE(QSet<QString>(labels.begin(), labels.end()).size(), 4);
    }

    // Issue 53: a scenario's notifications in the designer: rows round-trip as the scenario's "notify" list, and
    // Test posts a DingTalk-form test message to the chosen webhook (its ${name} from the scenario's constants),
    // saying what came back; a webhook that is down is said, not hung on.
    void notificationsAreEditedAndTested()
    {
        // a webhook on loopback that answers as DingTalk does and keeps what it got
        const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QVERIFY(::bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 && ::listen(listener, 4) == 0);
        socklen_t length = sizeof a;
        ::getsockname(listener, reinterpret_cast<sockaddr*>(&a), &length);
        const int port = ntohs(a.sin_port);
        std::string got;
        std::thread server([&] {
            const int fd = ::accept(listener, nullptr, nullptr);
            char buf[4096];
            for (ssize_t n; got.find("}}") == std::string::npos && (n = ::read(fd, buf, sizeof buf)) > 0;)
                got.append(buf, std::size_t(n));
            const std::string answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 29\r\n"
                                       "Connection: close\r\n\r\n{\"errcode\": 0, \"errmsg\": \"ok\"}";
            (void)!::write(fd, answer.data(), answer.size());
            ::close(fd);
        });
        ScenarioEditor editor;
        editor.setJson(
            QStringLiteral("{\"name\": \"n\", \"variables\": [{\"name\": \"hook\", \"constant\": {\"value\": "
                           "\"http://127.0.0.1:%1\"}}], \"steps\": [], \"load\": {\"closed\": {\"users\": 1}}, "
                           "\"notify\": [{\"url\": \"${hook}/robot?access_token=x\", \"kind\": \"dingtalk\", "
                           "\"on\": [\"start\", \"end\"]}, {\"url\": \"http://127.0.0.1:1/down\"}]}")
                .arg(port)
                .toUtf8());
        auto* table = editor.findChild<QTableWidget*>(QStringLiteral("notifyTable"));
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 2);
        const QJsonArray notify =
            QJsonDocument::fromJson(editor.json()).object().value(QStringLiteral("notify")).toArray();
        QCOMPARE(notify.size(), 2);
        QCOMPARE(notify[0].toObject().value(QStringLiteral("kind")).toString(), QStringLiteral("dingtalk"));
        QCOMPARE(notify[0].toObject().value(QStringLiteral("on")).toArray().size(), 2);
        QVERIFY(!notify[1].toObject().contains(QStringLiteral("kind"))); // plain: the default, unwritten
        auto* notifier = editor.findChild<NotifyTable*>();
        auto* test = editor.findChild<QPushButton*>(QStringLiteral("notifyTest"));
        QVERIFY(notifier && test);
        table->setCurrentCell(0, 0);
        QTest::mouseClick(test, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!notifier->testRunning(), 15000);
        server.join();
        ::close(listener);
        QVERIFY2(notifier->testResult().startsWith(QStringLiteral("Delivered (HTTP 200)")),
                 qPrintable(notifier->testResult()));
        QVERIFY2(got.rfind("POST /robot?access_token=x HTTP/1.1", 0) == 0, got.c_str());
        QVERIFY2(got.find("\"msgtype\": \"text\"") != std::string::npos, got.c_str());
        QVERIFY2(got.find("a test notification from \\\"n\\\"") != std::string::npos, got.c_str());
        table->setCurrentCell(1, 0);
        QTest::mouseClick(test, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!notifier->testRunning(), 15000);
        QVERIFY2(notifier->testResult().startsWith(QStringLiteral("Not delivered: ")),
                 qPrintable(notifier->testResult()));
        // an edit of a row is the scenario's
        QSignalSpy changed(&editor, &ScenarioEditor::changed);
        table->item(1, 3)->setText(QStringLiteral("end"));
        QTRY_VERIFY(changed.count() > 0);
        QCOMPARE(QJsonDocument::fromJson(editor.json())
                     .object()
                     .value(QStringLiteral("notify"))
                     .toArray()[1]
                     .toObject()
                     .value(QStringLiteral("on"))
                     .toArray(),
                 QJsonArray{QStringLiteral("end")});
        // a webhook the run could not post to is the designer's fault, named in its words
        table->item(1, 0)->setText(QStringLiteral("${nowhere}/hook"));
        QVERIFY2(editor.problems().contains(QStringLiteral("Notifications · webhook 2: unknown variable ${nowhere}")),
                 qPrintable(editor.problems().join(u'\n')));
    }

    void capacityDialogChecksItsFields()
    {
        CapacityDialog d;
        auto* ok = d.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QVERIFY(ok->isEnabled());
        QCOMPARE(d.options().slos.size(), std::size_t(2)); // p99 < 500ms, error_rate < 1%
        d.setSlos(QStringLiteral("p99 < 50ms\nlatency > 2"));
        QVERIFY(!ok->isEnabled());
        QVERIFY2(d.problem().startsWith(QStringLiteral("SLO \"latency > 2\": unknown metric")),
                 qPrintable(d.problem()));
        d.setSlos(QString());
        QVERIFY(!ok->isEnabled());
        QVERIFY(d.problem().startsWith(QStringLiteral("Give at least one SLO")));
        d.setSlos(QStringLiteral("p99 < 50ms\n\nlogin: error_rate < 2%"));
        QVERIFY(ok->isEnabled());
        d.findChild<QDoubleSpinBox*>(QStringLiteral("start"))->setValue(500);
        d.findChild<QDoubleSpinBox*>(QStringLiteral("max"))->setValue(100);
        QVERIFY(!ok->isEnabled());
        QVERIFY(d.problem().startsWith(QStringLiteral("The highest rate must be at least")));
        d.findChild<QDoubleSpinBox*>(QStringLiteral("max"))->setValue(9000);
        d.findChild<QSpinBox*>(QStringLiteral("stepSeconds"))->setValue(5);
        QVERIFY(ok->isEnabled());
        const stampede::CapacityOptions o = d.options();
        QCOMPARE(o.start, 500.0);
        QCOMPARE(o.max, 9000.0);
        QCOMPARE(o.stepSeconds, 5u);
        QCOMPARE(o.slos.size(), std::size_t(2));
        QCOMPARE(o.slos[1].step, std::string("login"));
        QVERIFY(d.findChild<QSpinBox*>(QStringLiteral("stepSeconds"))->minimum() >= 2); // a level needs a judged second
    }
    void importACsvAndSeeItsColumns()
    {
        DataSetEditor editor;
        QAbstractItemModelTester tester(editor.preview(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy changed(&editor, &DataSetEditor::changed);
        QVERIFY(
            editor.importBytes(QByteArrayLiteral("user_id\tname\tcity\n1001\tLi Wei\t北京\n1002\tWang Fang\t上海\n")));
        QCOMPARE(editor.preview()->columns(),
                 (QStringList{QStringLiteral("user_id"), QStringLiteral("name"), QStringLiteral("city")}));
        QCOMPARE(editor.preview()->rowCount(), 2);
        // what was detected is shown, not guessed silently
        QVERIFY2(editor.statusText().contains(QLatin1String("delimiter \"tab\" (detected)")),
                 qPrintable(editor.statusText()));
        QVERIFY(changed.count() >= 1);
        const QJsonObject saved = QJsonDocument::fromJson(changed.last().at(0).toByteArray()).object();
        QCOMPARE(saved.value(QStringLiteral("delimiter")).toString(), QStringLiteral("\t"));
        // a ragged file is refused with the line that is wrong
        QVERIFY(!editor.importBytes(QByteArrayLiteral("a,b\n1,2\n3\n")));
        QVERIFY(editor.statusText().contains(QLatin1String("line 3: 1 field, the header has 2")));
        // the choice of delimiter is the user's
        auto* delimiter = editor.findChildren<QComboBox*>().at(1);
        QVERIFY(editor.importBytes(QByteArrayLiteral("a;b,c\n1;2,3\n")));
        QCOMPARE(editor.preview()->columns().size(), 2); // detected ';'
        delimiter->setCurrentIndex(delimiter->findData(QStringLiteral(",")));
        QCOMPARE(editor.preview()->columns(), (QStringList{QStringLiteral("a;b"), QStringLiteral("c")}));
    }

    // The live breaker in the designer: rules read from the scenario and
    // written back as they came (a degrade as {"degrade": N}), a new rule
    // judged by the engine's check beside the table, no rules: no "breaker".
    void breakerRulesRoundTrip()
    {
        ScenarioEditor editor;
        editor.setJson(QByteArrayLiteral(
            "{\"name\": \"s\", \"steps\": [{\"name\": \"order\", \"request\": {\"url\": \"http://127.0.0.1:9/\"}}], "
            "\"load\": {\"open\": {\"rate\": 50}}, \"breaker\": {\"rules\": [{\"name\": \"latency\", \"when\": "
            "\"p99 > 300ms\", \"window\": \"5s\", \"consecutive\": 3, \"action\": \"stop\"}, {\"name\": \"errors\", "
            "\"when\": \"error_rate > 5%\", \"window\": \"2s\", \"consecutive\": 2, \"action\": {\"degrade\": 50}, "
            "\"step\": \"order\"}], \"cooldown\": \"20s\", \"recover\": true}}"));
        auto* editorWidget = editor.findChild<BreakerEditor*>();
        QVERIFY(editorWidget);
        QTableWidget* rules = editorWidget->table();
        QCOMPARE(rules->rowCount(), 2);
        QCOMPARE(rules->item(1, 4)->text(), QStringLiteral("degrade 50%"));
        QCOMPARE(rules->item(1, 5)->text(), QStringLiteral("order"));
        QVERIFY(editor.problems().isEmpty());
        const QJsonObject back =
            QJsonDocument::fromJson(editor.json()).object().value(QStringLiteral("breaker")).toObject();
        const QJsonArray r = back.value(QStringLiteral("rules")).toArray();
        QCOMPARE(r.size(), 2);
        QCOMPARE(r[0].toObject(), (QJsonObject{{QStringLiteral("name"), QStringLiteral("latency")},
                                               {QStringLiteral("when"), QStringLiteral("p99 > 300ms")},
                                               {QStringLiteral("window"), QStringLiteral("5s")},
                                               {QStringLiteral("consecutive"), 3},
                                               {QStringLiteral("action"), QStringLiteral("stop")}}));
        QCOMPARE(r[1].toObject().value(QStringLiteral("action")).toObject().value(QStringLiteral("degrade")).toDouble(),
                 50.0);
        QCOMPARE(back.value(QStringLiteral("cooldown")).toString(), QStringLiteral("20s"));
        QVERIFY(back.value(QStringLiteral("recover")).toBool());
        QVERIFY(!back.contains(QStringLiteral("escalate")));
        // levels: a box of their own; a rollback is an action the check accepts
        auto* levels = editorWidget->findChild<QCheckBox*>(QStringLiteral("breakerEscalate"));
        QVERIFY(levels);
        levels->setChecked(true);
        rules->item(0, 4)->setText(QStringLiteral("rollback"));
        const QJsonObject leveled =
            QJsonDocument::fromJson(editor.json()).object().value(QStringLiteral("breaker")).toObject();
        QVERIFY(leveled.value(QStringLiteral("escalate")).toBool());
        QCOMPARE(leveled.value(QStringLiteral("rules")).toArray()[0].toObject().value(QStringLiteral("action")),
                 QJsonValue(QStringLiteral("rollback")));
        QVERIFY2(editor.problems().isEmpty(), qPrintable(editor.problems().join(QLatin1Char('\n'))));
        // a rule the engine refuses is a fault of the breaker's field, shown on the table
        QSignalSpy changed(&editor, &ScenarioEditor::changed);
        editorWidget->addRule(QStringLiteral("bad"), QStringLiteral("latency > 2"), QStringLiteral("5s"), 1,
                              QStringLiteral("stop"));
        QVERIFY(changed.count() > 0);
        QVERIFY2(!editor.problems().isEmpty() && editor.problems().first().startsWith(QStringLiteral("Breaker: ")),
                 qPrintable(editor.problems().join(QLatin1Char('\n'))));
        QVERIFY(!rules->styleSheet().isEmpty());
        QVERIFY(rules->toolTip().contains(QStringLiteral("unknown metric")));
        rules->setRowCount(0);
        editorWidget->fromJson({});
        QVERIFY(!QJsonDocument::fromJson(editor.json()).object().contains(QStringLiteral("breaker")));
    }

    // The buttons under the stages and the variables add a row after the last
    // and remove the current one, and the scenario is edited each time.
    void addAndRemoveButtonsEditTheTables()
    {
        ScenarioEditor editor;
        editor.setJson(QByteArrayLiteral("{\"name\": \"s\", \"load\": {\"open\": {\"rate\": 50}}}"));
        const auto button = [&editor](const QString& text) {
            for (QPushButton* b : editor.findChildren<QPushButton*>())
                if (b->text() == text)
                    return b;
            return static_cast<QPushButton*>(nullptr);
        };
        const auto viewOf = [&editor](const QAbstractItemModel* model) {
            for (QTableView* v : editor.findChildren<QTableView*>())
                if (v->model() == model)
                    return v;
            return static_cast<QTableView*>(nullptr);
        };
        QSignalSpy changed(&editor, &ScenarioEditor::changed);
        for (const auto& [model, add, remove] :
             {std::tuple<QAbstractItemModel*, QString, QString>{editor.stages(), QStringLiteral("Add stage"),
                                                                QStringLiteral("Remove stage")},
              std::tuple<QAbstractItemModel*, QString, QString>{editor.variables(), QStringLiteral("Add variable"),
                                                                QStringLiteral("Remove variable")}}) {
            QPushButton* addButton = button(add);
            QPushButton* removeButton = button(remove);
            QTableView* view = viewOf(model);
            QVERIFY(addButton && removeButton && view);
            const int rows = model->rowCount();
            const qsizetype before = changed.count();
            addButton->click();
            addButton->click();
            QCOMPARE(model->rowCount(), rows + 2);
            QVERIFY(changed.count() > before);
            removeButton->click(); // no current row: nothing
            QCOMPARE(model->rowCount(), rows + 2);
            view->setCurrentIndex(model->index(rows, 0));
            removeButton->click();
            QCOMPARE(model->rowCount(), rows + 1);
        }
    }

    void threeStageProfilePreview()
    {
        ScenarioEditor editor;
        editor.setJson(QByteArrayLiteral("{\"name\": \"s\", \"load\": {\"open\": {\"rate\": 50}}}"));
        StagesModel* stages = editor.stages();
        QSignalSpy changed(&editor, &ScenarioEditor::changed);
        stages->insertRows(0, 3);
        stages->setData(stages->index(0, StagesModel::KindColumn), int(StagesModel::Ramp));
        stages->setData(stages->index(0, StagesModel::DurationColumn), 5);
        stages->setData(stages->index(0, StagesModel::TargetColumn), 200);
        stages->setData(stages->index(1, StagesModel::DurationColumn), 10);
        stages->setData(stages->index(1, StagesModel::TargetColumn), 200);
        stages->setData(stages->index(2, StagesModel::KindColumn), int(StagesModel::Spike));
        stages->setData(stages->index(2, StagesModel::DurationColumn), 2);
        stages->setData(stages->index(2, StagesModel::TargetColumn), 1000);
        const QList<QPointF> expected = {{0, 50}, {5, 200}, {15, 200}, {15, 1000}, {17, 1000}};
        QCOMPARE(editor.previewPoints(), expected);
        QVERIFY(changed.count() > 0);
        const QJsonObject saved = QJsonDocument::fromJson(changed.last().at(0).toByteArray()).object();
        QCOMPARE(saved.value(QStringLiteral("load")).toObject().value(QStringLiteral("stages")).toArray().size(), 3);
        // no steps yet: the engine's validation says so, beside the steps list
        QVERIFY2(editor.problems().contains(QStringLiteral("Steps: at least one step is needed")),
                 qPrintable(editor.problems().join(u'|')));
        editor.addStep(QStringLiteral("home"),
                       QByteArrayLiteral("{\"method\": \"GET\", \"url\": \"http://127.0.0.1:9/${who}\"}"));
        // in the designer's words: the step by its name, the field by its label
        QVERIFY2(editor.problems().contains(QStringLiteral("Step \"home\" · URL: unknown variable ${who}")),
                 qPrintable(editor.problems().join(u'|')));
        editor.addStep(QStringLiteral("ok"),
                       QByteArrayLiteral("{\"method\": \"GET\", \"url\": \"http://127.0.0.1:9/\"}"));
        QCOMPARE(editor.problems().size(), 1);
    }

    // The open model's rate is of iterations, each running every step: the
    // field says so and the preview draws requests/s (4 steps x 200 = 800).
    void openRateIsIterationsTimesSteps()
    {
        ScenarioEditor editor;
        editor.setJson(QByteArrayLiteral("{\"name\": \"s\", \"load\": {\"open\": {\"rate\": 200}}}"));
        for (const char* name : {"home", "login", "search", "order"})
            editor.addStep(QString::fromLatin1(name),
                           QByteArrayLiteral("{\"method\": \"GET\", \"url\": \"http://127.0.0.1:9/\"}"));
        QVERIFY2(editor.levelLabelText().contains(QStringLiteral("Iterations/s")), qPrintable(editor.levelLabelText()));
        QVERIFY2(editor.levelLabelText().contains(QStringLiteral("4 steps")), qPrintable(editor.levelLabelText()));
        QCOMPARE(editor.previewPoints().first().y(), 200.0);
        QCOMPARE(editor.drawnPreview().first().y(), 800.0);
    }

    // What the form does not edit survives it: a step's think time, the
    // closed model's pacing (edited here too), an open model's backlog limit.
    void thinkTimePacingAndBacklogSurviveTheDesigner()
    {
        ScenarioEditor editor;
        editor.setJson(QByteArrayLiteral(
            "{\"name\": \"s\", \"steps\": [{\"name\": \"a\", \"request\": {\"url\": \"http://127.0.0.1:9/\"}, "
            "\"thinkTime\": {\"uniform\": [\"100ms\", \"300ms\"]}}], \"load\": {\"closed\": {\"users\": 3, "
            "\"pacing\": \"2s\"}}}"));
        QJsonObject o = QJsonDocument::fromJson(editor.json()).object();
        const QJsonObject closed =
            o.value(QStringLiteral("load")).toObject().value(QStringLiteral("closed")).toObject();
        QCOMPARE(closed.value(QStringLiteral("pacing")).toString(), QStringLiteral("2s"));
        QCOMPARE(o.value(QStringLiteral("steps"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("thinkTime"))
                     .toObject()
                     .value(QStringLiteral("uniform"))
                     .toArray()
                     .at(1)
                     .toString(),
                 QStringLiteral("300ms"));
        QVERIFY2(editor.problems().isEmpty(), qPrintable(editor.problems().join(u'\n')));
        editor.setJson(QByteArrayLiteral("{\"name\": \"s\", \"steps\": [{\"request\": {\"url\": "
                                         "\"http://127.0.0.1:9/\"}}], \"load\": {\"open\": {\"rate\": 10, "
                                         "\"backlogLimit\": 500}}}"));
        o = QJsonDocument::fromJson(editor.json()).object();
        QCOMPARE(o.value(QStringLiteral("load"))
                     .toObject()
                     .value(QStringLiteral("open"))
                     .toObject()
                     .value(QStringLiteral("backlogLimit"))
                     .toInt(),
                 500);
    }

    // Each step shows its checks and extractions; a name used before any
    // step extracts it is a warning (the scenario runs, its requests fail),
    // not a fault; the checks survive the designer.
    void checksAndUseBeforeExtractionAreShown()
    {
        ScenarioEditor editor;
        editor.setJson(QByteArrayLiteral(
            "{\"name\": \"s\", \"steps\": ["
            "{\"name\": \"cart\", \"request\": {\"url\": \"http://127.0.0.1:9/cart\", \"headers\": [{\"name\": "
            "\"A\", \"value\": \"${token}\"}]}, \"checks\": [{\"name\": \"ok\", \"status\": [200]}]},"
            "{\"name\": \"login\", \"request\": {\"url\": \"http://127.0.0.1:9/login\"}, \"extract\": [{\"name\": "
            "\"token\", \"jsonPath\": \"$.token\"}]}], \"load\": {\"closed\": {\"users\": 1}}}"));
        QVERIFY2(editor.problems().isEmpty(), qPrintable(editor.problems().join(u'\n')));
        auto* list = editor.findChild<QListWidget*>();
        QVERIFY(list && list->count() == 2);
        QVERIFY2(list->item(0)->text().contains(QStringLiteral("checks: ok")), qPrintable(list->item(0)->text()));
        QVERIFY2(list->item(1)->text().contains(QStringLiteral("extracts ${token}")),
                 qPrintable(list->item(1)->text()));
        auto* warning = editor.findChild<QLabel*>(QStringLiteral("scenarioWarnings"));
        QVERIFY(warning && !warning->isHidden());
        QVERIFY2(warning->text().contains(QStringLiteral("steps[0]: ${token} is used before any step extracts it "
                                                         "(\"login\" extracts it later): every request of this step")),
                 qPrintable(warning->text()));
        const QJsonObject o = QJsonDocument::fromJson(editor.json()).object();
        QCOMPARE(o.value(QStringLiteral("steps"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("checks"))
                     .toArray()
                     .size(),
                 1);
        // in the right order, no warning
        editor.setJson(QByteArrayLiteral(
            "{\"name\": \"s\", \"steps\": ["
            "{\"name\": \"login\", \"request\": {\"url\": \"http://127.0.0.1:9/login\"}, \"extract\": [{\"name\": "
            "\"token\", \"jsonPath\": \"$.token\"}]},"
            "{\"name\": \"cart\", \"request\": {\"url\": \"http://127.0.0.1:9/cart/${token}\"}}], "
            "\"load\": {\"open\": {\"rate\": 1}}}"));
        QVERIFY(!editor.checkIsCurrent()); // checked off the GUI thread: the label follows once the check lands
        QTRY_VERIFY(editor.checkIsCurrent());
        QVERIFY(warning->isHidden());
    }

    void dataSetVariablesTakeTheProjectsDataSet()
    {
        ScenarioEditor editor;
        QString users;
        editor.setDataSetSource(
            [&users](const QString& name) { return name == QLatin1String("users") ? users : QString(); });
        editor.setJson(QByteArrayLiteral("{\"load\": {\"open\": {\"rate\": 10}}, \"variables\": "
                                         "[{\"name\": \"users\", \"csv\": {\"mode\": \"CSV_MODE_WRAP\"}}]}"));
        editor.addStep(QStringLiteral("get"), QByteArrayLiteral("{\"url\": \"http://127.0.0.1:9/u/${users.id}\"}"));
        // no such data set in the project yet: the engine says so, beside the variables
        QVERIFY2(editor.problems().contains(
                     QStringLiteral("Variable \"users\" · CSV file: a CSV source needs a file (or inline data)")),
                 qPrintable(editor.problems().join(QLatin1Char('|'))));
        users = QStringLiteral("id\n1\n2\n");
        editor.addStep(QStringLiteral("again"), QByteArrayLiteral("{\"url\": \"http://127.0.0.1:9/\"}"));
        QVERIFY2(editor.problems().isEmpty(), qPrintable(editor.problems().join(QLatin1Char('|'))));
        const QJsonObject saved = QJsonDocument::fromJson(editor.json()).object();
        QCOMPARE(saved.value(QStringLiteral("variables"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("csv"))
                     .toObject()
                     .value(QStringLiteral("data"))
                     .toString(),
                 users);
        QCOMPARE(editor.variables()->index(0, 3).data().toString(), QStringLiteral("get"));
    }

    void negativeLevelIsShownBesideTheField()
    {
        ScenarioEditor editor;
        editor.setJson(QByteArrayLiteral("{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1:9/\"}}],"
                                         " \"load\": {\"open\": {\"rate\": 0}}}"));
        QVERIFY(editor.problems().contains(
            QStringLiteral("Load · rate: the rate must be positive at some point of the run")));
        const auto spins = editor.findChildren<QDoubleSpinBox*>();
        const auto level = std::find_if(spins.begin(), spins.end(), [](QDoubleSpinBox* s) {
            return s->toolTip().contains(QLatin1String("the rate must be positive"));
        });
        QVERIFY(level != spins.end());
        (*level)->setValue(100);
        QVERIFY(editor.problems().isEmpty());
        QVERIFY((*level)->toolTip().isEmpty());
    }

    // The chosen step's options: shown as the file has them, edited into
    // its JSON (defaults left out), summed up in the step's line; a
    // rendezvous of more users than the scenario has is named by its field.
    void stepOptionsAreEditedPerStep()
    {
        ScenarioEditor editor;
        editor.setJson(QByteArrayLiteral(
            "{\"name\": \"s\", \"steps\": ["
            "{\"name\": \"cart\", \"request\": {\"url\": \"http://127.0.0.1:9/cart\"}, \"group\": \"buy\", "
            "\"retry\": {\"times\": 2, \"backoff\": \"250ms\"}},"
            "{\"name\": \"pay\", \"request\": {\"url\": \"http://127.0.0.1:9/pay\"}}], "
            "\"load\": {\"closed\": {\"users\": 4}}}"));
        auto* list = editor.findChild<QListWidget*>();
        auto* group = editor.findChild<QLineEdit*>(QStringLiteral("stepGroup"));
        auto* retries = editor.findChild<QSpinBox*>(QStringLiteral("stepRetries"));
        auto* backoff = editor.findChild<QSpinBox*>(QStringLiteral("stepBackoff"));
        auto* onError = editor.findChild<QComboBox*>(QStringLiteral("stepOnError"));
        auto* repeat = editor.findChild<QSpinBox*>(QStringLiteral("stepRepeat"));
        auto* users = editor.findChild<QSpinBox*>(QStringLiteral("stepRendezvousUsers"));
        QVERIFY(list && group && retries && backoff && onError && repeat && users);
        QVERIFY(!group->isEnabled() || list->currentRow() >= 0); // no step chosen: nothing to edit
        QVERIFY2(list->item(0)->text().contains(QStringLiteral("[group buy · retry 2]")),
                 qPrintable(list->item(0)->text()));
        list->setCurrentRow(0);
        QVERIFY(group->isEnabled());
        QCOMPARE(group->text(), QStringLiteral("buy"));
        QCOMPARE(retries->value(), 2);
        QCOMPARE(backoff->value(), 250);
        list->setCurrentRow(1);
        QCOMPARE(group->text(), QString());
        group->setText(QStringLiteral("buy"));
        emit group->textEdited(group->text());
        onError->setCurrentIndex(2); // stop this user
        repeat->setValue(3);
        users->setValue(4);
        QVERIFY2(editor.problems().isEmpty(), qPrintable(editor.problems().join(u'\n')));
        const QJsonObject pay =
            QJsonDocument::fromJson(editor.json()).object().value(QStringLiteral("steps")).toArray().at(1).toObject();
        QCOMPARE(pay.value(QStringLiteral("group")).toString(), QStringLiteral("buy"));
        QCOMPARE(pay.value(QStringLiteral("onError")).toString(), QStringLiteral("stopUser"));
        QCOMPARE(pay.value(QStringLiteral("repeat")).toInt(), 3);
        QCOMPARE(pay.value(QStringLiteral("rendezvous")).toObject().value(QStringLiteral("users")).toInt(), 4);
        QCOMPARE(pay.value(QStringLiteral("rendezvous")).toObject().value(QStringLiteral("timeout")).toString(),
                 QStringLiteral("5s"));
        QVERIFY(!pay.contains(QStringLiteral("retry")));
        QVERIFY2(list->item(1)->text().contains(QStringLiteral("on error: stop the user")),
                 qPrintable(list->item(1)->text()));
        users->setValue(5); // more than the 4 users that can reach it
        QVERIFY2(editor.problems().join(u'\n').contains(QStringLiteral("Step \"pay\" · rendezvous: ")),
                 qPrintable(editor.problems().join(u'\n')));
        users->setValue(0); // none: the field is left out
        onError->setCurrentIndex(0);
        repeat->setValue(1);
        const QJsonObject plain =
            QJsonDocument::fromJson(editor.json()).object().value(QStringLiteral("steps")).toArray().at(1).toObject();
        QVERIFY(!plain.contains(QStringLiteral("rendezvous")) && !plain.contains(QStringLiteral("onError")) &&
                !plain.contains(QStringLiteral("repeat")));
    }

    void httpVersionStreamsAndVerification()
    {
        ScenarioEditor editor;
        editor.setJson(QByteArrayLiteral("{\"steps\": [{\"request\": {\"url\": \"https://127.0.0.1:9/\"}}],"
                                         " \"load\": {\"open\": {\"rate\": 10}},"
                                         " \"tls\": {\"caFile\": \"ca.pem\"}}"));
        QComboBox* http = nullptr;
        for (auto* box : editor.findChildren<QComboBox*>())
            if (box->itemText(1) == QLatin1String("HTTP/1.1"))
                http = box;
        QVERIFY(http);
        QCOMPARE(http->currentIndex(), 0); // auto
        QSpinBox* streams = nullptr;
        for (auto* spin : editor.findChildren<QSpinBox*>())
            if (spin->toolTip().contains(QLatin1String("in flight on each connection")))
                streams = spin;
        QVERIFY(streams && !streams->isEnabled()); // streams are HTTP/2's
        auto* verify = editor.findChild<QCheckBox*>(QStringLiteral("verifyServers"));
        QVERIFY(verify && verify->isChecked()); // on by default
        QSignalSpy changed(&editor, &ScenarioEditor::changed);
        http->setCurrentIndex(2);
        QVERIFY(streams->isEnabled());
        streams->setValue(8);
        verify->setChecked(false);
        const QJsonObject saved = QJsonDocument::fromJson(changed.last().at(0).toByteArray()).object();
        QCOMPARE(saved.value(QStringLiteral("http")).toString(), QStringLiteral("HTTP_2"));
        QCOMPARE(saved.value(QStringLiteral("streams")).toInt(), 8);
        const QJsonObject tls = saved.value(QStringLiteral("tls")).toObject();
        QVERIFY(tls.value(QStringLiteral("insecure")).toBool());
        QCOMPARE(tls.value(QStringLiteral("caFile")).toString(), QStringLiteral("ca.pem")); // kept
        // the engine's validation reads the CA file: a missing one is named
        QCOMPARE(editor.problems(),
                 QStringList{QStringLiteral("TLS: cannot read \"ca.pem\": No such file or directory")});
        // and back from the saved JSON
        ScenarioEditor again;
        again.setJson(changed.last().at(0).toByteArray());
        QCOMPARE(again.json(), changed.last().at(0).toByteArray());
    }

    // Builder requests become steps: a gRPC call with its descriptors, an HTTP
    // request whose builder-only fields (auth, timeout) become the scenario's.
    void builderRequestsBecomeValidSteps()
    {
        std::string err;
        const auto schema = stampede::ProtoSchema::import(
            {qEnvironmentVariable("STAMPEDE_SOURCE_DIR").toStdString() + "/tests/integration/grpc/echo.proto"}, {},
            err);
        QVERIFY2(schema, err.c_str());
        const QJsonObject grpc{{QStringLiteral("kind"), QStringLiteral("grpc")},
                               {QStringLiteral("target"), QStringLiteral("127.0.0.1:9")},
                               {QStringLiteral("method"), QStringLiteral("stampede.test.Echo/Say")},
                               {QStringLiteral("data"), QStringLiteral("{\"text\": \"hi\"}")},
                               {QStringLiteral("deadlineMs"), 250},
                               {QStringLiteral("descriptors"),
                                QString::fromLatin1(QByteArray::fromStdString(schema->descriptorSet()).toBase64())}};
        const QJsonObject http{{QStringLiteral("method"), QStringLiteral("GET")},
                               {QStringLiteral("url"), QStringLiteral("http://127.0.0.1:9/")},
                               {QStringLiteral("bodyMode"), QStringLiteral("raw")},
                               {QStringLiteral("timeoutMs"), 5000},
                               {QStringLiteral("auth"), QJsonObject{{QStringLiteral("type"), QStringLiteral("bearer")},
                                                                    {QStringLiteral("token"), QStringLiteral("t0k")}}}};
        ScenarioEditor editor;
        editor.setJson(QByteArrayLiteral("{\"load\": {\"open\": {\"rate\": 10}}}"));
        editor.addStep(QStringLiteral("say"), QJsonDocument(grpc).toJson());
        editor.addStep(QStringLiteral("home"), QJsonDocument(http).toJson());
        QCOMPARE(editor.problems(), QStringList());
        const QJsonArray steps =
            QJsonDocument::fromJson(editor.json()).object().value(QStringLiteral("steps")).toArray();
        const QJsonObject g = steps[0].toObject().value(QStringLiteral("grpc")).toObject();
        QCOMPARE(g.value(QStringLiteral("deadline")).toString(), QStringLiteral("0.250s")); // proto3 JSON
        QCOMPARE(g.value(QStringLiteral("method")).toString(), QStringLiteral("stampede.test.Echo/Say"));
        const QJsonObject rq = steps[1].toObject().value(QStringLiteral("request")).toObject();
        QCOMPARE(rq.value(QStringLiteral("timeout")).toString(), QStringLiteral("5s"));
        QVERIFY(!rq.contains(QStringLiteral("bodyMode")));
        // the auth as written: the engine makes the header when it sends
        QCOMPARE(rq.value(QStringLiteral("auth")).toObject().value(QStringLiteral("bearer")).toString(),
                 QStringLiteral("t0k"));
        QVERIFY(!rq.contains(QStringLiteral("headers")));
        // a gRPC step whose JSON does not fit is a fault of its data field
        QJsonObject bad = grpc;
        bad[QStringLiteral("data")] = QStringLiteral("{\"colour\": 1}");
        ScenarioEditor other;
        other.setJson(QByteArrayLiteral("{\"load\": {\"open\": {\"rate\": 10}}}"));
        other.addStep(QStringLiteral("say"), QJsonDocument(bad).toJson());
        QCOMPARE(other.problems().size(), 1);
        QVERIFY2(other.problems()[0].startsWith(QStringLiteral("Step \"say\" · message:")) &&
                     other.problems()[0].contains(QStringLiteral("colour")),
                 qPrintable(other.problems()[0]));
    }

    // A test plan in its designer: its parts listed, each scenario checked as
    // it compiles in the plan (the plan's variables are its), when it starts
    // kept, a scenario added, and nothing the designer does not show lost.
    // Issue 49: the designer checks an edit off the GUI thread once the edits pause (a replay's traffic set is
    // read and decoded there), and shows the faults of the last edit when its check lands; asked for its faults
    // before that (a run), it checks the scenario as it is now, there and then.
    void checksRunOffTheGuiThreadAndFollowTheLastEdit()
    {
        struct Reads
        {
            std::atomic<int> all{0}, onGui{0};
        };
        auto reads = std::make_shared<Reads>();
        std::vector<stampede::TrafficRecord> records(3);
        for (int i = 0; i < 3; ++i) {
            records[std::size_t(i)].atNanos = 1764000000000000000LL + i * 100000000LL;
            records[std::size_t(i)].target = "/a?uid=" + std::to_string(i);
        }
        const QByteArray set = QByteArray::fromStdString(stampede::encodeTrafficSet(records));
        QThread* gui = QThread::currentThread();
        ScenarioEditor editor;
        editor.setTrafficSource([reads, set, gui](const QString& name) {
            ++reads->all;
            if (QThread::currentThread() == gui)
                ++reads->onGui;
            return name == QLatin1String("shop") ? set : QByteArray();
        });
        QSignalSpy landed(&editor, &ScenarioEditor::checked);
        editor.setJson(QByteArrayLiteral("{\"name\": \"r\", \"steps\": [{\"name\": \"replay\", \"replay\": "
                                         "{\"traffic\": \"shop\", \"target\": \"http://127.0.0.1:9\"}}]}"));
        QTRY_VERIFY(editor.checkIsCurrent());
        QVERIFY(editor.shownProblems().isEmpty());
        // an offset on a key the traffic never has, typed key by key: each key an edit, checked when they pause
        QTest::keyClicks(editor.replayForm()->offsets(), QStringLiteral("query:account+5"));
        QVERIFY(!editor.checkIsCurrent());
        QTRY_VERIFY(editor.checkIsCurrent());
        QVERIFY2(editor.shownProblems().join(u' ').contains(QStringLiteral("account")),
                 qPrintable(editor.shownProblems().join(u'\n')));
        QVERIFY(reads->all >= 2);
        QCOMPARE(reads->onGui.load(), 0);
        QVERIFY(landed.count() >= 2);
        // a run asks at once: the scenario as it is now is checked here
        editor.replayForm()->offsets()->selectAll();
        QTest::keyClick(editor.replayForm()->offsets(), Qt::Key_Backspace);
        QVERIFY(!editor.checkIsCurrent());
        QCOMPARE(editor.problems(), QStringList());
        QVERIFY(editor.checkIsCurrent());
        QCOMPARE(reads->onGui.load(), 1);
    }

    void aPlanInItsDesigner()
    {
        const QByteArray plan =
            "{\"name\": \"sale\", \"cookies\": true, \"variables\": [{\"name\": \"base\", \"constant\": "
            "{\"value\": \"http://127.0.0.1:9\"}}],"
            "\"setup\": [{\"name\": \"login\", \"request\": {\"method\": \"POST\", \"url\": \"${base}/login\"}, "
            "\"extract\": [{\"name\": \"token\", \"jsonPath\": \"$.t\"}]}],"
            "\"scenarios\": [{\"name\": \"browse\", \"steps\": [{\"request\": {\"url\": \"${base}/?t=${token}\"}}], "
            "\"load\": {\"open\": {\"rate\": 20}}, \"duration\": \"10s\"},"
            "{\"name\": \"order\", \"startAfter\": \"5s\", \"steps\": [{\"request\": {\"url\": \"${base}/o\"}}], "
            "\"load\": {\"closed\": {\"users\": 3}}, \"duration\": \"10s\"}],"
            "\"thresholds\": [{\"expr\": \"order: p99 < 300ms\"}]}";
        PlanEditor e;
        QSignalSpy changed(&e, &PlanEditor::changed);
        e.setJson(plan);
        QCOMPARE(e.scenarioCount(), 2);
        const QStringList parts = e.parts();
        QCOMPARE(parts.size(), 5);
        QCOMPARE(parts[2], QStringLiteral("browse"));
        QCOMPARE(parts[3], QStringLiteral("order"));
        // each part checked as it compiles in the plan: ${base} and the setup's ${token} are known
        QVERIFY2(e.problems().isEmpty(), qPrintable(e.problems().join(QLatin1Char('\n'))));
        const QJsonObject out = QJsonDocument::fromJson(e.json()).object();
        QVERIFY(out.value(QStringLiteral("cookies")).toBool()); // not shown, kept
        QCOMPARE(out.value(QStringLiteral("setup")).toArray().size(), 1);
        QCOMPARE(out.value(QStringLiteral("scenarios")).toArray().at(1).toObject().value(QStringLiteral("startAfter")),
                 QJsonValue(QStringLiteral("5s")));
        QCOMPARE(out.value(QStringLiteral("thresholds")).toArray().size(), 1);
        QVERIFY2(ScenarioCheck::validate(e.json()).isEmpty(),
                 qPrintable(ScenarioCheck::validate(e.json()).value(0).second));
        // a scenario's own fault, under its name
        e.showPart(2);
        ScenarioEditor* browse = e.partEditor(2);
        QVERIFY(browse);
        browse->addStep(QStringLiteral("bad"), "{\"url\": \"${base}/${nowhere}\"}");
        QTRY_VERIFY(!e.problems().isEmpty());
        QVERIFY2(e.problems().first().startsWith(QStringLiteral("browse: ")), qPrintable(e.problems().first()));
        QVERIFY(changed.count() > 0);
        // another scenario: listed, and a plan that still compiles but for the fault above
        e.addScenario();
        QCOMPARE(e.scenarioCount(), 3);
        QCOMPARE(QJsonDocument::fromJson(e.json()).object().value(QStringLiteral("scenarios")).toArray().size(), 3);
        e.moveScenario(2, -2);
        QCOMPARE(e.parts()[2], QStringLiteral("scenario 3"));
    }

    void environmentValues()
    {
        EnvironmentEditor editor;
        editor.setJson(QByteArrayLiteral("{\"base\": \"http://a\"}"));
        QSignalSpy changed(&editor, &EnvironmentEditor::changed);
        auto* table = editor.findChild<QTableWidget*>();
        QAbstractItemModelTester tester(table->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        table->model()->setData(table->model()->index(1, 0), QStringLiteral("token"));
        table->model()->setData(table->model()->index(1, 1), QStringLiteral("abc"));
        const QJsonObject o = QJsonDocument::fromJson(changed.last().at(0).toByteArray()).object();
        QCOMPARE(o.value(QStringLiteral("base")).toString(), QStringLiteral("http://a"));
        QCOMPARE(o.value(QStringLiteral("token")).toString(), QStringLiteral("abc"));
    }
};

QTEST_MAIN(TestDesigners)
#include "tst_designers.moc"
