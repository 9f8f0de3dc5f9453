// Issue 50: the framing of streams, a table of shapes each (the hostile ones with what must be counted):
// Server-Sent Events as WHATWG's "Interpreting an event stream" reads them, and a WebSocket server's frames as
// RFC 6455 section 5 allows them, each fault with the close code the RFC names.
#include "stream/sseparser.h"
#include "stream/wsframes.h"
#include "stream/wshandshake.h"

#include <QTest>

#include <string>
#include <vector>

using namespace stampede;

Q_DECLARE_METATYPE(std::string)

namespace {

// Each event as "type|data|id", the events joined by "~", fed `step` bytes at a time (0: all at once).
std::string events(const std::string& stream, std::size_t step, SseParser& p, SseParser::Result* last = nullptr)
{
    std::string out;
    const auto on = [&](const SseEvent& e) {
        out += (out.empty() ? "" : "~") + e.type + "|" + e.data + "|" + e.id;
        return true;
    };
    SseParser::Result r = SseParser::Result::More;
    if (step == 0) {
        r = p.feed(stream, on);
    } else {
        for (std::size_t at = 0; at < stream.size() && r == SseParser::Result::More; at += step)
            r = p.feed(std::string_view(stream).substr(at, step), on);
    }
    if (last)
        *last = r;
    return out;
}

std::string frame(std::uint8_t b0, std::string_view payload, int lengthForm = 0)
{
    std::string f(1, char(b0));
    const std::size_t n = payload.size();
    if (lengthForm == 0 && n < 126) {
        f.push_back(char(n));
    } else if (lengthForm <= 126 && n <= 0xFFFF) {
        f.push_back(char(126));
        f.push_back(char(n >> 8));
        f.push_back(char(n & 0xFF));
    } else {
        f.push_back(char(127));
        for (int s = 56; s >= 0; s -= 8)
            f.push_back(char((std::uint64_t(n) >> s) & 0xFF));
    }
    return f + std::string(payload);
}

std::string closeFrame(std::uint16_t code, std::string_view reason = {})
{
    std::string p;
    p.push_back(char(code >> 8));
    p.push_back(char(code & 0xFF));
    return frame(0x88, p + std::string(reason));
}

} // namespace

class TestStreamFrames : public QObject
{
    Q_OBJECT

private slots:
    void sseEvents_data()
    {
        QTest::addColumn<std::string>("stream");
        QTest::addColumn<std::string>("expected");
        QTest::addColumn<std::string>("lastId");
        QTest::newRow("one event") << std::string("data: hello\n\n") << std::string("message|hello|") << std::string();
        QTest::newRow("two data lines join with LF")
            << std::string("data: a\ndata: b\n\n") << std::string("message|a\nb|") << std::string();
        QTest::newRow("CRLF and CR end lines") << std::string("data: a\r\n\r\ndata: b\r\rdata:c\n\n")
                                               << std::string("message|a|~message|b|~message|c|") << std::string();
        QTest::newRow("a named event and its id")
            << std::string("event: tick\nid: 7\ndata: 1\n\n") << std::string("tick|1|7") << std::string("7");
        QTest::newRow("the id stays for the next event") << std::string("id: 7\ndata: 1\n\ndata: 2\n\n")
                                                         << std::string("message|1|7~message|2|7") << std::string("7");
        QTest::newRow("an id with NUL is ignored") << std::string("id: 1\ndata: a\n\nid: x\0y\ndata: b\n\n", 32)
                                                   << std::string("message|a|1~message|b|1") << std::string("1");
        QTest::newRow("no data: nothing dispatched, the type forgotten")
            << std::string("event: x\n\ndata: a\n\n") << std::string("message|a|") << std::string();
        QTest::newRow("an id alone still sets the last id")
            << std::string("id: 9\n\n") << std::string() << std::string("9");
        QTest::newRow("comments and unknown fields ignored")
            << std::string(": keep-alive\nfoo: bar\ndata: a\n\n") << std::string("message|a|") << std::string();
        QTest::newRow("a field without a colon")
            << std::string("data\n\n") << std::string("message||") << std::string();
        QTest::newRow("only one space is taken off")
            << std::string("data:  two\n\n") << std::string("message| two|") << std::string();
        QTest::newRow("a byte order mark at the start is skipped") << std::string("\xEF\xBB\xBF"
                                                                                  "data: a\n\n")
                                                                   << std::string("message|a|") << std::string();
        QTest::newRow("a second mark is text") << std::string("\xEF\xBB\xBF\xEF\xBB\xBF"
                                                              "data: a\n\n")
                                               << std::string() << std::string();
        QTest::newRow("an event the stream ends in is not dispatched")
            << std::string("data: a\n\ndata: b\n") << std::string("message|a|") << std::string();
        QTest::newRow("a line the stream ends in is not read")
            << std::string("data: a") << std::string() << std::string();
        QTest::newRow("not UTF-8: made so")
            << std::string("data: \xff\n\n") << std::string("message|\\xFF|") << std::string();
    }
    // Each shape gives the same events whether it comes whole or a byte at a time (a CR and its LF in two reads).
    void sseEvents()
    {
        QFETCH(std::string, stream);
        QFETCH(std::string, expected);
        QFETCH(std::string, lastId);
        for (const std::size_t step : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(5)}) {
            SseParser p;
            QCOMPARE(events(stream, step, p), expected);
            QCOMPARE(p.lastEventId(), lastId);
        }
    }

    // retry: digits only; a stop leaves the rest unread; hostile streams are bounded and counted.
    void sseRetryStopAndBounds()
    {
        SseParser p;
        events("retry: 1500\ndata: a\n\nretry: 15x\nretry:\n", 0, p);
        QCOMPARE(p.retry().value_or(0), std::uint64_t(1500));
        SseParser stop;
        std::size_t consumed = 0, seen = 0;
        const std::string two = "data: a\n\ndata: b\n\n";
        QCOMPARE(stop.feed(
                     two, [&](const SseEvent&) { return ++seen < 1; }, &consumed),
                 SseParser::Result::Stopped);
        QCOMPARE(seen, std::size_t(1));
        QCOMPARE(consumed, std::size_t(9));
        // a stream that never ends a line: a fault at the bound, nothing more read, memory at the bound
        SseParser endless(SseParser::Limits{1024, 4096});
        SseParser::Result r;
        events(std::string(5000, 'x'), 100, endless, &r);
        QCOMPARE(r, SseParser::Result::Fault);
        QVERIFY2(endless.error().find("1024") != std::string::npos, endless.error().c_str());
        QCOMPARE(endless.feed("\n\n", {}), SseParser::Result::Fault);
        // an event whose data passes the bound
        SseParser big(SseParser::Limits{1024, 4096});
        std::string many;
        for (int i = 0; i < 10; ++i)
            many += "data: " + std::string(500, 'y') + "\n";
        events(many + "\n", 0, big, &r);
        QCOMPARE(r, SseParser::Result::Fault);
        QCOMPARE(big.events(), std::uint64_t(0));
        SseParser counted;
        events(": a\n: b\ndata: \xc3\n\n", 0, counted);
        QCOMPARE(counted.comments(), std::uint64_t(2));
        QCOMPARE(counted.notUtf8(), std::uint64_t(1));
    }

    // A client's frames: FIN and opcode, the mask bit and key, the payload masked, each length in its form.
    void wsClientFrames()
    {
        const std::uint8_t mask[4] = {0x37, 0xfa, 0x21, 0x3d};
        std::string out;
        appendWsFrame(out, WsOpcode::Text, "Hello", mask);
        QCOMPARE(out, std::string("\x81\x85\x37\xfa\x21\x3d\x7f\x9f\x4d\x51\x58", 11)); // RFC 6455 5.7's example
        for (const std::size_t n : {std::size_t(125), std::size_t(126), std::size_t(65535), std::size_t(65536)}) {
            out.clear();
            appendWsFrame(out, WsOpcode::Binary, std::string(n, 'a'), mask, false);
            const std::size_t header = n < 126 ? 6 : n <= 0xFFFF ? 8 : 14;
            QCOMPARE(out.size(), header + n);
            QCOMPARE(std::uint8_t(out[0]), std::uint8_t(0x02)); // not FIN
            QCOMPARE(std::uint8_t(out[1]) & 0x7F, n < 126 ? int(n) : n <= 0xFFFF ? 126 : 127);
            QCOMPARE(std::uint8_t(out[header]), std::uint8_t('a' ^ mask[0]));
        }
        QCOMPARE(wsClosePayload(1000, "bye"), std::string("\x03\xe8"
                                                          "bye"));
        QCOMPARE(wsClosePayload(1000, std::string(200, 'z')).size(), std::size_t(125));
        QCOMPARE(wsClosePayload(0, "x"), std::string());
    }

    // The server's side (the mock's): a client's masked frames read back, byte by byte and whole, in every length
    // form, fragmented with a ping between; an unmasked frame from a client is a fault (1002); a server's frame
    // goes unmasked and a client's reader takes it.
    void wsFramesReadAsAServer()
    {
        const std::uint8_t mask[4] = {0x12, 0x34, 0x56, 0x78};
        std::string wire;
        std::string big(70000, '\0');
        for (std::size_t i = 0; i < big.size(); ++i)
            big[i] = char(i * 7);
        appendWsFrame(wire, WsOpcode::Text, "Hello", mask);
        appendWsFrame(wire, WsOpcode::Binary, std::string(300, 'b'), mask);
        appendWsFrame(wire, WsOpcode::Binary, big, mask);
        appendWsFrame(wire, WsOpcode::Text, "frag", mask, false);
        appendWsFrame(wire, WsOpcode::Ping, "p", mask);
        appendWsFrame(wire, WsOpcode::Continuation, "ment", mask);
        appendWsFrame(wire, WsOpcode::Close, wsClosePayload(1000, "bye"), mask);
        for (const std::size_t step : {std::size_t(1), std::size_t(7), wire.size()}) {
            WsReader reader(WsReader::Limits{1 << 20, true});
            std::vector<std::string> got;
            WsReader::Events ev;
            ev.message = [&](WsOpcode t, std::string_view d) {
                got.push_back(std::to_string(int(t)) + ":" +
                              (d.size() > 10 ? std::to_string(d.size()) : std::string(d)));
                if (d.size() == big.size())
                    got.back() += d == big ? "=" : "!";
                return true;
            };
            ev.ping = [&](std::string_view p) { got.push_back("ping:" + std::string(p)); };
            WsReader::Result r = WsReader::Result::More;
            for (std::size_t at = 0; at < wire.size() && r == WsReader::Result::More; at += step)
                r = reader.feed(std::string_view(wire).substr(at, step), ev);
            QCOMPARE(r, WsReader::Result::Closed);
            QCOMPARE(reader.closeCode(), std::uint16_t(1000));
            QCOMPARE(reader.closeReason(), std::string("bye"));
            const std::vector<std::string> want{"1:Hello", "2:300", "2:70000=", "ping:p", "1:fragment"};
            QCOMPARE(got, want);
        }
        WsReader server(WsReader::Limits{1 << 20, true});
        QCOMPARE(server.feed(frame(0x81, "x"), {}), WsReader::Result::Fault);
        QCOMPARE(server.faultCode(), std::uint16_t(1002));
        std::string fromServer;
        appendWsFrame(fromServer, WsOpcode::Text, "plain", nullptr);
        QCOMPARE(fromServer, std::string("\x81\x05plain"));
        WsReader client;
        std::string heard;
        WsReader::Events ev;
        ev.message = [&](WsOpcode, std::string_view d) {
            heard.assign(d);
            return true;
        };
        QCOMPARE(client.feed(fromServer, ev), WsReader::Result::More);
        QCOMPARE(heard, std::string("plain"));
    }

    void wsServerFrames_data()
    {
        QTest::addColumn<std::string>("bytes");
        QTest::addColumn<int>("result"); // WsReader::Result
        QTest::addColumn<int>("code");   // the fault's or the close's
        QTest::addColumn<std::string>("messages");
        const int more = int(WsReader::Result::More), closed = int(WsReader::Result::Closed),
                  fault = int(WsReader::Result::Fault);
        QTest::newRow("a text message") << frame(0x81, "hi") << more << 0 << std::string("T:hi");
        QTest::newRow("fragmented, a ping between")
            << frame(0x01, "a") + frame(0x89, "p") + frame(0x00, "b") + frame(0x80, "c") << more << 0
            << std::string("ping:p,T:abc");
        QTest::newRow("binary, 16-bit length")
            << frame(0x82, std::string(300, 'b')) << more << 0 << std::string("B:300");
        QTest::newRow("64-bit length") << frame(0x82, std::string(70000, 'b')) << more << 0 << std::string("B:70000");
        QTest::newRow("a close with code and reason")
            << closeFrame(1001, "away") + frame(0x81, "late") << closed << 1001 << std::string();
        QTest::newRow("an empty close is 1005") << frame(0x88, "") << closed << 1005 << std::string();
        QTest::newRow("reserved bits") << frame(0xC1, "x") << fault << 1002 << std::string();
        QTest::newRow("reserved opcode") << frame(0x83, "x") << fault << 1002 << std::string();
        QTest::newRow("masked from the server")
            << std::string("\x81\x81\x01\x02\x03\x04x", 7) << fault << 1002 << std::string();
        QTest::newRow("length not in shortest form (16)") << frame(0x81, "x", 126) << fault << 1002 << std::string();
        QTest::newRow("length not in shortest form (64)") << frame(0x81, "x", 127) << fault << 1002 << std::string();
        QTest::newRow("length with its top bit")
            << std::string("\x82\x7f\x80\x00\x00\x00\x00\x00\x00\x00", 10) << fault << 1002 << std::string();
        QTest::newRow("control over 125") << frame(0x89, std::string(126, 'p')) << fault << 1002 << std::string();
        QTest::newRow("fragmented control") << frame(0x09, "p") << fault << 1002 << std::string();
        QTest::newRow("continuation with nothing begun") << frame(0x80, "x") << fault << 1002 << std::string();
        QTest::newRow("a new message inside one")
            << frame(0x01, "a") + frame(0x81, "b") << fault << 1002 << std::string();
        QTest::newRow("a close inside a fragmented message")
            << frame(0x01, "a") + closeFrame(1000) << closed << 1000 << std::string();
        QTest::newRow("a close of one byte") << frame(0x88, "x") << fault << 1002 << std::string();
        QTest::newRow("a close code no one may send") << closeFrame(1005) << fault << 1002 << std::string();
        QTest::newRow("a close code 999") << closeFrame(999) << fault << 1002 << std::string();
        QTest::newRow("an application's close code") << closeFrame(4000) << closed << 4000 << std::string();
        QTest::newRow("a close reason not UTF-8") << closeFrame(1000, "\xff") << fault << 1007 << std::string();
        QTest::newRow("text not UTF-8") << frame(0x81, "\xc3\x28") << fault << 1007 << std::string();
        QTest::newRow("UTF-8 split over fragments")
            << frame(0x01, "\xe2\x82") + frame(0x80, "\xac") << more << 0 << std::string("T:\xe2\x82\xac");
        QTest::newRow("over the message bound")
            << frame(0x82, std::string(2000, 'x')) << fault << 1009 << std::string();
        QTest::newRow("fragments over the bound")
            << frame(0x02, std::string(600, 'x')) + frame(0x80, std::string(600, 'x')) << fault << 1009
            << std::string();
        // permessage-deflate agreed (RFC 7692 section 7.2.3's own examples, then hostile shapes)
        const std::string hello("\xf2\x48\xcd\xc9\xc9\x07\x00", 7);
        QTest::newRow("deflate: Hello") << frame(0xC1, hello) << more << 0 << std::string("T:Hello");
        QTest::newRow("deflate: Hello in two fragments")
            << frame(0x41, hello.substr(0, 3)) + frame(0x80, hello.substr(3)) << more << 0 << std::string("T:Hello");
        QTest::newRow("deflate: a second Hello from the first's context")
            << frame(0xC1, hello) + frame(0xC1, std::string("\xf2\x00\x11\x00\x00", 5)) << more << 0
            << std::string("T:Hello,T:Hello");
        QTest::newRow("deflate: an uncompressed message beside")
            << frame(0xC1, hello) + frame(0x81, "plain") << more << 0 << std::string("T:Hello,T:plain");
        QTest::newRow("deflate: RSV1 on a continuation")
            << frame(0x41, hello.substr(0, 3)) + frame(0xC0, hello.substr(3)) << fault << 1002 << std::string();
        QTest::newRow("deflate: RSV1 on a ping") << frame(0xC9, "p") << fault << 1002 << std::string();
        QTest::newRow("deflate: RSV2") << frame(0xA1, "x") << fault << 1002 << std::string();
        QTest::newRow("deflate: not deflate data")
            << frame(0xC1, std::string("\xff\xff\xff\xff", 4)) << fault << 1007 << std::string();
        std::string bomb;
        WsDeflate().compress(std::string(2 * 1024 * 1024, '\0'), bomb); // a few KiB that expand to 2 MiB
        QTest::newRow("deflate: a bomb past the bound") << frame(0xC2, bomb) << fault << 1009 << std::string();
        QTest::newRow("deflate: text not UTF-8 once expanded") << [] {
            std::string c;
            WsDeflate().compress("\xc3\x28", c);
            return frame(0xC1, c);
        }() << fault << 1007 << std::string();
    }
    // Each shape read whole and a byte at a time: the same messages, the same end, the same code.
    void wsServerFrames()
    {
        QFETCH(std::string, bytes);
        QFETCH(int, result);
        QFETCH(int, code);
        QFETCH(std::string, messages);
        for (const std::size_t step : {bytes.size(), std::size_t(1), std::size_t(3)}) {
            WsReader reader(WsReader::Limits{1024 * 1024});
            if (QByteArray(QTest::currentDataTag()).contains("bound") &&
                !QByteArray(QTest::currentDataTag()).contains("deflate"))
                reader = WsReader(WsReader::Limits{1024});
            if (QByteArray(QTest::currentDataTag()).startsWith("deflate"))
                reader.inflateMessages();
            std::string seen;
            WsReader::Events ev;
            ev.message = [&](WsOpcode t, std::string_view d) {
                seen += (seen.empty() ? "" : ",") +
                        (t == WsOpcode::Text ? "T:" + std::string(d) : "B:" + std::to_string(d.size()));
                return true;
            };
            ev.ping = [&](std::string_view p) { seen += (seen.empty() ? "" : ",") + ("ping:" + std::string(p)); };
            WsReader::Result r = WsReader::Result::More;
            for (std::size_t at = 0; at < bytes.size() && r == WsReader::Result::More; at += step)
                r = reader.feed(std::string_view(bytes).substr(at, step), ev);
            QCOMPARE(int(r), result);
            QCOMPARE(int(r == WsReader::Result::Fault    ? reader.faultCode()
                         : r == WsReader::Result::Closed ? reader.closeCode()
                                                         : 0),
                     code);
            QCOMPARE(seen, messages);
            if (r == WsReader::Result::Fault)
                QVERIFY(!reader.error().empty());
        }
    }

    // permessage-deflate's answer read as RFC 7692 says (what a client that offered it plainly may be answered),
    // and a message compressed and expanded back, context kept across messages.
    void wsDeflate()
    {
        const struct
        {
            const char* value;
            bool ok, agreed;
        } answers[] = {
            {"", true, false},
            {"permessage-deflate", true, true},
            {"Permessage-Deflate ; server_no_context_takeover; client_no_context_takeover", true, true},
            {"permessage-deflate; server_max_window_bits=12", true, true},
            {"permessage-deflate; server_max_window_bits=\"10\"", true, true},
            {"permessage-deflate; server_max_window_bits=7", false, false},
            {"permessage-deflate; server_max_window_bits=16", false, false},
            {"permessage-deflate; server_max_window_bits=09", false, false},
            {"permessage-deflate; server_max_window_bits", false, false},
            {"permessage-deflate; client_max_window_bits=10", false, false}, // not offered
            {"permessage-deflate; server_no_context_takeover; server_no_context_takeover", false, false},
            {"permessage-deflate; server_no_context_takeover=1", false, false},
            {"permessage-deflate; x-unknown", false, false},
            {"permessage-deflate, permessage-deflate", false, false},
            {"x-webkit-deflate-frame", false, false},
        };
        for (const auto& a : answers) {
            bool agreed = true;
            const std::string why = wsDeflateAnswer(a.value, agreed);
            QVERIFY2(why.empty() == a.ok && agreed == a.agreed, (std::string(a.value) + " -> " + why).c_str());
        }
        WsDeflate client, server;
        std::string packed, back;
        for (const std::string text : {std::string(5000, 'a'), std::string("hello, 你好"), std::string(5000, 'a')}) {
            client.compress(text, packed);
            QVERIFY(packed.size() < text.size() || text.size() < 100);
            std::string why;
            QCOMPARE(server.expand(packed, back, 1 << 20, why), 0);
            QCOMPARE(back, text);
        }
        // the handshake: offered, then agreed or refused by the answer
        WsUpgrade u;
        u.key = "dGhlIHNhbXBsZSBub25jZQ==";
        u.deflate = true;
        QVERIFY(wsUpgradeRequest(u).find("\r\nSec-WebSocket-Extensions: permessage-deflate\r\n") != std::string::npos);
        std::vector<std::pair<std::string, std::string>> h{{"Upgrade", "websocket"},
                                                           {"Connection", "Upgrade"},
                                                           {"Sec-WebSocket-Accept", wsAccept(u.key)},
                                                           {"Sec-WebSocket-Extensions", "permessage-deflate"}};
        std::string protocol;
        bool deflate = false;
        QCOMPARE(wsCheckAnswer(101, h, u, protocol, &deflate), std::string());
        QVERIFY(deflate);
        u.deflate = false; // not offered: an answer naming it is refused
        QVERIFY(wsCheckAnswer(101, h, u, protocol, &deflate).find("not offered") != std::string::npos);
    }

    // The opening handshake: RFC 6455's own example key and accept; the request's lines; an answer is a
    // WebSocket only when every rule holds, each broken one said.
    void wsHandshake()
    {
        QCOMPARE(wsAccept("dGhlIHNhbXBsZSBub25jZQ=="), std::string("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="));
        const std::uint8_t nonce[16] = {'t', 'h', 'e', ' ', 's', 'a', 'm', 'p', 'l', 'e', ' ', 'n', 'o', 'n', 'c', 'e'};
        WsUpgrade u;
        u.target = "/chat?x=1";
        u.host = "127.0.0.1:8080";
        u.key = wsKey(nonce);
        QCOMPARE(u.key, std::string("dGhlIHNhbXBsZSBub25jZQ=="));
        u.protocols = {"chat", "superchat"};
        u.headers = {{"Cookie", "sid=1"}};
        QCOMPARE(wsUpgradeRequest(u), std::string("GET /chat?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"
                                                  "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                                                  "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                                                  "Sec-WebSocket-Version: 13\r\n"
                                                  "Sec-WebSocket-Protocol: chat, superchat\r\nCookie: sid=1\r\n\r\n"));
        using H = std::vector<std::pair<std::string, std::string>>;
        const H good = {{"Upgrade", "WebSocket"},
                        {"Connection", "keep-alive, Upgrade"},
                        {"Sec-WebSocket-Accept", "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="},
                        {"Sec-WebSocket-Protocol", "chat"}};
        std::string protocol;
        QCOMPARE(wsCheckAnswer(101, good, u, protocol), std::string());
        QCOMPARE(protocol, std::string("chat"));
        const auto without = [&](const char* name) {
            H h;
            for (const auto& kv : good)
                if (kv.first != name)
                    h.push_back(kv);
            return h;
        };
        const auto with = [&](const char* name, const char* value) {
            H h = without(name);
            h.emplace_back(name, value);
            return h;
        };
        const std::vector<std::pair<std::string, std::string>> bad = {
            {wsCheckAnswer(200, good, u, protocol), "not 101"},
            {wsCheckAnswer(101, without("Upgrade"), u, protocol), "Upgrade"},
            {wsCheckAnswer(101, with("Upgrade", "h2c"), u, protocol), "Upgrade"},
            {wsCheckAnswer(101, with("Connection", "close"), u, protocol), "Connection"},
            {wsCheckAnswer(101, without("Sec-WebSocket-Accept"), u, protocol), "no Sec-WebSocket-Accept"},
            {wsCheckAnswer(101, with("Sec-WebSocket-Accept", "AAAA"), u, protocol), "not the one"},
            {wsCheckAnswer(101, with("Sec-WebSocket-Protocol", "mqtt"), u, protocol), "not offered"},
            {wsCheckAnswer(101, with("Sec-WebSocket-Extensions", "permessage-deflate"), u, protocol), "extension"},
        };
        for (const auto& [why, part] : bad)
            QVERIFY2(why.find(part) != std::string::npos, (why + " / " + part).c_str());
    }

    // A handler that has what it waited for stops the reading; the frames after it are read on the next feed.
    void wsStopKeepsTheRest()
    {
        WsReader reader;
        int n = 0;
        WsReader::Events ev;
        ev.message = [&](WsOpcode, std::string_view) { return ++n != 1; };
        QCOMPARE(reader.feed(frame(0x81, "a") + frame(0x81, "b"), ev), WsReader::Result::Stopped);
        QCOMPARE(n, 1);
        QCOMPARE(reader.feed({}, ev), WsReader::Result::More);
        QCOMPARE(n, 2);
        QCOMPARE(reader.messages(), std::uint64_t(2));
        QVERIFY(wsCloseCodeAllowed(1000) && wsCloseCodeAllowed(1011) && wsCloseCodeAllowed(3000));
        QVERIFY(!wsCloseCodeAllowed(1004) && !wsCloseCodeAllowed(1006) && !wsCloseCodeAllowed(1015) &&
                !wsCloseCodeAllowed(2000) && !wsCloseCodeAllowed(5000));
    }
};

QTEST_APPLESS_MAIN(TestStreamFrames)
#include "tst_streamframes.moc"
