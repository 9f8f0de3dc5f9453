#pragma once
// The request builder's payload (what a request item stores) in the terms the
// engine and scenarios use: the Authorization header its auth makes, the
// scenario step it becomes, and ${name} expansion for a one-off Send.
#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QString>

namespace BuilderRequest {
// "Basic base64(user:password)" for "basic", "Bearer TOKEN" for "bearer", else empty.
QString authorization(const QString& type, const QString& user, const QString& password, const QString& token);
// A scenario step named `name` from a request item's payload: an HTTP request
// (auth as an Authorization header, timeoutMs as timeout, builder-only fields
// dropped), or a gRPC call carrying its descriptors.
QJsonObject toStep(const QString& name, const QByteArray& payload);
// `text` with each ${name} of `variables` replaced by its value.
QString expand(const QString& text, const QHash<QString, QString>& variables);
} // namespace BuilderRequest
