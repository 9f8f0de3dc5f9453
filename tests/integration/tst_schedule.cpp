// `stampede-cli schedule install|list|remove PROJECT`: the units it writes
// pass `systemd-analyze verify`, the service's own command line runs the
// scenario and keeps the run in the project (what the timer will do), list
// shows it, remove takes the units away, and bad input names what is wrong.
#include "testsupport.h"

#include "store/projectstore.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

using namespace testsupport;

class TestSchedule : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    MockProcess m_mock;
    QString m_project, m_units;

    QString read(const QString& name)
    {
        QFile f(m_units + QLatin1Char('/') + name);
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    }
    QStringList unitFiles() { return QDir(m_units).entryList(QDir::Files, QDir::Name); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_mock.started());
        m_project = m_dir.filePath(QStringLiteral("nightly.stampede"));
        m_units = m_dir.filePath(QStringLiteral("units"));
        std::string error;
        auto store = stampede::ProjectStore::create(m_project.toStdString(), error);
        QVERIFY2(store, error.c_str());
        const std::string url = m_mock.url(QStringLiteral("/")).toStdString();
        QVERIFY(store->addItem(
            0, stampede::ItemKind::Scenario, "Nightly smoke",
            "{\"name\": \"smoke\", \"schedule\": \"daily 02:00\", \"steps\": [{\"request\": {\"url\": \"" + url +
                "\"}}], \"load\": {\"open\": {\"rate\": 20}}, \"connections\": 2, \"duration\": \"1s\"}"));
        QVERIFY(
            store->addItem(0, stampede::ItemKind::Scenario, "soak",
                           "{\"name\": \"soak\", \"schedule\": \"every 6h\", \"steps\": [{\"request\": {\"url\": \"" +
                               url + "\"}}], \"load\": {\"closed\": {\"users\": 1}}, \"duration\": \"1s\"}"));
        QVERIFY(store->addItem(0, stampede::ItemKind::Scenario, "by hand",
                               "{\"steps\": [{\"request\": {\"url\": \"" + url +
                                   "\"}}], \"load\": {\"closed\": {\"users\": 1}}}"));
    }

    void installWritesUnitsThatRunTheScenario()
    {
        const auto r = runCli({QStringLiteral("schedule"), QStringLiteral("install"), m_project,
                               QStringLiteral("--unit-dir"), m_units, QStringLiteral("--no-enable")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QStringList files = unitFiles();
        QCOMPARE(files.size(), 4); // a timer and a service per scheduled scenario, none for "by hand"
        QString timer, service;
        for (const QString& f : files) {
            if (f.endsWith(QStringLiteral("nightly-smoke.timer")))
                timer = read(f);
            if (f.endsWith(QStringLiteral("nightly-smoke.service")))
                service = read(f);
        }
        QVERIFY2(timer.contains(QStringLiteral("\nOnCalendar=*-*-* 02:00:00\n")), qPrintable(timer));
        QVERIFY(timer.contains(QStringLiteral("Persistent=true")));
        QVERIFY(timer.contains(QStringLiteral("WantedBy=timers.target")));
        QVERIFY2(service.contains(QStringLiteral("@Nightly smoke\" --project \"")), qPrintable(service));
        QVERIFY(read(files.filter(QStringLiteral("soak.timer")).value(0))
                    .contains(QStringLiteral("OnCalendar=*-*-* 00/6:00:00")));

        // systemd's own check of the units
        const QString analyze = QStandardPaths::findExecutable(QStringLiteral("systemd-analyze"));
        if (analyze.isEmpty())
            QFAIL("systemd-analyze is missing: run scripts/install-deps.sh (package systemd)");
        QProcess verify;
        QStringList paths;
        for (const QString& f : files)
            paths << m_units + QLatin1Char('/') + f;
        verify.start(analyze, QStringList{QStringLiteral("verify")} + paths);
        QVERIFY(verify.waitForFinished(60000));
        const QString said = QString::fromUtf8(verify.readAllStandardOutput() + verify.readAllStandardError());
        QVERIFY2(verify.exitCode() == 0 && !said.contains(QStringLiteral("stampede")), qPrintable(said));

        // what the timer starts: the service's command line, as systemd would split it
        const qsizetype at = service.indexOf(QStringLiteral("ExecStart="));
        const QString line = service.mid(at + 10, service.indexOf(QLatin1Char('\n'), at) - at - 10);
        const QStringList args = QProcess::splitCommand(line);
        QCOMPARE(args.value(0), QFileInfo(cliPath()).canonicalFilePath());
        QProcess run;
        run.start(args.first(), args.mid(1));
        QVERIFY(run.waitForFinished(60000));
        QVERIFY2(run.exitCode() == 0, run.readAllStandardError().constData());
        const auto list = runCli(
            {QStringLiteral("schedule"), QStringLiteral("list"), m_project, QStringLiteral("--unit-dir"), m_units});
        QVERIFY2(list.exitCode == 0, qPrintable(list.err));
        QVERIFY2(list.out.contains(QRegularExpression(QStringLiteral("Nightly smoke +daily 02:00 +installed +last run "
                                                                     "\\S+ completed"))),
                 qPrintable(list.out));
        QVERIFY2(list.out.contains(QRegularExpression(QStringLiteral("soak +every 6h +installed +never run"))),
                 qPrintable(list.out));
    }

    void removeTakesTheUnitsAway()
    {
        const auto r = runCli({QStringLiteral("schedule"), QStringLiteral("remove"), m_project,
                               QStringLiteral("--unit-dir"), m_units, QStringLiteral("--no-enable")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(unitFiles().isEmpty());
        const auto list = runCli(
            {QStringLiteral("schedule"), QStringLiteral("list"), m_project, QStringLiteral("--unit-dir"), m_units});
        QVERIFY(list.out.contains(QStringLiteral("not installed")));
    }

    void badInputNamesWhatIsWrong()
    {
        const QString bad = m_dir.filePath(QStringLiteral("bad.stampede"));
        {
            std::string error;
            auto store = stampede::ProjectStore::create(bad.toStdString(), error);
            store->addItem(
                0, stampede::ItemKind::Scenario, "typo",
                "{\"schedule\": \"nightly\", \"steps\": [{\"request\": {\"url\": \"http://127.0.0.1:9/\"}}]}");
        }
        const QString units = m_dir.filePath(QStringLiteral("bad-units"));
        auto r = runCli({QStringLiteral("schedule"), QStringLiteral("install"), bad, QStringLiteral("--unit-dir"),
                         units, QStringLiteral("--no-enable")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("scenario \"typo\": schedule \"nightly\" is not understood (write "
                                               "\"daily 02:00\"")),
                 qPrintable(r.err));
        QVERIFY(!QDir(units).exists() || QDir(units).isEmpty());
        r = runCli({QStringLiteral("schedule"), QStringLiteral("start"), m_project});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("give install, list or remove")));
        r = runCli(
            {QStringLiteral("schedule"), QStringLiteral("list"), m_dir.filePath(QStringLiteral("gone.stampede"))});
        QCOMPARE(r.exitCode, 2);
        // the designer's and the run's check of the field
        const QString file = writeFile(m_dir, "s.json",
                                       "{\"schedule\": \"every 2 days\", \"steps\": [{\"request\": {\"url\": "
                                       "\"http://127.0.0.1:9/\"}}], \"duration\": \"1s\"}");
        r = runCli({QStringLiteral("run"), file, QStringLiteral("-q")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("schedule: schedule \"every 2 days\" is not understood")),
                 qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestSchedule)
#include "tst_schedule.moc"
