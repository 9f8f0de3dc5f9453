#include "wsrequestpane.h"

#include "keyvaluetable.h"
#include "messagelog.h"
#include "requesteditor.h"
#include "requestsender.h"
#include "streamcells.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

// The Messages tab: a composer, and the list of messages sent in order (added, removed).
QWidget* WsRequestPane::buildMessages()
{
    m_composer = new QPlainTextEdit;
    m_composer->setObjectName(QStringLiteral("wsComposer"));
    m_composer->setPlaceholderText(tr("A text message; ${name} is replaced when it is sent"));
    m_composer->setMaximumHeight(90);
    auto* add = new QPushButton(tr("Add message"));
    add->setToolTip(tr("Add the message to the list sent in order"));
    auto* remove = new QPushButton(tr("Remove"));
    m_messages = new QListWidget;
    m_messages->setObjectName(QStringLiteral("wsMessages"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch(1);
    auto* messagesPage = new QWidget;
    auto* ml = new QVBoxLayout(messagesPage);
    ml->addWidget(m_composer);
    ml->addLayout(buttons);
    ml->addWidget(m_messages, 1);
    connect(add, &QPushButton::clicked, this, [this] {
        if (!m_composer->toPlainText().isEmpty())
            addMessage(m_composer->toPlainText());
        m_composer->clear();
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        const int row = m_messages->currentRow();
        if (row < 0)
            return;
        delete m_messages->takeItem(row);
        if (row < m_binary.size())
            m_binary.removeAt(row);
        emitChanged();
    });
    return messagesPage;
}

WsRequestPane::WsRequestPane(QWidget* parent) : QWidget(parent)
{
    m_url = new QLineEdit;
    m_url->setObjectName(QStringLiteral("wsUrl"));
    m_url->setPlaceholderText(QStringLiteral("ws://127.0.0.1:8080/chat"));
    m_url->setToolTip(tr("ws:// or wss:// (over TLS); ${name} is replaced from the environment"));
    m_send = new QPushButton(tr("Send"));
    m_send->setObjectName(QStringLiteral("wsSend"));
    m_send->setToolTip(tr("Connect, send the messages in order, wait for the replies, then close"));
    auto* line = new QHBoxLayout;
    line->addWidget(m_url, 1);
    line->addWidget(m_send);

    QWidget* messagesPage = buildMessages();

    m_headers = new KeyValueTable(tr("Header"), tr("Value"));
    auto* settings = new QWidget;
    auto* form = new QFormLayout(settings);
    m_protocols = new QLineEdit;
    m_protocols->setPlaceholderText(QStringLiteral("chat, superchat"));
    m_protocols->setToolTip(tr("Subprotocols offered in Sec-WebSocket-Protocol, in order of preference"));
    form->addRow(tr("Subprotocols:"), m_protocols);
    m_receive = new QSpinBox;
    m_receive->setRange(-1, 1000000);
    m_receive->setSpecialValueText(tr("one per message"));
    m_receive->setValue(-1);
    m_receive->setToolTip(tr("Messages to wait for before closing (0: close once sent)"));
    form->addRow(tr("Wait for:"), m_receive);
    m_requestReply = new QCheckBox(tr("Send each message after the reply to the one before"));
    m_requestReply->setToolTip(tr("Request/reply: each message latency is then one round trip"));
    form->addRow(QString(), m_requestReply);
    m_deflate = new QCheckBox(tr("Compress messages (permessage-deflate)"));
    m_deflate->setObjectName(QStringLiteral("wsDeflate"));
    m_deflate->setToolTip(tr("Offer RFC 7692's compression: when the server agrees, messages go and come compressed"));
    form->addRow(QString(), m_deflate);
    m_timeout = new QSpinBox;
    m_timeout->setRange(100, 3600000);
    m_timeout->setSuffix(QStringLiteral(" ms"));
    m_timeout->setValue(RequestItem::kDefaultTimeoutMs);
    m_timeout->setToolTip(tr("From the connect to the last awaited message"));
    form->addRow(tr("Timeout:"), m_timeout);

    m_tabs = new QTabWidget;
    m_tabs->addTab(messagesPage, tr("Messages"));
    m_tabs->addTab(m_headers, tr("Headers"));
    m_tabs->addTab(settings, tr("Settings"));

    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("wsStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_log = new MessageLog(tr("Each message both ways: ↑ sent, ↓ received, with its time from the connect"));
    m_log->setObjectName(QStringLiteral("wsLog"));
    layOutPane(this, line, m_tabs, statusOver(m_status, m_log));

    m_sender = new RequestSender(this);
    connect(m_sender, &RequestSender::answered, this, &WsRequestPane::showAnswer);
    connect(m_send, &QPushButton::clicked, this, &WsRequestPane::send);
    connect(m_url, &QLineEdit::returnPressed, this, &WsRequestPane::send);
    for (QLineEdit* e : {m_url, m_protocols})
        connect(e, &QLineEdit::textEdited, this, &WsRequestPane::emitChanged);
    connect(m_headers, &KeyValueTable::pairsChanged, this, &WsRequestPane::emitChanged);
    for (QSpinBox* s : {m_receive, m_timeout})
        connect(s, &QSpinBox::valueChanged, this, &WsRequestPane::emitChanged);
    connect(m_requestReply, &QCheckBox::toggled, this, &WsRequestPane::emitChanged);
    connect(m_deflate, &QCheckBox::toggled, this, &WsRequestPane::emitChanged);
}

void WsRequestPane::emitChanged()
{
    if (!m_loading)
        Q_EMIT changed();
}

void WsRequestPane::addMessage(const QString& text)
{
    m_messages->addItem(text);
    m_binary.append(QJsonObject());
    emitChanged();
}

void WsRequestPane::setItem(const RequestItem& r)
{
    m_loading = true;
    m_url->setText(r.url);
    m_headers->setPairs(r.headers);
    m_protocols->setText(r.wsProtocols.join(QStringLiteral(", ")));
    m_receive->setValue(r.wsReceive);
    m_requestReply->setChecked(r.wsRequestReply);
    m_deflate->setChecked(r.wsDeflate);
    m_timeout->setValue(r.timeoutMs);
    m_messages->clear();
    m_binary = QJsonArray();
    for (const QJsonValue& v : r.wsMessages) {
        const QJsonObject m = v.toObject();
        if (m.contains(QStringLiteral("binary"))) {
            const QByteArray bytes = QByteArray::fromBase64(m.value(QStringLiteral("binary")).toString().toLatin1());
            m_messages->addItem(tr("binary, %n byte(s)", nullptr, int(bytes.size())));
            m_binary.append(m);
        } else {
            m_messages->addItem(m.value(QStringLiteral("text")).toString());
            m_binary.append(QJsonObject());
        }
    }
    m_log->setRowCount(0);
    m_status->clear();
    m_loading = false;
}

RequestItem WsRequestPane::item() const
{
    RequestItem r;
    r.kind = RequestItem::Kind::WebSocket;
    r.url = m_url->text().trimmed();
    r.headers = m_headers->pairs();
    for (const QString& p : m_protocols->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!p.trimmed().isEmpty())
            r.wsProtocols << p.trimmed();
    for (int i = 0; i < m_messages->count(); ++i) {
        const QJsonObject kept = i < m_binary.size() ? m_binary.at(i).toObject() : QJsonObject();
        r.wsMessages.append(kept.isEmpty() ? QJsonObject{{QStringLiteral("text"), m_messages->item(i)->text()}} : kept);
    }
    r.wsReceive = m_receive->value();
    r.wsRequestReply = m_requestReply->isChecked();
    r.wsDeflate = m_deflate->isChecked();
    r.timeoutMs = m_timeout->value();
    r.testScript = m_testScript;
    return r;
}

void WsRequestPane::send()
{
    const RequestItem request = item();
    if (const RequestItem::Unknown u = request.unknown(m_variables); !u.isEmpty() && !sendUnknownAnyway(u, this))
        return;
    m_status->setText(tr("Connecting…"));
    m_log->setRowCount(0);
    m_send->setEnabled(false);
    m_sender->send(request, m_variables);
}

void WsRequestPane::showAnswer(const SendAnswer& a)
{
    m_send->setEnabled(true);
    Q_EMIT sent(a.entry);
    Q_EMIT scripted(a);
    showSendStatus(m_status, a);
    m_log->show(a.messages);
    if (a.error.isEmpty() || a.status == 101)
        Q_EMIT answered(a.answer);
}

QString WsRequestPane::statusText() const
{
    return m_status->text();
}

QStringList WsRequestPane::logLines() const
{
    return m_log->lines();
}
