// "Import traffic…" (issue "Traffic replay"): the preview shows the first
// requests as recorded and as they will be stored (masked with the project's
// key), a format or mask that does not read disables Import and says why, and
// Import stores a masked traffic set in the project.
#include "trafficimportdialog.h"
#include "trafficview.h"

#include "store/projectstore.h"
#include "traffic/trafficstore.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

class TestTrafficImportDialog : public QObject
{
    Q_OBJECT
private slots:
    void previewThenImport()
    {
        QTemporaryDir dir;
        std::string error;
        auto store = stampede::ProjectStore::create(dir.filePath(QStringLiteral("p.stampede")).toStdString(), error);
        QVERIFY(store);
        QFile log(dir.filePath(QStringLiteral("access.log")));
        QVERIFY(log.open(QIODevice::WriteOnly));
        for (int i = 0; i < 50; ++i)
            log.write(QStringLiteral("10.0.0.%1 - - [01/Dec/2026:10:00:%2 +0800] \"GET /api/u?phone=1391234%3 "
                                     "HTTP/1.1\" 200 5 \"-\" \"curl\"\n")
                          .arg(i)
                          .arg(i % 60, 2, 10, QLatin1Char('0'))
                          .arg(1000 + i)
                          .toUtf8());
        log.close();
        TrafficImportDialog d(*store);
        auto* import = d.findChild<QDialogButtonBox*>()->buttons().value(0);
        for (auto* b : d.findChild<QDialogButtonBox*>()->buttons())
            if (b->text() == QLatin1String("Import"))
                import = b;
        QVERIFY(!import->isEnabled()); // no file yet
        d.setFile(log.fileName());
        QVERIFY(import->isEnabled());
        QTableWidget* preview = d.preview();
        QCOMPARE(preview->rowCount(), 8);
        QVERIFY(preview->item(0, 0)->text().contains(QStringLiteral("phone=13912341000")));
        QVERIFY(!preview->item(0, 1)->text().contains(QStringLiteral("13912341000"))); // cn-mobile by default
        QVERIFY(preview->item(0, 1)->text().startsWith(QStringLiteral("GET /api/u?phone=")));
        // what each rule changed (issue 29)
        QVERIFY2(preview->item(0, 2)->text().contains(QStringLiteral("preset:cn-mobile ×1")),
                 qPrintable(preview->item(0, 2)->text()));
        if (qEnvironmentVariableIsSet("STAMPEDE_SHOT_DIR")) { // a picture to look at
            d.show();
            d.grab().save(qEnvironmentVariable("STAMPEDE_SHOT_DIR") + QStringLiteral("/import-dialog.png"));
        }
        // a log_format with an unknown variable: said, and Import is off
        auto* formats = d.findChild<QComboBox*>(QStringLiteral("format"));
        formats->setCurrentIndex(formats->findData(QStringLiteral("custom")));
        auto* format = d.findChild<QLineEdit*>(QStringLiteral("logFormat"));
        format->setText(QStringLiteral("$remote_addr $nope \"$request\""));
        Q_EMIT format->editingFinished();
        QVERIFY(!import->isEnabled());
        QVERIFY2(d.problem().contains(QStringLiteral("unknown variable $nope")), qPrintable(d.problem()));
        d.findChild<QComboBox*>(QStringLiteral("format"))->setCurrentIndex(0);
        d.findChild<QPlainTextEdit*>(QStringLiteral("masks"))->setPlainText(QStringLiteral("query:phone=scramble"));
        QVERIFY(!import->isEnabled());
        QVERIFY(d.problem().contains(QStringLiteral("the action is hash, drop or replace:TEXT")));
        d.findChild<QPlainTextEdit*>(QStringLiteral("masks"))->setPlainText(QStringLiteral("query:phone=drop"));
        QVERIFY(import->isEnabled());
        QVERIFY(preview->item(0, 1)->text().startsWith(QStringLiteral("GET /api/u ")) ||
                preview->item(0, 1)->text() == QStringLiteral("GET /api/u  [user-agent: curl]"));
        const qint64 id = d.importNow();
        QVERIFY2(id, qPrintable(d.problem()));
        std::vector<stampede::TrafficRecord> stored;
        QVERIFY(stampede::TrafficStore(*store).load(id, stored));
        QCOMPARE(stored.size(), std::size_t(50));
        for (const auto& r : stored)
            QVERIFY(r.target == "/api/u");
        QCOMPARE(int(store->item(id)->kind), int(stampede::ItemKind::Traffic));
        QVERIFY(QByteArray::fromStdString(store->item(id)->payload).contains("\"masks\":[\"query:phone=drop\"]"));
        // the set's view: decoded off the GUI thread, its seconds and busiest paths
        TrafficView view(*store, id, QByteArray::fromStdString(store->item(id)->payload));
        view.resize(1000, 600);
        view.show();
        QTRY_VERIFY_WITH_TIMEOUT(view.loaded(), 10000);
        QCOMPARE(view.paths()->rowCount(), 1);
        QCOMPARE(view.paths()->item(0, 0)->text(), QStringLiteral("/api/u"));
        QCOMPARE(view.paths()->item(0, 1)->text(), QStringLiteral("50"));
        const QString state = view.findChild<QLabel*>(QStringLiteral("state"))->text();
        QVERIFY2(state.contains(QStringLiteral("50 s long, at most 1 requests in a second; 50 clients; GET 50")),
                 qPrintable(state));
        if (qEnvironmentVariableIsSet("STAMPEDE_SHOT_DIR"))
            view.grab().save(qEnvironmentVariable("STAMPEDE_SHOT_DIR") + QStringLiteral("/traffic-view.png"));
    }
};

QTEST_MAIN(TestTrafficImportDialog)
#include "tst_trafficimportdialog.moc"
