// Answers in gzip, deflate or br (Brotli, encoded here by libbrotlienc), decoded for scripts and checks as newman
// decodes them: each coding and its header's spellings, a zlib stream and raw
// deflate alike, a body that inflates past the limit cut there (a small answer
// cannot become gigabytes), and broken bodies refused with the reason.
#include "check/contentcoding.h"

#include <QTest>

#include <brotli/encode.h>
#include <zlib.h>

using namespace stampede;

namespace {

// `text` compressed with `windowBits` (16 + 15: gzip, 15: zlib, -15: raw deflate).
std::string compress(const std::string& text, int windowBits)
{
    z_stream z{};
    deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, windowBits, 9, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&z, uLong(text.size())) + 32, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = uInt(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = uInt(out.size());
    deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

// `text` in Brotli (Google's encoder).
std::string brotli(const std::string& text)
{
    std::size_t size = BrotliEncoderMaxCompressedSize(text.size()) + 64;
    std::string out(size, '\0');
    BrotliEncoderCompress(BROTLI_DEFAULT_QUALITY, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, text.size(),
                          reinterpret_cast<const std::uint8_t*>(text.data()), &size,
                          reinterpret_cast<std::uint8_t*>(out.data()));
    out.resize(size);
    return out;
}

} // namespace

class TestContentCoding : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void headerValues()
    {
        QCOMPARE(contentCodingOf("gzip"), ContentCoding::Gzip);
        QCOMPARE(contentCodingOf(" X-GZip "), ContentCoding::Gzip);
        QCOMPARE(contentCodingOf("Deflate"), ContentCoding::Deflate);
        QCOMPARE(contentCodingOf("identity, gzip"), ContentCoding::Gzip); // the last applied
        QCOMPARE(contentCodingOf("br"), ContentCoding::Brotli);
        QCOMPARE(contentCodingOf("zstd"), ContentCoding::Identity); // not decoded here: as received
        QCOMPARE(contentCodingOf(""), ContentCoding::Identity);
    }

    void eachCodingDecodes_data()
    {
        QTest::addColumn<int>("coding");
        QTest::addColumn<int>("windowBits");
        QTest::newRow("gzip") << int(ContentCoding::Gzip) << 16 + MAX_WBITS;
        QTest::newRow("deflate (zlib)") << int(ContentCoding::Deflate) << MAX_WBITS;
        QTest::newRow("deflate (raw)") << int(ContentCoding::Deflate) << -MAX_WBITS;
        QTest::newRow("br") << int(ContentCoding::Brotli) << 0;
    }
    void eachCodingDecodes()
    {
        QFETCH(int, coding);
        QFETCH(int, windowBits);
        std::string text = "{\"gzipped\": true, \"n\": [";
        for (int i = 0; i < 5000; ++i)
            text += std::to_string(i) + ",";
        text += "0]}";
        std::string out, why;
        bool truncated = true;
        const std::string body = coding == int(ContentCoding::Brotli) ? brotli(text) : compress(text, windowBits);
        QVERIFY2(decodeContent(ContentCoding(coding), body, 1 << 20, out, truncated, why), why.c_str());
        QCOMPARE(out, text);
        QVERIFY(!truncated);
    }

    void aBombIsCutAtTheLimit()
    {
        const std::string zeros(64 << 20, '\0'); // 64 MiB of zeros: about 64 KiB compressed
        const std::string bomb = compress(zeros, 16 + MAX_WBITS);
        QVERIFY(bomb.size() < 128 * 1024);
        std::string out, why;
        bool truncated = false;
        QVERIFY2(decodeContent(ContentCoding::Gzip, bomb, kMaxDecodedBody, out, truncated, why), why.c_str());
        QCOMPARE(out.size(), kMaxDecodedBody);
        QVERIFY(truncated);
        const std::string brBomb = brotli(zeros); // Brotli's: a few bytes for 64 MiB
        QVERIFY(brBomb.size() < 1024);
        QVERIFY2(decodeContent(ContentCoding::Brotli, brBomb, kMaxDecodedBody, out, truncated, why), why.c_str());
        QCOMPARE(out.size(), kMaxDecodedBody);
        QVERIFY(truncated);
    }

    void brokenBodies_data()
    {
        QTest::addColumn<int>("coding");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("says");
        const std::string gz = compress("hello, hello, hello", 16 + MAX_WBITS);
        QTest::newRow("gzip cut short") << int(ContentCoding::Gzip)
                                        << QByteArray::fromStdString(gz.substr(0, gz.size() / 2))
                                        << QStringLiteral("gzip body cut short");
        QTest::newRow("not gzip") << int(ContentCoding::Gzip) << QByteArray("{\"plain\": 1}")
                                  << QStringLiteral("gzip body not readable");
        QTest::newRow("gzip with a bad checksum")
            << int(ContentCoding::Gzip)
            << QByteArray::fromStdString(gz.substr(0, gz.size() - 8) + std::string(8, '\x01'))
            << QStringLiteral("gzip body not readable");
        QTest::newRow("not deflate") << int(ContentCoding::Deflate) << QByteArray("\xff\xff\xff\xff", 4)
                                     << QStringLiteral("deflate body");
        const std::string br = brotli(std::string(3000, 'x') + "hello, hello, hello");
        QTest::newRow("br cut short") << int(ContentCoding::Brotli)
                                      << QByteArray::fromStdString(br.substr(0, br.size() / 2))
                                      << QStringLiteral("br body cut short");
        QTest::newRow("not br") << int(ContentCoding::Brotli) << QByteArray("\xff\xff\xff\xff plain", 10)
                                << QStringLiteral("br body not readable");
    }
    void brokenBodies()
    {
        QFETCH(int, coding);
        QFETCH(QByteArray, body);
        QFETCH(QString, says);
        std::string out = "left over", why;
        bool truncated = false;
        QVERIFY(!decodeContent(ContentCoding(coding), body.toStdString(), 1 << 20, out, truncated, why));
        QVERIFY(out.empty());
        QVERIFY2(QString::fromStdString(why).contains(says), why.c_str());
    }

    // What scripts and checks read: decoded when the header says so, as received otherwise or when it does not decode.
    void theBodyScriptsRead()
    {
        const std::string text = "{\"a\": 1}";
        const std::string gz = compress(text, 16 + MAX_WBITS);
        const HeaderPairs gzipped = {{"Content-Type", "application/json"}, {"Content-Encoding", "gzip"}};
        const HeaderPairs plain = {{"Content-Type", "application/json"}};
        std::string buffer;
        AnswerView a;
        a.headers = &gzipped;
        a.body = gz;
        QCOMPARE(std::string(decodedBody(a, buffer)), text);
        a.body = text; // said gzip, is not: what came
        QCOMPARE(std::string(decodedBody(a, buffer)), text);
        a.headers = &plain;
        a.body = gz;
        QCOMPARE(decodedBody(a, buffer).size(), gz.size());
    }
};

QTEST_GUILESS_MAIN(TestContentCoding)
#include "tst_contentcoding.moc"
