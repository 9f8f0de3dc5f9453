// verify-tag's reading of a tracing system's answers: Jaeger's and Tempo's
// shapes, where the tag may be (a tag, a log's fields, a process's tags, an
// attribute, a resource's, W3C baggage), what is not an answer, and the table.
#include "report/tagcheck.h"

#include <QTest>

#include <string>

using namespace stampede;

namespace {

const std::string kRun = "st-0123456789abcdef";

std::string jaegerSpan(const char* op, const char* process, const std::string& tags, const std::string& logs = "[]")
{
    return std::string("{\"traceID\": \"t\", \"spanID\": \"s\", \"operationName\": \"") + op + "\", \"processID\": \"" +
           process + "\", \"tags\": " + tags + ", \"logs\": " + logs + "}";
}

} // namespace

class TestTagCheck : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void jaegerAnswers()
    {
        const std::string answer =
            "{\"data\": [{\"traceID\": \"t\", \"spans\": [" +
            jaegerSpan("GET /a", "p1",
                       "[{\"key\": \"stress_tag\", \"type\": \"string\", \"value\": \"" + kRun + "\"}]") +
            ", " +
            jaegerSpan("reserve", "p2", "[]",
                       "[{\"timestamp\": 1, \"fields\": [{\"key\": \"event\", \"value\": \"baggage\"}, {\"key\": "
                       "\"value\", \"value\": \"a=1,stress_test=" +
                           kRun + ";p=2\"}]}]") +
            ", " +
            jaegerSpan("SELECT", "p2",
                       "[{\"key\": \"db.system\", \"value\": \"mysql\"}, {\"key\": \"n\", \"value\": 3}]") +
            ", " + jaegerSpan("publish", "p3", "[{\"key\": \"messaging.system\", \"value\": \"kafka\"}]") + ", " +
            jaegerSpan("orphan", "p9", "[{\"key\": \"ok\", \"value\": true}]") +
            "], \"processes\": {\"p1\": {\"serviceName\": \"gateway\"}, \"p2\": {\"serviceName\": \"orders\", "
            "\"tags\": []}, \"p3\": {\"serviceName\": \"billing\", \"tags\": [{\"key\": \"x\", \"value\": \"" +
            kRun + "\"}]}}}], \"errors\": null}";
        TagCheck c;
        std::string error;
        QVERIFY2(addTraceAnswer(answer, kRun, c, error), error.c_str());
        QCOMPARE(c.asked, std::size_t(1));
        QCOMPARE(c.found, std::size_t(1));
        QCOMPARE(c.services.size(), std::size_t(5));
        QCOMPARE(c.services["gateway"].tagged, std::size_t(1));
        QCOMPARE(c.services["orders"].tagged, std::size_t(1)); // the baggage member in a log's fields
        QCOMPARE(c.services["orders (db mysql)"].tagged, std::size_t(0));
        QCOMPARE(c.services["orders (db mysql)"].untaggedExample, std::string("SELECT"));
        QCOMPARE(c.services["billing (messaging kafka)"].tagged, std::size_t(1)); // its process's tag
        QCOMPARE(c.services["(unnamed)"].spans, std::size_t(1));                  // a process the answer lacks
        QVERIFY(!c.reachedEveryHop());
        QCOMPARE(c.untagged(), (std::vector<std::string>{"(unnamed)", "orders (db mysql)"}));
        const std::string table = tagCheckTable(c);
        QVERIFY2(table.find("orders (db mysql)") != std::string::npos && table.find("(SELECT)") != std::string::npos,
                 table.c_str());
        // another run's id is not this run's tag
        TagCheck other;
        QVERIFY(addTraceAnswer(answer, "st-ffffffffffffffff", other, error));
        QCOMPARE(other.services["gateway"].tagged, std::size_t(0));
        QCOMPARE(other.services["billing (messaging kafka)"].tagged, std::size_t(0));
    }

    void tempoAnswers_data()
    {
        QTest::addColumn<std::string>("answer");
        const std::string spans =
            "[{\"name\": \"GET /a\", \"attributes\": [{\"key\": \"baggage\", \"value\": {\"stringValue\": "
            "\"stress_test=" +
            kRun +
            "\"}}]}, {\"name\": \"SELECT\", \"attributes\": [{\"key\": \"db.system\", \"value\": "
            "{\"stringValue\": \"redis\"}}, {\"key\": \"db.rows\", \"value\": {\"intValue\": \"3\"}}]}]";
        const std::string resource =
            "{\"attributes\": [{\"key\": \"service.name\", \"value\": {\"stringValue\": \"cart\"}}]}";
        QTest::newRow("batches, scopeSpans")
            << "{\"batches\": [{\"resource\": " + resource + ", \"scopeSpans\": [{\"spans\": " + spans + "}]}]}";
        QTest::newRow("trace.resourceSpans") << "{\"trace\": {\"resourceSpans\": [{\"resource\": " + resource +
                                                    ", \"scopeSpans\": [{\"spans\": " + spans + "}]}]}}";
        QTest::newRow("instrumentationLibrarySpans") << "{\"batches\": [{\"resource\": " + resource +
                                                            ", \"instrumentationLibrarySpans\": [{\"spans\": " + spans +
                                                            "}]}]}";
    }
    void tempoAnswers()
    {
        QFETCH(std::string, answer);
        TagCheck c;
        std::string error;
        QVERIFY2(addTraceAnswer(answer, kRun, c, error), error.c_str());
        QCOMPARE(c.found, std::size_t(1));
        QCOMPARE(c.services["cart"].tagged, std::size_t(1));
        QCOMPARE(c.services["cart (db redis)"].spans, std::size_t(1));
        QCOMPARE(c.services["cart (db redis)"].tagged, std::size_t(0));
    }

    void notAnswers_data()
    {
        QTest::addColumn<std::string>("answer");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<std::size_t>("found");
        QTest::newRow("not JSON") << std::string("<html>") << false << std::size_t(0);
        QTest::newRow("empty") << std::string() << false << std::size_t(0);
        QTest::newRow("another shape") << std::string("{\"traces\": []}") << false << std::size_t(0);
        QTest::newRow("jaeger not found")
            << std::string("{\"data\": null, \"errors\": [{\"code\": 404, \"msg\": \"trace not found\"}]}") << true
            << std::size_t(0);
        QTest::newRow("no spans") << std::string("{\"data\": [{\"traceID\": \"t\"}]}") << true << std::size_t(1);
        QTest::newRow("spans not a list")
            << std::string("{\"data\": [{\"spans\": 3, \"processes\": []}]}") << true << std::size_t(1);
        QTest::newRow("tags of odd types")
            << std::string("{\"data\": [{\"spans\": [{\"tags\": [1, {\"key\": 2}, {\"value\": \"x\"}], \"logs\": 7, "
                           "\"processID\": 5}]}]}")
            << true << std::size_t(1);
        std::string deep(2000, '[');
        deep += std::string(2000, ']');
        QTest::newRow("too deep") << deep << false << std::size_t(0);
    }
    void notAnswers()
    {
        QFETCH(std::string, answer);
        QFETCH(bool, ok);
        QFETCH(std::size_t, found);
        TagCheck c;
        std::string error;
        QCOMPARE(addTraceAnswer(answer, kRun, c, error), ok);
        QCOMPARE(c.asked, std::size_t(1));
        QCOMPARE(c.found, found);
        if (!ok)
            QVERIFY(!error.empty());
        QVERIFY(!c.reachedEveryHop() || !c.services.empty());
    }
};

QTEST_GUILESS_MAIN(TestTagCheck)
#include "tst_tagcheck.moc"
