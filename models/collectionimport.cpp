#include "collectionimport.h"

#include "core/curlcommand.h"
#include "store/projectstore.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace {

int countRequests(const QList<ImportedItem>& items)
{
    int n = 0;
    for (const auto& i : items)
        n += i.folder ? countRequests(i.children) : 1;
    return n;
}

stampede::ProjectStore::NewItem toNew(const ImportedItem& i)
{
    stampede::ProjectStore::NewItem n;
    n.name = (i.name.trimmed().isEmpty() ? u"(unnamed)"_s : i.name.trimmed()).toStdString();
    if (i.folder) {
        n.kind = stampede::ItemKind::Folder;
        for (const auto& c : i.children)
            n.children.push_back(toNew(c));
    } else {
        n.kind = stampede::ItemKind::Request;
        n.payload = i.request.toJson().toStdString();
    }
    return n;
}

// `name`, or "name (2)", "name (3)"… whichever no root item of `store` has.
QString freeName(const stampede::ProjectStore& store, const QString& name)
{
    QStringList taken;
    for (const auto& i : store.children(0))
        taken << QString::fromStdString(i.name);
    QString candidate = name;
    for (int n = 2; taken.contains(candidate); ++n)
        candidate = u"%1 (%2)"_s.arg(name).arg(n);
    return candidate;
}

} // namespace

int CollectionImport::requestCount() const
{
    return countRequests(items);
}

CollectionImport importCollection(const QByteArray& data, const QString& fileName)
{
    CollectionImport out;
    if (data.size() > kMaxCollectionBytes) {
        out.error = QCoreApplication::translate("CollectionImport", "The file is larger than 64 MiB.");
        return out;
    }
    const QString lower = fileName.toLower();
    const QByteArray trimmed = data.trimmed();
    if (trimmed.startsWith("curl ") || lower.endsWith(u".sh"_s) || lower.endsWith(u".curl"_s))
        return importCurl(QString::fromUtf8(data));
    QJsonValue value;
    if (trimmed.startsWith('{')) {
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(data, &pe);
        if (pe.error != QJsonParseError::NoError) {
            out.error = QCoreApplication::translate("CollectionImport", "Not valid JSON at byte %1: %2")
                            .arg(pe.offset)
                            .arg(pe.errorString());
            return out;
        }
        value = doc.object();
    } else if (lower.endsWith(u".yaml"_s) || lower.endsWith(u".yml"_s) || trimmed.startsWith("openapi:")) {
        QString why;
        if (!yamlToJson(data, value, why)) {
            out.error = QCoreApplication::translate("CollectionImport", "Not valid YAML: %1").arg(why);
            return out;
        }
    }
    const QJsonObject root = value.toObject();
    if (root.contains(u"openapi"_s))
        return importOpenApi(root);
    if (root.contains(u"swagger"_s)) {
        out.error =
            QCoreApplication::translate("CollectionImport", "Swagger 2.0 is not read: convert it to OpenAPI 3 first.");
        return out;
    }
    if (root.value(u"info"_s).toObject().contains(u"schema"_s) || root.contains(u"item"_s))
        return importPostman(root);
    if (root.value(u"log"_s).toObject().contains(u"entries"_s))
        return importHar(root);
    out.error = QCoreApplication::translate(
        "CollectionImport", "Not a Postman collection, an OpenAPI 3 file, a HAR file or curl commands.");
    return out;
}

CollectionImport importHar(const QJsonObject& root)
{
    CollectionImport out;
    const QJsonObject log = root.value(u"log"_s).toObject();
    out.format = u"HAR %1"_s.arg(log.value(u"version"_s).toString(u"1.2"_s));
    out.name = log.value(u"creator"_s).toObject().value(u"name"_s).toString(u"HAR"_s) + u" capture"_s;
    const QJsonArray entries = log.value(u"entries"_s).toArray();
    for (qsizetype n = 0; n < entries.size() && out.requestCount() < kMaxImportedRequests; ++n) {
        const QJsonObject rq = entries[n].toObject().value(u"request"_s).toObject();
        const QUrl url(rq.value(u"url"_s).toString());
        if (!url.isValid() || url.scheme().isEmpty() || rq.value(u"method"_s).toString().isEmpty()) {
            out.notImported
                << QCoreApplication::translate("CollectionImport", "entry %1: no method or absolute URL").arg(n + 1);
            continue;
        }
        ImportedItem item;
        RequestItem& r = item.request;
        r.method = rq.value(u"method"_s).toString().toUpper();
        r.url = url.toString();
        item.name = r.method + u' ' + url.path(QUrl::FullyDecoded);
        for (const auto& h : rq.value(u"headers"_s).toArray()) {
            const QString name = h.toObject().value(u"name"_s).toString();
            // the connection's own: set by Send and by the engines
            static const QStringList own = {u"host"_s, u"content-length"_s, u"connection"_s, u"accept-encoding"_s};
            if (name.startsWith(u':') || own.contains(name.toLower()))
                continue;
            r.headers.append({name, h.toObject().value(u"value"_s).toString()});
        }
        const QJsonObject post = rq.value(u"postData"_s).toObject();
        const QString mime = post.value(u"mimeType"_s).toString();
        if (post.contains(u"text"_s)) {
            r.body = post.value(u"text"_s).toString();
            r.bodyMode = mime.contains(u"json"_s) ? RequestItem::BodyMode::Json : RequestItem::BodyMode::Raw;
        } else if (!post.value(u"params"_s).toArray().isEmpty()) {
            r.bodyMode =
                mime.contains(u"multipart"_s) ? RequestItem::BodyMode::Multipart : RequestItem::BodyMode::UrlEncoded;
            for (const auto& p : post.value(u"params"_s).toArray()) {
                const QJsonObject o = p.toObject();
                if (o.contains(u"fileName"_s))
                    out.notImported << QCoreApplication::translate("CollectionImport", "%1: the file field \"%2\"")
                                           .arg(item.name, o.value(u"name"_s).toString());
                else
                    r.form.append({o.value(u"name"_s).toString(), o.value(u"value"_s).toString()});
            }
        }
        out.items.append(item);
    }
    if (entries.size() > kMaxImportedRequests)
        out.notImported << QCoreApplication::translate("CollectionImport", "the entries past the first %1")
                               .arg(kMaxImportedRequests);
    if (out.items.isEmpty() && out.error.isEmpty())
        out.error = QCoreApplication::translate("CollectionImport", "The HAR file has no entry with a request.");
    return out;
}

CollectionImport importCurl(const QString& text)
{
    CollectionImport out;
    out.format = u"curl"_s;
    out.name = QCoreApplication::translate("CollectionImport", "curl commands");
    // one command per paragraph, or per line that starts with curl
    QStringList commands;
    for (const QString& line : text.split(u'\n')) {
        const QString t = line.trimmed();
        if (t == u"curl"_s || t.startsWith(u"curl "_s) || commands.isEmpty())
            commands << QString();
        if (!t.isEmpty() && !t.startsWith(u'#'))
            commands.last() += line + u'\n';
    }
    for (qsizetype n = 0; n < commands.size(); ++n) {
        if (commands[n].trimmed().isEmpty())
            continue;
        std::string error;
        const auto c = stampede::parseCurl(commands[n].toStdString(), error);
        if (!c) {
            out.notImported << QCoreApplication::translate("CollectionImport", "command %1: %2")
                                   .arg(n + 1)
                                   .arg(QString::fromStdString(error));
            continue;
        }
        ImportedItem item;
        item.request.method = QString::fromStdString(c->method);
        item.request.url = QString::fromStdString(c->url);
        for (const auto& [k, v] : c->headers)
            item.request.headers.append({QString::fromStdString(k), QString::fromStdString(v)});
        item.request.body = QString::fromStdString(c->body);
        item.name = item.request.method + u' ' + QUrl(item.request.url).path();
        out.items.append(item);
    }
    if (out.items.isEmpty())
        out.error = out.notImported.isEmpty()
                        ? QCoreApplication::translate("CollectionImport", "No curl command in the file.")
                        : out.notImported.join(u"; "_s);
    return out;
}

qint64 writeCollection(stampede::ProjectStore& store, const CollectionImport& import, QString& error)
{
    if (!import.error.isEmpty()) {
        error = import.error;
        return 0;
    }
    std::vector<stampede::ProjectStore::NewItem> roots(1);
    roots[0].kind = stampede::ItemKind::Collection;
    roots[0].name =
        freeName(store, import.name.trimmed().isEmpty() ? QCoreApplication::translate("CollectionImport", "Imported")
                                                        : import.name)
            .toStdString();
    for (const auto& i : import.items)
        roots[0].children.push_back(toNew(i));
    if (!import.variables.isEmpty()) {
        QJsonObject values;
        for (const auto& [k, v] : import.variables)
            values[k] = v;
        stampede::ProjectStore::NewItem env;
        env.kind = stampede::ItemKind::Environment;
        env.name = freeName(store, QString::fromStdString(roots[0].name)).toStdString();
        env.payload = QJsonDocument(values).toJson(QJsonDocument::Compact).toStdString();
        roots.push_back(std::move(env));
    }
    const std::int64_t id = store.addTree(0, roots);
    if (!id)
        error = QString::fromStdString(store.lastError());
    return id;
}
