// The one checked parser of numbers from a user: overflow, exponents, signs,
// fractions and bounds are refused with a message naming the field.
#include "core/number.h"

#include <QTest>

using namespace stampede;

class TestNumber : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void whole_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("message");
        QTest::addRow("plain") << "50" << true << "";
        QTest::addRow("max") << "1000000" << true << "";
        QTest::addRow("past max") << "1000001" << false << "-c: 1000001 is out of range (1 to 1,000,000)";
        QTest::addRow("wraps 32 bits") << "4294967297" << false << "-c: 4294967297 is out of range (1 to 1,000,000)";
        QTest::addRow("overflows 64 bits")
            << "99999999999999999999999" << false << "-c: 99999999999999999999999 is too large (at most 1,000,000)";
        QTest::addRow("zero") << "0" << false << "-c: 0 is out of range (1 to 1,000,000)";
        QTest::addRow("exponent") << "1e20" << false << "-c: \"1e20\" is not a whole number";
        QTest::addRow("fraction") << "2.5" << false << "-c: \"2.5\" is not a whole number";
        QTest::addRow("negative") << "-5" << false << "-c: must be positive (got -5)";
        QTest::addRow("plus") << "+5" << false << "-c: \"+5\" is not a whole number";
        QTest::addRow("empty") << "" << false << "-c: \"\" is not a whole number";
        QTest::addRow("space") << " 5" << false << "-c: \" 5\" is not a whole number";
    }
    void whole()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(QString, message);
        std::uint64_t v = 7;
        std::string error;
        QCOMPARE(parseWhole(text.toStdString(), "-c", 1, RunLimits::kConnections, v, error), ok);
        QCOMPARE(QString::fromStdString(error), message);
        if (ok)
            QCOMPARE(QString::number(v), text);
        else
            QCOMPARE(v, std::uint64_t(7)); // untouched
    }

    void decimal_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<double>("value");
        QTest::addRow("whole") << "250" << true << 250.0;
        QTest::addRow("fraction") << "0.5" << true << 0.5;
        QTest::addRow("leading point") << ".5" << true << 0.5;
        QTest::addRow("max") << "10000000" << true << 1e7;
        QTest::addRow("past max") << "10000000.5" << false << 0.0;
        QTest::addRow("exponent") << "1e20" << false << 0.0;
        QTest::addRow("two points") << "1.2.3" << false << 0.0;
        QTest::addRow("zero") << "0" << false << 0.0;
        QTest::addRow("nan") << "nan" << false << 0.0;
        QTest::addRow("inf") << "inf" << false << 0.0;
        QTest::addRow("point") << "." << false << 0.0;
    }
    void decimal()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(double, value);
        double v = 0;
        std::string error;
        QCOMPARE(parseDecimal(text.toStdString(), "--rate", 0.001, RunLimits::kRate, v, error), ok);
        QCOMPARE(error.empty(), ok);
        if (ok)
            QCOMPARE(v, value);
        else
            QVERIFY(error.rfind("--rate: ", 0) == 0);
    }
};

QTEST_APPLESS_MAIN(TestNumber)
#include "tst_number.moc"
