#include "demoproject.h"

#include "enginesettings.h"

#include "grpc/protoschema.h"
#include "store/projectstore.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

using stampede::ItemKind;

namespace {
QByteArray resource(const char* name)
{
    QFile f(QStringLiteral(":/demo/") + QString::fromLatin1(name));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
} // namespace

QString ensureDemoProject(const QString& mockUrl, QString& error)
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(dir);
    const QString path = dir + QStringLiteral("/demo.stampede");
    const QByteArray env =
        QJsonDocument(QJsonObject{{QStringLiteral("mock_url"), mockUrl}}).toJson(QJsonDocument::Compact);
    std::string err;
    if (QFile::exists(path)) {
        // keep the user's edits; point the demo environment at today's mock server
        auto store = stampede::ProjectStore::open(path.toStdString(), err);
        if (!store) {
            error = QString::fromStdString(err);
            return {};
        }
        for (const auto& item : store->children(0))
            if (item.kind == ItemKind::Environment && item.name == "local mock")
                store->setPayload(item.id, env.toStdString());
        return path;
    }
    auto store = stampede::ProjectStore::create(path.toStdString(), err);
    if (!store) {
        error = QString::fromStdString(err);
        return {};
    }
    const QByteArray scenario = resource("scenario.json");
    const QJsonObject s = QJsonDocument::fromJson(scenario).object();
    const auto coll = store->addItem(0, ItemKind::Collection, "Demo shop", "{}");
    for (const auto& stepValue : s.value(QStringLiteral("steps")).toArray()) {
        const QJsonObject step = stepValue.toObject();
        QJsonObject rq = step.value(QStringLiteral("request")).toObject();
        rq.remove(QStringLiteral("timeout"));
        if (!rq.contains(QStringLiteral("headers")))
            rq[QStringLiteral("headers")] = QJsonArray();
        for (const QString& key : {QStringLiteral("checks"), QStringLiteral("extract")}) // the builder's Tests
            if (step.contains(key))
                rq[key] = step.value(key);
        store->addItem(coll, ItemKind::Request, step.value(QStringLiteral("name")).toString().toStdString(),
                       QJsonDocument(rq).toJson(QJsonDocument::Compact).toStdString());
    }
    // a gRPC request to the demo mock server, its .proto imported as descriptors
    QTemporaryDir protoDir;
    QFile proto(protoDir.filePath(QStringLiteral("shop.proto")));
    if (protoDir.isValid() && proto.open(QIODevice::WriteOnly) && proto.write(resource("shop.proto")) > 0) {
        proto.close();
        std::string why;
        if (const auto schema = stampede::ProtoSchema::import({proto.fileName().toStdString()}, {}, why)) {
            const QJsonObject grpc{
                {QStringLiteral("kind"), QStringLiteral("grpc")},
                {QStringLiteral("target"), QStringLiteral("${mock_url}")},
                {QStringLiteral("method"), QStringLiteral("demo.shop.Inventory/Stock")},
                {QStringLiteral("data"), QStringLiteral("{\n  \"sku\": \"tea-1\",\n  \"warehouse\": 3\n}")},
                {QStringLiteral("descriptors"),
                 QString::fromLatin1(QByteArray::fromStdString(schema->descriptorSet()).toBase64())},
                {QStringLiteral("schemaSource"), QStringLiteral("shop.proto")}};
            store->addItem(coll, ItemKind::Request, "stock (gRPC)",
                           QJsonDocument(grpc).toJson(QJsonDocument::Compact).toStdString());
        }
    }
    const QJsonObject data{{QStringLiteral("csv"), QString::fromUtf8(resource("users.csv"))},
                           {QStringLiteral("delimiter"), QStringLiteral(",")}};
    store->addItem(0, ItemKind::DataSet, "users", QJsonDocument(data).toJson(QJsonDocument::Compact).toStdString());
    // the scenario carries its CSV inline: a project has no files beside it
    QJsonObject inlined = s;
    QJsonArray vars = inlined.value(QStringLiteral("variables")).toArray();
    for (qsizetype i = 0; i < vars.size(); ++i) {
        QJsonObject v = vars[i].toObject();
        if (v.contains(QStringLiteral("csv"))) {
            QJsonObject csv = v.value(QStringLiteral("csv")).toObject();
            csv.remove(QStringLiteral("file"));
            csv[QStringLiteral("data")] = QString::fromUtf8(resource("users.csv"));
            v[QStringLiteral("csv")] = csv;
            vars[i] = v;
        }
    }
    inlined[QStringLiteral("variables")] = vars;
    store->addItem(0, ItemKind::Scenario, s.value(QStringLiteral("name")).toString().toStdString(),
                   QJsonDocument(inlined).toJson(QJsonDocument::Compact).toStdString());
    store->addItem(0, ItemKind::Environment, "local mock", env.toStdString());
    store->setSetting("environment", "local mock");
    return path;
}

QString startDemo(QObject* owner, QString& error)
{
    auto* running = owner->findChild<QProcess*>(QStringLiteral("demoMock"));
    if (running && running->state() == QProcess::Running)
        return ensureDemoProject(running->property("url").toString(), error);
    const QString cli = findStampedeCli();
    if (cli.isEmpty()) {
        error = QCoreApplication::translate("Demo", "stampede-cli, which serves the demo, was not found next to "
                                                    "Stampede or on PATH.");
        return {};
    }
    // the rules (and the .proto they name) as files beside each other
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/demo");
    QDir().mkpath(dir);
    for (const char* name : {"mock-rules.json", "shop.proto"}) {
        QFile out(dir + QLatin1Char('/') + QLatin1String(name));
        const QByteArray bytes = resource(name);
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(bytes) != bytes.size()) {
            error = out.errorString();
            return {};
        }
    }
    delete running;
    auto* mock = new QProcess(owner);
    mock->setObjectName(QStringLiteral("demoMock"));
    mock->setProcessChannelMode(QProcess::MergedChannels);
    mock->start(cli, {QStringLiteral("mock"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                      QStringLiteral("--rules"), dir + QStringLiteral("/mock-rules.json")});
    QByteArray said;
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < 5000 && mock->state() != QProcess::NotRunning) {
        mock->waitForReadyRead(100);
        said += mock->readAll();
        const qsizetype at = said.indexOf("listening on ");
        const qsizetype end = at < 0 ? -1 : said.indexOf('\n', at);
        if (end > at) {
            const QString url = QString::fromUtf8(said.mid(at + 13, end - at - 13)).trimmed();
            mock->setProperty("url", url);
            return ensureDemoProject(url, error);
        }
    }
    error = QCoreApplication::translate("Demo", "the demo's mock server did not start: %1")
                .arg(QString::fromUtf8(said).trimmed());
    delete mock;
    return {};
}
