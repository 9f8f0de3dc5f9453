#pragma once
// One owner for a request item (what the builder edits and the project keeps):
// its fields, its JSON payload (read and written here only), and what it
// becomes: a scenario step as written, which the engine renders when it sends
// (Send, runs and curl commands alike: send/sendonce.h).
#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QPair>
#include <QString>
#include <QStringList>

#include <optional>

#include "send/sendonce.h"

struct RequestItem
{
    using Pairs = QList<QPair<QString, QString>>;
    enum class Kind
    {
        Http,
        Grpc,
        WebSocket,  // a conversation: url (ws:// or wss://), headers, timeoutMs and the ws* fields
        EventStream // Server-Sent Events read: url, headers, timeoutMs and the sse* fields
    };
    enum class BodyMode
    {
        Raw,
        Json,
        UrlEncoded,
        Multipart,
        File // the body is a file's bytes (bodyFile), as Postman's "file" body
    };
    enum class Auth
    {
        None,
        Basic,
        Bearer,
        OAuth1, // Postman's OAuth 1.0 helper: its fields in `otherAuth` (signed as newman signs, bundle/oauth1script.h)
        Digest  // Postman's digest helper: its fields in `otherAuth` (the server's challenge answered, flow/digest.h)
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
    // Multipart: the fields that send files (Postman's file fields), by their index in `form`, each with its
    // paths (relative to the project's folder, or absolute; a field without one is not sent). Its value is unused.
    QMap<int, QStringList> formFiles;
    QString bodyFile; // BodyMode::File: the path (relative to the project's folder, or absolute)
    Auth auth = Auth::None;
    QString user, password, token;
    // OAuth1, Digest: the helper's stored object ({"type": "oauth1", "consumerKey": ...}, fields the editor does not
    // show kept); None: a helper Stampede does not make (Postman's hawk, ntlm...), written back as it came
    QJsonObject otherAuth;
    // The OAuth 1.0 helper's fields the editor shows, by Postman's names.
    static const QStringList& oauth1Fields();
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
    // gRPC streaming methods: the messages sent after `data` (JSON each), what the call waits for (messages, 0: the
    // stream's end; only those holding `grpcMatch`), the interval between messages out, request/reply.
    QStringList grpcMessages;
    int grpcReceive = 0;
    QString grpcMatch;
    int grpcIntervalMs = 0;
    bool grpcRequestReply = false;
    // WebSocket
    QStringList wsProtocols;     // subprotocols offered, in order
    QJsonArray wsMessages;       // [{"text": "..."} or {"binary": base64}], sent in order
    int wsReceive = -1;          // messages awaited (-1: one per message sent)
    bool wsRequestReply = false; // each message sent once the one before has had its reply
    bool wsDeflate = false;      // permessage-deflate offered
    // Event stream
    int sseReceive = 1; // events awaited
    QString sseEvent;   // only events of this type count ("" all)
    int sseReconnects = 0;
    // Both kinds: the builder's Tests, in the scenario contract's form (a
    // step's "checks" and "extract"): judged on Send, carried into steps.
    QJsonArray checks;
    QJsonArray extract;
    // HTTP: Postman's scripts (a step's preRequestScript and testScript), run by the engine on Send and in runs.
    QString preRequestScript;
    QString testScript;
    QString description; // Postman's request description, kept as imported (scripts read it)
    QString postmanId;   // its Postman item's id, kept as imported (pm.info.requestId)

    static RequestItem fromJson(const QByteArray& payload);
    // A pasted curl command as a request (core/curlcommand.h): -u as Basic
    // auth, -F as a multipart form, -k, -m and the HTTP version as options;
    // the options it does not carry are listed in `notTaken`. Nothing with
    // `error` when it is not a curl command or sends elsewhere (a proxy).
    static std::optional<RequestItem> fromCurl(const QString& text, QString* error = nullptr,
                                               QStringList* notTaken = nullptr);
    QByteArray toJson() const;
    // A scenario step named `name`, the request as written: method, URL,
    // headers, the body byte for byte or the form's fields, the auth's
    // fields, each with its ${…} (the engine expands and encodes them when
    // it sends, for Send and runs alike), the timeout; or a gRPC call
    // carrying its descriptors.
    QJsonObject toStep(const QString& name) const;
    // `step` (a scenario step that runs this request, named `name` in the project: its "requestItem") made what
    // the request says now, the step's own options (group, repeat, think time, retry, rendezvous, on error) kept:
    // as a run in the project sends it (bundle/storedrequest.h followStoredRequest). `step` as it was when the
    // request or the step cannot be read.
    static QJsonObject followStep(const QJsonObject& step, const QString& name, const QByteArray& payload);
    // What Send asks the engine to send (stampede::sendOnce): the step, with
    // `variables` as its values; names nothing defines go out as their text.
    // `baseDir`: the project's folder, where a form's files are read from.
    stampede::SendOnceRequest toSend(const QHash<QString, QString>& variables, const QString& baseDir = {}) const;
    // The request as the engine renders it, as a curl command (empty with
    // `error` when it cannot be rendered).
    // Files (a file body, a form's file fields) go as curl sends files (--data-binary @path, -F name=@path), their
    // paths made absolute from `baseDir` (the project's folder).
    QString toCurl(const QHash<QString, QString>& variables, QString* error = nullptr,
                   const QString& baseDir = {}) const;

private:
    bool renderedText(const QString& text, const QHash<QString, QString>& variables, const QString& baseDir,
                      const std::string& url, std::string& out, std::string& why) const;

public:
    // Send goes over HTTP/2: asked for, or https:// with the version on auto.
    bool overHttp2() const;

    // The ${name}s in `text` that `variables` lacks, each once, in order.
    static QStringList unknownNames(const QString& text, const QHash<QString, QString>& variables);
    // Why a script would not run, as a run plans it ("" when it would): its
    // syntax error or a call the engine does not run, with the line (`line`).
    static QString scriptProblem(const QString& source, int* line = nullptr);
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
