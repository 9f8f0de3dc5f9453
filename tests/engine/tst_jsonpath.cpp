// JSON paths: what compiles (and what is refused, saying where), and what a
// read gives for each kind of value, for missing places and for bodies that
// are not JSON.
#include "check/jsonpath.h"

#include <QTest>

using namespace stampede;

namespace {
std::string readOne(JsonReader& r, const std::string& body, const char* path, JsonReader::Outcome expected)
{
    std::string error;
    const auto p = JsonPath::compile(path, error);
    if (!p) {
        QTest::qFail(error.c_str(), __FILE__, __LINE__);
        return {};
    }
    r.load(body);
    std::string value;
    const auto outcome = r.read(*p, value);
    if (outcome != expected)
        QTest::qFail((std::string(path) + ": another outcome; value " + value).c_str(), __FILE__, __LINE__);
    return value;
}
} // namespace

class TestJsonPath : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void compiles_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("pointer");
        QTest::addRow("root") << "$"
                              << "";
        QTest::addRow("members") << "$.data.token"
                                 << "/data/token";
        QTest::addRow("index") << "$.items[2].id"
                               << "/items/2/id";
        QTest::addRow("quoted") << "$['a.b'][\"c d\"]"
                                << "/a.b/c d";
        QTest::addRow("escapes") << "$['it\\'s']"
                                 << "/it's";
        QTest::addRow("pointer escapes") << "$['a/b~c']"
                                         << "/a~1b~0c";
        QTest::addRow("dash and digits") << "$.x-1._y2"
                                         << "/x-1/_y2";
    }
    void compiles()
    {
        QFETCH(QString, path);
        QFETCH(QString, pointer);
        std::string error;
        const auto p = JsonPath::compile(path.toStdString(), error);
        QVERIFY2(p, error.c_str());
        QCOMPARE(QString::fromStdString(p->pointer()), pointer);
    }

    void refused_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("message");
        QTest::addRow("empty") << ""
                               << "it starts with $ at character 1";
        QTest::addRow("no root") << "data.token"
                                 << "it starts with $";
        QTest::addRow("recursive") << "$..token"
                                   << "recursive descent (..) is not supported at character 2";
        QTest::addRow("wildcard") << "$.items[*]"
                                  << "wildcards are not supported";
        QTest::addRow("member wildcard") << "$.*"
                                         << "wildcards are not supported";
        QTest::addRow("negative") << "$.items[-1]"
                                  << "negative indexes are not supported";
        QTest::addRow("unclosed") << "$.items[0"
                                  << "an index (0, 1, ...) or a quoted name is expected";
        QTest::addRow("unclosed quote") << "$['a"
                                        << "an unclosed quoted name";
        QTest::addRow("dangling dot") << "$.a."
                                      << "a member name is expected at character 5";
        QTest::addRow("stray") << "$a"
                               << "\".\" or \"[\" is expected at character 2";
        QTest::addRow("huge index") << "$[99999999999999999999]"
                                    << "an index too large";
        QTest::addRow("filter") << "$.a[?(@.b)]"
                                << "an index (0, 1, ...) or a quoted name is expected";
    }
    void refused()
    {
        QFETCH(QString, path);
        QFETCH(QString, message);
        std::string error;
        QVERIFY(!JsonPath::compile(path.toStdString(), error));
        QVERIFY2(QString::fromStdString(error).contains(message), error.c_str());
    }

    void readsEachKindOfValue()
    {
        JsonReader r;
        const std::string body = "{\"code\": 0, \"msg\": \"ok \\\"quoted\\\" \\u00e9\", \"price\": 1.50, \"ok\": "
                                 "true,\n            \"none\": null, \"data\": {\"token\": \"abc\", \"list\": [10, 20, "
                                 "{\"id\": \"x\"}]}, \"a.b\": \"dotted\", \"a/b~c\": 7}";
        using O = JsonReader::Outcome;
        QCOMPARE(readOne(r, body, "$.code", O::Found), std::string("0"));
        QCOMPARE(readOne(r, body, "$.msg", O::Found), std::string("ok \"quoted\" \xc3\xa9"));
        QCOMPARE(readOne(r, body, "$.price", O::Found), std::string("1.50")); // as written
        QCOMPARE(readOne(r, body, "$.ok", O::Found), std::string("true"));
        QCOMPARE(readOne(r, body, "$.none", O::Found), std::string("null"));
        QCOMPARE(readOne(r, body, "$.data.token", O::Found), std::string("abc"));
        QCOMPARE(readOne(r, body, "$.data.list[1]", O::Found), std::string("20"));
        QCOMPARE(readOne(r, body, "$.data.list[2].id", O::Found), std::string("x"));
        QCOMPARE(readOne(r, body, "$.data.list", O::Found), std::string("[10, 20, {\"id\": \"x\"}]"));
        QCOMPARE(readOne(r, body, "$['a.b']", O::Found), std::string("dotted"));
        QCOMPARE(readOne(r, body, "$['a/b~c']", O::Found), std::string("7"));
        QCOMPARE(readOne(r, " [1, 2] ", "$", O::Found), std::string("[1, 2]"));
        QCOMPARE(readOne(r, "[{\"a\": 1}]", "$[0].a", O::Found), std::string("1"));
    }

    void missingPlaces()
    {
        JsonReader r;
        const std::string body = "{\"data\": {\"list\": [1, 2]}, \"n\": 5}";
        using O = JsonReader::Outcome;
        readOne(r, body, "$.nope", O::Missing);
        readOne(r, body, "$.data.list[2]", O::Missing);
        readOne(r, body, "$.data.list.x", O::Missing); // a member of an array
        readOne(r, body, "$.n.x", O::Missing);         // a member of a number
        readOne(r, body, "$.data[0]", O::Missing);     // an element of an object
        readOne(r, "42", "$.a", O::Missing);           // a member of a scalar document
    }

    void bodiesThatAreNotJson()
    {
        JsonReader r;
        using O = JsonReader::Outcome;
        readOne(r, "", "$.a", O::NotJson);
        readOne(r, "<html>error</html>", "$.a", O::NotJson);
        readOne(r, "{\"a\": ", "$.a", O::NotJson);
        readOne(r, "{\"a\" 1}", "$.a", O::NotJson);
        readOne(r, "[{\"x\": nnnn1}]", "$[0].x", O::NotJson); // found by fuzzing: typed "null" by its first letter
        readOne(r, "[{\"x\": tru}]", "$[0].x", O::NotJson);
        readOne(r, "[{\"x\": 1.2.3}]", "$[0].x", O::NotJson);
        // and the reader goes on to the next body as if nothing happened
        QCOMPARE(readOne(r, "{\"a\": \"fine\"}", "$.a", O::Found), std::string("fine"));
        // an answer that brought no body at all (a view of no bytes, as an uncaptured answer's): not JSON, and
        // nothing copied from nowhere (make asan: UBSan's null argument to memcpy)
        r.load(std::string_view());
        std::string value, error;
        QVERIFY(r.read(JsonPath::compile("$.a", error).value(), value) == O::NotJson);
    }

    void severalPathsOverOneBody()
    {
        JsonReader r;
        r.load("{\"user\": {\"id\": 7, \"name\": \"li\"}, \"token\": \"t\"}");
        std::string error, v;
        for (const auto& [path, expected] : {std::pair{"$.token", "t"}, std::pair{"$.user.name", "li"},
                                             std::pair{"$.user.id", "7"}, std::pair{"$.token", "t"}}) {
            const auto p = JsonPath::compile(path, error);
            QVERIFY(p);
            QCOMPARE(r.read(*p, v), JsonReader::Outcome::Found);
            QCOMPARE(v, std::string(expected));
        }
    }
};

QTEST_APPLESS_MAIN(TestJsonPath)
#include "tst_jsonpath.moc"
