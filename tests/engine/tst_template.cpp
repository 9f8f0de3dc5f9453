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

    // The one rule of the wire (wiretext.h): targets encoded as a browser
    // does, CR, LF and NUL refused in targets and header values.
    void targetsAreEncoded_data()
    {
        QTest::addColumn<QByteArray>("in");
        QTest::addColumn<QByteArray>("out");
        QTest::addRow("plain") << QByteArray("/a/b?c=d&e=f") << QByteArray("/a/b?c=d&e=f");
        QTest::addRow("space") << QByteArray("/a b?q=x y") << QByteArray("/a%20b?q=x%20y");
        QTest::addRow("non-ASCII as UTF-8") << QByteArray("/\xc3\xbc/\xe4\xb8\xad") << QByteArray("/%C3%BC/%E4%B8%AD");
        QTest::addRow("existing escapes kept") << QByteArray("/a%20b/%zz/%") << QByteArray("/a%20b/%zz/%");
        QTest::addRow("quotes and brackets")
            << QByteArray("/\"<>`{|}^\\") << QByteArray("/%22%3C%3E%60%7B%7C%7D%5E%5C");
        QTest::addRow("tab, DEL, a hash in a value") << QByteArray("/\t\x7f#") << QByteArray("/%09%7F%23");
        QTest::addRow("kept as written") << QByteArray("/a-b_c.d~e!$&'()*+,;=:@[]?/")
                                         << QByteArray("/a-b_c.d~e!$&'()*+,;=:@[]?/");
    }
    void targetsAreEncoded()
    {
        QFETCH(QByteArray, in);
        QFETCH(QByteArray, out);
        std::string got = "x";
        QVERIFY(appendTarget(got, in.toStdString()));
        QCOMPARE(QByteArray::fromStdString(got), "x" + out);
    }
    void lineBreaksAndNulNeverGo_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("fault");
        QTest::addRow("CR LF") << QByteArray("a\r\nX-Smug: 1") << QStringLiteral("holds a line break (CR) at byte 1");
        QTest::addRow("LF") << QByteArray("ab\nc") << QStringLiteral("holds a line break (LF) at byte 2");
        QTest::addRow("NUL") << QByteArray("abc\0", 4) << QStringLiteral("holds a NUL byte at byte 3");
    }
    void lineBreaksAndNulNeverGo()
    {
        QFETCH(QByteArray, value);
        QFETCH(QString, fault);
        const std::string v = value.toStdString();
        std::string out = "kept";
        QVERIFY(!appendTarget(out, v));
        QCOMPARE(out, std::string("kept"));
        QVERIFY(!appendField(out, v, WireField::HeaderValue));
        QCOMPARE(out, std::string("kept"));
        QVERIFY(appendField(out, v, WireField::Body)); // a body is sent byte for byte
        QCOMPARE(QString::fromStdString(fieldFault(v, WireField::Target)), fault);
        QCOMPARE(QString::fromStdString(fieldFault(v, WireField::HeaderValue)), fault);
        QVERIFY(fieldFault(v, WireField::Body).empty());
    }
    void fieldsTravelWithTheirReferences()
    {
        Template path, header, body, head;
        std::string err;
        QVERIFY(path.compile("/users/${id} x", resolver, err));
        QVERIFY(path.setField(WireField::Target, err));
        QVERIFY(header.compile("Bearer ${users.name}", resolver, err));
        QVERIFY(header.setField(WireField::HeaderValue, err));
        QVERIFY(body.compile("{\"n\": \"${users.name}\"}", resolver, err));
        head.appendLiteral("GET ");
        head.append(path);
        head.appendLiteral(" HTTP/1.1\r\nAuthorization: ");
        head.append(header);
        head.appendLiteral("\r\n");
        QVERIFY(head.field(0) == WireField::Target);
        QVERIFY(head.field(1) == WireField::HeaderValue);
        Values v;
        v.v[100 - 1] = "4 2/\xc3\xbc";
        v.v[201] = "Li Wei";
        std::string out;
        QCOMPARE(head.appendTo(out, v), -1);
        QCOMPARE(out, std::string("GET /users/4%202/%C3%BC%20x HTTP/1.1\r\nAuthorization: Bearer Li Wei\r\n"));
        // a value its field refuses: the reference's index, and nothing smuggled
        v.v[201] = "x\r\nX-Smug: 1";
        out.clear();
        QCOMPARE(head.appendTo(out, v), 1);
        QVERIFY(out.find("X-Smug") == std::string::npos);
        v.v[100 - 1] = "a\nb";
        out.clear();
        QCOMPARE(head.appendTo(out, v), 0);
        // the body takes anything
        out.clear();
        QCOMPARE(body.appendTo(out, v), -1);
        QCOMPARE(out, std::string("{\"n\": \"x\r\nX-Smug: 1\"}"));
        // a literal that cannot go is refused when the field is set
        Template bad;
        QVERIFY(bad.compile("/a\r\nb", resolver, err));
        QVERIFY(!bad.setField(WireField::Target, err));
        QCOMPARE(QString::fromStdString(err), QStringLiteral("holds a line break (CR) at byte 2"));
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
