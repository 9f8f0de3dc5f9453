// The one boundary for text from outside (core/utf8.h, wire/wireutf8.h):
// what a server sends that is not UTF-8 (a GBK grpc-message, a Latin-1
// status line) is escaped byte for byte, and a snapshot holding it can be
// sent and read back; without it, the agent's snapshot did not parse at the
// controller and the run never ended.
#include "core/utf8.h"
#include "report/junitreport.h"
#include "stampede/v1/control.pb.h"
#include "wire/snapshotcodec.h"
#include "wire/wireutf8.h"

#include <QTest>
#include <QXmlStreamReader>

using namespace stampede;

class TestUtf8 : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void escapes_data()
    {
        QTest::addColumn<QByteArray>("in");
        QTest::addColumn<QByteArray>("out");
        QTest::addRow("ascii") << QByteArray("grpc-status 13") << QByteArray("grpc-status 13");
        QTest::addRow("chinese (UTF-8)") << QByteArray("\xe6\x9c\x8d\xe5\x8a\xa1")
                                         << QByteArray("\xe6\x9c\x8d\xe5\x8a\xa1");
        QTest::addRow("GBK") << QByteArray("\xb7\xfe\xce\xf1") << QByteArray("\\xB7\\xFE\\xCE\\xF1");
        QTest::addRow("0xFF in a status") << QByteArray("2\xff"
                                                        "0")
                                          << QByteArray("2\\xFF0");
        QTest::addRow("overlong") << QByteArray("\xc0\xaf") << QByteArray("\\xC0\\xAF");
        QTest::addRow("surrogate") << QByteArray("\xed\xa0\x80") << QByteArray("\\xED\\xA0\\x80");
        QTest::addRow("past U+10FFFF") << QByteArray("\xf4\x90\x80\x80") << QByteArray("\\xF4\\x90\\x80\\x80");
        QTest::addRow("cut at the end") << QByteArray("ok \xe6\x9c") << QByteArray("ok \\xE6\\x9C");
        QTest::addRow("valid after invalid") << QByteArray("\xff\xc3\xa9") << QByteArray("\\xFF\xc3\xa9");
        QTest::addRow("NUL kept") << QByteArray("a\0b", 3) << QByteArray("a\0b", 3);
    }
    void escapes()
    {
        QFETCH(QByteArray, in);
        QFETCH(QByteArray, out);
        const std::string escaped = utf8Escaped(in.toStdString());
        QCOMPARE(QByteArray::fromStdString(escaped), out);
        QVERIFY(isUtf8(escaped));
        QCOMPARE(isUtf8(in.toStdString()), in == out);
    }

    // A snapshot whose sample holds a server's bytes: every string field,
    // however deep, made UTF-8 (bytes fields left as they are); it then
    // parses where it is read.
    void aSnapshotWithAServersBytesIsSentAndRead()
    {
        IntervalMetrics m;
        m.second = 1;
        m.steps.resize(1);
        m.steps[0].counters.requests = 1;
        ErrorSample e;
        e.errorClass = ErrorClass::Grpc;
        e.head = "grpc-message: \xb7\xfe";
        e.detail = "grpc-status 13 INTERNAL: \xb7\xfe\xce\xf1";
        m.samples.push_back(e);
        m.console.push_back({0, "log \xff"});
        v1::Snapshot s;
        encodeSnapshot(m, s);
        s.set_final(true);
        (*s.mutable_values())["token"] = "v\xff";
        s.add_notes()->set_detail("note \xfe");
        v1::Snapshot unchanged = s;
        QCOMPARE(makeStringsUtf8(s), 4); // detail, console, the value, the note
        v1::Snapshot back;
        QVERIFY(back.ParseFromString(s.SerializeAsString()));
        QCOMPARE(back.samples(0).detail(), std::string("grpc-status 13 INTERNAL: \\xB7\\xFE\\xCE\\xF1"));
        QCOMPARE(back.samples(0).head(), std::string("grpc-message: \xb7\xfe")); // bytes: as received
        QCOMPARE(back.console(0).text(), std::string("log \\xFF"));
        QCOMPARE(back.values().at("token"), std::string("v\\xFF"));
        QCOMPARE(back.notes(0).detail(), std::string("note \\xFE"));
        QCOMPARE(makeStringsUtf8(back), 0);
        // what an agent wrote before: its reader refuses it (the run never ended)
        v1::Snapshot refused;
        QVERIFY(!refused.ParseFromString(unchanged.SerializeAsString()));
    }

    // JUnit and HTML text: markup escaped, and what XML 1.0 cannot hold (control characters, bytes that are not
    // UTF-8) written as \xHH, so that a test named by a hostile server still gives a file a CI job can read;
    // a failure's text holding "]]>" stays inside its CDATA.
    void xmlTextIsAlwaysWellFormed()
    {
        QCOMPARE(escapeXml("a<b>&\"'"), std::string("a&lt;b&gt;&amp;&quot;&apos;"));
        QCOMPARE(escapeXml(std::string("t\x01\x1f\tn\n", 6)), std::string("t\\x01\\x1F\tn\n"));
        QCOMPARE(escapeXml("\xff\xe6\xbc\xa2"), std::string("\\xFF\xe6\xbc\xa2"));
        RunSummary s;
        s.scenario = "c\x02";
        s.testsVerdict = true;
        MetricsSummary step;
        step.name = "r]]>";
        step.requests = 1;
        step.checks.push_back({"r]]>/t\x03", 0, 1, "expected ']]>' to equal '<x>'\x04"});
        s.steps.push_back(step);
        QXmlStreamReader xml(QByteArray::fromStdString(exportJUnit(s)));
        QString failure;
        while (!xml.atEnd())
            if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("failure"))
                failure = xml.readElementText();
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY2(failure.contains(QStringLiteral("Error message: expected ']]>' to equal '<x>'\\x04.")),
                 qPrintable(failure));
    }

    // newman's class name of a suite, as lodash's upperFirst(camelCase(name)) without \W (values from lodash)
    void junitClassNamesAreNewmans()
    {
        const std::pair<const char*, const char*> names[] = {{"F1 / F1.R1", "F1F1R1"},
                                                             {"Status code is 200", "StatusCodeIs200"},
                                                             {"getUser by ID", "GetUserById"},
                                                             {"HTTPServer test", "HttpServerTest"},
                                                             {"a1b2", "A1B2"},
                                                             {"user2Name", "User2Name"},
                                                             {"XMLHttpRequest", "XmlHttpRequest"},
                                                             {"Users / Admin / Create", "UsersAdminCreate"},
                                                             {"\xe4\xb8\xad\xe6\x96\x87 / test", "Test"},
                                                             {"ABC", "Abc"},
                                                             {"Folder-1 / req_two", "Folder1ReqTwo"},
                                                             {"", ""}};
        for (const auto& [name, want] : names)
            QCOMPARE(junitClassName(name), std::string(want));
    }
};

QTEST_GUILESS_MAIN(TestUtf8)
#include "tst_utf8.moc"
