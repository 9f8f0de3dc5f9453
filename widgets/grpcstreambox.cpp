#include "grpcstreambox.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

GrpcStreamBox::GrpcStreamBox(QWidget* parent) : QWidget(parent)
{
    m_kind = new QLabel;
    m_kind->setObjectName(QStringLiteral("grpcStreamKind"));
    m_kind->setWordWrap(true);
    m_composer = new QPlainTextEdit;
    m_composer->setObjectName(QStringLiteral("grpcComposer"));
    m_composer->setPlaceholderText(tr("Another message as JSON; ${name} is replaced when it is sent"));
    m_composer->setMaximumHeight(80);
    auto* add = new QPushButton(tr("Add message"));
    add->setToolTip(tr("Send this message after the Message tab's and those above it"));
    auto* remove = new QPushButton(tr("Remove"));
    m_messages = new QListWidget;
    m_messages->setObjectName(QStringLiteral("grpcMessages"));
    m_messages->setToolTip(tr("Sent in order after the Message tab's JSON"));
    m_interval = new QSpinBox;
    m_interval->setObjectName(QStringLiteral("grpcInterval"));
    m_interval->setRange(0, 3600000);
    m_interval->setSuffix(tr(" ms"));
    m_interval->setSpecialValueText(tr("all at once"));
    m_interval->setToolTip(tr("Between the messages sent"));
    m_interval->setMaximumWidth(220);
    m_requestReply = new QCheckBox(tr("Send each message after the reply to the one before"));
    m_requestReply->setObjectName(QStringLiteral("grpcRequestReply"));
    m_requestReply->setToolTip(tr("Request/reply: each message latency is then one round trip"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch(1);
    m_sendPart = new QWidget;
    auto* sl = new QVBoxLayout(m_sendPart);
    sl->setContentsMargins(0, 0, 0, 0);
    sl->addWidget(m_composer);
    sl->addLayout(buttons);
    sl->addWidget(m_messages, 1);
    auto* pacing = new QFormLayout;
    pacing->addRow(tr("Interval:"), m_interval);
    pacing->addRow(QString(), m_requestReply);
    sl->addLayout(pacing);

    m_receive = new QSpinBox;
    m_receive->setObjectName(QStringLiteral("grpcReceive"));
    m_receive->setRange(0, 1000000);
    m_receive->setSpecialValueText(tr("the stream's end"));
    m_receive->setToolTip(tr("Messages to wait for, then the call is ended (CANCEL); the last one is the answer"));
    m_receive->setMaximumWidth(220);
    m_match = new QLineEdit;
    m_match->setObjectName(QStringLiteral("grpcMatch"));
    m_match->setPlaceholderText(tr("any message"));
    m_match->setToolTip(tr("Only messages whose JSON holds this text are awaited (all are counted)"));
    auto* wait = new QFormLayout;
    wait->addRow(tr("Wait for:"), m_receive);
    wait->addRow(tr("Holding:"), m_match);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_kind);
    layout->addWidget(m_sendPart, 1);
    layout->addLayout(wait);
    layout->addStretch(0);

    connect(add, &QPushButton::clicked, this, [this] {
        if (!m_composer->toPlainText().trimmed().isEmpty())
            addMessage(m_composer->toPlainText());
        m_composer->clear();
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        delete m_messages->takeItem(m_messages->currentRow());
        Q_EMIT changed();
    });
    connect(m_interval, &QSpinBox::valueChanged, this, &GrpcStreamBox::changed);
    connect(m_requestReply, &QCheckBox::toggled, this, &GrpcStreamBox::changed);
    connect(m_receive, &QSpinBox::valueChanged, this, &GrpcStreamBox::changed);
    connect(m_match, &QLineEdit::textEdited, this, &GrpcStreamBox::changed);
    setKind(QString(), false, false, false);
}

void GrpcStreamBox::setKind(const QString& method, bool clientStreams, bool serverStreams, bool known)
{
    m_client = clientStreams;
    m_server = serverStreams;
    m_known = known;
    m_kind->setText(
        !known ? tr("No schema says yet whether the method streams: import the .proto files or fetch "
                    "them by reflection (Schema tab).")
        : !clientStreams && !serverStreams
            ? tr("%1 is unary: one message out, one answer.").arg(method.isEmpty() ? tr("The method") : method)
        : clientStreams && serverStreams
            ? tr("%1 streams both ways: the Message tab's JSON goes first, then these messages; the "
                 "answer is the last awaited message.")
                  .arg(method)
        : clientStreams ? tr("%1 streams from the client: the Message tab's JSON goes first, then these "
                             "messages; the server answers once.")
                              .arg(method)
                        : tr("%1 streams from the server: it sends the Message tab's JSON and reads the "
                             "messages that come; the answer is the last awaited one.")
                              .arg(method));
    m_sendPart->setVisible(clientStreams || !known); // a server-streaming call sends the Message tab's JSON only
    m_requestReply->setEnabled(clientStreams && serverStreams);
    m_receive->setEnabled(serverStreams);
    m_match->setEnabled(serverStreams);
}

void GrpcStreamBox::setFields(const RequestItem& r)
{
    const QSignalBlocker quiet(this);
    m_messages->clear();
    for (const QString& m : r.grpcMessages)
        m_messages->addItem(m);
    m_receive->setValue(r.grpcReceive);
    m_match->setText(r.grpcMatch);
    m_interval->setValue(r.grpcIntervalMs);
    m_requestReply->setChecked(r.grpcRequestReply);
}

void GrpcStreamBox::writeTo(RequestItem& r) const
{
    if (!m_known) { // kept as they are until a schema says what applies
        r.grpcMessages = messages();
        r.grpcIntervalMs = m_interval->value();
        r.grpcRequestReply = m_requestReply->isChecked();
        r.grpcReceive = m_receive->value();
        r.grpcMatch = m_match->text();
        return;
    }
    if (m_client) {
        r.grpcMessages = messages();
        r.grpcIntervalMs = m_interval->value();
    }
    r.grpcRequestReply = m_client && m_server && m_requestReply->isChecked();
    if (m_server) {
        r.grpcReceive = m_receive->value();
        r.grpcMatch = m_match->text();
    }
}

QStringList GrpcStreamBox::messages() const
{
    QStringList out;
    for (int i = 0; i < m_messages->count(); ++i)
        out << m_messages->item(i)->text();
    return out;
}

void GrpcStreamBox::addMessage(const QString& json)
{
    m_messages->addItem(json);
    Q_EMIT changed();
}
