#include "core/csvtable.h"
#include "core/parametersource.h"

#include <QElapsedTimer>
#include <QTest>
#include <ctime>
#include <regex>
#include <set>

using namespace stampede;

namespace {
std::shared_ptr<CsvTable> table(int rows)
{
    std::string text = "id,name\n";
    for (int i = 0; i < rows; ++i)
        text += std::to_string(i) + ",user" + std::to_string(i) + "\n";
    auto t = std::make_shared<CsvTable>();
    std::string err;
    if (!t->parse(text, ',', err))
        qFatal("%s", err.c_str());
    return t;
}
} // namespace

class TestParameterSource : public QObject
{
    Q_OBJECT
private slots:
    void csvParses()
    {
        CsvTable t;
        std::string err;
        QVERIFY2(
            t.parse("\xEF\xBB\xBFid,note\r\n1,\"a, b\"\r\n2,\"say \"\"hi\"\"\"\n3,\"two\nlines\"\n\n4,\n", ',', err),
            err.c_str());
        QCOMPARE(t.columns().size(), std::size_t(2));
        QCOMPARE(t.rowCount(), std::size_t(4));
        QCOMPARE(t.cell(0, 1), std::string_view("a, b"));
        QCOMPARE(t.cell(1, 1), std::string_view("say \"hi\""));
        QCOMPARE(t.cell(2, 1), std::string_view("two\nlines"));
        QCOMPARE(t.cell(3, 1), std::string_view(""));
        QCOMPARE(t.columnIndex("note"), 1);
        QCOMPARE(t.columnIndex("nope"), -1);
    }

    void csvRejects_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::addRow("ragged row") << "a,b,c\n1,2,3\n4,5\n"
                                    << "line 3: 2 fields, the header has 3";
        QTest::addRow("too many") << "a\n1\n2,3\n"
                                  << "line 3: 2 fields, the header has 1";
        QTest::addRow("unclosed quote") << "a,b\n1,\"x\n"
                                        << "line 2: a quoted field is not closed";
        QTest::addRow("empty") << ""
                               << "the file is empty: a header row naming the columns is needed";
        QTest::addRow("duplicate column") << "a,a\n1,2\n"
                                          << "line 1: column name \"a\" appears twice";
        QTest::addRow("text after quote") << "a\n\"x\"y\n"
                                          << "line 2: text after a closing quote";
    }
    // not UTF-8: named by line and column (it ended in a libprotobuf message, exit 3)
    void csvRejectsWhatIsNotUtf8_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        QTest::addRow("Latin-1") << QByteArray("name,city\nLi,Hangzhou\nM\xfcller,K\xf6ln\n")
                                 << "line 3, column 2: not UTF-8 (byte 0xFC); save the file as UTF-8";
        QTest::addRow("overlong") << QByteArray("a\n\xc0\xaf\n")
                                  << "line 2, column 1: not UTF-8 (byte 0xC0); save the file as UTF-8";
        QTest::addRow("surrogate") << QByteArray("a\nx\xed\xa0\x80\n")
                                   << "line 2, column 2: not UTF-8 (byte 0xED); save the file as UTF-8";
        QTest::addRow("cut short") << QByteArray("a\n\xe4\xb8")
                                   << "line 2, column 1: not UTF-8 (byte 0xE4); save the file as UTF-8";
    }
    void csvRejectsWhatIsNotUtf8()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        CsvTable t;
        std::string err;
        QVERIFY(!t.parse(text.toStdString(), ',', err));
        QCOMPARE(QString::fromStdString(err), message);
    }
    void csvAcceptsUtf8()
    {
        CsvTable t;
        std::string err;
        QVERIFY2(t.parse("name,city\n\xe6\x9d\x8e\xe5\x9b\x9b,\xf0\x9f\x98\x80 K\xc3\xb6ln\n", ',', err), err.c_str());
        QCOMPARE(t.rowCount(), std::size_t(1));
    }
    // Issue 47: a header of 100,000 columns took 21 s (each name compared
    // with every one before it); now it is refused at once, and the widest
    // table allowed, with a duplicate at its end, is read in linear time.
    void csvWidthIsBounded()
    {
        std::string wide;
        for (int i = 0; i < 100000; ++i)
            wide += (i ? "," : "") + std::string("c") + std::to_string(i);
        CsvTable t;
        std::string err;
        QElapsedTimer clock;
        clock.start();
        QVERIFY(!t.parse(wide + "\n", ',', err));
        QCOMPARE(err, std::string("line 1: 100000 columns, at most 10000"));
        std::string widest;
        for (std::size_t i = 0; i < CsvTable::kMaxColumns - 1; ++i)
            widest += (i ? "," : "") + std::string("c") + std::to_string(i);
        QVERIFY(!t.parse(widest + ",c5\n", ',', err));
        QCOMPARE(err, std::string("line 1: column name \"c5\" appears twice"));
        QVERIFY2(t.parse(widest + ",last\n" + std::string(CsvTable::kMaxColumns - 1, ',') + "\n", ',', err),
                 err.c_str());
        QCOMPARE(t.columns().size(), CsvTable::kMaxColumns);
        QVERIFY2(clock.elapsed() < 2000, qPrintable(QString::number(clock.elapsed()))); // was 21 s for the first alone
    }

    void csvRejects()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        CsvTable t;
        std::string err;
        QVERIFY(!t.parse(text.toStdString(), ',', err));
        QCOMPARE(QString::fromStdString(err), message);
    }

    void csvPartitionIsDisjointAndCovers_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("parts");
        QTest::addRow("10 rows, 3 parts") << 10 << 3;
        QTest::addRow("1000 rows, 7 parts") << 1000 << 7;
        QTest::addRow("5 rows, 5 parts") << 5 << 5;
    }
    void csvPartitionIsDisjointAndCovers()
    {
        QFETCH(int, rows);
        QFETCH(int, parts);
        auto src = makeCsvSource(table(rows), CsvMode::Stop);
        std::set<std::string> seen;
        std::size_t total = 0;
        for (int p = 0; p < parts; ++p) {
            auto c = src->cursor(p, parts, 1);
            while (c->next(0)) {
                seen.insert(std::string(c->value(0)));
                ++total;
            }
        }
        QCOMPARE(total, std::size_t(rows));       // no row twice
        QCOMPARE(seen.size(), std::size_t(rows)); // every row once
    }

    void csvModes()
    {
        auto t = table(3);
        auto wrap = makeCsvSource(t, CsvMode::Wrap)->cursor(0, 1, 1);
        std::string got;
        for (int i = 0; i < 7; ++i) {
            QVERIFY(wrap->next(0));
            got += std::string(wrap->value(0));
        }
        QCOMPARE(got, std::string("0120120"));
        auto perUser = makeCsvSource(t, CsvMode::PerUser)->cursor(0, 1, 1);
        for (int i = 0; i < 3; ++i) {
            QVERIFY(perUser->next(1));
            QCOMPARE(perUser->value(1), std::string_view("user1"));
        }
        QVERIFY(perUser->next(4));
        QCOMPARE(perUser->value(0), std::string_view("1")); // users beyond the rows wrap
        QVERIFY_THROWS_EXCEPTION(PartitionError, makeCsvSource(t, CsvMode::Wrap)->cursor(3, 4, 1));
    }

    // An account pool: a row is one user's until its iteration ends; none
    // free is busy (not exhausted); rows are taken in turn; each part of the
    // pool its own slice (two engines never share a row).
    void csvCheckout()
    {
        auto t = table(5);
        auto src = makeCsvSource(t, CsvMode::Checkout);
        QVERIFY(src->checksOut());
        QVERIFY(!makeCsvSource(t, CsvMode::Wrap)->checksOut());
        auto part0 = src->cursor(0, 2, 1); // rows 0-2
        auto part1 = src->cursor(1, 2, 1); // rows 3-4
        std::string got;
        for (std::uint32_t u = 0; u < 3; ++u) {
            QVERIFY(part0->next(u));
            got += std::string(part0->value(0));
        }
        QCOMPARE(got, std::string("012"));
        QVERIFY(!part0->next(3)); // every row held
        QVERIFY(part0->busy());
        part0->release(1);
        QVERIFY(part0->next(3));
        QCOMPARE(part0->value(0), std::string_view("1"));
        QVERIFY(!part0->busy());
        part0->release(7); // holds nothing: nothing happens
        QVERIFY(!part0->next(4));
        // a user that begins again without saying its iteration ended gives its row back first
        QVERIFY(part0->next(0));
        QCOMPARE(part0->value(0), std::string_view("0"));
        // the other part's rows are its own
        QVERIFY(part1->next(0) && part1->value(0) == std::string_view("3"));
        QVERIFY(part1->next(1) && part1->value(0) == std::string_view("4"));
        QVERIFY(!part1->next(2) && part1->busy());
        // given back in turn: the next free after the last given, not always the first
        part1->release(0);
        part1->release(1);
        QVERIFY(part1->next(2) && part1->value(0) == std::string_view("3"));
        part1->release(2);
        QVERIFY(part1->next(2) && part1->value(0) == std::string_view("4"));
    }

    void incrementStrides_data()
    {
        QTest::addColumn<int>("min");
        QTest::addColumn<int>("max");
        QTest::addColumn<int>("step");
        QTest::addColumn<int>("parts");
        QTest::addRow("1..100 by 1, 4 parts") << 1 << 100 << 1 << 4;
        QTest::addRow("0..99 by 3, 5 parts") << 0 << 99 << 3 << 5;
        QTest::addRow("-50..50 by 7, 3 parts") << -50 << 50 << 7 << 3;
    }
    void incrementStrides()
    {
        QFETCH(int, min);
        QFETCH(int, max);
        QFETCH(int, step);
        QFETCH(int, parts);
        auto src = makeIncrementSource(min, max, step);
        std::set<long> expected;
        for (long v = min; v <= max; v += step)
            expected.insert(v);
        std::multiset<long> seen;
        for (int p = 0; p < parts; ++p) {
            // each part yields its own values once before wrapping
            auto c = src->cursor(p, parts, 1);
            std::set<long> mine;
            for (;;) {
                c->next(0);
                const long v = std::stol(std::string(c->value(-1)));
                if (mine.count(v))
                    break;
                mine.insert(v);
                seen.insert(v);
            }
        }
        QCOMPARE(seen.size(), expected.size());
        QCOMPARE(std::set<long>(seen.begin(), seen.end()), expected);
    }

    void incrementWraps()
    {
        auto c = makeIncrementSource(1, 3, 1)->cursor(0, 1, 1);
        std::string got;
        for (int i = 0; i < 5; ++i) {
            c->next(0);
            got += std::string(c->value(-1));
        }
        QCOMPARE(got, std::string("12312"));
    }

    void randomStaysInRange()
    {
        auto c = makeRandomIntSource(-5, 5)->cursor(0, 1, 99);
        std::set<long> seen;
        for (int i = 0; i < 2000; ++i) {
            c->next(0);
            const long v = std::stol(std::string(c->value(-1)));
            QVERIFY(v >= -5 && v <= 5);
            seen.insert(v);
        }
        QCOMPARE(seen.size(), std::size_t(11));
        auto s = makeRandomStringSource(12, "ab")->cursor(0, 1, 1);
        s->next(0);
        QCOMPARE(s->value(-1).size(), std::size_t(12));
        QVERIFY(s->value(-1).find_first_not_of("ab") == std::string_view::npos);
    }

    void uuidIsVersion4()
    {
        auto c = makeUuidSource()->cursor(0, 1, 5);
        const std::regex re("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
        std::set<std::string> seen;
        for (int i = 0; i < 100; ++i) {
            c->next(0);
            const std::string u(c->value(-1));
            QVERIFY2(std::regex_match(u, re), u.c_str());
            seen.insert(u);
        }
        QCOMPARE(seen.size(), std::size_t(100));
    }

    // Postman's dynamic variables: drawn per iteration by the engine.
    void dynamicVariables()
    {
        QVERIFY(!dynamicVariable("$randomColor"));
        QVERIFY(!dynamicVariable("guid"));
        auto uuid = dynamicVariable("$guid")->cursor(0, 1, 7);
        uuid->next(0);
        QCOMPARE(uuid->value(-1).size(), std::size_t(36));
        auto number = dynamicVariable("$randomInt")->cursor(0, 1, 7);
        for (int i = 0; i < 200; ++i) {
            number->next(0);
            const int v = std::stoi(std::string(number->value(-1)));
            QVERIFY(v >= 0 && v <= 1000);
        }
        const auto before = std::time(nullptr);
        auto seconds = dynamicVariable("$timestamp")->cursor(0, 1, 1);
        seconds->next(0);
        const long long t = std::stoll(std::string(seconds->value(-1)));
        QVERIFY2(t >= before && t <= std::time(nullptr), std::string(seconds->value(-1)).c_str());
        auto iso = dynamicVariable("$isoTimestamp")->cursor(0, 1, 1);
        iso->next(0);
        const std::string text(iso->value(-1));
        QVERIFY2(std::regex_match(text, std::regex(R"(^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$)")), text.c_str());
        char year[8];
        std::tm utc{};
        gmtime_r(&before, &utc);
        std::snprintf(year, sizeof year, "%04d", utc.tm_year + 1900);
        QCOMPARE(text.substr(0, 4), std::string(year));
    }

    void constant()
    {
        auto src = makeConstantSource("v");
        QVERIFY(src->constantValue());
        auto c = src->cursor(0, 1, 1);
        c->next(0);
        QCOMPARE(c->value(-1), std::string_view("v"));
    }
};

QTEST_APPLESS_MAIN(TestParameterSource)
#include "tst_parametersource.moc"
