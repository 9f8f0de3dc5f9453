#include "bundle/bundlefile.h"
#include "stampede/v1/bundle.pb.h"
#include "traffic/trafficcodec.h"

#include <google/protobuf/descriptor.pb.h>

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <fstream>

using namespace stampede;

class TestBundle : public QObject
{
    Q_OBJECT
private:
    static std::string sample()
    {
        v1::Bundle b;
        b.set_format_version(kBundleFormatVersion);
        auto* s = b.mutable_scenario();
        s->set_name("bundle test");
        s->add_steps()->mutable_request()->set_url("http://127.0.0.1:9/");
        auto* v = s->add_variables();
        v->set_name("u");
        v->mutable_csv()->set_data("id\n1\n2\n");
        return encodeBundle(b);
    }

private slots:
    void roundTrip()
    {
        v1::Bundle back;
        std::string error;
        QVERIFY2(decodeBundle(sample(), back, error), error.c_str());
        QCOMPARE(back.scenario().name(), std::string("bundle test"));
        QCOMPARE(back.scenario().variables(0).csv().data(), std::string("id\n1\n2\n"));
    }

    void inlinesCsvFiles()
    {
        QTemporaryDir dir;
        std::ofstream(dir.filePath(QStringLiteral("rows.csv")).toStdString()) << "id\n7\n";
        v1::Scenario s;
        auto* v = s.add_variables();
        v->set_name("rows");
        v->mutable_csv()->set_file("rows.csv");
        v1::Bundle b;
        std::string error;
        QVERIFY2(makeBundle(s, dir.path().toStdString(), "s.json", b, error), error.c_str());
        QCOMPARE(b.scenario().variables(0).csv().data(), std::string("id\n7\n"));
        QVERIFY(b.scenario().variables(0).csv().file().empty());
        v->mutable_csv()->set_file("missing.csv");
        QVERIFY(!makeBundle(s, dir.path().toStdString(), "s.json", b, error));
        QVERIFY(QString::fromStdString(error).startsWith(QStringLiteral("variables[0].csv.file: cannot read")));
    }

    // A form's file fields travel as their bytes with the name the path gave (the agent reads no path); a
    // file that cannot be read is refused naming the field; an empty part (no file) stays one.
    void inlinesFormFiles()
    {
        QTemporaryDir dir;
        const std::string bytes("a\0b\xff", 4);
        std::ofstream(dir.filePath(QStringLiteral("up.bin")).toStdString(), std::ios::binary) << bytes;
        v1::Scenario s;
        auto* form = s.add_steps()->mutable_request()->mutable_form();
        form->set_encoding(v1::Form::FORM_MULTIPART);
        form->add_fields()->set_name("f");
        form->add_fields()->set_name("empty");
        form->add_files()->set_file("up.bin");
        form->mutable_files(0)->set_content_type("image/x-mine");
        form->add_files()->set_field(1);
        v1::Bundle b;
        std::string error;
        QVERIFY2(makeBundle(s, dir.path().toStdString(), "s.json", b, error), error.c_str());
        const auto& files = b.scenario().steps(0).request().form().files();
        QCOMPARE(files[0].data(), bytes);
        QCOMPARE(files[0].filename(), std::string("up.bin"));
        QCOMPARE(files[0].content_type(), std::string("image/x-mine"));
        QVERIFY(files[0].file().empty());
        QVERIFY(files[1].data().empty() && files[1].file().empty() && files[1].filename().empty());
        QVERIFY(pathNamedIn(b.scenario()).empty());
        v1::Bundle back;
        QVERIFY2(decodeBundle(encodeBundle(b), back, error), error.c_str());
        form->mutable_files(0)->set_file("gone.bin");
        QVERIFY(!makeBundle(s, dir.path().toStdString(), "s.json", b, error));
        QVERIFY2(error.rfind("steps[0].request.form.files[0].file: cannot read \"gone.bin\"", 0) == 0, error.c_str());
    }

    // A replay's file travels as its requests, masked where the bundle is
    // made; a scenario without one gets none.
    void carriesReplayTraffic()
    {
        QTemporaryDir dir;
        std::ofstream(dir.filePath(QStringLiteral("a.log")).toStdString())
            << "10.0.0.1 - - [01/Dec/2026:10:00:00 +0000] \"GET /p?phone=13812345678 HTTP/1.1\" 200 1 \"-\" \"ua\"\n"
            << "10.0.0.2 - - [01/Dec/2026:10:00:01 +0000] \"GET /q HTTP/1.1\" 200 1 \"-\" \"ua\"\n";
        v1::Scenario s;
        s.add_steps()->mutable_request()->set_url("http://127.0.0.1:9/");
        v1::Bundle b;
        std::string error;
        QVERIFY2(makeBundle(s, dir.path().toStdString(), "s.json", b, error), error.c_str());
        QVERIFY(!b.scenario().steps(0).has_replay());
        s.clear_steps();
        auto* r = s.add_steps()->mutable_replay();
        r->set_file("a.log");
        r->add_mask("preset:cn-mobile");
        QVERIFY2(makeBundle(s, dir.path().toStdString(), "s.json", b, error), error.c_str());
        const auto& carried = b.scenario().steps(0).replay();
        QVERIFY(carried.file().empty() && carried.mask_size() == 0);
        std::vector<TrafficRecord> records;
        QVERIFY(decodeTrafficSet(carried.data(), records));
        QCOMPARE(records.size(), std::size_t(2));
        QVERIFY2(records[0].target.find("13812345678") == std::string::npos, records[0].target.c_str());
        QVERIFY(carried.data().find("13812345678") == std::string::npos);
        r->set_file("missing.log");
        QVERIFY(!makeBundle(s, dir.path().toStdString(), "s.json", b, error));
        QVERIFY2(QString::fromStdString(error).startsWith(QStringLiteral("steps[0].replay.file: ")), error.c_str());
    }

    // gRPC steps travel with descriptors: the .proto files (and what they
    // import) are read once where the bundle is made; a broken one is named.
    void carriesGrpcDescriptors()
    {
        QTemporaryDir dir;
        std::ofstream(dir.filePath(QStringLiteral("common.proto")).toStdString())
            << "syntax = \"proto3\";\npackage t;\nmessage Ping { string text = 1; }\n";
        std::ofstream(dir.filePath(QStringLiteral("svc.proto")).toStdString())
            << "syntax = \"proto3\";\npackage t;\nimport \"common.proto\";\n"
               "import \"google/protobuf/empty.proto\";\n"
               "service S { rpc Call(Ping) returns (google.protobuf.Empty); }\n";
        v1::Scenario s;
        auto* g = s.add_steps()->mutable_grpc();
        g->set_target("127.0.0.1:9");
        g->set_method("t.S/Call");
        g->add_protos("svc.proto");
        v1::Bundle b;
        std::string error;
        QVERIFY2(makeBundle(s, dir.path().toStdString(), "s.json", b, error), error.c_str());
        const auto& bg = b.scenario().steps(0).grpc();
        QVERIFY(bg.protos().empty());
        google::protobuf::FileDescriptorSet set;
        QVERIFY(set.ParseFromString(bg.descriptors()));
        QStringList files;
        for (const auto& f : set.file())
            files << QString::fromStdString(f.name());
        QCOMPARE(files, (QStringList{QStringLiteral("common.proto"), QStringLiteral("google/protobuf/empty.proto"),
                                     QStringLiteral("svc.proto")}));
        // an HTTP step gets no gRPC part
        s.add_steps()->mutable_request()->set_url("http://127.0.0.1:9/");
        QVERIFY2(makeBundle(s, dir.path().toStdString(), "s.json", b, error), error.c_str());
        QVERIFY(!b.scenario().steps(1).has_grpc());
        std::ofstream(dir.filePath(QStringLiteral("svc.proto")).toStdString()) << "syntax = \"proto3\";\nmessage {\n";
        QVERIFY(!makeBundle(s, dir.path().toStdString(), "s.json", b, error));
        QVERIFY2(QString::fromStdString(error).startsWith(QStringLiteral("steps[0].grpc.protos: svc.proto:2:")) ||
                     QString::fromStdString(error).contains(QStringLiteral("svc.proto:2:")),
                 error.c_str());
    }

    // A bundle is self-contained: one that names a file to open (with the
    // right digest: made by hand, not by stampede-cli bundle) is refused
    // naming the field, wherever the field is; what makeBundle writes names none.
    void refusesBundlesThatNamePaths_data()
    {
        QTest::addColumn<QByteArray>("field");
        QTest::addColumn<QByteArray>("named");
        QTest::addRow("csv") << QByteArray("csv") << QByteArray("variables[0].csv.file (\"../../../../etc/passwd\")");
        QTest::addRow("replay") << QByteArray("replay")
                                << QByteArray("scenarios[1].steps[0].replay.file (\"/var/log/nginx/access.log\")");
        QTest::addRow("protos") << QByteArray("protos") << QByteArray("steps[0].grpc.protos[0] (\"svc.proto\")");
        QTest::addRow("import path") << QByteArray("import")
                                     << QByteArray("steps[0].grpc.import_paths[0] (\"/usr/include\")");
        QTest::addRow("ca file") << QByteArray("ca") << QByteArray("tls.ca_file (\"/etc/ssl/private/ca.pem\")");
        QTest::addRow("form file") << QByteArray("form")
                                   << QByteArray("scenarios[1].steps[0].request.form.files[0].file (\"/etc/shadow\")");
        QTest::addRow("key file") << QByteArray("key")
                                  << QByteArray("scenarios[1].tls.key_file (\"/root/.ssh/id_rsa\")");
    }
    void refusesBundlesThatNamePaths()
    {
        QFETCH(QByteArray, field);
        QFETCH(QByteArray, named);
        v1::Bundle b;
        b.set_format_version(kBundleFormatVersion);
        auto* s = b.mutable_scenario();
        s->add_steps()->mutable_request()->set_url("http://127.0.0.1:9/");
        s->add_scenarios();
        auto* second = s->add_scenarios();
        if (field == "csv") {
            auto* v = s->add_variables();
            v->set_name("u");
            v->mutable_csv()->set_file("../../../../etc/passwd");
        } else if (field == "replay") {
            second->add_steps()->mutable_replay()->set_file("/var/log/nginx/access.log");
        } else if (field == "protos") {
            s->mutable_steps(0)->mutable_grpc()->add_protos("svc.proto");
        } else if (field == "import") {
            s->mutable_steps(0)->mutable_grpc()->add_import_paths("/usr/include");
        } else if (field == "form") {
            auto* form = second->add_steps()->mutable_request()->mutable_form();
            form->set_encoding(v1::Form::FORM_MULTIPART);
            form->add_fields()->set_name("f");
            form->add_files()->set_file("/etc/shadow");
        } else if (field == "ca") {
            s->mutable_tls()->set_ca_file("/etc/ssl/private/ca.pem");
        } else {
            second->mutable_tls()->set_key_file("/root/.ssh/id_rsa");
        }
        QCOMPARE(QByteArray::fromStdString(pathNamedIn(*s)), named);
        v1::Bundle back;
        std::string error;
        QVERIFY(!decodeBundle(encodeBundle(b), back, error));
        QVERIFY2(error.rfind("the bundle names a file to open: " + named.toStdString(), 0) == 0, error.c_str());
        // inline, the same data passes
        v1::Bundle inlineOnly;
        inlineOnly.set_format_version(kBundleFormatVersion);
        inlineOnly.mutable_scenario()->add_variables()->mutable_csv()->set_data("id\n1\n");
        QVERIFY(pathNamedIn(inlineOnly.scenario()).empty());
        QVERIFY2(decodeBundle(encodeBundle(inlineOnly), back, error), error.c_str());
    }

    // Every file a scenario names, wherever it is (a plan's scenarios, setup, TLS), in order; import paths are
    // folders, not files: what the controller's bundle reads and an output must spare.
    void namesEveryFileItReads()
    {
        v1::Scenario s;
        auto* v = s.add_variables();
        v->set_name("u");
        v->mutable_csv()->set_file("users.csv");
        auto* g = s.add_steps()->mutable_grpc();
        g->add_protos("a.proto");
        g->add_protos("b.proto");
        g->add_import_paths("include");
        s.mutable_tls()->set_ca_file("ca.pem");
        auto* sub = s.add_scenarios();
        sub->add_steps()->mutable_replay()->set_file("access.log");
        auto* form = sub->add_steps()->mutable_request()->mutable_form();
        form->add_files()->set_file("upload.bin");
        s.add_setup()->mutable_request()->mutable_body_file()->set_file("body.json");
        std::vector<std::string> files = filesNamedIn(s);
        std::sort(files.begin(), files.end());
        const std::vector<std::string> expected{"a.proto", "access.log", "b.proto",  "body.json",
                                                "ca.pem",  "upload.bin", "users.csv"};
        QCOMPARE(files, expected);
        v1::Scenario inlined;
        inlined.add_variables()->mutable_csv()->set_data("id\n1\n");
        QVERIFY(filesNamedIn(inlined).empty());
    }

    void refusesBadBundles_data()
    {
        QTest::addColumn<int>("damage");
        QTest::addColumn<QString>("message");
        QTest::addRow("truncated") << 0 << "truncated bundle";
        QTest::addRow("flipped byte") << 1 << "altered bundle: the SHA-256 digest does not match";
        QTest::addRow("newer version") << 2 << "the bundle has format version 99, newer than";
        QTest::addRow("not a bundle") << 3 << "not a Stampede bundle";
        QTest::addRow("header cut") << 4 << "truncated bundle: the header is incomplete";
        QTest::addRow("extra bytes") << 5 << "altered bundle: 3 bytes follow the payload";
    }
    void refusesBadBundles()
    {
        QFETCH(int, damage);
        QFETCH(QString, message);
        std::string b = sample();
        switch (damage) {
        case 0:
            b.resize(b.size() - 5);
            break;
        case 1:
            b[b.size() - 3] ^= 0x20;
            break;
        case 2:
            b[11] = 99;
            break;
        case 3:
            b = "{\"steps\": []}";
            break;
        case 4:
            b.resize(20);
            break;
        case 5:
            b += "xyz";
            break;
        }
        v1::Bundle back;
        std::string error;
        QVERIFY(!decodeBundle(b, back, error));
        QVERIFY2(QString::fromStdString(error).startsWith(message), error.c_str());
    }
};

QTEST_APPLESS_MAIN(TestBundle)
#include "tst_bundle.moc"
