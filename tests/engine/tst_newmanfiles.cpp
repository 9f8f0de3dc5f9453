// The files newman takes beside a collection, read as newman reads them: an
// environment or globals export (UTF-8 with or without a byte order mark,
// UTF-16), and an iteration data file (newman's CSV rules, or a JSON array),
// with a table of broken shapes that must be refused with a reason.
#include "collection/newmanfiles.h"
#include "core/csvtable.h"

#include <QTest>

using namespace stampede;

namespace {

std::string utf16(const std::u16string& text, bool little)
{
    std::string out = little ? std::string("\xFF\xFE") : std::string("\xFE\xFF");
    for (const char16_t c : text) {
        const char hi = char(c >> 8), lo = char(c & 0xFF);
        out += little ? std::string{lo, hi} : std::string{hi, lo};
    }
    return out;
}

// The cell of `column` in `row` of the data's CSV, and its type letter.
std::pair<std::string, char> cell(const IterationData& d, std::size_t row, const std::string& column)
{
    CsvTable t;
    std::string error;
    if (!t.parse(d.csv, ',', error))
        return {"(" + error + ")", '?'};
    const int c = t.columnIndex(column);
    if (c < 0)
        return {"(no column)", '?'};
    return {std::string(t.cell(row, std::size_t(c))), t.cell(row, d.columns.size())[std::size_t(c)]};
}

} // namespace

class TestNewmanFiles : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void anEnvironmentExport()
    {
        const std::string file =
            "{\"id\": \"x\", \"name\": \"staging\", \"values\": [\n"
            "                 {\"key\": \"url\", \"value\": \"http://127.0.0.1:8080\", \"enabled\": true},\n"
            "                 {\"key\": \"off\", \"value\": \"never\", \"enabled\": false},\n"
            "                 {\"key\": \"token\", \"value\": \"s3cret\", \"type\": \"secret\"},\n"
            "                 {\"key\": \"n\", \"value\": 5},\n"
            "                 {\"key\": \"url\", \"value\": \"http://127.0.0.1:9090\"},\n"
            "                 {\"key\": \"fo/o\", \"value\": \"alpha\"},\n"
            "                 {\"key\": \"n\", \"value\": \"6\", \"disabled\": true}],\n"
            "                 \"_postman_variable_scope\": \"environment\"}";
        PostmanVariables v;
        std::string error;
        QVERIFY2(readPostmanVariables(file, v, error), error.c_str());
        QCOMPARE(v.name, std::string("staging"));
        const std::vector<std::pair<std::string, std::string>> want = {
            {"token", "s3cret"}, {"n", "5"}, {"url", "http://127.0.0.1:9090"}, {"fo/o", "alpha"}};
        QCOMPARE(v.values, want); // a key given twice: the last, where it was last given
        QCOMPARE(v.secrets, std::vector<std::string>{"token"});
        QCOMPARE(v.disabled, (std::vector<std::string>{"off", "n"})); // either spelling
    }

    void globalsAsABareList()
    {
        PostmanVariables v;
        std::string error;
        QVERIFY2(readPostmanVariables(
                     "\xEF\xBB\xBF[{\"key\": \"g\", \"value\": \"1\"}, {\"key\": \"h\", \"value\": null}]", v, error),
                 error.c_str());
        QVERIFY(v.name.empty());
        const std::vector<std::pair<std::string, std::string>> want = {{"g", "1"}, {"h", ""}};
        QCOMPARE(v.values, want);
    }

    void utf16EitherWay()
    {
        for (const bool little : {true, false}) {
            const std::string file = utf16(
                u"{\"name\": \"e\", \"values\": [{\"key\": \"k\", \"value\": \"caf\u00e9 \U0001F600\"}]}", little);
            PostmanVariables v;
            std::string error;
            QVERIFY2(readPostmanVariables(file, v, error), error.c_str());
            QCOMPARE(v.values.at(0).second, std::string("caf\xC3\xA9 \xF0\x9F\x98\x80"));
        }
    }

    void brokenVariableFiles_data()
    {
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<QString>("says");
        QTest::newRow("not JSON") << QByteArray("{\"values\": [") << QString();
        QTest::newRow("no values") << QByteArray("{\"name\": \"e\"}") << QStringLiteral("not a Postman environment");
        QTest::newRow("values not a list")
            << QByteArray("{\"values\": {}}") << QStringLiteral("not a Postman environment");
        QTest::newRow("a value not an object") << QByteArray("[\"k\"]") << QStringLiteral("the values[0]");
        QTest::newRow("no key") << QByteArray("[{\"value\": 1}]") << QStringLiteral("has no key");
        QTest::newRow("an empty key") << QByteArray("{\"values\": [{\"key\": \"\"}]}") << QStringLiteral("has no key");
        QTest::newRow("UTF-16 cut short") << QByteArray("\xFF\xFE{\x00[", 5) << QStringLiteral("odd number");
        QTest::newRow("unpaired surrogate")
            << QByteArray("\xFF\xFE\x00\xD8[\x00]\x00", 8) << QStringLiteral("unpaired surrogate");
        QTest::newRow("not UTF-8") << QByteArray("\xFF\xFF[]") << QStringLiteral("not UTF-8 (byte 0xFF at 0)");
        QTest::newRow("nested past the bound") << QByteArray(QByteArray(100000, '[')) << QString();
    }
    void brokenVariableFiles()
    {
        QFETCH(QByteArray, file);
        QFETCH(QString, says);
        PostmanVariables v;
        std::string error;
        QVERIFY(!readPostmanVariables(file.toStdString(), v, error));
        QVERIFY(!error.empty());
        QVERIFY2(says.isEmpty() || QString::fromStdString(error).contains(says), error.c_str());
    }

    // newman's CSV: trimmed around the delimiter, quotes inside an unquoted
    // field kept, "" a quote, a short row lacking the rest, an unquoted
    // number a number (its JavaScript text), a quoted one text.
    void csvAsNewmanReadsIt()
    {
        const std::string file =
            "\xEF\xBB\xBF"
            "name, spaced ,quotedNumber,number,negative,empty,unescaped,long\r\n"
            "\"Kane, A\",  \"foo\"  ,\"00123\",7890,-1.5e3,,Abhijit \"KDOS\" Kane,\"89111702272002019559\"\n"
            "\n"
            "\"say \"\"hi\"\"\",0012\n";
        IterationData d;
        std::string error;
        QVERIFY2(readIterationData(file, "data.csv", d, error), error.c_str());
        QCOMPARE(d.rows, std::size_t(2)); // the empty line is no row
        QCOMPARE(d.columns.at(1), std::string("spaced"));
        QCOMPARE(cell(d, 0, "name"), std::pair(std::string("Kane, A"), 's'));
        QCOMPARE(cell(d, 0, "spaced"), std::pair(std::string("foo"), 's'));
        QCOMPARE(cell(d, 0, "quotedNumber"), std::pair(std::string("00123"), 's'));
        QCOMPARE(cell(d, 0, "number"), std::pair(std::string("7890"), 'j'));
        QCOMPARE(cell(d, 0, "negative"), std::pair(std::string("-1500"), 'j'));
        QCOMPARE(cell(d, 0, "empty"), std::pair(std::string(), 's'));
        QCOMPARE(cell(d, 0, "unescaped"), std::pair(std::string("Abhijit \"KDOS\" Kane"), 's'));
        QCOMPARE(cell(d, 0, "long"), std::pair(std::string("89111702272002019559"), 's'));
        QCOMPARE(cell(d, 1, "name"), std::pair(std::string("say \"hi\""), 's'));
        QCOMPARE(cell(d, 1, "spaced"), std::pair(std::string("12"), 'j'));
        QCOMPARE(cell(d, 1, "number"), std::pair(std::string(), 'u')); // the row lacks it
        // a name given twice: one column, its last field
        QVERIFY2(readIterationData("a,b,a\n1,2,3\n", "d.csv", d, error), error.c_str());
        QCOMPARE(d.columns, (std::vector<std::string>{"a", "b"}));
        QCOMPARE(cell(d, 0, "a"), std::pair(std::string("3"), 'j'));
    }

    void jsonRowsKeepTheirTypes()
    {
        IterationData d;
        std::string error;
        QVERIFY2(readIterationData(
                     "[{\"a\": \"x\", \"b\": 1, \"c\": {\"d\": [true, null]}}, {\"b\": \"two\", \"e\": false}]",
                     "rows.txt", d, error),
                 error.c_str());
        QCOMPARE(d.rows, std::size_t(2));
        QCOMPARE(d.columns, (std::vector<std::string>{"a", "b", "c", "e"}));
        QCOMPARE(cell(d, 0, "a"), std::pair(std::string("x"), 's'));
        QCOMPARE(cell(d, 0, "b"), std::pair(std::string("1"), 'j'));
        QCOMPARE(cell(d, 0, "c"), std::pair(std::string("{\"d\":[true,null]}"), 'j'));
        QCOMPARE(cell(d, 0, "e").second, 'u');
        QCOMPARE(cell(d, 1, "a").second, 'u');
        QCOMPARE(cell(d, 1, "b"), std::pair(std::string("two"), 's'));
        QCOMPARE(cell(d, 1, "e"), std::pair(std::string("false"), 'j'));
    }

    void brokenDataFiles_data()
    {
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("says");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("d.csv") << QStringLiteral("no header row");
        QTest::newRow("header only") << QByteArray("a,b\n") << QStringLiteral("d.csv")
                                     << QStringLiteral("no data rows");
        QTest::newRow("a quote never closed") << QByteArray("a\n\"x\ny\n") << QStringLiteral("d.csv")
                                              << QStringLiteral("line 2: a quoted field is not closed");
        QTest::newRow("a column without a name") << QByteArray("a,,b\n1,2,3\n") << QStringLiteral("d.csv")
                                                 << QStringLiteral("line 1: a column without a name");
        QTest::newRow("JSON not an array")
            << QByteArray("{\"a\": 1}") << QStringLiteral("d.json") << QStringLiteral("an array of objects");
        QTest::newRow("JSON rows not objects")
            << QByteArray("[{\"a\": 1}, 2]") << QStringLiteral("d.json") << QStringLiteral("row 2 is not an object");
        QTest::newRow("JSON names only empty")
            << QByteArray("[{\"\": 1}]") << QStringLiteral("d.json") << QStringLiteral("no row has a named value");
        QTest::newRow("JSON no rows") << QByteArray("[]") << QStringLiteral("d.json") << QStringLiteral("no rows");
        QTest::newRow("a number past a double")
            << QByteArray("[{\"a\": 1e999}]") << QStringLiteral("d.json") << QStringLiteral("number overflow");
        QTest::newRow("JSON broken") << QByteArray("[{\"a\": ") << QStringLiteral("d.json") << QString();
        QTest::newRow("not UTF-8") << QByteArray("a\n\xC3(\n") << QStringLiteral("d.csv")
                                   << QStringLiteral("not UTF-8 (byte 0xC3 at 2)");
        QTest::newRow("only the types' column")
            << QByteArray("$types\n1\n") << QStringLiteral("d.csv") << QStringLiteral("line 1: no column");
        QTest::newRow("too wide") << (QByteArray("c").repeated(1) + QByteArray(",c").repeated(10001) + "\n1\n")
                                  << QStringLiteral("d.csv") << QStringLiteral("more than 10000 columns");
    }
    void brokenDataFiles()
    {
        QFETCH(QByteArray, file);
        QFETCH(QString, name);
        QFETCH(QString, says);
        IterationData d;
        std::string error;
        QVERIFY(!readIterationData(file.toStdString(), name.toStdString(), d, error));
        QVERIFY(!error.empty());
        QVERIFY2(says.isEmpty() || QString::fromStdString(error).contains(says), error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestNewmanFiles)
#include "tst_newmanfiles.moc"
