#include "collectionimport.h"

#include "collection/collection.h"
#include "store/projectstore.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QHash>

namespace {

// The engine's notes by code, as the workbench says them (the same English, translated).
const QHash<QString, const char*>& noteTexts()
{
    static const QHash<QString, const char*> texts = {
        {QStringLiteral("too-large"), QT_TRANSLATE_NOOP("CollectionImport", "The file is larger than 64 MiB.")},
        {QStringLiteral("bad-json"), QT_TRANSLATE_NOOP("CollectionImport", "Not valid JSON at byte %1: %2")},
        {QStringLiteral("bad-yaml"), QT_TRANSLATE_NOOP("CollectionImport", "Not valid YAML: %1")},
        {QStringLiteral("too-deep"), QT_TRANSLATE_NOOP("CollectionImport", "nested deeper than %1 levels")},
        {QStringLiteral("too-many-values"),
         QT_TRANSLATE_NOOP("CollectionImport", "more than %1 values (aliases expanded)")},
        {QStringLiteral("swagger"),
         QT_TRANSLATE_NOOP("CollectionImport", "Swagger 2.0 is not read: convert it to OpenAPI 3 first.")},
        {QStringLiteral("unknown-format"),
         QT_TRANSLATE_NOOP("CollectionImport",
                           "Not a Postman collection, an OpenAPI 3 file, a HAR file or curl commands.")},
        {QStringLiteral("postman-version"),
         QT_TRANSLATE_NOOP("CollectionImport",
                           "This Postman Collection (%1) has no list of items: export it again from Postman as v2.1.")},
        {QStringLiteral("script-unsupported"),
         QT_TRANSLATE_NOOP("CollectionImport", "%1: its %2 script calls %3 (line %4), which Stampede does not run")},
        {QStringLiteral("auth-kind"), QT_TRANSLATE_NOOP("CollectionImport", "%1: its %2 authorization")},
        {QStringLiteral("file-field"), QT_TRANSLATE_NOOP("CollectionImport", "%1: the file field \"%2\"")},
        {QStringLiteral("file-body-missing"),
         QT_TRANSLATE_NOOP("CollectionImport",
                           "%1: its body from the file \"%2\" (%3): it is sent empty, as newman does")},
        {QStringLiteral("file-missing"),
         QT_TRANSLATE_NOOP("CollectionImport", "%1: the file field \"%2\" names \"%3\" (%4): it is not sent, as newman "
                                               "leaves out a file it cannot load")},
        {QStringLiteral("requests-past"), QT_TRANSLATE_NOOP("CollectionImport", "the requests past the first %1")},
        {QStringLiteral("dynamic-variables"),
         QT_TRANSLATE_NOOP("CollectionImport", "%1: Postman's dynamic variables (%2) are kept as text")},
        {QStringLiteral("grpc-request"), QT_TRANSLATE_NOOP("CollectionImport", "%1: a gRPC request")},
        {QStringLiteral("har-entry"), QT_TRANSLATE_NOOP("CollectionImport", "entry %1: no method or absolute URL")},
        {QStringLiteral("entries-past"), QT_TRANSLATE_NOOP("CollectionImport", "the entries past the first %1")},
        {QStringLiteral("har-empty"),
         QT_TRANSLATE_NOOP("CollectionImport", "The HAR file has no entry with a request.")},
        {QStringLiteral("curl-command"), QT_TRANSLATE_NOOP("CollectionImport", "command %1: %2")},
        {QStringLiteral("curl-not-taken"), QT_TRANSLATE_NOOP("CollectionImport", "command %1: not taken: %2")},
        {QStringLiteral("curl-none"), QT_TRANSLATE_NOOP("CollectionImport", "No curl command in the file.")},
        {QStringLiteral("curl-failed"), "%1"},
        {QStringLiteral("external-ref"), QT_TRANSLATE_NOOP("CollectionImport", "%1: the external reference %2")},
        {QStringLiteral("external-ref-unread"),
         QT_TRANSLATE_NOOP("CollectionImport", "%1: the external reference %2 (%3)")},
        {QStringLiteral("ref-nowhere"), QT_TRANSLATE_NOOP("CollectionImport", "%1: the reference %2 leads nowhere")},
        {QStringLiteral("relative-server"),
         QT_TRANSLATE_NOOP("CollectionImport", "the server URL \"%1\" is relative: set baseUrl in the environment")},
        {QStringLiteral("operations-past"), QT_TRANSLATE_NOOP("CollectionImport", "the operations past the first %1")},
        {QStringLiteral("security-kind"), QT_TRANSLATE_NOOP("CollectionImport", "%1: its %2 security (%3)")},
        {QStringLiteral("openapi-version"),
         QT_TRANSLATE_NOOP("CollectionImport", "Only OpenAPI 3 is read (this file says openapi: %1).")},
        {QStringLiteral("no-operations"),
         QT_TRANSLATE_NOOP("CollectionImport", "The specification has no operation under paths.")},
    };
    return texts;
}

QList<ImportedItem> fromEngine(const std::vector<stampede::ImportedItem>& items)
{
    QList<ImportedItem> out;
    for (const auto& i : items) {
        ImportedItem q;
        q.name = QString::fromStdString(i.name);
        q.folder = i.folder;
        if (i.folder)
            q.children = fromEngine(i.children);
        else
            q.request = RequestItem::fromJson(QByteArray::fromStdString(i.payload));
        out.append(q);
    }
    return out;
}

std::vector<stampede::ImportedItem> toEngine(const QList<ImportedItem>& items)
{
    std::vector<stampede::ImportedItem> out;
    for (const auto& i : items) {
        stampede::ImportedItem e;
        e.name = i.name.toStdString();
        e.folder = i.folder;
        if (i.folder)
            e.children = toEngine(i.children);
        else
            e.payload = i.request.toJson().toStdString();
        out.push_back(std::move(e));
    }
    return out;
}

int countRequests(const QList<ImportedItem>& items)
{
    int n = 0;
    for (const auto& i : items)
        n += i.folder ? countRequests(i.children) : 1;
    return n;
}

static_assert(kMaxCollectionBytes == stampede::kMaxCollectionBytes, "one limit");

} // namespace

QString noteText(const stampede::ImportNote& note)
{
    const char* text = noteTexts().value(QString::fromStdString(note.code));
    if (!text)
        return QString::fromStdString(note.text());
    QString out = QCoreApplication::translate("CollectionImport", text);
    for (const auto& a : note.args)
        out = out.arg(QString::fromStdString(a));
    return out;
}

int CollectionImport::requestCount() const
{
    return countRequests(items);
}

CollectionImport importCollection(const QByteArray& data, const QString& fileName, const QString& path,
                                  const QString& projectDir)
{
    const stampede::CollectionImport c = stampede::importCollection(
        data.toStdString(), fileName.toStdString(),
        path.isEmpty() ? stampede::BesideReader() : stampede::filesBeside(path.toStdString()),
        path.isEmpty()
            ? stampede::FileLocator()
            : stampede::filesUnder(QFileInfo(path).absolutePath().toStdString(), false, projectDir.toStdString()));
    CollectionImport out;
    out.format = QString::fromStdString(c.format);
    out.name = QString::fromStdString(c.name);
    out.items = fromEngine(c.items);
    for (const auto& [k, v] : c.variables)
        out.variables.append({QString::fromStdString(k), QString::fromStdString(v)});
    for (const auto& n : c.notImported)
        out.notImported << noteText(n);
    if (c.error)
        out.error = noteText(*c.error);
    return out;
}

qint64 writeCollection(stampede::ProjectStore& store, const CollectionImport& import, QString& error)
{
    if (!import.error.isEmpty()) {
        error = import.error;
        return 0;
    }
    stampede::CollectionImport c;
    c.name = import.name.trimmed().isEmpty() ? QCoreApplication::translate("CollectionImport", "Imported").toStdString()
                                             : import.name.toStdString();
    c.items = toEngine(import.items);
    for (const auto& [k, v] : import.variables)
        c.variables.emplace_back(k.toStdString(), v.toStdString());
    std::string why;
    const std::int64_t id = stampede::writeCollection(store, c, why);
    if (!id)
        error = QString::fromStdString(why);
    return id;
}

QByteArray exportPostman(const stampede::ProjectStore& store, qint64 collectionId,
                         const QList<QPair<QString, QString>>& variables, QStringList& skipped)
{
    std::vector<std::pair<std::string, std::string>> vars;
    for (const auto& [k, v] : variables)
        vars.emplace_back(k.toStdString(), v.toStdString());
    std::vector<stampede::ImportNote> notes;
    const std::string out = stampede::exportPostman(store, collectionId, vars, notes);
    for (const auto& n : notes)
        skipped << noteText(n);
    return QByteArray::fromStdString(out);
}
