#pragma once
// Collections from other tools, for the workbench (File → Import Collection):
// the engine reads them (collection/collection.h: Postman v2.0/v2.1, OpenAPI
// 3 in JSON or YAML, HAR 1.2, curl commands, the command line's `import` as
// well) and this puts the result in the workbench's terms: requests as
// RequestItems, and what could not be taken in the user's language.
#include "requestitem.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace stampede {
class ProjectStore;
struct ImportNote;
} // namespace stampede

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
    QStringList notImported; // what could not be taken, each naming where, translated
    QString error;           // set: the file is refused, nothing is written
    int requestCount() const;
};

// The largest file imported (collection/collection.h's limit).
constexpr qint64 kMaxCollectionBytes = 64 * 1024 * 1024;

// Reads `data` as whichever of the formats it is (by its content; `fileName`
// tells YAML apart). `error` is set when it is none of them or is broken.
// `path`: the file, whose folder holds what it refers to (a split specification's files, a form's files);
// `projectDir`: the project's folder, a form's file under it kept relative to it.
CollectionImport importCollection(const QByteArray& data, const QString& fileName, const QString& path = QString(),
                                  const QString& projectDir = QString());

// Writes the collection (and its variables as an environment) at the end of
// the project's tree in one transaction; its id, or 0 with `error`.
qint64 writeCollection(stampede::ProjectStore& store, const CollectionImport& import, QString& error);

// The collection item `collectionId` of `store` (its folders and HTTP
// requests) as a Postman Collection v2.1 file, with the values of the
// environment named after it (or the current one) as its collection
// variables; `skipped` names what Postman cannot hold (gRPC requests).
QByteArray exportPostman(const stampede::ProjectStore& store, qint64 collectionId,
                         const QList<QPair<QString, QString>>& variables, QStringList& skipped);

// An engine's note (what an import could not take, why a file is refused) in the user's language.
QString noteText(const stampede::ImportNote& note);
