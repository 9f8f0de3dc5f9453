// Issue 52: `stampede PROJECT --open SCENARIO --run --screenshot F` pictures the run going on, and quits once the
// run has ended and been saved (it wrote F and then never quit: "1 run(s) are still going on").
#include "testsupport.h"

#include "store/projectstore.h"
#include "store/runlog.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace testsupport;

class TestGuiRun : public QObject
{
    Q_OBJECT
private slots:
    void screenshotOfARunQuitsOnceSaved()
    {
        MockProcess mock;
        QVERIFY(mock.started());
        QTemporaryDir dir;
        const QString project = dir.filePath(QStringLiteral("p.stampede"));
        {
            std::string error;
            auto store = stampede::ProjectStore::create(project.toStdString(), error);
            QVERIFY2(store, error.c_str());
            const QByteArray scenario =
                QStringLiteral("{\"name\": \"short\", \"steps\": [{\"name\": \"home\", \"request\": {\"url\": "
                               "\"%1\"}}], \"load\": {\"open\": {\"rate\": 10}}, \"duration\": \"2s\"}")
                    .arg(mock.url())
                    .toUtf8();
            QVERIFY(store->addItem(0, stampede::ItemKind::Scenario, "short", scenario.toStdString()) > 0);
        }
        const QString picture = dir.filePath(QStringLiteral("run.png"));
        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), dir.path()); // its settings and recent projects apart from the user's
        gui.setProcessEnvironment(env);
        gui.start(qEnvironmentVariable("STAMPEDE_GUI"),
                  {project, QStringLiteral("--open"), QStringLiteral("short"), QStringLiteral("--run"),
                   QStringLiteral("--screenshot"), picture, QStringLiteral("--screenshot-delay"),
                   QStringLiteral("500")});
        QVERIFY2(gui.waitForStarted(10000), qPrintable(qEnvironmentVariable("STAMPEDE_GUI")));
        QElapsedTimer took;
        took.start();
        const bool ended = gui.waitForFinished(90000); // a 2 s run; the bound is for a busy machine
        if (!ended)
            gui.kill();
        QVERIFY2(ended, "the workbench did not quit after the run");
        QCOMPARE(gui.exitStatus(), QProcess::NormalExit);
        QCOMPARE(gui.exitCode(), 0);
        QVERIFY(!QImage(picture).isNull()); // the picture was taken (while the run went on)
        std::string error;
        bool readOnly = false;
        auto store = stampede::ProjectStore::openForReading(project.toStdString(), error, readOnly);
        QVERIFY2(store, error.c_str());
        const auto runs = stampede::RunLog(*store).runs();
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].status, std::string("completed")); // ended as planned, saved, then quit
        QCOMPARE(runs[0].verdict, std::string("completed and passed"));
    }
};

QTEST_GUILESS_MAIN(TestGuiRun)
#include "tst_guirun.moc"
