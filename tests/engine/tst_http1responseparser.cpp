#include "net/http1responseparser.h"

#include <QTest>

using stampede::Http1ResponseParser;
using R = Http1ResponseParser::Result;

class TestHttp1ResponseParser : public QObject
{
    Q_OBJECT
private:
    // Feeds `text` in pieces of `chunk` bytes; returns the last result.
    static R feedAll(Http1ResponseParser& p, const std::string& text, std::size_t chunk, std::size_t& used)
    {
        R r = R::NeedMore;
        used = 0;
        for (std::size_t pos = 0; pos < text.size() && r == R::NeedMore; pos += chunk) {
            std::size_t consumed = 0;
            r = p.feed(text.data() + pos, std::min(chunk, text.size() - pos), consumed);
            used += consumed;
        }
        return r;
    }

private slots:
    void parses_data()
    {
        QTest::addColumn<QByteArray>("response");
        QTest::addColumn<int>("status");
        QTest::addColumn<int>("body");
        QTest::addColumn<bool>("keepAlive");
        QTest::addRow("content-length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello") << 200 << 5
                                        << true;
        QTest::addRow("chunked") << QByteArray("HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n"
                                               "4\r\nWiki\r\n5;ext=1\r\npedia\r\n0\r\nX-T: 1\r\n\r\n")
                                 << 201 << 9 << true;
        QTest::addRow("connection close")
            << QByteArray("HTTP/1.1 503 Busy\r\nconnection: Close\r\ncontent-length: 0\r\n\r\n") << 503 << 0 << false;
        QTest::addRow("http/1.0") << QByteArray("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok") << 200 << 2 << false;
        QTest::addRow("1.0 keep-alive")
            << QByteArray("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok") << 200 << 2
            << true;
        QTest::addRow("204 no body") << QByteArray("HTTP/1.1 204 No Content\r\n\r\n") << 204 << 0 << true;
        QTest::addRow("100 continue first")
            << QByteArray("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx") << 200 << 1
            << true;
        QTest::addRow("bare LF") << QByteArray("HTTP/1.1 404 Not Found\nContent-Length: 3\n\nnop") << 404 << 3 << true;
        // RFC 9112 6.3: both framings: the chunks count, and the connection is not kept
        QTest::addRow("length and chunked")
            << QByteArray(
                   "HTTP/1.1 200 OK\r\nContent-Length: 99\r\nTransfer-Encoding: chunked\r\n\n2\r\nok\r\n0\r\n\r\n")
            << 200 << 2 << false;
        QTest::addRow("same length twice")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2, 2\r\n\r\nok") << 200 << 2 << true;
        QTest::addRow("obsolete folding")
            << QByteArray("HTTP/1.1 200 OK\r\nX-Long: a\r\n  b\r\nContent-Length: 2\r\n\r\nok") << 200 << 2 << true;
        QTest::addRow("chunk extensions and trailers")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;a=b;c\r\nok\r\n0;z\r\nX-T: 1\r\nX-U: "
                          "2\r\n\r\n")
            << 200 << 2 << true;
        QTest::addRow("304 with a length")
            << QByteArray("HTTP/1.1 304 Not Modified\r\nContent-Length: 50\r\n\r\n") << 304 << 0 << true;
        QTest::addRow("two interim answers")
            << QByteArray("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 "
                          "OK\r\nContent-Length: 0\r\n\r\n")
            << 200 << 0 << true;
        QTest::addRow("599") << QByteArray("HTTP/1.1 599 Odd\r\nContent-Length: 0\r\n\r\n") << 599 << 0 << true;
    }
    void transferEncodingNotChunkedReadsToTheClose()
    {
        Http1ResponseParser p;
        p.reset();
        std::size_t used = 0;
        QCOMPARE(feedAll(p, "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nContent-Length: 2\r\n\r\nabcdef", 5, used),
                 R::NeedMore);
        QCOMPARE(p.finish(), R::Complete);
        QCOMPARE(p.bodyBytes(), std::uint64_t(6));
        QVERIFY(!p.keepAlive());
    }
    void capturedValuesCannotCarryLineBreaks()
    {
        // RFC 9110 5.5: a bare CR (or a NUL) in a value is replaced by SP before anything reads it
        Http1ResponseParser p;
        Http1ResponseParser::Capture c;
        p.setCapture(&c);
        p.reset();
        std::size_t used = 0;
        const std::string text = std::string("HTTP/1.1 200 OK\r\nX-Token: a\rX-Evil: 1\r\nX-Nul: b") + '\0' +
                                 "c\r\nX-Fold: d\r\n\te\r\nContent-Length: 0\r\n\r\n";
        QCOMPARE(feedAll(p, text, 4, used), R::Complete);
        QCOMPARE(c.headers.size(), std::size_t(4));
        QCOMPARE(c.headers[0].second, std::string("a X-Evil: 1"));
        QCOMPARE(c.headers[1].second, std::string("b c"));
        QCOMPARE(c.headers[2].second, std::string("d e"));
    }
    void parses()
    {
        QFETCH(QByteArray, response);
        QFETCH(int, status);
        QFETCH(int, body);
        QFETCH(bool, keepAlive);
        const std::string text = response.toStdString();
        for (std::size_t chunk : {text.size(), std::size_t(1), std::size_t(3), std::size_t(17)}) {
            Http1ResponseParser p;
            p.reset();
            std::size_t used = 0;
            QCOMPARE(feedAll(p, text, chunk, used), R::Complete);
            QCOMPARE(used, text.size());
            QCOMPARE(p.status(), status);
            QCOMPARE(p.bodyBytes(), std::uint64_t(body));
            QCOMPARE(p.keepAlive(), keepAlive);
        }
    }

    void bodyUntilClose()
    {
        Http1ResponseParser p;
        p.reset();
        const std::string text = "HTTP/1.1 200 OK\r\n\r\nstreaming body";
        std::size_t used = 0;
        QCOMPARE(feedAll(p, text, 4, used), R::NeedMore);
        QCOMPARE(p.finish(), R::Complete);
        QCOMPARE(p.bodyBytes(), std::uint64_t(14));
        QVERIFY(!p.keepAlive());
    }

    void largeBodyIsCountedNotBuffered()
    {
        Http1ResponseParser p;
        p.reset();
        std::size_t consumed = 0;
        const std::string head = "HTTP/1.1 200 OK\r\nContent-Length: 1000000000\r\n\r\n";
        QCOMPARE(p.feed(head.data(), head.size(), consumed), R::NeedMore);
        const std::string block(65536, 'x');
        for (int i = 0; i < 15258; ++i)
            QCOMPARE(p.feed(block.data(), block.size(), consumed), R::NeedMore);
        QCOMPARE(p.feed(block.data(), 1000000000 - 15258ull * 65536, consumed), R::Complete);
        QCOMPARE(p.bodyBytes(), std::uint64_t(1000000000));
    }

    // The builder's Send reads with the same parser, keeping what a person reads:
    // reason, headers, the decoded body (chunks joined), trailers; a body past
    // the limit is cut and said so. A 100 Continue before it is not kept.
    void captureKeepsWhatAPersonReads()
    {
        Http1ResponseParser p;
        Http1ResponseParser::Capture c;
        c.bodyLimit = 8;
        p.setCapture(&c);
        p.reset();
        const std::string text = "HTTP/1.1 100 Continue\r\nX-Early: 1\r\n\r\n"
                                 "HTTP/1.1 201 Created Fine\r\nContent-Type: text/plain\r\n"
                                 "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n"
                                 "X-Checksum: abc\r\n\r\n";
        for (std::size_t chunk : {std::size_t(1), std::size_t(7), text.size()}) {
            p.reset();
            std::size_t used = 0;
            QCOMPARE(feedAll(p, text, chunk, used), R::Complete);
            QCOMPARE(p.status(), 201);
            QCOMPARE(c.reason, std::string("Created Fine"));
            QCOMPARE(c.headers.size(), std::size_t(2));
            QCOMPARE(c.headers[0].first, std::string("Content-Type"));
            QCOMPARE(c.headers[0].second, std::string("text/plain"));
            QCOMPARE(c.body, std::string("hello wo"));
            QVERIFY(c.truncated);
            QCOMPARE(p.bodyBytes(), std::uint64_t(11));
            QCOMPARE(c.trailers.size(), std::size_t(1));
            QCOMPARE(c.trailers[0].second, std::string("abc"));
        }
        // without a capture nothing is kept
        Http1ResponseParser plain;
        plain.reset();
        std::size_t used = 0;
        QCOMPARE(feedAll(plain, text, 3, used), R::Complete);
        QCOMPARE(c.trailers.size(), std::size_t(1));
    }

    void contentLengthRule()
    {
        QVERIFY(stampede::requestNeedsLength("POST", false));
        QVERIFY(stampede::requestNeedsLength("PUT", false));
        QVERIFY(stampede::requestNeedsLength("PATCH", false));
        QVERIFY(stampede::requestNeedsLength("GET", true));
        QVERIFY(!stampede::requestNeedsLength("GET", false));
        QVERIFY(!stampede::requestNeedsLength("DELETE", false));
    }

    void headResponseHasNoBody()
    {
        Http1ResponseParser p;
        p.reset(true);
        std::size_t used = 0;
        QCOMPARE(feedAll(p, "HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n", 100, used), R::Complete);
        QCOMPARE(p.bodyBytes(), std::uint64_t(0));
    }

    void rejects_data()
    {
        QTest::addColumn<QByteArray>("response");
        QTest::addRow("garbage") << QByteArray("garbage garbage garbage\r\n\r\n");
        QTest::addRow("bad status") << QByteArray("HTTP/1.1 2x0 OK\r\n\r\n");
        QTest::addRow("http/2 preface") << QByteArray("HTTP/2 200\r\n\r\n");
        QTest::addRow("bad content-length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 12a\r\n\r\n");
        QTest::addRow("conflicting lengths")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n");
        QTest::addRow("bad chunk size") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
        QTest::addRow("header without colon") << QByteArray("HTTP/1.1 200 OK\r\nNoColonHere\r\n\r\n");
        QTest::addRow("endless header") << QByteArray("HTTP/1.1 200 OK\r\nX: ") + QByteArray(20000, 'a');
        QTest::addRow("status 600") << QByteArray("HTTP/1.1 600 Odd\r\nContent-Length: 0\r\n\r\n");
        QTest::addRow("status 999") << QByteArray("HTTP/1.1 999 Odd\r\nContent-Length: 0\r\n\r\n");
        QTest::addRow("status 099") << QByteArray("HTTP/1.1 099 Odd\r\nContent-Length: 0\r\n\r\n");
        QTest::addRow("101 unasked") << QByteArray("HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n");
        QTest::addRow("space before colon") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length : 5\r\n\r\nhello");
        QTest::addRow("folded length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n 6\r\n\r\nhello");
        QTest::addRow("length list that differs") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 5, 6\r\n\r\nhello");
        QTest::addRow("negative length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n");
        QTest::addRow("chunk size overflow")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffff\r\n");
        QByteArray manyHeaders("HTTP/1.1 200 OK\r\n");
        for (int i = 0; i < 80000; ++i)
            manyHeaders += "X-Header-" + QByteArray::number(i) + ": value\r\n";
        QTest::addRow("head over 1 MiB") << manyHeaders;
    }
    void rejects()
    {
        QFETCH(QByteArray, response);
        Http1ResponseParser p;
        p.reset();
        std::size_t used = 0;
        QCOMPARE(feedAll(p, response.toStdString(), 7, used), R::Error);
        QVERIFY(!p.error().empty());
    }

    void closedMidResponseIsAnError()
    {
        Http1ResponseParser p;
        p.reset();
        std::size_t used = 0;
        QCOMPARE(feedAll(p, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", 100, used), R::NeedMore);
        QCOMPARE(p.finish(), R::Error);
        QCOMPARE(QString::fromStdString(p.error()),
                 QStringLiteral("the connection closed in the middle of a response"));
    }
};

QTEST_APPLESS_MAIN(TestHttp1ResponseParser)
#include "tst_http1responseparser.moc"
