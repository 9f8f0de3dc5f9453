// The main window on a real project file: edits reach the store at once.
#include "core/text.h"
#include "demoproject.h"
#include "enginesettings.h"
#include "environmenteditor.h"
#include "keyvaluetable.h"
#include "mainwindow.h"
#include "planeditor.h"
#include "projectmock.h"
#include "projecttreemodel.h"
#include "recentprojects.h"
#include "replayform.h"
#include "reportmodel.h"
#include "reportview.h"
#include "requesteditor.h"
#include "requesthistory.h"
#include "requestitem.h"
#include "rundashboard.h"
#include "runsession.h"
#include "scenarioeditor.h"
#include "scriptspane.h"
#include "trafficview.h"
#include "uilanguage.h"
#include "welcomepage.h"

#include "bundle/bundlefile.h"
#include "bundle/projectscenario.h"
#include "traffic/trafficstore.h"

#include "stampede/v1/bundle.pb.h"

#include <QAbstractButton>
#include <QBarSeries>
#include <QBarSet>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QValueAxis>
#include <cmath>

#include "store/projectstore.h"
#include "store/runlog.h"

#include <QApplication>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTreeView>
#include <functional>
#include <mutex>
#include <unistd.h>

using stampede::ItemKind;

namespace {
// 1, 2 or 5 times a power of ten
bool niceStep(double step)
{
    if (!(step > 0))
        return false;
    const double f = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    return std::abs(f - 1) < 1e-6 || std::abs(f - 2) < 1e-6 || std::abs(f - 5) < 1e-6;
}
bool wholeSteps(double value, double step)
{
    const double n = value / step;
    return std::abs(n - std::round(n)) < 1e-6;
}
} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("stampede-tests"));
        QStandardPaths::setTestModeEnabled(true);
    }

    void newRequestIsSavedAsTyped()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("w.stampede"));
        {
            MainWindow w;
            QVERIFY(w.newProject(path));
            w.show();
            QApplication::setActiveWindow(&w);
            QVERIFY(QTest::qWaitForWindowActive(&w));
            QCOMPARE(w.treeModel()->rowCount(), 3); // a collection, an environment and the Runs branch
            QTest::keySequence(&w, QKeySequence::New);
            RequestEditor* editor = w.currentRequestEditor();
            QVERIFY(editor);
            auto* url = editor->findChild<QLineEdit*>(QStringLiteral("url"));
            QTest::keyClicks(url, QStringLiteral("http://127.0.0.1:1/x"));
        }
        // the window is gone; the project holds the request as it was typed
        std::string error;
        auto store = stampede::ProjectStore::open(path.toStdString(), error);
        QVERIFY2(store, error.c_str());
        const auto found = store->search("New request");
        QCOMPARE(found.size(), std::size_t(1));
        QVERIFY2(found[0].payload.find("http://127.0.0.1:1/x") != std::string::npos, found[0].payload.c_str());
    }

    // A traffic set's view offers a replay scenario: one click opens the set,
    // a second makes the scenario, sent to the environment's server, which the
    // designer shows as a replay (no load fields) with no fault.
    void replayScenarioInTwoClicks()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("t.stampede"));
        {
            std::string error;
            auto store = stampede::ProjectStore::create(path.toStdString(), error);
            store->addItem(0, ItemKind::Environment, "local", "{\"base_url\": \"http://127.0.0.1:4567\"}");
            std::vector<stampede::TrafficRecord> records(3);
            for (int i = 0; i < 3; ++i) {
                records[i].atNanos = 1764000000000000000LL + i * 100000000LL;
                records[i].target = "/a?uid=" + std::to_string(i);
            }
            stampede::TrafficStore traffic(*store);
            QVERIFY(traffic.save("shop", records, "{\"records\": 3}"));
        }
        MainWindow w;
        QVERIFY(w.openProject(path));
        qint64 setId = 0;
        for (int r = 0; r < w.treeModel()->rowCount(); ++r)
            if (w.treeModel()->index(r, 0).data(ProjectTreeModel::KindRole).toInt() == int(ItemKind::Traffic))
                setId = w.treeModel()->index(r, 0).data(ProjectTreeModel::IdRole).toLongLong();
        QVERIFY(setId);
        w.openItem(setId); // click 1
        auto* tabs = w.findChild<QTabWidget*>();
        auto* view = qobject_cast<TrafficView*>(tabs->currentWidget());
        QVERIFY(view);
        QTest::mouseClick(view->replayButton(), Qt::LeftButton); // click 2
        auto* designer = qobject_cast<ScenarioEditor*>(tabs->currentWidget());
        QVERIFY(designer);
        QVERIFY(designer->isReplay());
        // issue 52: the environment's name for the server (its port may change at each open), checked with its value
        QCOMPARE(designer->replayForm()->target()->text(), QStringLiteral("${base_url}"));
        QVERIFY2(designer->problems().isEmpty(), qPrintable(designer->problems().join(QLatin1Char('\n'))));
        const QJsonObject saved = QJsonDocument::fromJson(designer->json()).object();
        QVERIFY(!saved.contains(QStringLiteral("load")));
        // the speed edited in the form reaches the step
        designer->replayForm()->speed()->setValue(4);
        const QJsonObject step =
            QJsonDocument::fromJson(designer->json()).object()[QStringLiteral("steps")][0].toObject();
        QCOMPARE(step[QStringLiteral("replay")][QStringLiteral("speed")].toDouble(), 4.0);
        QCOMPARE(step[QStringLiteral("replay")][QStringLiteral("traffic")].toString(), QStringLiteral("shop"));
        // an offset on a key the traffic never has is a fault of that field
        QTest::keyClicks(designer->replayForm()->offsets(), QStringLiteral("query:account+5"));
        QVERIFY2(designer->problems().join(QLatin1Char(' ')).contains(QStringLiteral("account")),
                 qPrintable(designer->problems().join(QLatin1Char('\n'))));
        designer->replayForm()->offsets()->clear();
        QTest::keyClicks(designer->replayForm()->offsets(), QStringLiteral("query:uid+5"));
        // issue 29: which requests, what changes in them, trace context; each reaches the step
        const auto edit = [&](const char* name, const QString& text) {
            auto* e = designer->replayForm()->findChild<QLineEdit*>(QString::fromLatin1(name));
            QVERIFY(e);
            QTest::keyClicks(e, text);
        };
        edit("replayInclude", QStringLiteral("^/a"));
        edit("replayMethods", QStringLiteral("GET, POST"));
        edit("replayStatuses", QStringLiteral("2xx, 0"));
        edit("replayRemoveHeaders", QStringLiteral("cookie"));
        edit("replayHost", QStringLiteral("staging.shop"));
        designer->replayForm()
            ->findChild<QPlainTextEdit*>(QStringLiteral("replaySetHeaders"))
            ->setPlainText(QStringLiteral("X-Env: staging"));
        designer->findChild<QCheckBox*>(QStringLiteral("trace"))->setChecked(true);
        const QJsonObject traced = QJsonDocument::fromJson(designer->json()).object();
        const QJsonObject replay = traced[QStringLiteral("steps")][0][QStringLiteral("replay")].toObject();
        QVERIFY(traced[QStringLiteral("trace")].toBool());
        QCOMPARE(replay[QStringLiteral("includePath")].toString(), QStringLiteral("^/a"));
        QCOMPARE(replay[QStringLiteral("methods")].toArray(),
                 (QJsonArray{QStringLiteral("GET"), QStringLiteral("POST")}));
        QCOMPARE(replay[QStringLiteral("statuses")].toArray(),
                 (QJsonArray{QStringLiteral("2xx"), QStringLiteral("0")}));
        QCOMPARE(replay[QStringLiteral("setHeaders")].toObject()[QStringLiteral("X-Env")].toString(),
                 QStringLiteral("staging"));
        QCOMPARE(replay[QStringLiteral("rewriteHost")].toString(), QStringLiteral("staging.shop"));
        QVERIFY2(designer->problems().isEmpty(), qPrintable(designer->problems().join(QLatin1Char('\n'))));
        // a selection that keeps nothing is a fault the engine names
        designer->replayForm()
            ->findChild<QLineEdit*>(QStringLiteral("replayMethods"))
            ->setText(QStringLiteral("DELETE"));
        Q_EMIT designer->replayForm()->changed();
        QVERIFY2(
            designer->problems().join(QLatin1Char(' ')).contains(QStringLiteral("none of the 3 recorded requests")),
            qPrintable(designer->problems().join(QLatin1Char('\n'))));
        if (qEnvironmentVariableIsSet("STAMPEDE_SHOTS")) {
            w.resize(1280, 800);
            w.show();
            QTest::qWait(200);
            w.grab().save(qEnvironmentVariable("STAMPEDE_SHOTS") + QStringLiteral("/replay-form.png"));
        }
    }

    // Export bundle asks which environment its constants take, the current
    // one first; the bundle carries them all.
    void exportBundleAsksForTheEnvironment()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("b.stampede"));
        qint64 scenarioId = 0;
        {
            std::string error;
            auto store = stampede::ProjectStore::create(path.toStdString(), error);
            store->addItem(0, ItemKind::Environment, "local", "{\"base\": \"http://127.0.0.1:8080\"}");
            store->addItem(0, ItemKind::Environment, "staging", "{\"base\": \"http://127.0.0.2:80\"}");
            scenarioId = store->addItem(0, ItemKind::Scenario, "s",
                                        "{\"name\": \"s\", \"steps\": [{\"request\": {\"url\": \"${base}/\"}}], "
                                        "\"load\": {\"closed\": {\"users\": 1}}}");
            store->setSetting("environment", "staging");
        }
        MainWindow w;
        QVERIFY(w.openProject(path));
        w.openItem(scenarioId);
        auto* designer = qobject_cast<ScenarioEditor*>(w.findChild<QTabWidget*>()->currentWidget());
        QVERIFY(designer);
        QPushButton* exportButton = nullptr;
        for (auto* b : designer->findChildren<QPushButton*>())
            if (b->text().startsWith(QStringLiteral("Export bundle")))
                exportButton = b;
        QVERIFY(exportButton);
        const QString bundle = dir.filePath(QStringLiteral("s.stbundle")); // the scenario's name, offered
        QString offered;
        QStringList items;
        QTimer answer; // the file dialog, then the environment's
        connect(&answer, &QTimer::timeout, this, [&] {
            if (auto* files = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
                files->selectFile(bundle);
                static_cast<QDialog*>(files)->accept();
            } else if (auto* ask = qobject_cast<QInputDialog*>(QApplication::activeModalWidget())) {
                offered = ask->textValue();
                items = ask->comboBoxItems();
                ask->setTextValue(QStringLiteral("local"));
                ask->accept();
            }
        });
        answer.start(50);
        QTest::mouseClick(exportButton, Qt::LeftButton);
        answer.stop();
        QCOMPARE(offered, QStringLiteral("staging"));
        QCOMPARE(items,
                 QStringList({QStringLiteral("(no environment)"), QStringLiteral("local"), QStringLiteral("staging")}));
        QFile f(bundle);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(QDir(dir.path()).entryList().join(QLatin1Char(' '))));
        stampede::v1::Bundle decoded;
        std::string error;
        QVERIFY2(stampede::decodeBundle(f.readAll().toStdString(), decoded, error), error.c_str());
        QCOMPARE(decoded.environment(), std::string("local"));
        QCOMPARE(decoded.environments_size(), 2);
        QCOMPARE(decoded.scenario().variables(0).constant().value(), std::string("http://127.0.0.1:8080"));
    }

    // File → Import Collection: the OpenAPI file's requests in the tree,
    // selected, with what was not imported said; out to Postman and back.
    void importsACollectionAndExportsIt()
    {
        QTemporaryDir dir;
        MainWindow w;
        QVERIFY(w.newProject(dir.filePath(QStringLiteral("i.stampede"))));
        QString report;
        QVERIFY(w.importCollectionFile(testsupport::sourceDir() + QStringLiteral("/tests/models/data/petstore.yaml"),
                                       &report));
        QVERIFY2(report.startsWith(QStringLiteral("8 requests imported from petstore.yaml (OpenAPI 3.0.3).")),
                 qPrintable(report));
        QVERIFY2(report.contains(QStringLiteral("its oauth2 security")), qPrintable(report));
        const QModelIndex selected =
            qobject_cast<QSortFilterProxyModel*>(w.treeView()->model())->mapToSource(w.treeView()->currentIndex());
        QCOMPARE(selected.data().toString(), QStringLiteral("Petstore"));
        QCOMPARE(w.treeModel()->rowCount(selected), 4); // pets, store, GET /health, putTree
        auto* envs = w.findChild<QToolBar*>()->findChild<QComboBox*>();
        QVERIFY(envs && envs->findText(QStringLiteral("Petstore")) >= 0);
        // a broken file: refused, the tree as it was
        const int rows = w.treeModel()->rowCount();
        const QString broken = testsupport::writeFile(dir, "broken.json", "{\"info\": {\"schema\": ");
        QVERIFY(!w.importCollectionFile(broken, &report));
        QCOMPARE(w.treeModel()->rowCount(), rows);
        // out to Postman and in again
        const QString out = dir.filePath(QStringLiteral("pet.postman_collection.json"));
        QVERIFY(w.exportCollectionToPostman(selected.data(ProjectTreeModel::IdRole).toLongLong(), out, &report));
        QVERIFY(w.importCollectionFile(out, &report));
        QVERIFY2(report.startsWith(QStringLiteral("8 requests imported from pet.postman_collection.json (Postman "
                                                  "Collection v2.1).")),
                 qPrintable(report));
    }

    // At 1280×800, in English and in Chinese, no view forces the window wider
    // than the screen, no table needs to scroll sideways for its first four
    // columns and no one-line label is cut: every item's editor, each section
    // of the designer, a run of 8 steps live and ended, its report, a comparison.
    void everyViewFitsAt1280_data() { uitest::addLanguageRows(); }
    void everyViewFitsAt1280()
    {
        QFETCH(QString, language);
        uitest::UiLanguage ui;
        QVERIFY(ui.install(language));
        testsupport::MockProcess mock;
        QVERIFY(mock.started());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("wide.stampede"));
        {
            std::string error;
            auto store = stampede::ProjectStore::create(path.toStdString(), error);
            const auto coll = store->addItem(0, ItemKind::Collection, "A collection with a rather long name", "{}");
            store->addItem(coll, ItemKind::Request, "a request",
                           "{\"method\": \"POST\", \"url\": \"${base}/a/very/long/path/that/goes/on/and/on/and/on/"
                           "?with=a&query=string&that=is&long=too\", \"body\": \"{}\"}");
            store->addItem(0, ItemKind::Environment, "a staging environment with a long name",
                           "{\"base\": \"" + mock.url(QString()).toStdString() + "\"}");
            store->addItem(0, ItemKind::DataSet, "users",
                           "{\"csv\": \"id,name,email,city,phone\\n1,Li,li@example.com,"
                           "Beijing,13800000000\\n\"}");
            std::string steps;
            for (int i = 1; i <= 8; ++i) // a report of 8 steps shows them all
                steps += std::string(i > 1 ? ", " : "") + "{\"name\": \"step " + std::to_string(i) +
                         (i == 1 ? " the home page step" : "") + "\", \"request\": {\"url\": \"${base}/" +
                         std::to_string(i) + "\"}, \"checks\": [{\"name\": \"a check with a long name\", \"status\": " +
                         (i == 8 ? "[201]" : "[200]") + "}]" +
                         (i == 1 ? ", \"testScript\": \"console.log('answer', pm.response.code);\"" : "") +
                         "}"; // the last fails: a sample and a reason to show; the first's console lines are events
            // a test plan: its designer fits too (its parts, a scenario's sections)
            store->addItem(0, ItemKind::Scenario, "a sale-day plan",
                           "{\"name\": \"a sale-day plan\", \"variables\": [{\"name\": \"origin\", \"constant\": "
                           "{\"value\": \"" +
                               mock.url(QString()).toStdString() +
                               "\"}}], \"setup\": [{\"name\": "
                               "\"admin login\", \"request\": {\"url\": \"${origin}/login\"}}], \"scenarios\": ["
                               "{\"name\": \"browse the catalogue\", \"steps\": [{\"request\": {\"url\": "
                               "\"${origin}/1\"}}], \"load\": {\"open\": {\"rate\": 20}}, \"duration\": \"2s\"},"
                               "{\"name\": \"order\", \"startAfter\": \"1s\", \"steps\": [{\"request\": {\"url\": "
                               "\"${origin}/2\"}, \"group\": \"checkout\"}], \"load\": {\"closed\": {\"users\": 2}}, "
                               "\"duration\": \"1s\"}]}");
            store->addItem(0, ItemKind::Scenario, "checkout with a long scenario name",
                           "{\"name\": \"checkout with a long scenario name\", \"steps\": [" + steps +
                               "], \"load\": {\"open\": {\"rate\": 20}}, \"connections\": 4, \"duration\": \"2s\", "
                               "\"thresholds\": [{\"expr\": \"p99 < 500ms\"}, {\"expr\": \"error_rate < 1%\"}]}");
        }
        // runs start stampede-cli from PATH when it is not beside the program
        qputenv("PATH", QFileInfo(testsupport::cliPath()).absolutePath().toUtf8() + ':' + qgetenv("PATH"));
        MainWindow w;
        QVERIFY(w.openProject(path));
        w.resize(1280, 800);
        w.show();
        QStringList dialogs; // a message box is a failure: said, and closed so that the test goes on
        QTimer closer;
        connect(&closer, &QTimer::timeout, this, [&] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                dialogs << box->text();
                box->reject();
            }
        });
        closer.start(100);
        // STAMPEDE_SHOTS=DIR: each view is also saved as a picture there, for a person to look at
        const QString shots = qEnvironmentVariable("STAMPEDE_SHOTS");
        int shot = 0;
        auto fits = [&](const char* view) {
            QCoreApplication::processEvents();
            if (!shots.isEmpty())
                w.grab().save(QStringLiteral("%1/%2-%3-%4.png")
                                  .arg(shots, language.isEmpty() ? QStringLiteral("en") : language)
                                  .arg(++shot, 2, 10, QLatin1Char('0'))
                                  .arg(QString::fromUtf8(view).replace(QLatin1Char(' '), QLatin1Char('_'))));
            QVERIFY2(w.minimumSizeHint().width() <= 1280 && w.width() <= 1280,
                     qPrintable(QStringLiteral("%1: the window is %2 px wide, at least %3")
                                    .arg(QString::fromLatin1(view))
                                    .arg(w.width())
                                    .arg(w.minimumSizeHint().width())));
            QVERIFY2(w.minimumSizeHint().height() <= 800, view);
            QWidget* page = w.centralWidget();
            for (QTableView* t : page->findChildren<QTableView*>()) {
                if (!t->isVisible() || !t->model() || t->model()->columnCount() == 0)
                    continue;
                const QHeaderView* h = t->horizontalHeader();
                const int last = std::min(4, t->model()->columnCount()) - 1;
                const int right = h->sectionViewportPosition(last) + h->sectionSize(last);
                QVERIFY2(h->sectionViewportPosition(0) >= 0 && right <= t->viewport()->width() + 1,
                         qPrintable(QStringLiteral("%1: the table %2 shows its first four columns to x=%3 of %4")
                                        .arg(QString::fromLatin1(view), t->objectName())
                                        .arg(right)
                                        .arg(t->viewport()->width())));
            }
            // every chart's axes on 1-2-5 steps: the ticks read off each value axis
            for (QChartView* c : page->findChildren<QChartView*>()) {
                if (!c->isVisible())
                    continue;
                for (QAbstractAxis* a : c->chart()->axes()) {
                    if (a->type() == QAbstractAxis::AxisTypeBarCategory) // the distribution's bounds: labels
                        continue;
                    auto* v = qobject_cast<QValueAxis*>(a);
                    QVERIFY2(v, view);
                    const QString where =
                        QStringLiteral("%1: %2's %3 axis, %4 to %5 by %6")
                            .arg(QString::fromLatin1(view), c->chart()->title(),
                                 a->orientation() == Qt::Horizontal ? QStringLiteral("time") : QStringLiteral("value"))
                            .arg(v->min())
                            .arg(v->max())
                            .arg(v->tickInterval());
                    QVERIFY2(v->tickType() == QValueAxis::TicksDynamic && niceStep(v->tickInterval()) &&
                                 wholeSteps(v->min(), v->tickInterval()) && wholeSteps(v->max(), v->tickInterval()),
                             qPrintable(where));
                }
            }
            // every legend's names whole (the chart draws a name cut short with an ellipsis)
            for (QChartView* c : page->findChildren<QChartView*>()) {
                if (!c->isVisible() || !c->chart()->legend()->isVisible())
                    continue;
                std::function<void(QGraphicsItem*)> walk = [&](QGraphicsItem* item) {
                    if (auto* text = dynamic_cast<QGraphicsTextItem*>(item); text && text->isVisible())
                        QVERIFY2(
                            !text->toPlainText().contains(QChar(0x2026)) &&
                                !text->toPlainText().endsWith(QLatin1String("...")),
                            qPrintable(QStringLiteral("%1: %2's legend shows \"%3\"")
                                           .arg(QString::fromLatin1(view), c->chart()->title(), text->toPlainText())));
                    for (QGraphicsItem* child : item->childItems())
                        walk(child);
                };
                walk(c->chart()->legend());
            }
            for (QLabel* l : page->findChildren<QLabel*>()) {
                if (!l->isVisible() || l->wordWrap() || l->text().isEmpty() || l->pixmap().cacheKey() != 0)
                    continue;
                QVERIFY2(l->width() >= l->sizeHint().width() - 1,
                         qPrintable(QStringLiteral("%1: the label \"%2\" is %3 px wide, its text %4")
                                        .arg(QString::fromLatin1(view), l->text())
                                        .arg(l->width())
                                        .arg(l->sizeHint().width())));
            }
        };
        fits("welcome");
        std::function<void(const QModelIndex&)> openAll = [&](const QModelIndex& parent) {
            for (int r = 0; r < w.treeModel()->rowCount(parent); ++r) {
                const QModelIndex i = w.treeModel()->index(r, 0, parent);
                w.openItem(i.data(ProjectTreeModel::IdRole).toLongLong());
                fits(qPrintable(i.data().toString()));
                openAll(i);
            }
        };
        openAll({});
        // each section of the scenario designer
        for (int r = 0; r < w.treeModel()->rowCount(); ++r)
            if (w.treeModel()->index(r, 0).data(ProjectTreeModel::KindRole).toInt() == int(ItemKind::Scenario))
                w.openItem(w.treeModel()->index(r, 0).data(ProjectTreeModel::IdRole).toLongLong());
        for (QTabWidget* sections : w.findChildren<QTabWidget*>(QStringLiteral("scenarioSections")))
            if (sections->isVisible())
                for (int t = 0; t < sections->count(); ++t) {
                    sections->setCurrentIndex(t);
                    fits(qPrintable(QStringLiteral("designer ") + sections->tabText(t).remove(QLatin1Char('&'))));
                }
        // each part of the test plan's designer
        for (int r = 0; r < w.treeModel()->rowCount(); ++r)
            if (w.treeModel()->index(r, 0).data().toString() == QLatin1String("a sale-day plan"))
                w.openItem(w.treeModel()->index(r, 0).data(ProjectTreeModel::IdRole).toLongLong());
        auto* planEditor = w.findChild<PlanEditor*>();
        QVERIFY(planEditor && planEditor->isVisible());
        for (int part = 0; part < planEditor->parts().size(); ++part) {
            planEditor->showPart(part);
            fits(qPrintable(QStringLiteral("plan part %1").arg(part)));
        }
        QVERIFY2(planEditor->problems().isEmpty(), qPrintable(planEditor->problems().join(QLatin1Char('\n'))));
        // a run: live, then ended (its headline says how)
        qint64 scenario = 0;
        for (int r = 0; r < w.treeModel()->rowCount(); ++r)
            if (w.treeModel()->index(r, 0).data(ProjectTreeModel::KindRole).toInt() == int(ItemKind::Scenario))
                scenario = w.treeModel()->index(r, 0).data(ProjectTreeModel::IdRole).toLongLong();
        const QByteArray json = w.treeModel()->indexForId(scenario).data(ProjectTreeModel::PayloadRole).toByteArray();
        for (int run = 0; run < 2; ++run) {
            w.startRun(json, QStringLiteral("checkout with a long scenario name"));
            QCoreApplication::processEvents();
            auto* session = w.findChildren<RunSession*>().value(0);
            QVERIFY2(session, qPrintable(dialogs.join(QLatin1Char('\n'))));
            QSignalSpy finished(session, &RunSession::finished);
            QTest::qWait(1500);
            fits("live dashboard");
            QTRY_VERIFY2_WITH_TIMEOUT(finished.count() == 1, qPrintable(dialogs.join(QLatin1Char('\n'))), 30000);
            fits("ended dashboard");
            delete session->parent(); // the dashboard's tab
        }
        QVERIFY(w.openRunReport(0));
        fits("report");
        { // why the run failed and what a failed check saw, in the user's language
            auto* reason = w.centralWidget()->findChild<QLabel*>(QStringLiteral("verdictReason"));
            QVERIFY(reason && reason->isVisible());
            auto* sample = w.centralWidget()->findChild<QPlainTextEdit*>(QStringLiteral("sampleText"));
            QVERIFY(sample);
            const QString expected = language.isEmpty()
                                         ? QStringLiteral("check \"a check with a long name\": status 200")
                                         : QStringLiteral("检查“a check with a long name”：状态码 200");
            QVERIFY2(sample->toPlainText().startsWith(expected), qPrintable(sample->toPlainText()));
            for (QScrollArea* a : w.centralWidget()->findChildren<QScrollArea*>()) // the page's lower part
                if (a->isVisible())
                    a->verticalScrollBar()->setValue(a->verticalScrollBar()->maximum());
            fits("report lower part");
        }
        { // issue 51: the shown scope's distribution, APDEX and top errors, read back from the widgets
            ReportModel report;
            QVERIFY(report.load(*w.treeModel()->store(), 0));
            const ReportSection all = report.section(0);
            auto* dist = w.centralWidget()->findChild<QChartView*>(QStringLiteral("distribution"));
            QVERIFY(dist);
            auto* bars = qobject_cast<QBarSeries*>(dist->chart()->series().value(0));
            QVERIFY(bars && bars->barSets().size() == 1);
            double counted = 0;
            for (int i = 0; i < bars->barSets()[0]->count(); ++i)
                counted += bars->barSets()[0]->at(i);
            QVERIFY(counted > 0);
            QCOMPARE(qint64(counted), qint64(all.satisfied + all.tolerating + all.frustrated)); // every timed answer
            auto* apdex = w.centralWidget()->findChild<QLabel*>(QStringLiteral("apdex"));
            QVERIFY(apdex);
            QCOMPARE(apdex->text(), ReportView::apdexText(all));
            auto* errors = w.centralWidget()->findChild<QTableWidget*>(QStringLiteral("topErrors"));
            QVERIFY(errors && errors->rowCount() == all.topErrors.size() && errors->rowCount() > 0);
            QCOMPARE(errors->item(0, 1)->text(), QString::number(all.topErrors[0].count));
            auto* t = w.centralWidget()->findChild<QDoubleSpinBox*>(QStringLiteral("apdexT"));
            QVERIFY(t);
            t->setValue(0.1); // the view's T is the one its label and its exports use
            emit t->editingFinished();
            report.setApdexT(0, 0.1);
            QCOMPARE(apdex->text(), ReportView::apdexText(report.section(0)));
            QVERIFY2(apdex->text().contains(QStringLiteral("T 0.1 ")), qPrintable(apdex->text()));
        }
        { // the HTML report's charts: value ticks on whole 1-2-5 steps too
            ReportModel report;
            QVERIFY(report.load(*w.treeModel()->store(), 0));
            const QString html = QString::fromUtf8(report.exportAs(QStringLiteral("html")));
            const QRegularExpression svg(QStringLiteral("<svg[^>]*>(.*?)</svg>"),
                                         QRegularExpression::DotMatchesEverythingOption);
            const QRegularExpression tick(QStringLiteral("text-anchor=\"end\">([0-9.]+)</text>"));
            int charts = 0;
            for (auto m = svg.globalMatch(html); m.hasNext();) {
                QList<double> ticks;
                for (auto t = tick.globalMatch(m.next().captured(1)); t.hasNext();)
                    ticks << t.next().captured(1).toDouble();
                QVERIFY(ticks.size() >= 2);
                const double step = ticks[1] - ticks[0];
                QVERIFY2(ticks[0] == 0 && niceStep(step), qPrintable(QString::number(step)));
                for (int i = 1; i < ticks.size(); ++i)
                    QVERIFY(std::abs(ticks[i] - ticks[i - 1] - step) < step * 1e-6);
                ++charts;
            }
            QVERIFY2(charts >= 2, qPrintable(QStringLiteral("%1 charts in %2 bytes").arg(charts).arg(html.size())));
        }
        for (QTableView* t : w.centralWidget()->findChildren<QTableView*>()) // every step in sight, and the total
            if (t->isVisible() && t->model() && t->model()->rowCount() == 9)
                QVERIFY2(t->height() >= t->horizontalHeader()->height() + 9 * t->rowHeight(0),
                         qPrintable(QString::number(t->height())));
        stampede::RunLog log(*w.treeModel()->store());
        const auto runs = log.runs();
        QCOMPARE(runs.size(), std::size_t(2));
        QVERIFY(w.compareRuns(runs[1].id, runs[0].id));
        fits("comparison");
        QVERIFY2(dialogs.isEmpty(), qPrintable(dialogs.join(QLatin1Char('\n'))));
    }

    // A request opened is checked at once, field by field, against what a run
    // would know (the environment, the data sets' first rows, the scenarios'
    // variables); Send refuses a literal ${…} unless told to send it as it is.
    void unknownNamesMarkedOnOpen()
    {
        std::mutex m;
        std::vector<std::string> heads;
        testsupport::RawServer server([&](int fd) {
            const std::string h = testsupport::readRequestHead(fd);
            {
                std::lock_guard lock(m);
                heads.push_back(h);
            }
            const char ok[] = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
            (void)!::write(fd, ok, sizeof ok - 1);
            ::close(fd);
        });
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("v.stampede"));
        qint64 bad = 0, good = 0;
        {
            std::string error;
            auto store = stampede::ProjectStore::create(path.toStdString(), error);
            const auto coll = store->addItem(0, ItemKind::Collection, "c", "{}");
            bad = store->addItem(coll, ItemKind::Request, "bad",
                                 "{\"method\": \"POST\", \"url\": \"${base}/u/${users.id}\", \"headers\": [{\"name\": "
                                 "\"X-Token\", \"value\": \"${tok}\"}], \"body\": \"{\\\"id\\\": \\\"${nope}\\\"}\"}");
            good = store->addItem(
                coll, ItemKind::Request, "good",
                "{\"method\": \"GET\", \"url\": \"${base}/o/${order_no}?r=${request_id}&u=${users.name}\"}");
            store->addItem(0, ItemKind::Environment, "local",
                           "{\"base\": \"http://127.0.0.1:" + std::to_string(server.port()) + "\"}");
            store->addItem(0, ItemKind::DataSet, "users", "{\"csv\": \"id,name\\n7,li\\n\"}");
            store->addItem(
                0, ItemKind::Scenario, "s",
                "{\"name\": \"s\", \"variables\": [{\"name\": \"order_no\", \"increment\": {\"min\": 5, "
                "\"max\": 9}}, {\"name\": \"request_id\", \"uuid\": {}}], \"steps\": [{\"request\": {\"url\": "
                "\"http://127.0.0.1:9/${order_no}${request_id}\"}}], \"load\": {\"closed\": {\"users\": 1}}}");
        }
        MainWindow w;
        QVERIFY(w.openProject(path));
        w.openItem(bad);
        RequestEditor* e = w.currentRequestEditor();
        QVERIFY(e);
        auto* url = e->findChild<QLineEdit*>(QStringLiteral("url"));
        auto* body = e->findChild<QPlainTextEdit*>(QStringLiteral("body"));
        auto* headers = e->findChild<QTableWidget*>(QStringLiteral("requestHeaders"));
        auto* hint = e->findChild<QLabel*>(QStringLiteral("variableHint"));
        QVERIFY(url && body && headers && hint);
        QVERIFY(url->styleSheet().isEmpty()); // ${base} and ${users.id} are known
        QVERIFY2(body->styleSheet().contains(QStringLiteral("#c0392b")), qPrintable(body->styleSheet()));
        QVERIFY(body->toolTip().contains(QStringLiteral("${nope}")));
        QCOMPARE(headers->item(0, 1)->foreground().color(), QColor(0xc0, 0x39, 0x2b));
        QVERIFY(headers->item(0, 1)->toolTip().contains(QStringLiteral("${tok}")));
        QVERIFY(headers->item(0, 0)->foreground().color() != QColor(0xc0, 0x39, 0x2b)); // the name cell is fine
        QVERIFY(!hint->isHidden());
        QCOMPARE(hint->text(), QStringLiteral("Unknown variables: ${tok} in the headers; ${nope} in the body (define "
                                              "them in the current environment)"));
        // Send: refused (Cancel), then sent as it is when told to
        QString asked;
        bool sendIt = false;
        QTimer answer;
        connect(&answer, &QTimer::timeout, this, [&] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                asked = box->text();
                for (QAbstractButton* b : box->buttons())
                    if ((sendIt && b->text() == QStringLiteral("Send as it is")) ||
                        (!sendIt && box->buttonRole(b) == QMessageBox::RejectRole))
                        b->click();
            }
        });
        answer.start(30);
        QSignalSpy shown(e, &RequestEditor::responseShown);
        e->send();
        QVERIFY2(asked.contains(QStringLiteral("${tok} in the headers")), qPrintable(asked));
        QTest::qWait(300);
        QCOMPARE(shown.count(), 0);
        {
            std::lock_guard lock(m);
            QVERIFY(heads.empty());
        }
        sendIt = true;
        e->send();
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 5000);
        {
            std::lock_guard lock(m);
            QCOMPARE(heads.size(), std::size_t(1));
            QVERIFY2(heads[0].find("X-Token: ${tok}") != std::string::npos, heads[0].c_str());
            QVERIFY2(heads[0].rfind("POST /u/7 ", 0) == 0, heads[0].c_str()); // the data set's first row
        }
        // every name known: nothing marked, sent without a question
        asked.clear();
        w.openItem(good);
        RequestEditor* g = w.currentRequestEditor();
        QVERIFY(g && g != e);
        QVERIFY(g->findChild<QLabel*>(QStringLiteral("variableHint"))->isHidden());
        QVERIFY(g->findChild<QLineEdit*>(QStringLiteral("url"))->styleSheet().isEmpty());
        QSignalSpy shownGood(g, &RequestEditor::responseShown);
        g->send();
        QTRY_COMPARE_WITH_TIMEOUT(shownGood.count(), 1, 5000);
        QVERIFY(asked.isEmpty());
        std::lock_guard lock(m);
        QVERIFY2(heads.back().rfind("GET /o/5?r=", 0) == 0 && heads.back().find("&u=li ") != std::string::npos,
                 heads.back().c_str());
    }

    // A scenario's schedule is edited in the designer and checked there;
    // Runs → Schedules lists it with its timer and its last verdict.
    void schedulesAreListed()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.stampede"));
        qint64 id = 0;
        {
            std::string error;
            auto store = stampede::ProjectStore::create(path.toStdString(), error);
            id = store->addItem(0, ItemKind::Scenario, "nightly",
                                "{\"name\": \"smoke\", \"schedule\": \"daily 02:00\", \"steps\": [{\"request\": "
                                "{\"url\": \"http://127.0.0.1:9/\"}}], \"load\": {\"closed\": {\"users\": 1}}}");
            stampede::RunLog log(*store);
            const auto run = log.begin("st-00000000000000bb", "smoke", "{}", "{}", {}, {"GET /"});
            QVERIFY(log.finish(run, "completed", "{}"));
        }
        qputenv("XDG_CONFIG_HOME", dir.filePath(QStringLiteral("config")).toUtf8());
        MainWindow w;
        QVERIFY(w.openProject(path));
        QList<QStringList> rows = w.showSchedules(false);
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows[0].mid(0, 3), QStringList({QStringLiteral("nightly"), QStringLiteral("daily 02:00"),
                                                 QStringLiteral("not installed")}));
        QVERIFY2(rows[0][3].endsWith(QStringLiteral("completed")), qPrintable(rows[0][3]));
        // the timer that stampede-cli schedule install would write
        const auto run = testsupport::runCli(
            {QStringLiteral("schedule"), QStringLiteral("install"), path, QStringLiteral("--no-enable")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(w.showSchedules(false)[0][2], QStringLiteral("installed"));
        qunsetenv("XDG_CONFIG_HOME");
        // the designer's field, checked as the run would check it
        w.openItem(id);
        auto* designer = qobject_cast<ScenarioEditor*>(w.findChild<QTabWidget*>()->currentWidget());
        QVERIFY(designer);
        auto* schedule = designer->findChild<QLineEdit*>(QStringLiteral("schedule"));
        QVERIFY(schedule);
        QCOMPARE(schedule->text(), QStringLiteral("daily 02:00"));
        schedule->clear();
        QTest::keyClicks(schedule, QStringLiteral("nightly"));
        QVERIFY2(designer->problems()
                     .join(QLatin1Char(' '))
                     .contains(QStringLiteral("Schedule: schedule \"nightly\" is "
                                              "not understood")),
                 qPrintable(designer->problems().join(QLatin1Char('\n'))));
        schedule->clear();
        QTest::keyClicks(schedule, QStringLiteral("every 6h"));
        QVERIFY(designer->problems().isEmpty());
        QCOMPARE(QJsonDocument::fromJson(designer->json()).object().value(QStringLiteral("schedule")).toString(),
                 QStringLiteral("every 6h"));
    }

    // Edit → Undo takes back a scenario's and an environment's edits (a burst
    // of typing is one step), in the project and in the open editor; Redo
    // puts them back.
    void undoOfScenarioAndEnvironmentEdits()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("u.stampede"));
        qint64 scenario = 0, env = 0;
        {
            std::string error;
            auto store = stampede::ProjectStore::create(path.toStdString(), error);
            scenario = store->addItem(0, ItemKind::Scenario, "s",
                                      "{\"name\": \"before\", \"steps\": [{\"request\": {\"url\": "
                                      "\"http://127.0.0.1:9/\"}}], \"load\": {\"closed\": {\"users\": 1}}}");
            env = store->addItem(0, ItemKind::Environment, "local", "{\"base\": \"http://127.0.0.1:1\"}");
        }
        MainWindow w;
        QVERIFY(w.openProject(path));
        QUndoStack* undo = w.treeModel()->undoStack();
        QVERIFY(!undo->canUndo());
        w.openItem(scenario);
        auto* designer = qobject_cast<ScenarioEditor*>(w.findChild<QTabWidget*>()->currentWidget());
        QVERIFY(designer);
        QLineEdit* name = nullptr;
        for (auto* e : designer->findChildren<QLineEdit*>())
            if (e->text() == QStringLiteral("before"))
                name = e;
        QVERIFY(name);
        name->selectAll();
        QTest::keyClicks(name, QStringLiteral("after")); // five edits, one step
        const auto saved = [&](qint64 id) {
            return QJsonDocument::fromJson(
                       w.treeModel()->indexForId(id).data(ProjectTreeModel::PayloadRole).toByteArray())
                .object();
        };
        QCOMPARE(saved(scenario).value(QStringLiteral("name")).toString(), QStringLiteral("after"));
        QVERIFY(undo->canUndo());
        QCOMPARE(undo->undoText(), QStringLiteral("Edit \"s\""));
        undo->undo();
        QCOMPARE(saved(scenario).value(QStringLiteral("name")).toString(), QStringLiteral("before"));
        QCOMPARE(name->text(), QStringLiteral("before")); // the open designer shows it
        {
            std::string error; // and the project file holds it
            auto reader = stampede::ProjectStore::openReadOnly(path.toStdString(), error);
            QVERIFY(QByteArray::fromStdString(reader->item(scenario)->payload).contains("\"before\""));
        }
        undo->redo();
        QCOMPARE(name->text(), QStringLiteral("after"));

        // an environment's value
        w.openItem(env);
        auto* table = w.findChild<QTabWidget*>()->currentWidget()->findChild<QTableWidget*>();
        QVERIFY(table);
        table->item(0, 1)->setText(QStringLiteral("http://127.0.0.1:2"));
        QCOMPARE(saved(env).value(QStringLiteral("base")).toString(), QStringLiteral("http://127.0.0.1:2"));
        QCOMPARE(undo->undoText(), QStringLiteral("Edit \"local\""));
        undo->undo();
        QCOMPARE(saved(env).value(QStringLiteral("base")).toString(), QStringLiteral("http://127.0.0.1:1"));
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("http://127.0.0.1:1"));
        // the Edit menu's action is enabled for it
        QAction* action = nullptr;
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text().startsWith(QStringLiteral("&Undo")))
                action = a;
        QVERIFY(action && action->isEnabled());
    }

    // Every Send is kept in the project (request as written, the answer's
    // head and first KiB), found by a search, re-opened as a new request,
    // and capped by a setting.
    void historyKeepsEverySend()
    {
        testsupport::RawServer server([](int fd) {
            testsupport::readRequestHead(fd);
            const std::string body(3000, 'x'); // more than the KiB kept
            const std::string answer =
                "HTTP/1.1 201 Created\r\nX-Served: yes\r\nContent-Length: " + std::to_string(body.size()) +
                "\r\nConnection: close\r\n\r\n" + body;
            (void)!::write(fd, answer.data(), answer.size());
            ::close(fd);
        });
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("h.stampede"));
        qint64 id = 0;
        {
            std::string error;
            auto store = stampede::ProjectStore::create(path.toStdString(), error);
            const auto coll = store->addItem(0, ItemKind::Collection, "c", "{}");
            id = store->addItem(coll, ItemKind::Request, "create order",
                                "{\"method\": \"POST\", \"url\": \"${base}/orders\", \"body\": \"{}\"}");
            store->addItem(0, ItemKind::Environment, "local",
                           "{\"base\": \"http://127.0.0.1:" + std::to_string(server.port()) + "\"}");
        }
        MainWindow w;
        QVERIFY(w.openProject(path));
        w.openItem(id);
        RequestEditor* e = w.currentRequestEditor();
        QSignalSpy shown(e, &RequestEditor::responseShown);
        e->send();
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 5000);
        e->send();
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 2, 5000);
        QList<HistoryEntry> kept = RequestHistory::load(*w.treeModel()->store());
        QCOMPARE(kept.size(), 2);
        QVERIFY(kept[0].at >= kept[1].at); // newest first
        QCOMPARE(kept[0].name, QStringLiteral("create order"));
        QCOMPARE(kept[0].method, QStringLiteral("POST"));
        QCOMPARE(kept[0].url, QStringLiteral("http://127.0.0.1:%1/orders").arg(server.port()));
        QCOMPARE(kept[0].status, 201);
        QVERIFY2(kept[0].head.contains(QStringLiteral("X-Served: yes")), qPrintable(kept[0].head));
        QCOMPARE(kept[0].body.size(), RequestHistory::kBodyBytes + 1); // the first KiB and "…"
        QVERIFY(kept[0].request.contains("${base}/orders"));           // as written
        QCOMPARE(RequestHistory::search(kept, QStringLiteral("post ORDERS 201")).size(), 2);
        QVERIFY(RequestHistory::search(kept, QStringLiteral("GET")).isEmpty());
        // re-opened as a new request, the same as was sent
        const qint64 again = w.reopenFromHistory(1);
        QVERIFY(again && again != id);
        QVERIFY(w.treeModel()->indexForId(again).data().toString().startsWith(QStringLiteral("create order (sent ")));
        QCOMPARE(
            RequestItem::fromJson(w.treeModel()->indexForId(again).data(ProjectTreeModel::PayloadRole).toByteArray())
                .toJson(),
            RequestItem::fromJson(kept[1].request).toJson());
        QCOMPARE(w.currentRequestEditor()->findChild<QLineEdit*>(QStringLiteral("url"))->text(),
                 QStringLiteral("${base}/orders"));
        // the cap
        QString error;
        QVERIFY(!RequestHistory::setLimit(*w.treeModel()->store(), 0, error));
        QVERIFY(RequestHistory::setLimit(*w.treeModel()->store(), 1, error));
        QCOMPARE(RequestHistory::load(*w.treeModel()->store()).size(), 1);
        e->send();
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 3, 5000);
        QCOMPARE(RequestHistory::load(*w.treeModel()->store()).size(), 1);
    }

    // The welcome page: each recent project with its path and newest run
    // (read without opening it), a gone one greyed out, one opened by
    // activating it; "Open the demo" offered only when the program can start it.
    void welcomeListsRecentProjects()
    {
        QTemporaryDir dir;
        const QString withRun = dir.filePath(QStringLiteral("shop.stampede"));
        const QString gone = dir.filePath(QStringLiteral("gone.stampede"));
        {
            std::string error;
            auto store = stampede::ProjectStore::create(withRun.toStdString(), error);
            QVERIFY(store);
            stampede::RunLog log(*store);
            QVERIFY(log.begin("st-1", "checkout", "{}", "{}", {}, {"home"}, {{}}));
            auto other = stampede::ProjectStore::create(gone.toStdString(), error);
        }
        QFile::remove(gone);
        QSettings().setValue(QStringLiteral("recentProjects"), QStringList{withRun, gone});
        MainWindow w;
        WelcomePage* page = w.welcomePage();
        QVERIFY(page);
        QVERIFY(page->demoButton()->isHidden()); // no way to start the demo's server was given
        page->refresh();
        QCOMPARE(page->recent()->count(), 2);
        const QString first = page->recent()->item(0)->text();
        QVERIFY2(first.contains(QStringLiteral("shop")) && first.contains(withRun) &&
                     first.contains(QStringLiteral("last run: checkout")) && first.contains(QStringLiteral("running")),
                 qPrintable(first));
        QVERIFY(!(page->recent()->item(1)->flags() & Qt::ItemIsEnabled));
        QVERIFY2(page->recent()->item(1)->text().contains(QStringLiteral("the file is gone")),
                 qPrintable(page->recent()->item(1)->text()));
        Q_EMIT page->recent()->itemActivated(page->recent()->item(0));
        QVERIFY(w.treeModel()->store());
        QCOMPARE(QString::fromStdString(w.treeModel()->store()->path()), withRun);
        // the demo, when offered, opens what its opener made
        const QString demo = dir.filePath(QStringLiteral("demo.stampede"));
        w.setDemoOpener([&](QString& error) {
            std::string err;
            auto made = stampede::ProjectStore::create(demo.toStdString(), err);
            error = QString::fromStdString(err);
            return made ? demo : QString();
        });
        QVERIFY(!page->demoButton()->isHidden());
        QTest::mouseClick(page->demoButton(), Qt::LeftButton);
        QCOMPARE(QString::fromStdString(w.treeModel()->store()->path()), demo);
        QCOMPARE(RecentProjects::paths().value(0), QFileInfo(demo).absoluteFilePath());
    }

    // A tab follows its item: renamed (F2, or undone), it is retitled;
    // deleted, it closes; a folder's deletion closes its requests' tabs.
    void tabsFollowRenameAndDelete()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tabs.stampede"));
        {
            std::string error;
            auto store = stampede::ProjectStore::create(path.toStdString(), error);
            const auto coll = store->addItem(0, ItemKind::Collection, "c", "{}");
            const auto folder = store->addItem(coll, ItemKind::Folder, "f", "{}");
            store->addItem(folder, ItemKind::Request, "inner",
                           "{\"method\": \"GET\", \"url\": \"http://127.0.0.1:1/\"}");
            store->addItem(coll, ItemKind::Request, "outer", "{\"method\": \"GET\", \"url\": \"http://127.0.0.1:1/\"}");
        }
        MainWindow w;
        QVERIFY(w.openProject(path));
        auto* tabs = w.findChild<QTabWidget*>();
        const QModelIndex coll = w.treeModel()->index(0, 0);
        const QModelIndex folder = w.treeModel()->index(0, 0, coll);
        const QModelIndex outer = w.treeModel()->index(1, 0, coll);
        const qint64 outerId = outer.data(ProjectTreeModel::IdRole).toLongLong();
        w.openItem(outerId);
        w.openItem(w.treeModel()->index(0, 0, folder).data(ProjectTreeModel::IdRole).toLongLong());
        const int before = tabs->count();
        QVERIFY(w.treeModel()->setData(outer, QStringLiteral("renamed")));
        bool found = false;
        for (int t = 0; t < tabs->count(); ++t)
            found = found || tabs->tabText(t) == QStringLiteral("renamed");
        QVERIFY(found);
        QVERIFY(w.treeModel()->removeItem(w.treeModel()->index(0, 0, w.treeModel()->index(0, 0))));
        QCOMPARE(tabs->count(), before - 1); // the folder went, with the tab of the request inside it
        QVERIFY(w.treeModel()->removeItem(w.treeModel()->indexForId(outerId)));
        QCOMPARE(tabs->count(), before - 2);
    }

    // Issue 52: a name given in the designer's Name field (or a plan's "Plan:") renames the item once left: the
    // tree, the tab and the command line agree; a rename in the tree shows in the open designer; a new scenario's
    // Name field is its name, and new items take names no item has yet.
    void namesAgreeEverywhere()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("names.stampede"));
        qint64 scenario = 0, plan = 0;
        {
            std::string error;
            auto store = stampede::ProjectStore::create(path.toStdString(), error);
            scenario = store->addItem(0, ItemKind::Scenario, "s",
                                      "{\"name\": \"s\", \"steps\": [{\"request\": {\"url\": "
                                      "\"http://127.0.0.1:9/\"}}], \"load\": {\"closed\": {\"users\": 1}}}");
            plan = store->addItem(0, ItemKind::Scenario, "p",
                                  "{\"name\": \"p\", \"scenarios\": [{\"name\": \"a\", \"steps\": [], \"load\": "
                                  "{\"open\": {\"rate\": 10}}, \"duration\": \"60s\"}]}");
        }
        MainWindow w;
        QVERIFY(w.openProject(path));
        auto* tabs = w.findChild<QTabWidget*>();
        w.openItem(scenario);
        auto* designer = qobject_cast<ScenarioEditor*>(tabs->currentWidget());
        QVERIFY(designer);
        QLineEdit* name = nullptr;
        for (auto* e : designer->findChildren<QLineEdit*>())
            if (e->text() == QStringLiteral("s"))
                name = e;
        QVERIFY(name);
        name->selectAll();
        QTest::keyClicks(name, QStringLiteral("J5 scenario"));
        emit name->editingFinished();
        QCOMPARE(w.treeModel()->indexForId(scenario).data().toString(), QStringLiteral("J5 scenario"));
        QCOMPARE(tabs->tabText(tabs->currentIndex()), QStringLiteral("J5 scenario"));
        // renamed in the tree: the open designer says it
        QVERIFY(w.treeModel()->setData(w.treeModel()->indexForId(scenario), QStringLiteral("checkout")));
        QCOMPARE(designer->name(), QStringLiteral("checkout"));
        // a plan's "Plan:" field
        w.openItem(plan);
        auto* planName = tabs->currentWidget()->findChild<QLineEdit*>(QStringLiteral("planName"));
        QVERIFY(planName);
        planName->selectAll();
        QTest::keyClicks(planName, QStringLiteral("J5 plan"));
        emit planName->editingFinished();
        QCOMPARE(w.treeModel()->indexForId(plan).data().toString(), QStringLiteral("J5 plan"));
        { // the project file holds the name: what `stampede-cli run PROJECT@"J5 plan"` looks for
            std::string error;
            auto reader = stampede::ProjectStore::openReadOnly(path.toStdString(), error);
            QVERIFY2(reader, error.c_str());
            QCOMPARE(QString::fromStdString(reader->item(plan)->name), QStringLiteral("J5 plan"));
        }
        // a new scenario: its Name field is its (unique) name
        QAction* newScenario = nullptr;
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text() == QStringLiteral("New &Scenario"))
                newScenario = a;
        QVERIFY(newScenario);
        newScenario->trigger();
        newScenario->trigger();
        QStringList names;
        for (int r = 0; r < w.treeModel()->rowCount(); ++r)
            names << w.treeModel()->index(r, 0).data().toString();
        QVERIFY2(names.contains(QStringLiteral("New scenario")) && names.contains(QStringLiteral("New scenario 2")),
                 qPrintable(names.join(u',')));
        for (int r = 0; r < w.treeModel()->rowCount(); ++r)
            if (w.treeModel()->index(r, 0).data().toString() == QStringLiteral("New scenario 2")) {
                const QJsonObject o = QJsonDocument::fromJson(
                                          w.treeModel()->index(r, 0).data(ProjectTreeModel::PayloadRole).toByteArray())
                                          .object();
                QCOMPARE(o.value(QStringLiteral("name")).toString(), QStringLiteral("New scenario 2"));
            }
    }

    // Issue 52: a step added from "Add request…" runs the request itself: an edit of the request is what the
    // scenario shows, saves and runs; "Make a copy" keeps what the step sends; a deleted request is a fault of the
    // step, named.
    void stepsRunTheirRequest()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("linked.stampede"));
        qint64 scenario = 0, pay = 0, other = 0;
        {
            std::string error;
            auto store = stampede::ProjectStore::create(path.toStdString(), error);
            const auto shop = store->addItem(0, ItemKind::Collection, "Shop", "{}");
            pay = store->addItem(shop, ItemKind::Request, "New request",
                                 "{\"method\": \"GET\", \"url\": \"http://127.0.0.1:9/old\"}");
            other = store->addItem(shop, ItemKind::Request, "New request",
                                   "{\"method\": \"POST\", \"url\": \"http://127.0.0.1:9/other\"}");
            scenario = store->addItem(0, ItemKind::Scenario, "s",
                                      "{\"name\": \"s\", \"steps\": [], \"load\": {\"closed\": {\"users\": 1}}}");
        }
        MainWindow w;
        QVERIFY(w.openProject(path));
        auto* tabs = w.findChild<QTabWidget*>();
        w.openItem(scenario);
        auto* designer = qobject_cast<ScenarioEditor*>(tabs->currentWidget());
        QVERIFY(designer);
        QPushButton* add = nullptr;
        for (auto* b : designer->findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Add request…"))
                add = b;
        QVERIFY(add);
        const auto addNth = [&](int n) {
            QTimer answer;
            connect(&answer, &QTimer::timeout, this, [&] {
                if (auto* ask = qobject_cast<QInputDialog*>(QApplication::activeModalWidget())) {
                    ask->setTextValue(ask->comboBoxItems().value(n));
                    ask->accept();
                }
            });
            answer.start(50);
            QTest::mouseClick(add, Qt::LeftButton);
            answer.stop();
        };
        const auto steps = [&] {
            return QJsonDocument::fromJson(designer->json()).object().value(QStringLiteral("steps")).toArray();
        };
        const auto saved = [&] {
            return QJsonDocument::fromJson(
                       w.treeModel()->indexForId(scenario).data(ProjectTreeModel::PayloadRole).toByteArray())
                .object()
                .value(QStringLiteral("steps"))
                .toArray();
        };
        addNth(0);
        QCOMPARE(steps().size(), 1);
        QCOMPARE(saved().size(), 1); // saved with the project: the command line's PROJECT@s reads it
        QCOMPARE(saved()[0].toObject().value(QStringLiteral("requestItem")).toString(), QString::number(pay));

        // the request edited and renamed in its own tab: the scenario shows and runs it as it is now
        QVERIFY(w.treeModel()->setPayload(w.treeModel()->indexForId(pay),
                                          "{\"method\": \"PUT\", \"url\": \"http://127.0.0.1:9/new\"}"));
        QVERIFY(w.treeModel()->setData(w.treeModel()->indexForId(pay), QStringLiteral("Pay")));
        QJsonObject step = steps()[0].toObject();
        QCOMPARE(step.value(QStringLiteral("request")).toObject().value(QStringLiteral("url")).toString(),
                 QStringLiteral("http://127.0.0.1:9/new"));
        QCOMPARE(step.value(QStringLiteral("name")).toString(), QStringLiteral("Pay"));
        auto* list = designer->findChild<QListWidget*>();
        QVERIFY(list);
        w.openItem(pay);
        w.openItem(scenario); // shown again: the list says what runs
        QVERIFY2(list->item(0)->text().contains(QStringLiteral("PUT http://127.0.0.1:9/new")),
                 qPrintable(list->item(0)->text()));
        QVERIFY(!list->item(0)->text().contains(QStringLiteral("copy")));

        // Open request opens it; Make a copy keeps what it sends now
        list->setCurrentRow(0);
        auto* open = designer->findChild<QPushButton*>(QStringLiteral("openStepRequest"));
        auto* copy = designer->findChild<QPushButton*>(QStringLiteral("copyStep"));
        QVERIFY(open && copy && open->isEnabled() && copy->isEnabled());
        QTest::mouseClick(open, Qt::LeftButton);
        QCOMPARE(tabs->tabText(tabs->currentIndex()), QStringLiteral("Pay"));
        tabs->setCurrentWidget(designer);
        QTest::mouseClick(copy, Qt::LeftButton);
        QVERIFY(!copy->isEnabled());
        QVERIFY(list->item(0)->text().contains(QStringLiteral("a copy")));
        QVERIFY(w.treeModel()->setPayload(w.treeModel()->indexForId(pay),
                                          "{\"method\": \"DELETE\", \"url\": \"http://127.0.0.1:9/later\"}"));
        step = steps()[0].toObject();
        QCOMPARE(step.value(QStringLiteral("request")).toObject().value(QStringLiteral("url")).toString(),
                 QStringLiteral("http://127.0.0.1:9/new"));
        QVERIFY(!step.contains(QStringLiteral("requestItem")));
        QVERIFY(!saved()[0].toObject().contains(QStringLiteral("requestItem")));

        // the second "New request" (told apart in the list) is the one added; its deletion is the step's fault
        addNth(1);
        QCOMPARE(steps()[1].toObject().value(QStringLiteral("requestItem")).toString(), QString::number(other));
        QVERIFY(w.treeModel()->removeItem(w.treeModel()->indexForId(other)));
        tabs->setCurrentWidget(designer);
        const QStringList problems = designer->problems();
        QVERIFY2(problems.join(u'\n').contains(QStringLiteral("no longer in the project")),
                 qPrintable(problems.join(u'\n')));
        QVERIFY2(list->item(1)->text().contains(QStringLiteral("deleted")), qPrintable(list->item(1)->text()));
    }

    // Issue 52: the tabs a project had open come back when it is opened again (those whose items still exist),
    // the current one current.
    void tabsComeBackOnReopen()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("reopen.stampede"));
        qint64 a = 0, b = 0, gone = 0;
        {
            std::string error;
            auto store = stampede::ProjectStore::create(path.toStdString(), error);
            const auto coll = store->addItem(0, ItemKind::Collection, "c", "{}");
            a = store->addItem(coll, ItemKind::Request, "a",
                               "{\"method\": \"GET\", \"url\": \"http://127.0.0.1:1/a\"}");
            b = store->addItem(coll, ItemKind::Request, "b",
                               "{\"method\": \"GET\", \"url\": \"http://127.0.0.1:1/b\"}");
            gone = store->addItem(0, ItemKind::Environment, "dev", "{}");
        }
        {
            MainWindow w;
            QVERIFY(w.openProject(path));
            w.openItem(a);
            w.openItem(gone);
            w.openItem(b);
            w.openItem(a); // a current
            QVERIFY(w.treeModel()->removeItem(w.treeModel()->indexForId(gone)));
        }
        MainWindow again;
        QVERIFY(again.openProject(path));
        auto* tabs = again.findChild<QTabWidget*>();
        QStringList shown;
        for (int t = 0; t < tabs->count(); ++t)
            shown << tabs->tabText(t);
        QCOMPARE(shown.mid(shown.size() - 2), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
        QCOMPARE(tabs->tabText(tabs->currentIndex()), QStringLiteral("a"));
    }

    void toolbarButtonsShowNoMnemonic()
    {
        QCOMPARE(MainWindow::withoutMnemonic(QStringLiteral("&New Request")), QStringLiteral("New Request"));
        QCOMPARE(MainWindow::withoutMnemonic(QStringLiteral("新建请求(&N)")), QStringLiteral("新建请求"));
        QCOMPARE(MainWindow::withoutMnemonic(QStringLiteral("发送(&S)")), QStringLiteral("发送"));
        MainWindow w;
        auto* bar = w.findChild<QToolBar*>();
        QVERIFY(bar);
        for (QAction* a : bar->actions())
            QVERIFY2(!a->iconText().contains(QLatin1Char('&')), qPrintable(a->iconText()));
    }

    void refusesAProjectOpenElsewhere()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("busy.stampede"));
        std::string error;
        auto holder = stampede::ProjectStore::create(path.toStdString(), error);
        MainWindow w;
        QVERIFY(!w.openProject(path));
        QCOMPARE(w.treeModel()->rowCount(), 0);
    }

    void sendDrawsTheNextRowOfEachDataSet()
    {
        std::mutex m;
        std::vector<std::string> paths;
        testsupport::RawServer server([&](int fd) {
            const std::string h = testsupport::readRequestHead(fd);
            {
                std::lock_guard lock(m);
                paths.push_back(h.substr(0, h.find(" HTTP/1.1")));
            }
            const char ok[] = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok";
            (void)!::write(fd, ok, sizeof ok - 1);
            ::close(fd);
        });
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("d.stampede"));
        {
            std::string error;
            auto store = stampede::ProjectStore::create(path.toStdString(), error);
            const auto coll = store->addItem(0, ItemKind::Collection, "c", "{}");
            const auto req = store->addItem(coll, ItemKind::Request, "get user",
                                            "{\"method\": \"GET\", \"url\": \"${base}/u/${users.id}\"}");
            store->addItem(0, ItemKind::DataSet, "users", "{\"csv\": \"id\\n7\\n8\\n\", \"delimiter\": \",\"}");
            store->addItem(0, ItemKind::Environment, "local",
                           "{\"base\": \"http://127.0.0.1:" + std::to_string(server.port()) + "\"}");
            Q_UNUSED(req);
        }
        MainWindow w;
        QVERIFY(w.openProject(path));
        const QModelIndex request = w.treeModel()->index(0, 0, w.treeModel()->index(0, 0));
        w.openItem(request.data(ProjectTreeModel::IdRole).toLongLong());
        RequestEditor* editor = w.currentRequestEditor();
        QVERIFY(editor);
        QSignalSpy shown(editor, &RequestEditor::responseShown);
        for (int i = 1; i <= 3; ++i) {
            editor->send();
            QTRY_COMPARE_WITH_TIMEOUT(shown.count(), i, 5000);
        }
        std::lock_guard lock(m);
        QCOMPARE(paths, (std::vector<std::string>{"GET /u/7", "GET /u/8", "GET /u/7"}));
    }

    // As in Postman: a value the login's Extract tab takes from its answer
    // is set in the current environment (saved in the project), and the
    // next request's ${token} takes it.
    // Issue 28: a request's scripts run on Send as in a run: the test script's
    // pm.test results listed in the Scripts tab (its title counts them), what
    // it sets put in the environment, the next request's pre-request script
    // changing what is sent; a syntax error shown at its line as it is typed.
    void scriptsRunOnSend()
    {
        std::mutex m;
        std::vector<std::string> heads;
        testsupport::RawServer server([&](int fd) {
            const std::string h = testsupport::readRequestHead(fd);
            {
                std::lock_guard lock(m);
                heads.push_back(h);
            }
            const char ok[] = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 18\r\n"
                              "Connection: close\r\n\r\n{\"token\": \"tok-9\"}";
            (void)!::write(fd, ok, sizeof ok - 1);
            ::close(fd);
        });
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.stampede"));
        qint64 envId = 0;
        {
            std::string error;
            auto store = stampede::ProjectStore::create(path.toStdString(), error);
            const auto coll = store->addItem(0, ItemKind::Collection, "c", "{}");
            store->addItem(coll, ItemKind::Request, "login",
                           R"({"method": "POST", "url": "${base}/login", "testScript": )"
                           R"("pm.test('has token', () => pm.expect(pm.response.json()).to.have.property('token'));\n)"
                           R"(pm.test('is admin', () => pm.expect(pm.response.json().admin).to.be.true);\n)"
                           R"(pm.environment.set('token', pm.response.json().token);"})");
            store->addItem(
                coll, ItemKind::Request, "me",
                R"({"method": "GET", "url": "${base}/me", "preRequestScript": )"
                R"("pm.request.headers.upsert({key: 'X-Token', value: pm.environment.get('token') + '!'});"})");
            envId = store->addItem(0, ItemKind::Environment, "local",
                                   "{\"base\": \"http://127.0.0.1:" + std::to_string(server.port()) + "\"}");
        }
        MainWindow w;
        QVERIFY(w.openProject(path));
        const QModelIndex coll = w.treeModel()->index(0, 0);
        w.openItem(w.treeModel()->index(0, 0, coll).data(ProjectTreeModel::IdRole).toLongLong());
        RequestEditor* login = w.currentRequestEditor();
        QVERIFY(login);
        auto* scripts = login->findChild<ScriptsPane*>();
        QVERIFY(scripts);
        QSignalSpy shown(login, &RequestEditor::responseShown);
        login->send();
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 5000);
        QCOMPARE(scripts->title(), QStringLiteral("Scripts (1/2)"));
        auto* results = scripts->findChild<QListWidget*>(QStringLiteral("scriptResults"));
        QVERIFY(results && results->count() == 2);
        QCOMPARE(results->item(0)->text(), QStringLiteral("✔ has token"));
        QCOMPARE(results->item(1)->text(), QStringLiteral("✘ is admin: expected undefined to be true"));
        const QJsonObject env =
            QJsonDocument::fromJson(w.treeModel()->indexForId(envId).data(ProjectTreeModel::PayloadRole).toByteArray())
                .object();
        QCOMPARE(env.value(QStringLiteral("token")).toString(), QStringLiteral("tok-9"));
        if (const QString shots = qEnvironmentVariable("STAMPEDE_SHOTS"); !shots.isEmpty()) {
            w.resize(1280, 800);
            QCoreApplication::processEvents();
            w.grab().save(shots + QStringLiteral("/scripts-after-send.png"));
        }
        w.openItem(w.treeModel()->index(1, 0, coll).data(ProjectTreeModel::IdRole).toLongLong());
        RequestEditor* me = w.currentRequestEditor();
        QVERIFY(me && me != login);
        QSignalSpy shown2(me, &RequestEditor::responseShown);
        me->send();
        QTRY_COMPARE_WITH_TIMEOUT(shown2.count(), 1, 5000);
        {
            std::lock_guard lock(m);
            QCOMPARE(heads.size(), std::size_t(2));
            QVERIFY2(heads[1].find("\r\nX-Token: tok-9!\r\n") != std::string::npos, heads[1].c_str());
        }
        // a syntax error, at its line, before anything is sent
        auto* test = me->findChild<QPlainTextEdit*>(QStringLiteral("testScript"));
        QVERIFY(test);
        test->setPlainText(QStringLiteral("const a = 1;\npm.test('x', () => {"));
        QTRY_VERIFY_WITH_TIMEOUT(
            me->findChild<ScriptsPane*>()->problems().value(1).startsWith(QStringLiteral("line 2: SyntaxError")), 3000);
    }

    void extractedValuesGoIntoTheEnvironment()
    {
        std::mutex m;
        std::vector<std::string> paths;
        testsupport::RawServer server([&](int fd) {
            const std::string h = testsupport::readRequestHead(fd);
            {
                std::lock_guard lock(m);
                paths.push_back(h.substr(0, h.find(" HTTP/1.1")));
            }
            const char ok[] = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 18\r\n"
                              "Connection: close\r\n\r\n{\"token\": \"tok-9\"}";
            (void)!::write(fd, ok, sizeof ok - 1);
            ::close(fd);
        });
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("e.stampede"));
        qint64 envId = 0;
        {
            std::string error;
            auto store = stampede::ProjectStore::create(path.toStdString(), error);
            const auto coll = store->addItem(0, ItemKind::Collection, "c", "{}");
            store->addItem(coll, ItemKind::Request, "login",
                           "{\"method\": \"POST\", \"url\": \"${base}/login\", \"extract\": [{\"name\": \"token\", "
                           "\"jsonPath\": \"$.token\"}]}");
            store->addItem(coll, ItemKind::Request, "me", "{\"method\": \"GET\", \"url\": \"${base}/me?t=${token}\"}");
            envId = store->addItem(0, ItemKind::Environment, "local",
                                   "{\"base\": \"http://127.0.0.1:" + std::to_string(server.port()) + "\"}");
        }
        MainWindow w;
        QVERIFY(w.openProject(path));
        const QModelIndex coll = w.treeModel()->index(0, 0);
        w.openItem(w.treeModel()->index(0, 0, coll).data(ProjectTreeModel::IdRole).toLongLong());
        RequestEditor* login = w.currentRequestEditor();
        QVERIFY(login);
        QSignalSpy shown(login, &RequestEditor::responseShown);
        login->send();
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 5000);
        const QJsonObject env =
            QJsonDocument::fromJson(w.treeModel()->indexForId(envId).data(ProjectTreeModel::PayloadRole).toByteArray())
                .object();
        QCOMPARE(env.value(QStringLiteral("token")).toString(), QStringLiteral("tok-9"));
        w.openItem(w.treeModel()->index(1, 0, coll).data(ProjectTreeModel::IdRole).toLongLong());
        RequestEditor* me = w.currentRequestEditor();
        QVERIFY(me && me != login);
        QSignalSpy shown2(me, &RequestEditor::responseShown);
        me->send();
        QTRY_COMPARE_WITH_TIMEOUT(shown2.count(), 1, 5000);
        std::lock_guard lock(m);
        QCOMPARE(paths, (std::vector<std::string>{"POST /login", "GET /me?t=tok-9"}));
    }

    // The demo as a newcomer meets it (issue 26): the project keeps its
    // mock's rules, not a port, and starts the mock when it opens; Send of
    // "login" writes the token into the environment, and Run still starts
    // (the environment's token is the default the extraction shadows) and
    // its requests succeed. Reopening keeps the values the user added.
    void demoSendThenRunRuns()
    {
        qputenv("PATH", QFileInfo(testsupport::cliPath()).absolutePath().toUtf8() + ':' + qgetenv("PATH"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("demo.stampede"));
        QString error;
        QVERIFY2(DemoProject::ensure(path, error), qPrintable(error));
        qint64 envId = 0, scenarioId = 0, loginId = 0;
        {
            std::string err;
            auto store = stampede::ProjectStore::openReadOnly(path.toStdString(), err);
            QVERIFY(store);
            QVERIFY(QByteArray::fromStdString(store->setting("mock")).contains("api/login")); // the rules
            std::function<void(std::int64_t)> walk = [&](std::int64_t parent) {
                for (const auto& i : store->children(parent)) {
                    if (i.kind == ItemKind::Environment)
                        envId = i.id;
                    if (i.kind == ItemKind::Scenario)
                        scenarioId = i.id;
                    if (i.kind == ItemKind::Request && i.name == "login")
                        loginId = i.id;
                    walk(i.id);
                }
            };
            walk(0);
        }
        QVERIFY(envId && scenarioId && loginId);
        for (int round = 0; round < 2; ++round) {
            MainWindow w;
            QVERIFY(w.openProject(path));
            QVERIFY(w.projectMock());
            QTRY_VERIFY_WITH_TIMEOUT(!w.projectMock()->url().isEmpty(), 8000);
            const auto env = [&] {
                return QJsonDocument::fromJson(
                           w.treeModel()->indexForId(envId).data(ProjectTreeModel::PayloadRole).toByteArray())
                    .object();
            };
            QTRY_COMPARE(env().value(QStringLiteral("mock_url")).toString(), w.projectMock()->url());
            if (round == 1) { // what the user added survives reopening and ensure()
                QCOMPARE(env().value(QStringLiteral("mine")).toString(), QStringLiteral("kept"));
                QCOMPARE(env().value(QStringLiteral("token")).toString(), QStringLiteral("demo-token"));
                break;
            }
            w.openItem(loginId);
            RequestEditor* login = w.currentRequestEditor();
            QVERIFY(login);
            QSignalSpy shown(login, &RequestEditor::responseShown);
            login->send();
            QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 5000);
            QCOMPARE(shown.first().at(0).toInt(), 200);
            QCOMPARE(env().value(QStringLiteral("token")).toString(), QStringLiteral("demo-token"));
            QJsonObject added = env();
            added[QStringLiteral("mine")] = QStringLiteral("kept");
            w.treeModel()->setPayload(w.treeModel()->indexForId(envId), QJsonDocument(added).toJson());
            // Run: not refused because the environment holds a token now
            QByteArray scenario =
                w.treeModel()->indexForId(scenarioId).data(ProjectTreeModel::PayloadRole).toByteArray();
            QJsonObject shorter = QJsonDocument::fromJson(scenario).object();
            shorter.remove(QStringLiteral("load"));
            shorter[QStringLiteral("load")] =
                QJsonObject{{QStringLiteral("open"), QJsonObject{{QStringLiteral("rate"), 20}}}};
            shorter[QStringLiteral("duration")] = QStringLiteral("4s");
            w.startRun(QJsonDocument(shorter).toJson(), QStringLiteral("demo"));
            QCoreApplication::processEvents();
            auto* session = w.findChildren<RunSession*>().value(0);
            QVERIFY2(session, "the run did not start");
            QSignalSpy finished(session, &RunSession::finished);
            { // issue 52: paused, the dashboard says plainly that the run's clock goes on (it ends as planned)
                auto* dashboard = w.findChild<RunDashboard*>();
                QVERIFY(dashboard);
                QPushButton* pause = nullptr;
                for (auto* b : dashboard->findChildren<QPushButton*>())
                    if (b->text() == QStringLiteral("Pause"))
                        pause = b;
                QVERIFY(pause);
                QVERIFY(pause->toolTip().contains(QStringLiteral("clock keeps going")));
                auto* progress = dashboard->findChild<QProgressBar*>();
                QVERIFY(progress);
                QTRY_VERIFY_WITH_TIMEOUT(progress->value() > 0, 10000); // its first second came
                pause->click();
                QTRY_VERIFY_WITH_TIMEOUT(
                    progress->format().startsWith(QStringLiteral("paused · ")) || finished.count() == 1, 5000);
                QVERIFY2(finished.count() == 1 || progress->format().contains(QStringLiteral("paused or not")),
                         qPrintable(progress->format()));
                if (finished.count() == 0)
                    pause->click(); // resume
            }
            QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 30000);
            stampede::RunLog log(*w.treeModel()->store());
            const auto runs = log.runs();
            QCOMPARE(runs.size(), std::size_t(1));
            QVERIFY2(runs[0].status == "completed", runs[0].status.c_str());
        }
        QVERIFY2(DemoProject::ensure(path, error), qPrintable(error)); // as --demo does: nothing of the user's lost
        std::string err;
        auto store = stampede::ProjectStore::openReadOnly(path.toStdString(), err);
        QVERIFY(QByteArray::fromStdString(store->item(envId)->payload).contains("\"mine\":\"kept\""));
    }

    // Issue 52: a plan with a setup, run on a remote agent that is down (it cannot be carried out), then on the
    // local pool once the engines are switched back: the second run runs, its engines free; and again.
    void switchingEnginesLeavesNoBusyAgent()
    {
        testsupport::MockProcess mock;
        QVERIFY(mock.started());
        qputenv("PATH", QFileInfo(testsupport::cliPath()).absolutePath().toUtf8() + ':' + qgetenv("PATH"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("e.stampede"));
        const QString token = dir.filePath(QStringLiteral("token"));
        {
            QFile t(token);
            QVERIFY(t.open(QIODevice::WriteOnly));
            t.write("secret-token\n");
        }
        const std::string plan = "{\"name\": \"plan\", \"setup\": [{\"name\": \"login\", \"request\": {\"url\": \"" +
                                 mock.url().toStdString() +
                                 "\"}}], \"scenarios\": [{\"name\": \"buy\", \"steps\": [{\"request\": {\"url\": \"" +
                                 mock.url().toStdString() +
                                 "\"}}], \"load\": {\"open\": {\"rate\": 10}}, \"duration\": \"1s\"}]}";
        {
            std::string error;
            auto store = stampede::ProjectStore::create(path.toStdString(), error);
            store->addItem(0, ItemKind::Scenario, "plan", plan);
        }
        MainWindow w;
        QVERIFY(w.openProject(path));
        QStringList dialogs;
        const auto runOnce = [&](bool remote) -> std::string {
            EngineSettings e = EngineSettings::load(*w.treeModel()->store());
            e.remote = remote;
            e.localEngines = 0;                         // one per core, as a new project has it
            e.agents = {QStringLiteral("127.0.0.1:1")}; // nothing listens there
            e.tokenFile = token;
            if (!e.save(*w.treeModel()->store()))
                return "engine settings not saved";
            const int before = int(stampede::RunLog(*w.treeModel()->store()).runs().size());
            RunSession::Options o;
            QString why;
            RunSession* session = w.launchRunForTest(QByteArray::fromStdString(plan), QStringLiteral("plan"), &why);
            if (!session)
                return "not started: " + why.toStdString();
            QSignalSpy finished(session, &RunSession::finished);
            if (!finished.wait(60000) && finished.isEmpty())
                return "did not finish";
            const auto runs = stampede::RunLog(*w.treeModel()->store()).runs();
            if (int(runs.size()) == before)
                return "failed before it was saved: " + session->lastError().toStdString();
            return runs.back().verdict;
        };
        const std::string down = runOnce(true);
        QVERIFY2(down.find("completed and passed") == std::string::npos, down.c_str());
        for (int again = 0; again < 2; ++again) {
            const std::string local = runOnce(false);
            QVERIFY2(local == "completed and passed", local.c_str());
        }
    }

    // Quitting during a run asks: Cancel keeps the window and the run; Stop
    // and save ends it as stopped, saved; Keep running detached hides the
    // window while the run goes on to its end.
    void quittingDuringARunAsks()
    {
        testsupport::MockProcess mock;
        QVERIFY(mock.started());
        qputenv("PATH", QFileInfo(testsupport::cliPath()).absolutePath().toUtf8() + ':' + qgetenv("PATH"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("q.stampede"));
        {
            std::string error;
            auto store = stampede::ProjectStore::create(path.toStdString(), error);
            store->addItem(0, ItemKind::Scenario, "long",
                           "{\"name\": \"long\", \"steps\": [{\"request\": {\"url\": \"" + mock.url().toStdString() +
                               "\"}}], \"load\": {\"open\": {\"rate\": 20}}, \"connections\": 2, \"duration\": "
                               "\"60s\"}");
        }
        // clicks `button` once the question is up: looked for every 100 ms (a
        // busy machine may show it later than any fixed delay), for 30 s at most
        const auto answer = [this](const char* button) {
            auto* poll = new QTimer(this);
            auto tries = std::make_shared<int>(0);
            connect(poll, &QTimer::timeout, this, [poll, button, tries] {
                auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
                auto* b = box ? box->findChild<QAbstractButton*>(QLatin1String(button)) : nullptr;
                if (b)
                    b->click();
                if (b || ++*tries > 300)
                    poll->deleteLater();
            });
            poll->start(100);
        };
        for (const char* how : {"cancel", "stopAndSave", "keepRunning"}) {
            MainWindow w;
            QVERIFY(w.openProject(path));
            w.show();
            const QModelIndex scenario = w.treeModel()->index(0, 0);
            w.startRun(scenario.data(ProjectTreeModel::PayloadRole).toByteArray(), QStringLiteral("long"));
            auto* session = w.findChildren<RunSession*>().value(0);
            QVERIFY(session);
            QTRY_VERIFY_WITH_TIMEOUT(!session->runId().isEmpty() && session->isRunning(), 10000);
            QTest::qWait(1500);
            answer(how);
            w.close();
            if (QLatin1String(how) == QLatin1String("cancel")) {
                QVERIFY(w.isVisible());
                QVERIFY(session->isRunning());
                session->stop();
                QTRY_VERIFY_WITH_TIMEOUT(!session->isRunning(), 15000);
            } else if (QLatin1String(how) == QLatin1String("stopAndSave")) {
                QVERIFY(!w.isVisible());
                QVERIFY(!session->isRunning());
                stampede::RunLog log(*w.treeModel()->store());
                QCOMPARE(log.runs().front().status, std::string("stopped"));
            } else {
                QVERIFY(!w.isVisible());
                QVERIFY(session->isRunning()); // it goes on without the window
                QVERIFY(!QApplication::quitOnLastWindowClosed());
                QApplication::setQuitOnLastWindowClosed(true);
                session->stop();
                QTRY_VERIFY_WITH_TIMEOUT(!session->isRunning(), 15000);
            }
        }
    }

    // An imported Postman collection's requests reach a recording server
    // byte for byte as written, by Send and by a run alike (issue 26: a JSON
    // body's keys were sorted, Basic was frozen as the base64 of the literal
    // ${user}:${pass} in steps, a form's ${v} was percent-encoded so that it
    // never filled in).
    void importedRequestsGoOutAsWritten()
    {
        testsupport::RecordingServer server;
        qputenv("PATH", QFileInfo(testsupport::cliPath()).absolutePath().toUtf8() + ':' + qgetenv("PATH"));
        QTemporaryDir dir;
        const QByteArray collection =
            "{\"info\": {\"name\": \"Wire\", \"schema\": "
            "\"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"},"
            " \"variable\": [{\"key\": \"base\", \"value\": \"" +
            server.url().toUtf8() +
            "\"}, {\"key\": \"v\", \"value\": \"a b&c\"},"
            "  {\"key\": \"user\", \"value\": \"J\u00f6\"}, {\"key\": \"pass\", \"value\": \"p:w\"}],"
            " \"item\": ["
            "  {\"name\": \"json\", \"request\": {\"method\": \"POST\", \"url\": \"{{base}}/json\", \"header\": "
            "[{\"key\": \"Content-Type\", \"value\": \"application/json\"}], \"body\": {\"mode\": \"raw\", \"raw\": "
            "\"{\\\"z\\\": 1,\\n  \\\"a\\\": \\\"{{v}}\\\"}\", \"options\": {\"raw\": {\"language\": \"json\"}}}}},"
            "  {\"name\": \"basic\", \"request\": {\"method\": \"GET\", \"url\": \"{{base}}/basic\", \"auth\": "
            "{\"type\": "
            "\"basic\", \"basic\": [{\"key\": \"username\", \"value\": \"{{user}}\"}, {\"key\": \"password\", "
            "\"value\": \"{{pass}}\"}]}}},"
            "  {\"name\": \"form\", \"request\": {\"method\": \"POST\", \"url\": \"{{base}}/form\", \"body\": "
            "{\"mode\": "
            "\"urlencoded\", \"urlencoded\": [{\"key\": \"q\", \"value\": \"{{v}}\"}, {\"key\": \"n\", \"value\": "
            "\"1\"}]}}},"
            "  {\"name\": \"multi\", \"request\": {\"method\": \"POST\", \"url\": \"{{base}}/multi\", \"body\": "
            "{\"mode\": \"formdata\", \"formdata\": [{\"key\": \"f\", \"value\": \"{{v}}\", \"type\": \"text\"}]}}}]}";
        const QString file = testsupport::writeFile(dir, "wire.postman_collection.json", collection);
        MainWindow w;
        QVERIFY(w.newProject(dir.filePath(QStringLiteral("w.stampede"))));
        QString report;
        QVERIFY2(w.importCollectionFile(file, &report), qPrintable(report));
        auto* envs = w.findChild<QToolBar*>()->findChild<QComboBox*>();
        QVERIFY(envs->findText(QStringLiteral("Wire")) >= 0);
        envs->setCurrentIndex(envs->findText(QStringLiteral("Wire")));
        const QModelIndex coll =
            qobject_cast<QSortFilterProxyModel*>(w.treeView()->model())->mapToSource(w.treeView()->currentIndex());
        QCOMPARE(w.treeModel()->rowCount(coll), 4);
        QJsonArray steps;
        for (int r = 0; r < 4; ++r) {
            const QModelIndex i = w.treeModel()->index(r, 0, coll);
            w.openItem(i.data(ProjectTreeModel::IdRole).toLongLong());
            RequestEditor* editor = w.currentRequestEditor();
            QVERIFY(editor);
            QSignalSpy shown(editor, &RequestEditor::responseShown);
            editor->send();
            QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 5000);
            steps.append(
                RequestItem::fromJson(i.data(ProjectTreeModel::PayloadRole).toByteArray()).toStep(i.data().toString()));
        }
        const auto expectWire = [&](const char* who) {
            const auto json = server.requestsTo("POST /json");
            const auto basic = server.requestsTo("GET /basic");
            const auto form = server.requestsTo("POST /form");
            const auto multi = server.requestsTo("POST /multi");
            QVERIFY2(!json.empty() && !basic.empty() && !form.empty() && !multi.empty(), who);
            QCOMPARE(json.back().body, std::string("{\"z\": 1,\n  \"a\": \"a b&c\"}"));
            QCOMPARE(json.back().header("content-type"), std::string("application/json"));
            std::string auth = "Basic ";
            stampede::appendBase64(auth, "J\u00f6:p:w");
            QCOMPARE(basic.back().header("authorization"), auth);
            QCOMPARE(form.back().body, std::string("q=a%20b%26c&n=1"));
            QCOMPARE(form.back().header("content-type"), std::string("application/x-www-form-urlencoded"));
            QVERIFY2(multi.back().body.find("name=\"f\"\r\n\r\na b&c\r\n") != std::string::npos,
                     multi.back().body.c_str());
            QVERIFY(multi.back().header("content-type").rfind("multipart/form-data; boundary=", 0) == 0);
        };
        expectWire("Send");
        const std::size_t bySend = server.requests().size();
        // the same requests as a scenario's steps, run by the engines with the same environment
        const QJsonObject scenario{{QStringLiteral("name"), QStringLiteral("wire")},
                                   {QStringLiteral("steps"), steps},
                                   {QStringLiteral("load"),
                                    QJsonObject{{QStringLiteral("closed"), QJsonObject{{QStringLiteral("users"), 1}}}}},
                                   {QStringLiteral("duration"), QStringLiteral("1s")},
                                   {QStringLiteral("stressTag"), QJsonObject{{QStringLiteral("disabled"), true}}}};
        w.startRun(QJsonDocument(scenario).toJson(), QStringLiteral("wire"));
        auto* session = w.findChildren<RunSession*>().value(0);
        QVERIFY(session);
        QSignalSpy finished(session, &RunSession::finished);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 30000);
        QVERIFY(server.requests().size() > bySend + 4);
        expectWire("run");
        // and a request's first run is byte for byte its Send, but for the engine's own User-Agent
        QCOMPARE(server.requestsTo("POST /json")[1].body, server.requestsTo("POST /json")[0].body);
    }

    // Environment rows go with the Remove button and the Delete key; a
    // secret value is drawn as dots, kept in the project, and a bundle
    // carries its name without the value.
    void environmentRowsAreRemovedAndSecretsMasked()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("env.stampede"));
        qint64 envId = 0;
        {
            std::string error;
            auto store = stampede::ProjectStore::create(path.toStdString(), error);
            envId = store->addItem(0, ItemKind::Environment, "staging",
                                   "{\"a\": \"1\", \"b\": \"2\", \"c\": \"3\", \"password\": \"hunter2\"}");
        }
        MainWindow w;
        QVERIFY(w.openProject(path));
        w.openItem(envId);
        auto* editor = w.findChild<EnvironmentEditor*>();
        QVERIFY(editor);
        KeyValueTable* table = editor->table();
        const auto payload = [&] {
            return QJsonDocument::fromJson(
                       w.treeModel()->indexForId(envId).data(ProjectTreeModel::PayloadRole).toByteArray())
                .object();
        };
        table->setCurrentCell(0, 0); // "a"
        editor->findChild<QPushButton*>(QStringLiteral("removeVariable"))->click();
        QVERIFY(!payload().contains(QStringLiteral("a")));
        table->setCurrentCell(0, 1); // "b", by the Delete key
        QTest::keyClick(table, Qt::Key_Delete);
        QVERIFY(!payload().contains(QStringLiteral("b")));
        QCOMPARE(payload().value(QStringLiteral("c")).toString(), QStringLiteral("3"));
        QCOMPARE(table->rowCount(), 3); // c, password and the empty row
        table->clearSelection();
        table->setCurrentCell(2, 0);
        QVERIFY(!table->removeSelectedRows()); // the empty last row never goes
        QCOMPARE(table->rowCount(), 3);
        // password marked secret: dots on screen, the value kept, its name listed
        int row = -1;
        for (int r = 0; r < table->rowCount(); ++r)
            if (table->item(r, 0) && table->item(r, 0)->text() == QLatin1String("password"))
                row = r;
        QVERIFY(row >= 0);
        table->item(row, 2)->setCheckState(Qt::Checked);
        QCOMPARE(table->shownValue(row), QString(7, QChar(0x25CF)));
        QCOMPARE(payload().value(QStringLiteral("password")).toString(), QStringLiteral("hunter2"));
        QCOMPARE(payload().value(QStringLiteral("$secrets")).toArray(), QJsonArray{QStringLiteral("password")});
        // a bundle carries the environment without the secret's value
        std::vector<stampede::v1::Environment> all;
        std::string error;
        QVERIFY(stampede::projectEnvironments(*w.treeModel()->store(), all, error));
        QCOMPARE(all.size(), std::size_t(1));
        QCOMPARE(all[0].secrets_size(), 1);
        QVERIFY(!all[0].values().count("$secrets"));
        stampede::v1::Bundle bundle;
        QVERIFY(stampede::carryEnvironments(bundle, all, "staging", error));
        QVERIFY(!bundle.environments(0).values().count("password"));
        QCOMPARE(bundle.environments(0).values().at("c"), std::string("3"));
        QCOMPARE(bundle.environments(0).secrets(0), std::string("password"));
    }

    void filterKeepsMatchingItemsAndTheirParents()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("f.stampede"));
        MainWindow w;
        QVERIFY(w.newProject(path));
        const QModelIndex coll = w.treeModel()->index(0, 0);
        w.treeModel()->addItem(coll, ItemKind::Request, QStringLiteral("login"));
        w.treeModel()->addItem(coll, ItemKind::Request, QStringLiteral("search"));
        auto* filter = w.findChild<QLineEdit*>();
        QTest::keyClicks(filter, QStringLiteral("sea"));
        QAbstractItemModel* shown = w.treeView()->model();
        QCOMPARE(shown->rowCount(), 1); // the collection, kept for its matching child
        QCOMPARE(shown->rowCount(shown->index(0, 0)), 1);
        QCOMPARE(shown->index(0, 0, shown->index(0, 0)).data().toString(), QStringLiteral("search"));
    }

    void runsInTheTreeOpenAsReports()
    {
        QTemporaryDir dir;
        MainWindow w;
        QVERIFY(w.newProject(dir.filePath(QStringLiteral("r.stampede"))));
        stampede::RunLog log(*w.treeModel()->store());
        const auto run = log.begin("st-00000000000000aa", "checkout", "{}", "{}", {}, {"home"});
        stampede::IntervalMetrics second;
        second.second = 1;
        second.steps.resize(1);
        second.steps[0].counters.requests = 10;
        second.steps[0].latency.record(1500);
        QVERIFY(log.appendSecond(run, second));
        QVERIFY(log.finish(run, "completed", "{}"));
        w.treeModel()->refreshRuns();
        const QModelIndex runs = w.treeModel()->runsIndex();
        QCOMPARE(w.treeModel()->rowCount(runs), 1);
        const QModelIndex entry = w.treeModel()->index(0, 0, runs);
        QVERIFY(entry.data().toString().contains(QLatin1String("checkout")));
        auto* proxy = qobject_cast<QSortFilterProxyModel*>(w.treeView()->model());
        QVERIFY(proxy);
        auto* tabs = w.findChild<QTabWidget*>();
        const int before = tabs->count();
        Q_EMIT w.treeView()->doubleClicked(proxy->mapFromSource(entry));
        QCOMPARE(tabs->count(), before + 1);
        QVERIFY(tabs->tabText(tabs->currentIndex()).contains(QLatin1String("st-00000000000000aa")));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
