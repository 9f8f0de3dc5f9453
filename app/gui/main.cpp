#include "collectionrun.h"
#include "control/grpclog.h"
#include "demoproject.h"
#include "mainwindow.h"
#include "net/tlscontext.h"
#include "projecttreemodel.h"
#include "reportmodel.h"
#include "requesteditor.h"
#include "store/projectstore.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTabWidget>
#include <QTimer>
#include <QTranslator>

#include <csignal>
#include <cstdio>

// `stampede --report FILE --export OUT`: the newest run's report as the workbench exports it, in its language.
static int exportReport(const QString& from, const QString& to)
{
    const QString ext = QFileInfo(to).suffix().toLower();
    const QString format = ext == QLatin1String("xml") ? QStringLiteral("junit") : ext;
    if (from.isEmpty() ||
        !QStringList{QStringLiteral("html"), QStringLiteral("json"), QStringLiteral("csv"), QStringLiteral("junit")}
             .contains(format)) {
        std::fprintf(stderr, "stampede: --export OUT needs --report FILE (or a project) and OUT ending in .html, "
                             ".json, .csv or .xml\n");
        return 2;
    }
    std::string error;
    bool readOnly = false;
    auto store = stampede::ProjectStore::openForReading(from.toStdString(), error, readOnly);
    ReportModel model;
    if (!store || !model.load(*store)) {
        std::fprintf(stderr, "stampede: %s: %s\n", qPrintable(from),
                     store ? qPrintable(model.errorString()) : error.c_str());
        return 2;
    }
    QFile out(to);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(model.exportAs(format)) < 0) {
        std::fprintf(stderr, "stampede: %s: %s\n", qPrintable(to), qPrintable(out.errorString()));
        return 3;
    }
    std::printf("%s: %s report of run %s\n", qPrintable(to), qPrintable(format), qPrintable(model.runId()));
    return 0;
}

int main(int argc, char** argv)
{
    stampede::keepTlsLibraryUntilExit(); // before anything uses OpenSSL (net/tlscontext.h)
    std::signal(SIGPIPE, SIG_IGN);       // a peer's close is an error of that write, not the workbench's end
    QElapsedTimer startup;
    startup.start();
    QApplication app(argc, argv);
    stampede::quietGrpcHandshakeLogs();
    QApplication::setApplicationName(QStringLiteral("stampede"));
    QApplication::setOrganizationName(QStringLiteral("stampede"));
    QApplication::setApplicationVersion(QStringLiteral(STAMPEDE_VERSION));

    QCommandLineParser cli;
    cli.setApplicationDescription(QStringLiteral("Stampede: load and full-link stress testing workbench"));
    cli.addHelpOption();
    cli.addVersionOption();
    cli.addPositionalArgument(QStringLiteral("project"), QStringLiteral("a *.stampede project to open"));
    const QCommandLineOption demo(QStringLiteral("demo"), QStringLiteral("open the demo project"));
    const QCommandLineOption mockUrl(
        QStringLiteral("mock-url"),
        QStringLiteral("a mock server already serving the demo's rules (default: the demo starts its own)"),
        QStringLiteral("url"), QStringLiteral("http://127.0.0.1:18080"));
    const QCommandLineOption language(QStringLiteral("language"),
                                      QStringLiteral("en or zh_CN (default: settings, then the system)"),
                                      QStringLiteral("code"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("save a picture of the window to FILE and quit"),
                                        QStringLiteral("file"));
    const QCommandLineOption timing(QStringLiteral("startup-timing"),
                                    QStringLiteral("print the time from start to the first window shown, and quit"));
    const QCommandLineOption openRequest(QStringLiteral("open"), QStringLiteral("open the request with this name"),
                                         QStringLiteral("name"));
    const QCommandLineOption sendIt(QStringLiteral("send"), QStringLiteral("send the request opened with --open"));
    const QCommandLineOption tab(
        QStringLiteral("tab"),
        QStringLiteral("show this tab of the item opened with --open: its place (4) or name (Auth, Load)"),
        QStringLiteral("name"));
    const QCommandLineOption runIt(QStringLiteral("run"),
                                   QStringLiteral("run the scenario opened with --open (a collection or folder: "
                                                  "in the collection runner)"));
    const QCommandLineOption delay(QStringLiteral("screenshot-delay"),
                                   QStringLiteral("wait this long before --screenshot"), QStringLiteral("ms"),
                                   QStringLiteral("1200"));
    const QCommandLineOption compareLast(QStringLiteral("compare-last-two"),
                                         QStringLiteral("compare the project's two newest runs"));
    const QCommandLineOption reportFile(QStringLiteral("report"), QStringLiteral("open a standalone report file"),
                                        QStringLiteral("file"));
    const QCommandLineOption exportTo(
        QStringLiteral("export"),
        QStringLiteral("with --report FILE (or a project): write the newest run's report to OUT (html, json, csv or "
                       "junit by its extension) in the workbench's language (--language), and quit"),
        QStringLiteral("out"));
    const QCommandLineOption trend(QStringLiteral("trend"),
                                   QStringLiteral("show the trend of the project's scenario NAME over its runs"),
                                   QStringLiteral("name"));
    cli.addOptions({demo, mockUrl, language, screenshot, timing, openRequest, sendIt, tab, runIt, delay, compareLast,
                    reportFile, exportTo, trend});
    cli.process(app);

    QString code = cli.value(language);
    if (code.isEmpty())
        code = QSettings().value(QStringLiteral("language")).toString();
    if (code.isEmpty())
        code =
            QLocale::system().name().startsWith(QLatin1String("zh")) ? QStringLiteral("zh_CN") : QStringLiteral("en");
    QTranslator ours, qt;
    if (code == QLatin1String("zh_CN")) {
        if (ours.load(QStringLiteral(":/i18n/stampede_zh_CN.qm")))
            QApplication::installTranslator(&ours);
        if (qt.load(QStringLiteral("qtbase_zh_CN"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QApplication::installTranslator(&qt);
    }

    if (cli.isSet(exportTo))
        return exportReport(cli.isSet(reportFile) ? cli.value(reportFile) : cli.positionalArguments().value(0),
                            cli.value(exportTo));

    MainWindow window;
    window.setDemoOpener([](QString& error) {
        const QString path = DemoProject::defaultPath();
        return DemoProject::ensure(path, error) ? path : QString();
    });
    if (cli.isSet(demo)) {
        // the demo project starts its own mock server when it opens, unless one is given
        QString error;
        const QString path = DemoProject::defaultPath();
        if (!DemoProject::ensure(path, error) || !window.openProject(path))
            std::fprintf(stderr, "stampede: demo project: %s\n", qPrintable(error));
        else if (cli.isSet(mockUrl))
            window.useMockAt(cli.value(mockUrl));
    } else if (!cli.positionalArguments().isEmpty()) {
        window.openProject(cli.positionalArguments().constFirst());
    }
    window.show();
    if (cli.isSet(reportFile))
        window.openReportFile(cli.value(reportFile));
    if (cli.isSet(trend))
        window.showTrend(cli.value(trend));
    if (cli.isSet(compareLast) && window.treeModel()->store()) {
        const auto runs = ReportModel::runs(*window.treeModel()->store());
        if (runs.size() >= 2)
            window.compareRuns(runs[runs.size() - 2].id, runs.last().id);
    }
    bool scenarioRun = false; // --run of a scenario: --screenshot waits for it to end before quitting
    if (cli.isSet(openRequest)) {
        const QModelIndexList found =
            window.treeModel()->match(window.treeModel()->index(0, 0), Qt::DisplayRole, cli.value(openRequest), 1,
                                      Qt::MatchExactly | Qt::MatchRecursive);
        const auto kind = found.isEmpty() ? -1 : found.first().data(ProjectTreeModel::KindRole).toInt();
        if (kind == int(stampede::ItemKind::Collection) || kind == int(stampede::ItemKind::Folder)) {
            // a collection or folder: with --run, the collection runner, in the project's environment
            const qint64 id = found.first().data(ProjectTreeModel::IdRole).toLongLong();
            window.whenMockReady([&window, &cli, &runIt, id] {
                CollectionRunChoice choice;
                choice.environment = QString::fromStdString(window.treeModel()->store()->setting("environment"));
                if (cli.isSet(runIt))
                    window.runCollection(id, choice);
            });
        } else if (!found.isEmpty()) {
            window.openItem(found.first().data(ProjectTreeModel::IdRole).toLongLong());
            if (cli.isSet(tab) && window.currentEditor()) { // by its place (from 1) or how its name starts
                const QString name = cli.value(tab);
                bool isNumber = false;
                const int place = name.toInt(&isNumber);
                for (QTabWidget* tabs : window.currentEditor()->findChildren<QTabWidget*>())
                    for (int i = 0; i < tabs->count(); ++i)
                        if (isNumber ? i + 1 == place : tabs->tabText(i).remove(QLatin1Char('&')).startsWith(name))
                            tabs->setCurrentIndex(i);
            }
            scenarioRun = cli.isSet(runIt);
            // sent or run once the project's mock listens (the environment then points at it)
            const QByteArray payload = found.first().data(ProjectTreeModel::PayloadRole).toByteArray();
            window.whenMockReady([&window, &cli, &sendIt, &runIt, &openRequest, payload] {
                if (cli.isSet(sendIt) && window.currentRequestEditor())
                    window.currentRequestEditor()->send();
                if (cli.isSet(runIt))
                    window.startRun(payload, cli.value(openRequest));
            });
        }
    }
    if (cli.isSet(timing) || cli.isSet(screenshot)) {
        QTimer::singleShot(0, &window, [&] {
            if (cli.isSet(timing))
                std::printf("first window shown after %lld ms\n", static_cast<long long>(startup.elapsed()));
        });
        QTimer::singleShot(cli.isSet(screenshot) ? cli.value(delay).toInt() : 0, &window, [&] {
            if (cli.isSet(screenshot))
                window.grab().save(cli.value(screenshot));
            if (scenarioRun) // the picture of the run going on; the run ends as planned and is saved, then quit
                window.quitOnceRunsEnd();
            else
                QApplication::quit();
        });
    }
    return QApplication::exec();
}
