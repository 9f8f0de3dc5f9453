#include "core/template.h"

#include <QTest>
#include <map>

using namespace stampede;

namespace {
struct Values : ValueLookup
{
    std::map<int, std::string> v;
    std::string_view value(VarRef r) const override { return v.at(r.variable * 100 + r.column); }
};

Resolution resolver(std::string_view name)
{
    Resolution r;
    if (name == "host") {
        r.kind = Resolution::Constant;
        r.constant = "example.test";
    } else if (name == "id") {
        r.kind = Resolution::Reference;
        r.ref = {1, -1};
    } else if (name == "users.name") {
        r.kind = Resolution::Reference;
        r.ref = {2, 1};
    }
    return r;
}
} // namespace

class TestTemplate : public QObject
{
    Q_OBJECT
private slots:
    void expands_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<bool>("constant");
        QTest::addRow("plain") << "GET /"
                               << "GET /" << true;
        QTest::addRow("folded constant") << "http://${host}/x"
                                         << "http://example.test/x" << true;
        QTest::addRow("reference") << "/users/${id}"
                                   << "/users/42" << false;
        QTest::addRow("csv column") << "{\"n\":\"${users.name}\"}"
                                    << "{\"n\":\"Li Wei\"}" << false;
        QTest::addRow("adjacent") << "${id}${id}-${host}"
                                  << "4242-example.test" << false;
        QTest::addRow("dollar without brace") << "cost $5 {x}"
                                              << "cost $5 {x}" << true;
        QTest::addRow("empty") << ""
                               << "" << true;
    }
    void expands()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QFETCH(bool, constant);
        Template t;
        std::string err;
        QVERIFY2(t.compile(text.toStdString(), resolver, err), err.c_str());
        QCOMPARE(t.isConstant(), constant);
        Values v;
        v.v[100 - 1] = "42";
        v.v[201] = "Li Wei";
        std::string out;
        t.appendTo(out, v);
        QCOMPARE(QString::fromStdString(out), expected);
    }

    void expansionReusesTheBuffer()
    {
        Template t;
        std::string err;
        QVERIFY(t.compile("/users/${id}/orders", resolver, err));
        Values v;
        v.v[99] = "12345";
        std::string out;
        out.reserve(64);
        const char* data = out.data();
        for (int i = 0; i < 1000; ++i) {
            out.clear();
            t.appendTo(out, v);
        }
        QCOMPARE(out.data(), data); // no reallocation in steady state
        QCOMPARE(out, std::string("/users/12345/orders"));
    }

    void errors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::addRow("unknown") << "/u/${userId}"
                                 << "unknown variable ${userId}";
        QTest::addRow("unclosed") << "/u/${id"
                                  << "unclosed ${ at offset 3";
        QTest::addRow("empty name") << "${}"
                                    << "empty variable name ${} at offset 0";
    }
    void errors()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        Template t;
        std::string err;
        QVERIFY(!t.compile(text.toStdString(), resolver, err));
        QCOMPARE(QString::fromStdString(err), message);
    }

    void names()
    {
        const auto n = Template::names("a ${x} b ${y.z} ${");
        QCOMPARE(n.size(), std::size_t(2));
        QCOMPARE(n[1], std::string("y.z"));
    }
};

QTEST_APPLESS_MAIN(TestTemplate)
#include "tst_template.moc"
