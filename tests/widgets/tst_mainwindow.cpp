// The main window on a real project file: edits reach the store at once.
#include "mainwindow.h"
#include "projecttreemodel.h"
#include "requesteditor.h"

#include "store/projectstore.h"

#include <QApplication>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using stampede::ItemKind;

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
            QCOMPARE(w.treeModel()->rowCount(), 2); // a collection and an environment
            QTest::keySequence(&w, QKeySequence::New);
            RequestEditor* editor = w.currentRequestEditor();
            QVERIFY(editor);
            auto* url = editor->findChild<QLineEdit*>();
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
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
