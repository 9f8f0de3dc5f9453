#pragma once
// Collections from other tools, made into a project's requests: Postman
// Collection v2.1 (folders, requests, variables, auth, bodies), OpenAPI 3
// (JSON or YAML: one request per operation, example bodies from schemas),
// HAR 1.2 (one request per entry) and curl commands. Each import says what it
// could not take (scripts, file uploads, OAuth…), each line naming where;
// writing it into a project is one transaction: all of it or nothing.
// A collection also goes out as Postman v2.1.
#include "requestitem.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace stampede {
class ProjectStore;
}

struct ImportedItem
{
    QString name;
    bool folder = false;
    RequestItem request;
    QList<ImportedItem> children;
};

struct CollectionImport
{
    QString format; // "Postman Collection v2.1", "OpenAPI 3.0.3", "HAR 1.2", "curl"
    QString name;   // the collection's
    QList<ImportedItem> items;
    // Values its requests use (Postman's collection variables, OpenAPI's
    // server and credentials): an environment named after the collection.
    QList<QPair<QString, QString>> variables;
    QStringList notImported; // what could not be taken, each naming where
    QString error;           // set: the file is refused, nothing is written
    int requestCount() const;
};

// The largest file imported (a collection, a specification, a HAR file).
constexpr qint64 kMaxCollectionBytes = 64 * 1024 * 1024;
// The most requests one import makes.
constexpr int kMaxImportedRequests = 10000;

// Reads `data` as whichever of the formats it is (by its content; `fileName`
// tells YAML apart). `error` is set when it is none of them or is broken.
CollectionImport importCollection(const QByteArray& data, const QString& fileName);
CollectionImport importPostman(const QJsonObject& root);
CollectionImport importOpenApi(const QJsonObject& root);
CollectionImport importHar(const QJsonObject& root);
CollectionImport importCurl(const QString& text);
// YAML (1.2, as OpenAPI files are written) as JSON values; false with `error`.
bool yamlToJson(const QByteArray& yaml, QJsonValue& out, QString& error);

// Writes the collection (and its variables as an environment) at the end of
// the project's tree in one transaction; its id, or 0 with `error`.
qint64 writeCollection(stampede::ProjectStore& store, const CollectionImport& import, QString& error);

// The collection item `collectionId` of `store` (its folders and HTTP
// requests) as a Postman Collection v2.1 file; `skipped` names what Postman
// cannot hold (gRPC requests).
QByteArray exportPostman(const stampede::ProjectStore& store, qint64 collectionId, QStringList& skipped);

// Postman's {{name}} as ${name}, and back.
QString fromPostmanVariables(const QString& text);
QString toPostmanVariables(const QString& text);
