#include "bundle/bundlefile.h"
#include "stampede/v1/bundle.pb.h"

#include <QTemporaryDir>
#include <QTest>
#include <fstream>

using namespace stampede;

class TestBundle : public QObject
{
    Q_OBJECT
private:
    static std::string sample()
    {
        v1::Bundle b;
        b.set_format_version(kBundleFormatVersion);
        auto* s = b.mutable_scenario();
        s->set_name("bundle test");
        s->add_steps()->mutable_request()->set_url("http://127.0.0.1:9/");
        auto* v = s->add_variables();
        v->set_name("u");
        v->mutable_csv()->set_data("id\n1\n2\n");
        return encodeBundle(b);
    }

private slots:
    void roundTrip()
    {
        v1::Bundle back;
        std::string error;
        QVERIFY2(decodeBundle(sample(), back, error), error.c_str());
        QCOMPARE(back.scenario().name(), std::string("bundle test"));
        QCOMPARE(back.scenario().variables(0).csv().data(), std::string("id\n1\n2\n"));
    }

    void inlinesCsvFiles()
    {
        QTemporaryDir dir;
        std::ofstream(dir.filePath(QStringLiteral("rows.csv")).toStdString()) << "id\n7\n";
        v1::Scenario s;
        auto* v = s.add_variables();
        v->set_name("rows");
        v->mutable_csv()->set_file("rows.csv");
        v1::Bundle b;
        std::string error;
        QVERIFY2(makeBundle(s, dir.path().toStdString(), "s.json", b, error), error.c_str());
        QCOMPARE(b.scenario().variables(0).csv().data(), std::string("id\n7\n"));
        QVERIFY(b.scenario().variables(0).csv().file().empty());
        v->mutable_csv()->set_file("missing.csv");
        QVERIFY(!makeBundle(s, dir.path().toStdString(), "s.json", b, error));
        QVERIFY(QString::fromStdString(error).startsWith(QStringLiteral("variables[0].csv.file: cannot read")));
    }

    void refusesBadBundles_data()
    {
        QTest::addColumn<int>("damage");
        QTest::addColumn<QString>("message");
        QTest::addRow("truncated") << 0 << "truncated bundle";
        QTest::addRow("flipped byte") << 1 << "altered bundle: the SHA-256 digest does not match";
        QTest::addRow("newer version") << 2 << "the bundle has format version 99, newer than";
        QTest::addRow("not a bundle") << 3 << "not a Stampede bundle";
        QTest::addRow("header cut") << 4 << "truncated bundle: the header is incomplete";
        QTest::addRow("extra bytes") << 5 << "altered bundle: 3 bytes follow the payload";
    }
    void refusesBadBundles()
    {
        QFETCH(int, damage);
        QFETCH(QString, message);
        std::string b = sample();
        switch (damage) {
        case 0:
            b.resize(b.size() - 5);
            break;
        case 1:
            b[b.size() - 3] ^= 0x20;
            break;
        case 2:
            b[11] = 99;
            break;
        case 3:
            b = "{\"steps\": []}";
            break;
        case 4:
            b.resize(20);
            break;
        case 5:
            b += "xyz";
            break;
        }
        v1::Bundle back;
        std::string error;
        QVERIFY(!decodeBundle(b, back, error));
        QVERIFY2(QString::fromStdString(error).startsWith(message), error.c_str());
    }
};

QTEST_APPLESS_MAIN(TestBundle)
#include "tst_bundle.moc"
