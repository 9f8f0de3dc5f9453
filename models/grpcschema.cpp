#include "grpcschema.h"

#include "core/template.h"
#include "grpc/protoschema.h"
#include "grpc/reflection.h"

#include <QCoreApplication>

#include <google/protobuf/descriptor.h>

namespace {

std::optional<GrpcSchema> failed(const std::string& why, QString* error)
{
    if (error)
        *error = QString::fromStdString(why);
    return std::nullopt;
}

} // namespace

std::optional<GrpcSchema> GrpcSchema::fromDescriptors(const QByteArray& descriptorSet, QString* error)
{
    std::string err;
    auto schema = stampede::ProtoSchema::fromDescriptorSet(descriptorSet.toStdString(), err);
    if (!schema)
        return failed(err, error);
    GrpcSchema s;
    s.m_schema = std::move(schema);
    return s;
}

std::optional<GrpcSchema> GrpcSchema::importProtos(const QStringList& files, QString* error)
{
    std::vector<std::string> paths;
    for (const QString& f : files)
        paths.push_back(f.toStdString());
    std::string err;
    auto schema = stampede::ProtoSchema::import(paths, {}, err);
    if (!schema)
        return failed(err, error);
    GrpcSchema s;
    s.m_schema = std::move(schema);
    return s;
}

QString GrpcSchema::resolvedTarget(const QString& target, const QHash<QString, QString>& variables)
{
    // expanded as the engine expands any text: a name nothing defines stays as written
    stampede::Template t;
    std::string err;
    const bool ok = t.compile(
        target.trimmed().toStdString(),
        [&](std::string_view name) {
            stampede::Resolution r;
            r.kind = stampede::Resolution::Constant;
            const QString n = QString::fromUtf8(name.data(), qsizetype(name.size()));
            r.constant = variables.contains(n) ? variables.value(n).toStdString() : "${" + std::string(name) + "}";
            return r;
        },
        err);
    QString out = ok ? QString::fromStdString(t.constantText()) : target.trimmed();
    if (!out.contains(QLatin1String("://")))
        out.prepend(QLatin1String("http://"));
    while (out.endsWith(QLatin1Char('/')))
        out.chop(1);
    return out;
}

std::optional<GrpcSchema> GrpcSchema::fetchByReflection(const QString& target, const QHash<QString, QString>& variables,
                                                        bool verify, QString* error)
{
    stampede::ReflectionOptions o;
    o.target = resolvedTarget(target, variables).toStdString();
    o.verify = verify;
    std::string err;
    auto schema = stampede::fetchByReflection(o, err);
    if (!schema)
        return failed(err, error);
    GrpcSchema s;
    s.m_schema = std::move(schema);
    return s;
}

QStringList GrpcSchema::methods() const
{
    QStringList out;
    for (const auto& m : m_schema->methods())
        out << QString::fromStdString(m);
    return out;
}

QStringList GrpcSchema::services() const
{
    QStringList out;
    for (const auto& s : m_schema->services())
        out << QString::fromStdString(s);
    return out;
}

QByteArray GrpcSchema::descriptorSet() const
{
    return QByteArray::fromStdString(m_schema->descriptorSet());
}

QString GrpcSchema::exampleJson(const QString& method, QString* error) const
{
    std::string err;
    const auto* md = m_schema->method(method.trimmed().toStdString(), err);
    if (!md) {
        if (error)
            *error = QString::fromStdString(err);
        return {};
    }
    return QString::fromStdString(stampede::skeletonJson(md->input_type()));
}

QString GrpcSchema::callProblem(const QString& method) const
{
    std::string err;
    const auto* md = m_schema->method(method.trimmed().toStdString(), err);
    if (!md)
        return QString::fromStdString(err);
    return {};
}

std::pair<bool, bool> GrpcSchema::streams(const QString& method) const
{
    std::string err;
    const auto* md = m_schema->method(method.trimmed().toStdString(), err);
    return md ? std::pair(md->client_streaming(), md->server_streaming()) : std::pair(false, false);
}
