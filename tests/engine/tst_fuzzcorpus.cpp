// The fuzz targets' seed corpora replayed in `make check` (built with the
// ordinary compiler, without libFuzzer): each seed must run to its end, in
// bounded time, without tripping the target's own checks. A seed that once
// found a fault stays here as its regression test: http2session's `refused`
// hung inside nghttp2_session_mem_send (a stream refused before it went out
// was put back on the closing connection, for ever).
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTest>

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

class TestFuzzCorpus : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void seed_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(qEnvironmentVariable("STAMPEDE_SOURCE_DIR") + QStringLiteral("/tests/fuzz/corpus/") +
                       QStringLiteral(FUZZ_TARGET));
        const auto files = dir.entryInfoList(QDir::Files, QDir::Name);
        QVERIFY(!files.isEmpty());
        for (const QFileInfo& f : files)
            QTest::newRow(qPrintable(f.fileName())) << f.absoluteFilePath();
    }
    void seed()
    {
        QFETCH(QString, path);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QElapsedTimer t;
        t.start();
        QCOMPARE(
            LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.constData()), std::size_t(bytes.size())),
            0);
        QVERIFY2(t.elapsed() < 10000, qPrintable(QString::number(t.elapsed())));
    }
};

QTEST_GUILESS_MAIN(TestFuzzCorpus)
#include "tst_fuzzcorpus.moc"
