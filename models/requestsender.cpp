#include "requestsender.h"

#include "enginetext.h"
#include "jsontext.h"

#include "metrics/runmetrics.h"

#include <QCoreApplication>

#include <QDateTime>
#include <QRegularExpression>
#include <algorithm>

namespace {

QList<QPair<QString, QString>> pairs(const std::vector<std::pair<std::string, std::string>>& list)
{
    QList<QPair<QString, QString>> out;
    for (const auto& [n, v] : list)
        out.append({QString::fromStdString(n), QString::fromStdString(v)});
    return out;
}

QString readable(const std::string& body, const QList<QPair<QString, QString>>& headers, bool json)
{
    for (const auto& [n, v] : headers)
        json |= n.compare(QLatin1String("content-type"), Qt::CaseInsensitive) == 0 && v.contains(QLatin1String("json"));
    const QByteArray bytes = QByteArray::fromStdString(body);
    if (json)
        if (const QString indented = indentedJson(bytes); !indented.isNull())
            return indented;
    return QString::fromUtf8(bytes);
}

void httpAnswer(const stampede::SendOnceResult& r, SendAnswer& a)
{
    const stampede::HttpExchangeResult& h = r.http;
    a.error = engineText(QString::fromStdString(h.error));
    a.status = a.httpStatus = h.ok ? h.status : 0;
    a.headers = pairs(h.headers);
    a.body = readable(h.body, a.headers, false);
    a.good = h.ok && h.status < 400;
    a.answer.status = a.status;
    a.answer.headers = a.headers;
    a.answer.body = QByteArray::fromStdString(h.body);
    a.answer.elapsedMs = double(h.totalTime) / 1e6;
    if (h.ok)
        a.line = QCoreApplication::translate("RequestSender", "%1 · %2 ms · %3 bytes")
                     .arg(QStringLiteral("%1 %2").arg(h.status).arg(QString::fromStdString(h.reason)))
                     .arg(a.answer.elapsedMs, 0, 'f', 1)
                     .arg(qulonglong(h.bodyBytes));
}

void grpcAnswer(const stampede::SendOnceResult& r, SendAnswer& a)
{
    const stampede::Http2ExchangeResult& c = r.call;
    a.grpc = true;
    a.error = engineText(QString::fromStdString(c.ok ? r.answerError : c.error));
    a.httpStatus = c.status;
    a.status = c.ok ? c.grpcStatus : 0;
    a.headers = pairs(c.headers);
    a.trailers = pairs(c.trailers);
    a.body = r.answerJson.empty() ? QString() : readable(r.answerJson, {}, true);
    a.good = c.ok && c.grpcStatus == 0 && r.answerError.empty();
    const double ms = double(c.totalTime) / 1e6;
    a.answer.status = c.grpcStatus;
    a.answer.grpc = true;
    a.answer.headers = a.headers + a.trailers;
    a.answer.body = QByteArray::fromStdString(r.answerJson);
    a.answer.elapsedMs = ms;
    for (const auto& m : r.callMessages) { // a streaming call's, both ways
        SendAnswer::WsMessage e;
        e.ms = double(m.at) / 1e6;
        e.out = m.out;
        e.size = m.bytes;
        // on one line, its fields in their order (a JSON string holds no raw line break)
        e.text =
            QString::fromStdString(m.json).replace(QRegularExpression(QStringLiteral("\\n\\s*")), QStringLiteral(" "));
        a.messages.append(e);
    }
    if (!c.ok)
        return;
    if (c.grpcStatus < 0)
        a.line = QCoreApplication::translate("RequestSender", "HTTP %1, no grpc-status · %2 ms")
                     .arg(c.status)
                     .arg(ms, 0, 'f', 1);
    else
        a.line =
            QCoreApplication::translate("RequestSender", "%1 (%2)%3 · %4 ms")
                .arg(QString::fromStdString(stampede::grpcCodeName(c.grpcStatus)))
                .arg(c.grpcStatus)
                .arg(c.grpcMessage.empty() ? QString() : QStringLiteral(": ") + QString::fromStdString(c.grpcMessage))
                .arg(ms, 0, 'f', 1);
    if (!r.callMessages.empty())
        a.line +=
            QCoreApplication::translate("RequestSender", " · %1 sent, %2 received")
                .arg(std::count_if(r.callMessages.begin(), r.callMessages.end(), [](const auto& m) { return m.out; }))
                .arg(c.messagesIn);
    if (!r.answerError.empty())
        a.line += QStringLiteral(" — ") + QString::fromStdString(r.answerError);
}

// A WebSocket conversation: the upgrade's outcome, each message both ways; the last message received is the
// answer the checks judge (as a run's step judges it).
void wsAnswer(const stampede::SendOnceResult& r, SendAnswer& a)
{
    const stampede::WsExchangeResult& w = r.ws;
    a.websocket = true;
    a.error = engineText(QString::fromStdString(w.error));
    a.status = a.httpStatus = w.opened ? 101 : 0;
    a.good = w.opened && w.error.empty();
    std::string last;
    for (const auto& m : w.log) {
        SendAnswer::WsMessage e;
        e.ms = double(m.at) / 1e6;
        e.out = m.out;
        e.binary = m.binary;
        e.size = m.size;
        const QByteArray bytes = QByteArray::fromStdString(m.data);
        e.text = m.binary ? QString::fromLatin1(bytes.toHex(' ')) : QString::fromUtf8(bytes);
        a.messages.append(e);
        if (!m.out)
            last = m.data;
    }
    a.body = readable(last, {}, false);
    a.answer.status = a.status;
    a.answer.body = QByteArray::fromStdString(last);
    a.answer.elapsedMs = double(w.totalTime) / 1e6;
    if (!w.opened)
        return;
    const int out = int(std::count_if(w.log.begin(), w.log.end(), [](const auto& m) { return m.out; }));
    a.line = QCoreApplication::translate("RequestSender", "101 Switching Protocols%1 · %2 sent, %3 received · %4 ms")
                 .arg((w.protocol.empty() ? QString() : QStringLiteral(" · ") + QString::fromStdString(w.protocol)) +
                      (w.deflate ? QStringLiteral(" · permessage-deflate") : QString()))
                 .arg(out)
                 .arg(w.received)
                 .arg(a.answer.elapsedMs, 0, 'f', 1);
    if (w.closeCode)
        a.line +=
            QCoreApplication::translate("RequestSender", " · closed %1%2")
                .arg(w.closeCode)
                .arg(w.closeReason.empty() ? QString()
                                           : QStringLiteral(" \"%1\"").arg(QString::fromStdString(w.closeReason)));
}

// An event stream: its events as they came; the last awaited one is the answer the checks judge.
void sseAnswer(const stampede::SendOnceResult& r, SendAnswer& a)
{
    const stampede::SseExchangeResult& x = r.sse;
    a.eventStream = true;
    a.error = engineText(QString::fromStdString(x.error));
    a.good = x.ok;
    a.status = a.httpStatus = x.ok ? (x.status ? x.status : 200) : 0;
    a.headers = pairs(x.headers);
    for (const auto& e : x.events)
        a.events.append({double(e.at) / 1e6, QString::fromStdString(e.id), QString::fromStdString(e.type),
                         QString::fromStdString(e.data)});
    // the answer: the last awaited event (as a run's), else the last that came
    const std::string last = x.ok || x.events.empty() ? x.answer : x.events.back().data;
    a.body = readable(last, {}, false);
    a.answer.status = a.status;
    a.answer.headers = a.headers;
    a.answer.body = QByteArray::fromStdString(last);
    a.answer.elapsedMs = double(x.totalTime) / 1e6;
    a.line = QCoreApplication::translate("RequestSender", "%n event(s) · %1 ms", nullptr, int(x.received))
                 .arg(a.answer.elapsedMs, 0, 'f', 1);
}

// What the request's scripts said, for the Scripts tab and the environment.
void scriptAnswer(const stampede::SendOnceResult& r, SendAnswer& a)
{
    for (const auto& t : r.tests)
        a.tests.append({QString::fromStdString(t.name), t.passed, QString::fromStdString(t.error)});
    a.scriptError = engineText(QString::fromStdString(r.scriptError));
    for (const auto& l : r.scriptLogs)
        a.scriptLogs << QString::fromStdString(l);
    for (const auto& [n, v] : r.scriptSet)
        a.scriptSet.insert(QString::fromStdString(n), QString::fromStdString(v));
}

} // namespace

RequestSender::RequestSender(QObject* parent) : QObject(parent) {}

RequestSender::~RequestSender()
{
    m_jobs.cancel();
}

void RequestSender::send(const RequestItem& item, const QHash<QString, QString>& variables, const QString& name)
{
    HistoryEntry entry;
    entry.at = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    entry.name = name;
    entry.request = item.toJson();
    const bool grpc = item.kind == RequestItem::Kind::Grpc;
    m_jobs.start(
        [rq = item.toSend(variables, m_baseDir), grpc] {
            const stampede::SendOnceResult r = stampede::sendOnce(rq);
            SendAnswer a;
            a.grpc = grpc;
            scriptAnswer(r, a);
            if (!r.error.empty()) {
                a.error = QCoreApplication::translate("RequestSender", "not sent: %1")
                              .arg(engineText(QString::fromStdString(r.error)));
                return std::make_pair(a, r.sent);
            }
            if (r.grpc)
                grpcAnswer(r, a);
            else if (r.websocket)
                wsAnswer(r, a);
            else if (r.eventStream)
                sseAnswer(r, a);
            else
                httpAnswer(r, a);
            return std::make_pair(a, r.sent);
        },
        [this, entry](std::pair<SendAnswer, stampede::SentRequest> result) mutable {
            SendAnswer& a = result.first;
            const stampede::SentRequest& sent = result.second;
            entry.method = a.grpc          ? QStringLiteral("gRPC")
                           : a.websocket   ? QStringLiteral("WS")
                           : a.eventStream ? QStringLiteral("SSE")
                                           : QString::fromStdString(sent.method);
            entry.url = QString::fromStdString(sent.url);
            entry.status = a.status;
            entry.error = a.error;
            entry.ms = a.answer.elapsedMs;
            if (a.grpc) { // the call's status, then its trailers
                entry.head = a.line.isEmpty() ? QString() : QStringLiteral("grpc-status: %1").arg(a.status);
                for (const auto& [n, v] : a.trailers)
                    entry.head += u'\n' + n + QStringLiteral(": ") + v;
            } else {
                entry.head = a.line;
                for (const auto& [n, v] : a.headers)
                    entry.head += u'\n' + n + QStringLiteral(": ") + v;
            }
            entry.body = a.body; // cut to its first KiB where it is kept
            a.entry = entry;
            Q_EMIT answered(a);
        });
}
