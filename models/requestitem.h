#pragma once
// One owner for a request item (what the builder edits and the project keeps):
// its fields, its JSON payload (read and written here only), and what it
// becomes: a scenario step, a curl command, and the one-off exchange Send makes
// (auth, body modes and ${name} expansion applied in one place).
#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include "net/httpexchange.h"

struct RequestItem
{
    using Pairs = QList<QPair<QString, QString>>;
    enum class Kind
    {
        Http,
        Grpc
    };
    enum class BodyMode
    {
        Raw,
        Json,
        UrlEncoded,
        Multipart
    };
    enum class Auth
    {
        None,
        Basic,
        Bearer
    };
    enum class Version
    {
        Auto, // HTTP/1.1 for http://, HTTP/2 by ALPN for https://
        Http1,
        Http2
    };
    static constexpr int kDefaultTimeoutMs = 30000;
    static constexpr int kDefaultDeadlineMs = 10000;

    Kind kind = Kind::Http;
    // HTTP
    QString method = QStringLiteral("GET");
    QString url;
    Pairs headers;
    QString body;
    BodyMode bodyMode = BodyMode::Raw;
    Pairs form; // the urlencoded and multipart modes' fields
    Auth auth = Auth::None;
    QString user, password, token;
    int timeoutMs = kDefaultTimeoutMs;
    Version version = Version::Auto;
    bool insecure = false; // https / gRPC over TLS: do not verify the server's certificate
    // gRPC
    QString target;     // http://host:port or https://host:port
    QString grpcMethod; // package.Service/Method
    QString data;       // the request message as JSON
    Pairs metadata;
    int deadlineMs = kDefaultDeadlineMs;
    QByteArray descriptors; // a serialized FileDescriptorSet
    QString schemaSource;   // where the descriptors came from, for the user
    // Both kinds: the builder's Tests, in the scenario contract's form (a
    // step's "checks" and "extract"): judged on Send, carried into steps.
    QJsonArray checks;
    QJsonArray extract;

    static RequestItem fromJson(const QByteArray& payload);
    QByteArray toJson() const;
    // A scenario step named `name`: an HTTP request (auth as an Authorization
    // header, the body mode's encoding and Content-Type, the timeout), or a
    // gRPC call carrying its descriptors.
    QJsonObject toStep(const QString& name) const;
    // The HTTP request as Send makes it, with ${name} taken from `variables`.
    stampede::HttpExchangeRequest toExchange(const QHash<QString, QString>& variables) const;
    // The same as a curl command.
    QString toCurl(const QHash<QString, QString>& variables) const;
    // Send goes over HTTP/2: asked for, or https:// with the version on auto.
    bool overHttp2() const;

    // "Basic base64(user:password)", "Bearer TOKEN", or empty.
    QString authorization(const QHash<QString, QString>& variables = {}) const;
    // The body as sent and the Content-Type its mode sets (empty: none).
    QByteArray encodedBody(const QHash<QString, QString>& variables, QString& contentType) const;
    // `text` with each ${name} of `variables` replaced by its value.
    static QString expand(const QString& text, const QHash<QString, QString>& variables);
    // The ${name}s in `text` that `variables` lacks, each once, in order.
    static QStringList unknownNames(const QString& text, const QHash<QString, QString>& variables);
    // Each field's unknown names, as the builder marks them: the one a name is in turns red.
    struct Unknown
    {
        QStringList url, headers, body, auth, message, metadata;
        bool isEmpty() const;
        QStringList all() const; // each once
        // "${a} in the URL; ${b} in the body" (the fields' own words), for a hint and Send's refusal.
        QString describe() const;
    };
    Unknown unknown(const QHash<QString, QString>& variables) const;
};
