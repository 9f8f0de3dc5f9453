// HTTPS against an independent peer: nginx from Debian with certificates the
// test makes (a CA, a server certificate for localhost and 127.0.0.1, a
// self-signed one, an expired one, and a client certificate). Verification is
// on by default; each refusal is counted in the tls class with its reason.
#include "store/projectstore.h"
#include "store/runlog.h"
#include "testsupport.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace testsupport;

class TestTls : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    Nginx m_nginx;
    int m_good = 0, m_selfSigned = 0, m_expired = 0, m_clientAuth = 0;

    QString file(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }
    QString url(int port, const char* path = "/") const
    {
        return QStringLiteral("https://127.0.0.1:%1%2").arg(port).arg(QString::fromLatin1(path));
    }
    static qint64 count(const QJsonObject& total, const char* key)
    {
        return total[QString::fromLatin1(key)].toInteger();
    }
    static QJsonObject tlsOf(const QJsonObject& total) { return total[QStringLiteral("connections")].toObject(); }
    QJsonObject run(const QStringList& extra, int expectExit = -1)
    {
        const auto o = runOneEngine(file("s.json"), extra);
        if (expectExit >= 0 && o.cli.exitCode != expectExit)
            qWarning("exit %d: %s", o.cli.exitCode, qPrintable(o.cli.err));
        return o.total;
    }

private slots:
    void initTestCase()
    {
        if (!Nginx::installed())
            QFAIL("nginx is not installed: run scripts/install-deps.sh");
        const QString made = makeCertificates(m_dir.path());
        QVERIFY2(made.isEmpty(), qPrintable(made));
        m_good = freePort();
        m_selfSigned = freePort();
        m_expired = freePort();
        m_clientAuth = freePort();
        const QString servers =
            QStringLiteral(
                "  ssl_session_cache shared:tls:1m; ssl_session_tickets on;\n"
                "  server { listen 127.0.0.1:%2 ssl; ssl_certificate %1/server.pem; ssl_certificate_key "
                "%1/server.key;\n"
                "           location /big { root %1; }\n"
                "           location / { return 200 \"ok\"; } }\n"
                "  server { listen 127.0.0.1:%3 ssl; ssl_certificate %1/self.pem; ssl_certificate_key %1/self.key;\n"
                "           location / { return 200 \"ok\"; } }\n"
                "  server { listen 127.0.0.1:%4 ssl; ssl_certificate %1/expired.pem; ssl_certificate_key "
                "%1/server.key;\n"
                "           location / { return 200 \"ok\"; } }\n"
                "  server { listen 127.0.0.1:%5 ssl; ssl_certificate %1/server.pem; ssl_certificate_key "
                "%1/server.key;\n"
                "           ssl_client_certificate %1/ca.pem; ssl_verify_client on;\n"
                "           location / { return 200 \"client $ssl_client_s_dn\"; } }\n")
                .arg(m_dir.path())
                .arg(m_good)
                .arg(m_selfSigned)
                .arg(m_expired)
                .arg(m_clientAuth);
        QFile big(file("big"));
        QVERIFY(big.open(QIODevice::WriteOnly));
        big.write(QByteArray(100000, 'b')); // seven records of an answer
        big.close();
        QVERIFY2(m_nginx.start(m_dir.path(), servers, m_good), qPrintable(m_nginx.error()));
    }

    // Keep-alive answers of many records, through the engine's own TLS 1.3
    // records (--own-tls-records) and through OpenSSL's (the default): every byte arrives,
    // and nginx counts every request.
    void ownAndOpenSslRecordsCarryTheSame_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::newRow("--own-tls-records") << QStringList{QStringLiteral("--own-tls-records")};
        QTest::newRow("OpenSSL's records (the default)") << QStringList{};
    }
    void ownAndOpenSslRecordsCarryTheSame()
    {
        QFETCH(QStringList, extra);
        m_nginx.takeServedCount();
        const auto total =
            run(QStringList{QStringLiteral("--url"), url(m_good, "/big"), QStringLiteral("--cacert"), file("ca.pem"),
                            QStringLiteral("-c"), QStringLiteral("2"), QStringLiteral("-d"), QStringLiteral("1s")} +
                    extra,
                0);
        QCOMPARE(count(total, "errors"), 0);
        const qint64 requests = count(total, "requests");
        QVERIFY(requests > 20);
        QCOMPARE(m_nginx.takeServedCount(), requests);
        QVERIFY2(count(total, "bytes_in") > requests * 100000, qPrintable(QString::number(count(total, "bytes_in"))));
        QVERIFY2(count(total, "bytes_in") < requests * 100400, qPrintable(QString::number(count(total, "bytes_in"))));
    }

    void verifiedAgainstTheCaAndCountedByTheServer()
    {
        m_nginx.takeServedCount();
        const auto total = run({QStringLiteral("--url"), url(m_good), QStringLiteral("--cacert"), file("ca.pem"),
                                QStringLiteral("-c"), QStringLiteral("4"), QStringLiteral("-d"), QStringLiteral("1s")},
                               0);
        QCOMPARE(count(total, "errors"), 0);
        QVERIFY(count(total, "requests") > 100);
        QCOMPARE(m_nginx.takeServedCount(), count(total, "requests"));
        // four users, four connections, four full handshakes; the time is its own figure
        const QJsonObject tls = tlsOf(total);
        QCOMPARE(tls[QStringLiteral("tls_handshakes")].toInteger(), 4);
        QVERIFY(tls[QStringLiteral("tls_handshake_mean_ms")].toDouble() > 0);
        QVERIFY(tls[QStringLiteral("tls_handshake_max_ms")].toDouble() >=
                tls[QStringLiteral("tls_handshake_mean_ms")].toDouble());
        // and their spread, apart from the TCP connect's; none resumed
        const QJsonObject full = tls[QStringLiteral("tls_full_handshake_ms")].toObject();
        QVERIFY(full[QStringLiteral("p50")].toDouble() > 0);
        QVERIFY(full[QStringLiteral("p50")].toDouble() <= full[QStringLiteral("p99")].toDouble());
        QVERIFY(full[QStringLiteral("p99")].toDouble() <= full[QStringLiteral("max")].toDouble());
        QVERIFY(qAbs(full[QStringLiteral("max")].toDouble() - tls[QStringLiteral("tls_handshake_max_ms")].toDouble()) <
                0.002);
        QVERIFY(!tls.contains(QStringLiteral("tls_resumed_handshake_ms")));
        QVERIFY(tls[QStringLiteral("connect_ms")].toObject()[QStringLiteral("max")].toDouble() > 0);
    }

    void reconnectsResumeTheSession()
    {
        // Connection: close makes every request a new connection; all but the first of each resume
        const auto total =
            run({QStringLiteral("--url"), url(m_good), QStringLiteral("--cacert"), file("ca.pem"), QStringLiteral("-c"),
                 QStringLiteral("2"), QStringLiteral("-r"), QStringLiteral("100"), QStringLiteral("-d"),
                 QStringLiteral("1s"), QStringLiteral("-H"), QStringLiteral("Connection: close")},
                0);
        QCOMPARE(count(total, "errors"), 0);
        const QJsonObject tls = tlsOf(total);
        const qint64 handshakes = tls[QStringLiteral("tls_handshakes")].toInteger();
        QVERIFY2(handshakes >= 90, qPrintable(QString::number(handshakes)));
        QVERIFY2(tls[QStringLiteral("tls_resumed")].toInteger() >= handshakes - 4,
                 qPrintable(QString::number(tls[QStringLiteral("tls_resumed")].toInteger())));
        // the resumed handshakes' times apart from the full ones'
        QVERIFY(tls[QStringLiteral("tls_resumed_handshake_ms")].toObject()[QStringLiteral("p50")].toDouble() > 0);
        QVERIFY(tls[QStringLiteral("tls_full_handshake_ms")].toObject()[QStringLiteral("p50")].toDouble() > 0);
    }

    void noTlsResumeMakesEveryHandshakeFull()
    {
        // --no-tls-resume: every new connection a new client's, none resumed
        const auto total = run({QStringLiteral("--url"), url(m_good), QStringLiteral("--cacert"), file("ca.pem"),
                                QStringLiteral("-c"), QStringLiteral("2"), QStringLiteral("-r"), QStringLiteral("100"),
                                QStringLiteral("-d"), QStringLiteral("1s"), QStringLiteral("-H"),
                                QStringLiteral("Connection: close"), QStringLiteral("--no-tls-resume")},
                               0);
        QCOMPARE(count(total, "errors"), 0);
        const QJsonObject tls = tlsOf(total);
        QVERIFY2(tls[QStringLiteral("tls_handshakes")].toInteger() >= 90,
                 qPrintable(QString::number(tls[QStringLiteral("tls_handshakes")].toInteger())));
        QCOMPARE(tls[QStringLiteral("tls_resumed")].toInteger(), 0);
        QVERIFY(!tls.contains(QStringLiteral("tls_resumed_handshake_ms")));
        QVERIFY(tls[QStringLiteral("tls_full_handshake_ms")].toObject()[QStringLiteral("p99")].toDouble() > 0);
        // the time to first byte starts at the request's write, after the connect and the handshake,
        // which the service time (from the send) takes in
        const double firstByte = total[QStringLiteral("first_byte_ms")].toObject()[QStringLiteral("p50")].toDouble();
        const double service = total[QStringLiteral("service_time_ms")].toObject()[QStringLiteral("p50")].toDouble();
        QVERIFY2(firstByte > 0 && firstByte < service,
                 qPrintable(QStringLiteral("first byte %1 ms, service %2 ms").arg(firstByte).arg(service)));
    }

    void unverifiableCertificatesAreTlsErrors_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("reason");
        QTest::newRow("unknown CA (system CAs only)") << 0 << QStringList{} << QStringLiteral("unknown CA");
        QTest::newRow("self-signed") << 1 << QStringList{QStringLiteral("--cacert"), file("ca.pem")}
                                     << QStringLiteral("unknown CA");
        QTest::newRow("expired") << 2 << QStringList{QStringLiteral("--cacert"), file("ca.pem")}
                                 << QStringLiteral("expired");
        QTest::newRow("wrong name") << 0
                                    << QStringList{QStringLiteral("--cacert"), file("ca.pem"),
                                                   QStringLiteral("--server-name"), QStringLiteral("shop.example")}
                                    << QStringLiteral("name mismatch: the certificate is not for shop.example");
    }

    void unverifiableCertificatesAreTlsErrors()
    {
        QFETCH(int, which);
        QFETCH(QStringList, extra);
        QFETCH(QString, reason);
        const int port = which == 0 ? m_good : which == 1 ? m_selfSigned : m_expired;
        const QString report = file("refused.streport");
        QFile::remove(report);
        const auto total =
            run(QStringList{QStringLiteral("--url"), url(port), QStringLiteral("-c"), QStringLiteral("2"),
                            QStringLiteral("-r"), QStringLiteral("20"), QStringLiteral("-d"), QStringLiteral("1s"),
                            QStringLiteral("--report"), report} +
                extra);
        QVERIFY(count(total, "requests") > 0);
        QCOMPARE(count(total, "errors"), count(total, "requests"));
        QCOMPARE(total[QStringLiteral("errors_by_class")].toObject()[QStringLiteral("tls")].toInteger(),
                 count(total, "requests"));
        // the reason is kept with the error samples
        std::string error;
        auto store = stampede::ProjectStore::open(report.toStdString(), error);
        QVERIFY2(store, error.c_str());
        stampede::RunLog log(*store);
        const auto saved = log.load(log.runs().at(0).id);
        QVERIFY(saved && !saved->samples.empty());
        QVERIFY2(QString::fromStdString(saved->samples[0].detail).contains(reason, Qt::CaseInsensitive),
                 saved->samples[0].detail.c_str());

        // and with verification turned off, the same server answers
        const auto insecure =
            run(QStringList{QStringLiteral("--url"), url(port), QStringLiteral("-k"), QStringLiteral("-c"),
                            QStringLiteral("2"), QStringLiteral("-d"), QStringLiteral("1s")},
                0);
        QVERIFY(count(insecure, "requests") > 0);
        QCOMPARE(count(insecure, "errors"), 0);
    }

    void clientCertificates()
    {
        const QStringList base{QStringLiteral("--url"), url(m_clientAuth),    QStringLiteral("--cacert"),
                               file("ca.pem"),          QStringLiteral("-c"), QStringLiteral("2"),
                               QStringLiteral("-d"),    QStringLiteral("1s")};
        // nginx answers 400 to a client that shows no certificate
        const auto without = run(base);
        QCOMPARE(count(without, "errors"), count(without, "requests"));
        QVERIFY(without[QStringLiteral("errors_by_class")].toObject()[QStringLiteral("http_4xx")].toInteger() > 0);
        const auto with = run(base + QStringList{QStringLiteral("--cert"), file("client.pem"), QStringLiteral("--key"),
                                                 file("client.key")},
                              0);
        QVERIFY(count(with, "requests") > 0);
        QCOMPARE(count(with, "errors"), 0);
    }

    void badTlsInputExits2()
    {
        auto r = runCli({QStringLiteral("run"), QStringLiteral("--url"), url(m_good), QStringLiteral("--cacert"),
                         file("missing.pem"), QStringLiteral("-d"), QStringLiteral("1s")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("missing.pem")), qPrintable(r.err));
        r = runCli({QStringLiteral("run"), QStringLiteral("--url"), url(m_good), QStringLiteral("--cert"),
                    file("client.pem"), QStringLiteral("-d"), QStringLiteral("1s")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("key")), qPrintable(r.err));
        r = runCli({QStringLiteral("run"), QStringLiteral("--url"), url(m_good), QStringLiteral("--cacert"),
                    file("san.ext"), QStringLiteral("-d"), QStringLiteral("1s")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("PEM")), qPrintable(r.err));
    }
};

QTEST_MAIN(TestTls)
#include "tst_tls.moc"
