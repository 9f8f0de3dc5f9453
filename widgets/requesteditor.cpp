#include "requesteditor.h"

#include "keyvaluetable.h"

#include "core/curlcommand.h"
#include "net/httpexchange.h"

#include <QApplication>
#include <QComboBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include <thread>

namespace {
const QStringList kCommonHeaders = {
    QStringLiteral("Accept"),          QStringLiteral("Accept-Encoding"), QStringLiteral("Accept-Language"),
    QStringLiteral("Authorization"),   QStringLiteral("Cache-Control"),   QStringLiteral("Content-Type"),
    QStringLiteral("Cookie"),          QStringLiteral("If-None-Match"),   QStringLiteral("Origin"),
    QStringLiteral("Referer"),         QStringLiteral("User-Agent"),      QStringLiteral("X-Request-Id"),
    QStringLiteral("X-Forwarded-For"), QStringLiteral("X-Stress-Tag")};
const QRegularExpression kVariable(QStringLiteral("\\$\\{([^}]+)\\}"));
} // namespace

RequestEditor::RequestEditor(QWidget* parent) : QWidget(parent)
{
    m_method = new QComboBox;
    m_method->addItems({QStringLiteral("GET"), QStringLiteral("POST"), QStringLiteral("PUT"), QStringLiteral("PATCH"),
                        QStringLiteral("DELETE"), QStringLiteral("HEAD"), QStringLiteral("OPTIONS")});
    m_method->setEditable(true);
    m_method->setToolTip(tr("HTTP method"));
    m_url = new QLineEdit;
    m_url->setPlaceholderText(tr("https://host/path?query — ${variables} allowed; paste a curl command to import it"));
    m_url->setToolTip(tr("The request URL. ${name} takes its value from the current environment when sent.\n"
                         "Pasting a curl command here imports its method, URL, headers and body."));
    m_send = new QPushButton(tr("Send"));
    m_send->setToolTip(tr("Send the request once (Ctrl+Enter)"));
    m_send->setDefault(true);
    m_hint = new QLabel;
    m_hint->setStyleSheet(QStringLiteral("color: #c0392b"));
    m_hint->hide();

    auto* line = new QHBoxLayout;
    line->addWidget(m_method);
    line->addWidget(m_url, 1);
    line->addWidget(m_send);

    m_headers = new KeyValueTable(tr("Header"), tr("Value"));
    m_headers->setObjectName(QStringLiteral("requestHeaders"));
    m_headers->setNameCompletions(kCommonHeaders);
    m_body = new QPlainTextEdit;
    m_body->setPlaceholderText(tr("Request body (raw text or JSON; ${variables} allowed)"));
    m_requestTabs = new QTabWidget;
    m_requestTabs->addTab(m_headers, tr("Headers"));
    m_requestTabs->addTab(m_body, tr("Body"));

    m_status = new QLabel(tr("No response yet. Press Send (Ctrl+Enter)."));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_responseBody = new QPlainTextEdit;
    m_responseBody->setReadOnly(true);
    m_responseHeaders = new KeyValueTable(tr("Header"), tr("Value"));
    m_responseHeaders->setObjectName(QStringLiteral("responseHeaders"));
    m_responseHeaders->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_responseTabs = new QTabWidget;
    m_responseTabs->addTab(m_responseBody, tr("Response body"));
    m_responseTabs->addTab(m_responseHeaders, tr("Response headers"));
    auto* response = new QWidget;
    auto* rl = new QVBoxLayout(response);
    rl->setContentsMargins(0, 0, 0, 0);
    rl->addWidget(m_status);
    rl->addWidget(m_responseTabs, 1);

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_requestTabs);
    split->addWidget(response);
    split->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(line);
    layout->addWidget(m_hint);
    layout->addWidget(split, 1);

    connect(m_send, &QPushButton::clicked, this, &RequestEditor::send);
    connect(m_url, &QLineEdit::returnPressed, this, &RequestEditor::send);
    connect(m_url, &QLineEdit::textEdited, this, [this](const QString& text) {
        if (text.trimmed().startsWith(QLatin1String("curl "))) {
            QString error;
            if (!importCurl(text, &error)) {
                m_hint->setText(tr("Not imported: %1").arg(error));
                m_hint->show();
            }
            return;
        }
        updateVariableHints();
        emitChanged();
    });
    connect(m_method, &QComboBox::currentTextChanged, this, &RequestEditor::emitChanged);
    connect(m_headers, &KeyValueTable::pairsChanged, this, &RequestEditor::emitChanged);
    connect(m_body, &QPlainTextEdit::textChanged, this, &RequestEditor::emitChanged);
}

void RequestEditor::emitChanged()
{
    if (!m_loading)
        Q_EMIT requestChanged(requestJson());
}

void RequestEditor::setRequestJson(const QByteArray& payload)
{
    m_loading = true;
    const QJsonObject o = QJsonDocument::fromJson(payload).object();
    m_method->setCurrentText(o.value(QStringLiteral("method")).toString(QStringLiteral("GET")));
    m_url->setText(o.value(QStringLiteral("url")).toString());
    QList<QPair<QString, QString>> headers;
    for (const auto& h : o.value(QStringLiteral("headers")).toArray())
        headers.append({h.toObject().value(QStringLiteral("name")).toString(),
                        h.toObject().value(QStringLiteral("value")).toString()});
    m_headers->setPairs(headers);
    m_body->setPlainText(o.value(QStringLiteral("body")).toString());
    m_loading = false;
    updateVariableHints();
}

QByteArray RequestEditor::requestJson() const
{
    QJsonObject o;
    o[QStringLiteral("method")] = m_method->currentText().trimmed().toUpper();
    o[QStringLiteral("url")] = m_url->text().trimmed();
    QJsonArray headers;
    for (const auto& [n, v] : m_headers->pairs())
        headers.append(QJsonObject{{QStringLiteral("name"), n}, {QStringLiteral("value"), v}});
    o[QStringLiteral("headers")] = headers;
    o[QStringLiteral("body")] = m_body->toPlainText();
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

void RequestEditor::setVariables(const QHash<QString, QString>& variables)
{
    m_variables = variables;
    updateVariableHints();
}

void RequestEditor::updateVariableHints()
{
    QStringList unknown;
    const QString all = m_url->text() + m_body->toPlainText();
    for (auto it = kVariable.globalMatch(all); it.hasNext();) {
        const QString name = it.next().captured(1);
        if (!m_variables.contains(name) && !unknown.contains(name))
            unknown << name;
    }
    if (unknown.isEmpty()) {
        m_hint->hide();
        m_url->setStyleSheet({});
        m_url->setToolTip(tr("The request URL. ${name} takes its value from the current environment when sent."));
        return;
    }
    QStringList shown;
    for (const auto& u : unknown)
        shown << QStringLiteral("${%1}").arg(u);
    m_hint->setText(
        tr("Unknown variables: %1 (define them in the current environment)").arg(shown.join(QStringLiteral(", "))));
    m_hint->show();
    m_url->setStyleSheet(QStringLiteral("QLineEdit { color: #c0392b; }"));
    m_url->setToolTip(m_hint->text());
}

QString RequestEditor::expand(const QString& text) const
{
    QString out = text;
    for (auto it = m_variables.cbegin(); it != m_variables.cend(); ++it)
        out.replace(QStringLiteral("${%1}").arg(it.key()), it.value());
    return out;
}

bool RequestEditor::importCurl(const QString& text, QString* error)
{
    std::string err;
    const auto r = stampede::parseCurl(text.toStdString(), err);
    if (!r) {
        if (error)
            *error = QString::fromStdString(err);
        return false;
    }
    m_loading = true;
    m_method->setCurrentText(QString::fromStdString(r->method));
    m_url->setText(QString::fromStdString(r->url));
    QList<QPair<QString, QString>> headers;
    for (const auto& [n, v] : r->headers)
        headers.append({QString::fromStdString(n), QString::fromStdString(v)});
    m_headers->setPairs(headers);
    m_body->setPlainText(QString::fromStdString(r->body));
    m_loading = false;
    updateVariableHints();
    emitChanged();
    return true;
}

QString RequestEditor::curlCommand() const
{
    stampede::CurlRequest r;
    r.method = m_method->currentText().trimmed().toUpper().toStdString();
    r.url = m_url->text().trimmed().toStdString();
    for (const auto& [n, v] : m_headers->pairs())
        r.headers.emplace_back(n.toStdString(), v.toStdString());
    r.body = m_body->toPlainText().toStdString();
    return QString::fromStdString(stampede::toCurl(r));
}

void RequestEditor::send()
{
    stampede::HttpExchangeRequest rq;
    rq.method = m_method->currentText().trimmed().toUpper().toStdString();
    rq.url = expand(m_url->text().trimmed()).toStdString();
    for (const auto& [n, v] : m_headers->pairs())
        rq.headers.emplace_back(n.toStdString(), expand(v).toStdString());
    rq.body = expand(m_body->toPlainText()).toStdString();
    const quint64 job = ++m_job; // a newer Send makes older results stale
    m_status->setText(tr("Sending…"));
    m_send->setEnabled(false);
    QPointer<RequestEditor> self(this);
    std::thread([self, job, rq] {
        const stampede::HttpExchangeResult r = stampede::exchange(rq);
        QList<QPair<QString, QString>> headers;
        bool json = false;
        for (const auto& [n, v] : r.headers) {
            headers.append({QString::fromStdString(n), QString::fromStdString(v)});
            json |= QString::fromStdString(n).compare(QLatin1String("content-type"), Qt::CaseInsensitive) == 0 &&
                    QString::fromStdString(v).contains(QLatin1String("json"));
        }
        QString body = QString::fromUtf8(r.body.data(), qsizetype(r.body.size()));
        if (json) {
            const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(r.body));
            if (!doc.isNull())
                body = QString::fromUtf8(doc.toJson(QJsonDocument::Indented));
        }
        const QString summary =
            r.ok ? QStringLiteral("%1 %2").arg(r.status).arg(QString::fromStdString(r.reason)) : QString();
        const QString error = QString::fromStdString(r.error);
        const double ms = double(r.totalTime) / 1e6;
        const auto bytes = qulonglong(r.bodyBytes);
        QMetaObject::invokeMethod(
            qApp,
            [self, job, r, summary, headers, body, error, ms, bytes] {
                if (!self)
                    return;
                const QString line =
                    r.ok ? RequestEditor::tr("%1 · %2 ms · %3 bytes").arg(summary).arg(ms, 0, 'f', 1).arg(bytes)
                         : QString();
                self->showResult(job, r.ok ? r.status : 0, line, headers, body, error);
            },
            Qt::QueuedConnection);
    }).detach();
}

void RequestEditor::showResult(quint64 job, int status, const QString& summary,
                               const QList<QPair<QString, QString>>& headers, const QString& body, const QString& error)
{
    if (job != m_job)
        return; // a newer Send is under way
    m_send->setEnabled(true);
    if (!error.isEmpty()) {
        m_status->setText(tr("Failed: %1").arg(error));
        m_status->setStyleSheet(QStringLiteral("color: #c0392b"));
        m_responseBody->clear();
        m_responseHeaders->setPairs({});
        return;
    }
    m_status->setText(summary);
    m_status->setStyleSheet(status < 400 ? QStringLiteral("color: #1e8449") : QStringLiteral("color: #c0392b"));
    m_responseBody->setPlainText(body);
    m_responseHeaders->setPairs(headers);
    Q_EMIT responseShown(status);
}

QString RequestEditor::statusText() const
{
    return m_status->text();
}

QString RequestEditor::responseBody() const
{
    return m_responseBody->toPlainText();
}
