// Issue 51: the HTML export is the workbench's report, in the workbench's language: read by a real browser
// (headless Chromium parses it and draws it), its verdict the workbench's words, its table the workbench's rows,
// its lines in the workbench's colours, in English and in Chinese.
#include "reportmodel.h"
#include "testsupport.h"

#include "report/svgchart.h"
#include "store/projectstore.h"

#include <QCoreApplication>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

#include <set>

using namespace testsupport;

class TestHtmlReport : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_project;
    QString m_chromium;

    // Chromium, headless, on `html`: its DOM after parsing (--dump-dom) or a picture of the page (--screenshot).
    QByteArray chromium(const QStringList& what, const QString& html)
    {
        QProcess p;
        p.start(m_chromium,
                QStringList{QStringLiteral("--headless"), QStringLiteral("--no-sandbox"),
                            QStringLiteral("--disable-gpu"), QStringLiteral("--hide-scrollbars"),
                            QStringLiteral("--user-data-dir=") + m_dir.filePath(QStringLiteral("profile"))} +
                    what + QStringList{QStringLiteral("file://") + html});
        if (!p.waitForFinished(120000))
            p.kill();
        return p.readAllStandardOutput();
    }

    QString exported(const QString& language)
    {
        QTranslator zh;
        if (!language.isEmpty() &&
            (!zh.load(QStringLiteral(":/i18n/stampede_zh_CN.qm")) || !QCoreApplication::installTranslator(&zh)))
            return {};
        std::string error;
        bool readOnly = false;
        auto store = stampede::ProjectStore::openForReading(m_project.toStdString(), error, readOnly);
        ReportModel report;
        if (!store || !report.load(*store))
            return {};
        const QString path =
            m_dir.filePath(QStringLiteral("report-%1.html").arg(language.isEmpty() ? QStringLiteral("en") : language));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(report.exportAs(QStringLiteral("html"))) < 0)
            return {};
        // what the workbench shows of the same run, in the same language
        m_verdict = report.verdict();
        m_rows.clear();
        for (int r = 0; r < report.rowCount(); ++r)
            m_rows << report.index(r, ReportModel::StepColumn).data().toString();
        QCoreApplication::removeTranslator(&zh);
        return path;
    }
    QString m_verdict;
    QStringList m_rows;

private slots:
    void initTestCase()
    {
        m_chromium = QStandardPaths::findExecutable(QStringLiteral("chromium"));
        // a peer of this test: scripts/install-deps.sh installs it, and its absence is a failure, not a skip
        QVERIFY2(!m_chromium.isEmpty(), "chromium is not installed: run scripts/install-deps.sh");
        MockProcess mock(QStringLiteral("{\"rules\": [{\"path\": \"/b\", \"status\": 500, \"body\": \"bad\"}, "
                                        "{\"path\": \"/*\", \"delay\": {\"fixedMs\": 3}}]}"));
        QVERIFY(mock.started());
        const QString scenario = writeFile(
            m_dir, "shop.json",
            QStringLiteral("{\"name\": \"shop\", \"steps\": [{\"name\": \"browse\", \"group\": \"buy\", \"request\": "
                           "{\"url\": \"%1\"}}, {\"name\": \"pay\", \"group\": \"buy\", \"request\": {\"url\": "
                           "\"%2\"}}], \"load\": {\"open\": {\"rate\": 20}}, \"duration\": \"2s\", \"connections\": "
                           "4, \"thresholds\": [{\"expr\": \"error_rate < 2%\"}, {\"expr\": \"p99 < 500ms\"}]}")
                .arg(mock.url(QStringLiteral("/a")), mock.url(QStringLiteral("/b")))
                .toUtf8());
        m_project = m_dir.filePath(QStringLiteral("shop.stampede"));
        const CliResult r =
            runCli({QStringLiteral("run"), scenario, QStringLiteral("-q"), QStringLiteral("--project"), m_project});
        QVERIFY2(r.exitCode == 1, qPrintable(r.out + r.err)); // half the requests fail: the error rate's threshold
    }

    void readByABrowser_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << QString();
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }
    void readByABrowser()
    {
        QFETCH(QString, language);
        const QString html = exported(language);
        QVERIFY(!html.isEmpty());
        QFile f(html);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString source = QString::fromUtf8(f.readAll());
        // parsed by Chromium: every chart and heading of the file is in its DOM
        const QString dom = QString::fromUtf8(chromium({QStringLiteral("--dump-dom")}, html));
        const auto count = [](const QString& text, const QString& what) { return text.count(what); };
        QVERIFY2(count(dom, QStringLiteral("<svg")) == count(source, QStringLiteral("<svg")) &&
                     count(source, QStringLiteral("<svg")) >= 8,
                 qPrintable(dom.left(400)));
        QCOMPARE(count(dom, QStringLiteral("<h2")), count(source, QStringLiteral("<h2")));
        QVERIFY(dom.contains(language.isEmpty() ? QStringLiteral("lang=\"en\"") : QStringLiteral("lang=\"zh-CN\"")));
        // the workbench's verdict and rows, in its words
        QVERIFY2(dom.contains(QStringLiteral("id=\"verdict\">") + m_verdict.toHtmlEscaped() + QStringLiteral("</p>")),
                 qPrintable(m_verdict));
        QVERIFY(m_verdict.startsWith(language.isEmpty() ? QStringLiteral("completed and failed: threshold error_rate")
                                                        : QStringLiteral("已完成，未通过：阈值 error_rate")));
        QCOMPARE(m_rows.size(), 4); // browse, pay, total, the group
        for (const QString& row : std::as_const(m_rows))
            QVERIFY2(dom.contains(QStringLiteral("<td>") + row.toHtmlEscaped() + QStringLiteral("</td>")),
                     qPrintable(row));
        if (!language.isEmpty())
            for (const QString& english : {QStringLiteral(">Throughput<"), QStringLiteral(">Thresholds<"),
                                           QStringLiteral(">Summary per step<"), QStringLiteral(">Events<")})
                QVERIFY2(!dom.contains(english), qPrintable(english));
        // drawn: a page of the charts, their lines in the workbench's colours (completed, errors)
        const QString png =
            m_dir.filePath(QStringLiteral("page-%1.png").arg(language.isEmpty() ? QStringLiteral("en") : language));
        chromium({QStringLiteral("--window-size=1280,2400"), QStringLiteral("--screenshot=") + png}, html);
        QImage page(png);
        QVERIFY2(!page.isNull(), qPrintable(png));
        QCOMPARE(page.width(), 1280);
        std::set<QRgb> colours;
        for (int y = 0; y < page.height(); y += 2)
            for (int x = 0; x < page.width(); x += 2)
                colours.insert(page.pixel(x, y) & 0xffffff);
        for (std::size_t i : {std::size_t(0), std::size_t(1)}) {
            const QRgb want = QColor(QLatin1String(stampede::seriesColour(i))).rgb() & 0xffffff;
            QVERIFY2(colours.count(want), stampede::seriesColour(i));
        }
        QVERIFY(colours.size() > 50); // text, lines and bars, not a blank page
    }
};

QTEST_GUILESS_MAIN(TestHtmlReport)
#include "tst_htmlreport.moc"
