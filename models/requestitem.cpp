#include "requestitem.h"

#include "enginetext.h"
#include "resolve/scriptsyntax.h"
#include "script/scriptcheck.h"

#include <QCoreApplication>
#include <QDir>
#include <QRegularExpression>

#include "bundle/storedrequest.h"
#include "core/curlcommand.h"
#include "core/parametersource.h"
#include "core/text.h"
#include "plan/scenarioplan.h"
#include "stampede/v1/scenario.pb.h"

#include <google/protobuf/util/json_util.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>
#include <algorithm>
#include <iterator>

namespace {

RequestItem::Pairs readPairs(const QJsonValue& v)
{
    RequestItem::Pairs out;
    for (const auto& p : v.toArray())
        out.append({p.toObject().value(QStringLiteral("name")).toString(),
                    p.toObject().value(QStringLiteral("value")).toString()});
    return out;
}

QJsonArray writePairs(const RequestItem::Pairs& pairs)
{
    QJsonArray out;
    for (const auto& [n, v] : pairs)
        out.append(QJsonObject{{QStringLiteral("name"), n}, {QStringLiteral("value"), v}});
    return out;
}

// A form's entries, a file field as {name, type: "file", src: [paths]} (Postman's shape).
QJsonArray writeForm(const RequestItem::Pairs& pairs, const QMap<int, QStringList>& files)
{
    QJsonArray out = writePairs(pairs);
    for (auto it = files.begin(); it != files.end(); ++it)
        if (it.key() >= 0 && it.key() < out.size())
            out[it.key()] = QJsonObject{{QStringLiteral("name"), pairs[it.key()].first},
                                        {QStringLiteral("type"), QStringLiteral("file")},
                                        {QStringLiteral("src"), QJsonArray::fromStringList(it.value())}};
    return out;
}

QMap<int, QStringList> readFormFiles(const QJsonValue& v)
{
    QMap<int, QStringList> out;
    const QJsonArray entries = v.toArray();
    for (int i = 0; i < entries.size(); ++i) {
        const QJsonObject e = entries[i].toObject();
        if (e.value(QStringLiteral("type")).toString() != QLatin1String("file"))
            continue;
        const QJsonValue src = e.value(QStringLiteral("src"));
        QStringList paths;
        if (src.isArray())
            for (const auto& p : src.toArray())
                paths << p.toString();
        else
            paths << src.toString();
        out.insert(i, paths);
    }
    return out;
}

const char* const kBodyModes[] = {"raw", "json", "urlencoded", "multipart", "file"};

} // namespace

RequestItem RequestItem::fromJson(const QByteArray& payload)
{
    const QJsonObject o = QJsonDocument::fromJson(payload).object();
    RequestItem r;
    r.insecure = o.value(QStringLiteral("insecure")).toBool();
    r.checks = o.value(QStringLiteral("checks")).toArray();
    r.extract = o.value(QStringLiteral("extract")).toArray();
    r.preRequestScript = o.value(QStringLiteral("preRequestScript")).toString();
    r.testScript = o.value(QStringLiteral("testScript")).toString();
    r.description = o.value(QStringLiteral("description")).toString();
    r.postmanId = o.value(QStringLiteral("postmanId")).toString();
    if (o.value(QStringLiteral("kind")).toString() == QLatin1String("sse")) {
        r.kind = Kind::EventStream;
        r.url = o.value(QStringLiteral("url")).toString();
        r.headers = readPairs(o.value(QStringLiteral("headers")));
        r.sseReceive = o.value(QStringLiteral("receive")).toInt(1);
        r.sseEvent = o.value(QStringLiteral("event")).toString();
        r.sseReconnects = o.value(QStringLiteral("reconnects")).toInt(0);
        r.timeoutMs = o.value(QStringLiteral("timeoutMs")).toInt(kDefaultTimeoutMs);
        return r;
    }
    if (o.value(QStringLiteral("kind")).toString() == QLatin1String("websocket")) {
        r.kind = Kind::WebSocket;
        r.url = o.value(QStringLiteral("url")).toString();
        r.headers = readPairs(o.value(QStringLiteral("headers")));
        for (const QJsonValue& p : o.value(QStringLiteral("protocols")).toArray())
            r.wsProtocols << p.toString();
        r.wsMessages = o.value(QStringLiteral("messages")).toArray();
        r.wsReceive = o.value(QStringLiteral("receive")).toInt(-1);
        r.wsRequestReply = o.value(QStringLiteral("requestReply")).toBool();
        r.wsDeflate = o.value(QStringLiteral("deflate")).toBool();
        r.timeoutMs = o.value(QStringLiteral("timeoutMs")).toInt(kDefaultTimeoutMs);
        return r;
    }
    if (o.value(QStringLiteral("kind")).toString() == QLatin1String("grpc")) {
        r.kind = Kind::Grpc;
        r.target = o.value(QStringLiteral("target")).toString();
        r.grpcMethod = o.value(QStringLiteral("method")).toString();
        r.data = o.value(QStringLiteral("data")).toString();
        r.metadata = readPairs(o.value(QStringLiteral("metadata")));
        r.deadlineMs = o.value(QStringLiteral("deadlineMs")).toInt(kDefaultDeadlineMs);
        r.descriptors = QByteArray::fromBase64(o.value(QStringLiteral("descriptors")).toString().toLatin1());
        r.schemaSource = o.value(QStringLiteral("schemaSource")).toString();
        for (const QJsonValue& m : o.value(QStringLiteral("messages")).toArray())
            r.grpcMessages << m.toString();
        r.grpcReceive = o.value(QStringLiteral("receive")).toInt();
        r.grpcMatch = o.value(QStringLiteral("match")).toString();
        r.grpcIntervalMs = o.value(QStringLiteral("intervalMs")).toInt();
        r.grpcRequestReply = o.value(QStringLiteral("requestReply")).toBool();
        return r;
    }
    r.method = o.value(QStringLiteral("method")).toString(QStringLiteral("GET"));
    r.url = o.value(QStringLiteral("url")).toString();
    r.headers = readPairs(o.value(QStringLiteral("headers")));
    r.body = o.value(QStringLiteral("body")).toString();
    const QString mode = o.value(QStringLiteral("bodyMode")).toString();
    for (int i = 0; i < int(std::size(kBodyModes)); ++i)
        if (mode == QLatin1String(kBodyModes[i]))
            r.bodyMode = BodyMode(i);
    r.bodyFile = o.value(QStringLiteral("bodyFile")).toString();
    r.form = readPairs(o.value(QStringLiteral("form")));
    r.formFiles = readFormFiles(o.value(QStringLiteral("form")));
    const QJsonObject auth = o.value(QStringLiteral("auth")).toObject();
    const QString type = auth.value(QStringLiteral("type")).toString();
    r.auth = type == QLatin1String("basic")    ? Auth::Basic
             : type == QLatin1String("bearer") ? Auth::Bearer
             : type == QLatin1String("oauth1") ? Auth::OAuth1
             : type == QLatin1String("digest") ? Auth::Digest
                                               : Auth::None;
    if (r.auth == Auth::OAuth1 || r.auth == Auth::Digest || (r.auth == Auth::None && !type.isEmpty()))
        r.otherAuth = auth; // its fields, all of them; a helper the editor does not make: kept as it came
    r.user = auth.value(QStringLiteral("user")).toString();
    r.password = auth.value(QStringLiteral("password")).toString();
    r.token = auth.value(QStringLiteral("token")).toString();
    r.timeoutMs = o.value(QStringLiteral("timeoutMs")).toInt(kDefaultTimeoutMs);
    const QString version = o.value(QStringLiteral("http")).toString();
    r.version = version == QLatin1String("1.1") ? Version::Http1
                : version == QLatin1String("2") ? Version::Http2
                                                : Version::Auto;
    return r;
}

const QStringList& RequestItem::oauth1Fields()
{
    static const QStringList fields = {
        QStringLiteral("consumerKey"), QStringLiteral("consumerSecret"),  QStringLiteral("token"),
        QStringLiteral("tokenSecret"), QStringLiteral("signatureMethod"), QStringLiteral("realm"),
        QStringLiteral("timestamp"),   QStringLiteral("nonce"),           QStringLiteral("version"),
        QStringLiteral("callback"),    QStringLiteral("verifier")};
    return fields;
}

std::optional<RequestItem> RequestItem::fromCurl(const QString& text, QString* error, QStringList* notTaken)
{
    std::string err;
    const auto c = stampede::parseCurl(text.toStdString(), err);
    if (!c) {
        if (error)
            *error = QString::fromStdString(err);
        return std::nullopt;
    }
    RequestItem r;
    r.method = QString::fromStdString(c->method);
    r.url = QString::fromStdString(c->url);
    for (const auto& [n, v] : c->headers)
        r.headers.append({QString::fromStdString(n), QString::fromStdString(v)});
    r.body = QString::fromStdString(c->body);
    const bool json = std::any_of(r.headers.begin(), r.headers.end(), [](const auto& h) {
        return h.first.compare(QLatin1String("content-type"), Qt::CaseInsensitive) == 0 &&
               h.second.contains(QLatin1String("json"));
    });
    r.bodyMode = json ? BodyMode::Json : BodyMode::Raw;
    if (!c->form.empty()) {
        r.bodyMode = BodyMode::Multipart;
        for (const auto& [n, v] : c->form)
            r.form.append({QString::fromStdString(n), QString::fromStdString(v)});
        for (const auto& [at, path] : c->formFiles) // -F name=@path: a file field, the path as written
            r.formFiles.insert(int(at), {QString::fromStdString(path)});
    }
    if (c->basic && c->digest) { // curl --digest -u: the server's challenge answered
        r.auth = Auth::Digest;
        r.otherAuth = {{QStringLiteral("type"), QStringLiteral("digest")},
                       {QStringLiteral("username"), QString::fromStdString(c->user)},
                       {QStringLiteral("password"), QString::fromStdString(c->password)}};
    } else if (c->basic) {
        r.auth = Auth::Basic;
        r.user = QString::fromStdString(c->user);
        r.password = QString::fromStdString(c->password);
    }
    r.insecure = c->insecure;
    if (c->maxTimeSeconds > 0)
        r.timeoutMs = std::max(1000, int(c->maxTimeSeconds * 1000));
    r.version = c->http == 1 ? Version::Http1 : c->http == 2 ? Version::Http2 : Version::Auto;
    if (notTaken)
        for (const auto& n : c->notTaken)
            *notTaken << QString::fromStdString(n);
    return r;
}

QByteArray RequestItem::toJson() const
{
    QJsonObject o;
    if (!checks.isEmpty())
        o[QStringLiteral("checks")] = checks;
    if (!extract.isEmpty())
        o[QStringLiteral("extract")] = extract;
    if (!preRequestScript.isEmpty())
        o[QStringLiteral("preRequestScript")] = preRequestScript;
    if (!testScript.isEmpty())
        o[QStringLiteral("testScript")] = testScript;
    if (!description.isEmpty())
        o[QStringLiteral("description")] = description;
    if (!postmanId.isEmpty())
        o[QStringLiteral("postmanId")] = postmanId;
    if (kind == Kind::EventStream) {
        o[QStringLiteral("kind")] = QStringLiteral("sse");
        o[QStringLiteral("url")] = url.trimmed();
        o[QStringLiteral("headers")] = writePairs(headers);
        o[QStringLiteral("receive")] = sseReceive;
        if (!sseEvent.isEmpty())
            o[QStringLiteral("event")] = sseEvent;
        if (sseReconnects)
            o[QStringLiteral("reconnects")] = sseReconnects;
        if (timeoutMs != kDefaultTimeoutMs)
            o[QStringLiteral("timeoutMs")] = timeoutMs;
        return QJsonDocument(o).toJson(QJsonDocument::Compact);
    }
    if (kind == Kind::WebSocket) {
        o[QStringLiteral("kind")] = QStringLiteral("websocket");
        o[QStringLiteral("url")] = url.trimmed();
        o[QStringLiteral("headers")] = writePairs(headers);
        if (!wsProtocols.isEmpty())
            o[QStringLiteral("protocols")] = QJsonArray::fromStringList(wsProtocols);
        o[QStringLiteral("messages")] = wsMessages;
        if (wsReceive >= 0)
            o[QStringLiteral("receive")] = wsReceive;
        if (wsRequestReply)
            o[QStringLiteral("requestReply")] = true;
        if (wsDeflate)
            o[QStringLiteral("deflate")] = true;
        if (timeoutMs != kDefaultTimeoutMs)
            o[QStringLiteral("timeoutMs")] = timeoutMs;
        return QJsonDocument(o).toJson(QJsonDocument::Compact);
    }
    if (kind == Kind::Grpc) {
        o[QStringLiteral("kind")] = QStringLiteral("grpc");
        o[QStringLiteral("target")] = target.trimmed();
        o[QStringLiteral("method")] = grpcMethod.trimmed();
        o[QStringLiteral("data")] = data;
        if (!metadata.isEmpty())
            o[QStringLiteral("metadata")] = writePairs(metadata);
        if (deadlineMs != kDefaultDeadlineMs)
            o[QStringLiteral("deadlineMs")] = deadlineMs;
        if (insecure)
            o[QStringLiteral("insecure")] = true;
        if (!descriptors.isEmpty()) {
            o[QStringLiteral("descriptors")] = QString::fromLatin1(descriptors.toBase64());
            o[QStringLiteral("schemaSource")] = schemaSource;
        }
        if (!grpcMessages.isEmpty())
            o[QStringLiteral("messages")] = QJsonArray::fromStringList(grpcMessages);
        if (grpcReceive > 0)
            o[QStringLiteral("receive")] = grpcReceive;
        if (!grpcMatch.isEmpty())
            o[QStringLiteral("match")] = grpcMatch;
        if (grpcIntervalMs > 0)
            o[QStringLiteral("intervalMs")] = grpcIntervalMs;
        if (grpcRequestReply)
            o[QStringLiteral("requestReply")] = true;
        return QJsonDocument(o).toJson(QJsonDocument::Compact);
    }
    o[QStringLiteral("method")] = method.trimmed().toUpper();
    o[QStringLiteral("url")] = url.trimmed();
    o[QStringLiteral("headers")] = writePairs(headers);
    o[QStringLiteral("body")] = body;
    o[QStringLiteral("bodyMode")] = QString::fromLatin1(kBodyModes[int(bodyMode)]);
    if (!bodyFile.isEmpty())
        o[QStringLiteral("bodyFile")] = bodyFile;
    if (!form.isEmpty())
        o[QStringLiteral("form")] = writeForm(form, formFiles);
    if (auth == Auth::Basic)
        o[QStringLiteral("auth")] = QJsonObject{{QStringLiteral("type"), QStringLiteral("basic")},
                                                {QStringLiteral("user"), user},
                                                {QStringLiteral("password"), password}};
    else if (auth == Auth::Bearer)
        o[QStringLiteral("auth")] =
            QJsonObject{{QStringLiteral("type"), QStringLiteral("bearer")}, {QStringLiteral("token"), token}};
    else if (auth == Auth::OAuth1 || auth == Auth::Digest) {
        QJsonObject a = otherAuth;
        a[QStringLiteral("type")] = auth == Auth::OAuth1 ? QStringLiteral("oauth1") : QStringLiteral("digest");
        o[QStringLiteral("auth")] = a;
    } else if (!otherAuth.isEmpty())
        o[QStringLiteral("auth")] = otherAuth;
    if (timeoutMs != kDefaultTimeoutMs)
        o[QStringLiteral("timeoutMs")] = timeoutMs;
    if (insecure)
        o[QStringLiteral("insecure")] = true;
    if (version != Version::Auto)
        o[QStringLiteral("http")] = version == Version::Http1 ? QStringLiteral("1.1") : QStringLiteral("2");
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

stampede::SendOnceRequest RequestItem::toSend(const QHash<QString, QString>& variables, const QString& baseDir) const
{
    stampede::SendOnceRequest rq;
    rq.baseDir = baseDir.toStdString();
    rq.stepJson = QJsonDocument(toStep(QStringLiteral("send"))).toJson(QJsonDocument::Compact).toStdString();
    for (auto it = variables.cbegin(); it != variables.cend(); ++it)
        rq.values.emplace_back(it.key().toStdString(), it.value().toStdString());
    // a name nothing defines goes out as its own text, as the user agreed to
    for (const QString& n : unknown(variables).all())
        rq.values.emplace_back(n.toStdString(), "${" + n.toStdString() + "}");
    rq.http2 = overHttp2();
    return rq;
}

// `text` as the engine renders it in this request (its variables, Postman's dynamic names): rendered as the body
// of a request of its own to the same URL, by the same renderOnce that Send uses.
bool RequestItem::renderedText(const QString& text, const QHash<QString, QString>& variables, const QString& baseDir,
                               const std::string& url, std::string& out, std::string& why) const
{
    stampede::SendOnceRequest one = toSend(variables, baseDir);
    QJsonObject request;
    request[QStringLiteral("method")] = QStringLiteral("POST");
    request[QStringLiteral("url")] = QString::fromStdString(url);
    request[QStringLiteral("body")] = text;
    QJsonObject step;
    step[QStringLiteral("request")] = request;
    one.stepJson = QJsonDocument(step).toJson(QJsonDocument::Compact).toStdString();
    stampede::SentRequest sent;
    if (!stampede::renderOnce(one, sent, why))
        return false;
    out = sent.body;
    return true;
}

QString RequestItem::toCurl(const QHash<QString, QString>& variables, QString* error, const QString& baseDir) const
{
    stampede::SentRequest sent;
    std::string why;
    if (!stampede::renderOnce(toSend(variables, baseDir), sent, why)) {
        if (error)
            *error = QString::fromStdString(why);
        return {};
    }
    // files go as paths for curl to read (their bytes are no shell text), curl making the multipart form itself
    const bool fileBody = bodyMode == BodyMode::File && !bodyFile.trimmed().isEmpty();
    const bool fileForm = bodyMode == BodyMode::Multipart && !formFiles.isEmpty();
    const auto absolute = [&](const QString& path) {
        return (baseDir.isEmpty() ? path : QDir(baseDir).absoluteFilePath(path)).toStdString();
    };
    stampede::CurlRequest c;
    c.method = sent.method;
    c.url = sent.url;
    for (const auto& h : sent.headers)
        if (!stampede::equalsNoCase(h.first, "host") && !stampede::equalsNoCase(h.first, "user-agent") &&
            !((fileBody || fileForm) && stampede::equalsNoCase(h.first, "content-length")) &&
            !(fileForm && stampede::equalsNoCase(h.first, "content-type")))
            c.headers.push_back(h);
    if (fileBody) {
        c.bodyFile = absolute(bodyFile.trimmed());
    } else if (fileForm) {
        for (int k = 0; k < form.size(); ++k) {
            std::string value; // a text field as the engine renders it ($guid and the other dynamic names too)
            if (!formFiles.contains(k) && !renderedText(form[k].second, variables, baseDir, sent.url, value, why)) {
                if (error)
                    *error = QStringLiteral("form[%1] (%2): %3").arg(k).arg(form[k].first, QString::fromStdString(why));
                return {};
            }
            c.form.emplace_back(form[k].first.toStdString(), value);
            for (const QString& path : formFiles.value(k))
                c.formFiles.emplace_back(std::size_t(k), absolute(path));
        }
    } else {
        c.body = sent.body;
    }
    QString out = QString::fromStdString(stampede::toCurl(c));
    if (insecure && url.trimmed().startsWith(QLatin1String("https://")))
        out += QStringLiteral(" -k");
    return out;
}

bool RequestItem::overHttp2() const
{
    return kind != Kind::WebSocket && kind != Kind::EventStream &&
           (version == Version::Http2 ||
            (version == Version::Auto && url.trimmed().startsWith(QLatin1String("https://"))));
}

QString RequestItem::scriptProblem(const QString& source, int* line)
{
    if (line)
        *line = 0;
    if (source.trimmed().isEmpty())
        return {};
    const std::string text = source.toStdString();
    unsigned at = 0;
    if (const std::string error = stampede::scriptSyntaxError(text, &at); !error.empty()) {
        if (line)
            *line = int(at);
        return engineText(QString::fromStdString(error));
    }
    for (const auto& n : stampede::script::unsupportedCalls(text)) {
        if (line)
            *line = int(n.line);
        return engineText(
            QStringLiteral("line %1: %2 is not run by Stampede").arg(n.line).arg(QString::fromStdString(n.what)));
    }
    return {};
}

QJsonObject RequestItem::toStep(const QString& name) const
{
    // the engine's one reading of a stored request (bundle/storedrequest.h), as the command line makes it too
    stampede::v1::Step step;
    std::string error, json;
    if (!stampede::storedRequestStep(toJson().toStdString(), name.toStdString(), step, error) ||
        !google::protobuf::util::MessageToJsonString(step, &json).ok())
        return QJsonObject{{QStringLiteral("name"), name}};
    return QJsonDocument::fromJson(QByteArray::fromStdString(json)).object();
}

QJsonObject RequestItem::followStep(const QJsonObject& step, const QString& name, const QByteArray& payload)
{
    // read as a scenario file's step is (its shorthand taken), then written as the engine writes a step
    stampede::v1::Scenario s;
    std::string error, json;
    const QJsonObject scenario{{QStringLiteral("steps"), QJsonArray{step}}};
    if (!stampede::parseScenarioJson(QJsonDocument(scenario).toJson(QJsonDocument::Compact).toStdString(), s, error) ||
        s.steps_size() != 1 ||
        !stampede::followStoredRequest(payload.toStdString(), name.toStdString(), *s.mutable_steps(0), error) ||
        !google::protobuf::util::MessageToJsonString(s.steps(0), &json).ok())
        return step;
    return QJsonDocument::fromJson(QByteArray::fromStdString(json)).object();
}

QStringList RequestItem::unknownNames(const QString& text, const QHash<QString, QString>& variables)
{
    static const QRegularExpression name(QStringLiteral("\\$\\{([^}]+)\\}"));
    QStringList out;
    for (auto it = name.globalMatch(text); it.hasNext();) {
        const QString n = it.next().captured(1);
        if (!variables.contains(n) && !out.contains(n) && !stampede::dynamicVariable(n.toStdString()) &&
            n != QLatin1String("$stressTag")) // the run's tag (a Send's own)
            out << n;                         // Postman's ${$guid} and its kind are the engine's own
    }
    return out;
}

bool RequestItem::Unknown::isEmpty() const
{
    return all().isEmpty();
}

QStringList RequestItem::Unknown::all() const
{
    QStringList out;
    for (const QStringList* l : {&url, &headers, &body, &auth, &message, &metadata})
        for (const QString& n : *l)
            if (!out.contains(n))
                out << n;
    return out;
}

QString RequestItem::Unknown::describe() const
{
    QStringList parts;
    const auto add = [&](const QStringList& names, const char* where) {
        if (names.isEmpty())
            return;
        QStringList shown;
        for (const QString& n : names)
            shown << QStringLiteral("${%1}").arg(n);
        parts << QCoreApplication::translate("RequestItem", where).arg(shown.join(QStringLiteral(", ")));
    };
    add(url, QT_TRANSLATE_NOOP("RequestItem", "%1 in the URL"));
    add(headers, QT_TRANSLATE_NOOP("RequestItem", "%1 in the headers"));
    add(body, QT_TRANSLATE_NOOP("RequestItem", "%1 in the body"));
    add(auth, QT_TRANSLATE_NOOP("RequestItem", "%1 in the authorization"));
    add(message, QT_TRANSLATE_NOOP("RequestItem", "%1 in the message"));
    add(metadata, QT_TRANSLATE_NOOP("RequestItem", "%1 in the metadata"));
    return parts.join(QStringLiteral("; "));
}

RequestItem::Unknown RequestItem::unknown(const QHash<QString, QString>& variables) const
{
    Unknown u;
    const auto pairsText = [](const Pairs& pairs) {
        QString all;
        for (const auto& [k, v] : pairs)
            all += k + QLatin1Char('\n') + v + QLatin1Char('\n');
        return all;
    };
    if (kind == Kind::EventStream) {
        u.url = unknownNames(url, variables);
        u.headers = unknownNames(pairsText(headers), variables);
        return u;
    }
    if (kind == Kind::WebSocket) {
        u.url = unknownNames(url, variables);
        u.headers = unknownNames(pairsText(headers), variables);
        QString texts;
        for (const QJsonValue& m : wsMessages)
            texts += m.toObject().value(QStringLiteral("text")).toString() + QLatin1Char('\n');
        u.message = unknownNames(texts, variables);
        return u;
    }
    if (kind == Kind::Grpc) {
        u.url = unknownNames(target, variables);
        u.message = unknownNames(data + QLatin1Char('\n') + grpcMessages.join(QLatin1Char('\n')), variables);
        u.metadata = unknownNames(pairsText(metadata), variables);
        return u;
    }
    u.url = unknownNames(url, variables);
    u.headers = unknownNames(pairsText(headers), variables);
    u.body = unknownNames(bodyMode == BodyMode::File                                            ? QString()
                          : bodyMode == BodyMode::UrlEncoded || bodyMode == BodyMode::Multipart ? pairsText(form)
                                                                                                : body,
                          variables);
    if (auth == Auth::Basic)
        u.auth = unknownNames(user + QLatin1Char('\n') + password, variables);
    else if (auth == Auth::Bearer)
        u.auth = unknownNames(token, variables);
    else if (auth == Auth::OAuth1) {
        QString all;
        for (const QString& f : oauth1Fields())
            all += otherAuth.value(f).toString() + QLatin1Char('\n');
        u.auth = unknownNames(all, variables);
    } else if (auth == Auth::Digest) {
        QString all;
        for (auto it = otherAuth.begin(); it != otherAuth.end(); ++it)
            if (it.value().isString())
                all += it.value().toString() + QLatin1Char('\n');
        u.auth = unknownNames(all, variables);
    }
    return u;
}
