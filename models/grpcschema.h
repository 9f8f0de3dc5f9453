#pragma once
// The schema a gRPC request uses, for the request builder: .proto files
// imported, descriptors read back from the project, or fetched by the
// server's reflection (blocking: on the job runner); its services and
// methods, and a method's request message as example JSON. The engine's
// ProtoSchema underneath, in Qt's terms.
#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <utility>

namespace stampede {
class ProtoSchema;
}

class GrpcSchema
{
public:
    static std::optional<GrpcSchema> fromDescriptors(const QByteArray& descriptorSet, QString* error = nullptr);
    static std::optional<GrpcSchema> importProtos(const QStringList& files, QString* error = nullptr);
    // Asks `target` (${…} expanded with `variables`, http:// when no scheme
    // is given) for its descriptors. Blocks: call it off the GUI thread.
    static std::optional<GrpcSchema> fetchByReflection(const QString& target, const QHash<QString, QString>& variables,
                                                       bool verify, QString* error = nullptr);
    // `target` as reflection and calls reach it: ${…} expanded, a scheme, no trailing /.
    static QString resolvedTarget(const QString& target, const QHash<QString, QString>& variables);

    QStringList methods() const;  // package.Service/Method
    QStringList services() const; // package.Service
    QByteArray descriptorSet() const;
    // The method's request type with its fields, as JSON to edit; empty with
    // `error` when the schema has no such method.
    QString exampleJson(const QString& method, QString* error = nullptr) const;
    // Why `method` cannot be called (not in the schema); empty when it can.
    QString callProblem(const QString& method) const;
    // Whether the method streams from the client, from the server (false, false: unary or unknown).
    std::pair<bool, bool> streams(const QString& method) const;

private:
    std::shared_ptr<stampede::ProtoSchema> m_schema;
};
