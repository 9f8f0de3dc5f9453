#include "ssepane.h"

#include "keyvaluetable.h"
#include "requesteditor.h"
#include "requestsender.h"
#include "streamcells.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

SsePane::SsePane(QWidget* parent) : QWidget(parent)
{
    m_url = new QLineEdit;
    m_url->setObjectName(QStringLiteral("sseUrl"));
    m_url->setPlaceholderText(QStringLiteral("http://127.0.0.1:8080/events"));
    m_url->setToolTip(tr("An http:// or https:// URL that answers text/event-stream; ${name} is replaced from the "
                         "environment"));
    m_send = new QPushButton(tr("Send"));
    m_send->setObjectName(QStringLiteral("sseSend"));
    m_send->setToolTip(tr("Read the stream until the awaited events have come, then close"));
    auto* line = new QHBoxLayout;
    line->addWidget(m_url, 1);
    line->addWidget(m_send);

    m_headers = new KeyValueTable(tr("Header"), tr("Value"));
    auto* settings = new QWidget;
    auto* form = new QFormLayout(settings);
    m_receive = new QSpinBox;
    m_receive->setRange(1, 1000000);
    m_receive->setToolTip(tr("Events to wait for before closing"));
    form->addRow(tr("Wait for:"), m_receive);
    m_event = new QLineEdit;
    m_event->setPlaceholderText(tr("any type"));
    m_event->setToolTip(tr("Only events of this type count (\"message\" for unnamed ones)"));
    form->addRow(tr("Event type:"), m_event);
    m_reconnects = new QSpinBox;
    m_reconnects->setRange(0, 100);
    m_reconnects->setToolTip(tr("When the stream ends first: connect again this many times, with Last-Event-ID"));
    form->addRow(tr("Reconnects:"), m_reconnects);
    m_timeout = new QSpinBox;
    m_timeout->setRange(100, 3600000);
    m_timeout->setSuffix(QStringLiteral(" ms"));
    m_timeout->setValue(RequestItem::kDefaultTimeoutMs);
    m_timeout->setToolTip(tr("From the connect to the last awaited event"));
    form->addRow(tr("Timeout:"), m_timeout);
    m_tabs = new QTabWidget;
    m_tabs->addTab(settings, tr("Settings"));
    m_tabs->addTab(m_headers, tr("Headers"));

    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("sseStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_events = new QTableWidget(0, 4);
    m_events->setObjectName(QStringLiteral("sseEvents"));
    m_events->setHorizontalHeaderLabels({tr("Time"), tr("Id"), tr("Type"), tr("Data")});
    m_events->horizontalHeader()->setStretchLastSection(true);
    m_events->verticalHeader()->hide();
    m_events->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_events->setSelectionBehavior(QAbstractItemView::SelectRows);
    layOutPane(this, line, m_tabs, statusOver(m_status, m_events));

    m_sender = new RequestSender(this);
    connect(m_sender, &RequestSender::answered, this, &SsePane::showAnswer);
    connect(m_send, &QPushButton::clicked, this, &SsePane::send);
    connect(m_url, &QLineEdit::returnPressed, this, &SsePane::send);
    for (QLineEdit* e : {m_url, m_event})
        connect(e, &QLineEdit::textEdited, this, &SsePane::emitChanged);
    connect(m_headers, &KeyValueTable::pairsChanged, this, &SsePane::emitChanged);
    for (QSpinBox* s : {m_receive, m_reconnects, m_timeout})
        connect(s, &QSpinBox::valueChanged, this, &SsePane::emitChanged);
}

void SsePane::emitChanged()
{
    if (!m_loading)
        Q_EMIT changed();
}

void SsePane::setItem(const RequestItem& r)
{
    m_loading = true;
    m_url->setText(r.url);
    m_headers->setPairs(r.headers);
    m_receive->setValue(r.sseReceive);
    m_event->setText(r.sseEvent);
    m_reconnects->setValue(r.sseReconnects);
    m_timeout->setValue(r.timeoutMs);
    m_events->setRowCount(0);
    m_status->clear();
    m_loading = false;
}

RequestItem SsePane::item() const
{
    RequestItem r;
    r.kind = RequestItem::Kind::EventStream;
    r.url = m_url->text().trimmed();
    r.headers = m_headers->pairs();
    r.sseReceive = m_receive->value();
    r.sseEvent = m_event->text().trimmed();
    r.sseReconnects = m_reconnects->value();
    r.timeoutMs = m_timeout->value();
    r.testScript = m_testScript;
    return r;
}

void SsePane::send()
{
    const RequestItem request = item();
    if (const RequestItem::Unknown u = request.unknown(m_variables); !u.isEmpty() && !sendUnknownAnyway(u, this))
        return;
    m_status->setText(tr("Reading…"));
    m_events->setRowCount(0);
    m_send->setEnabled(false);
    m_sender->send(request, m_variables);
}

void SsePane::showAnswer(const SendAnswer& a)
{
    m_send->setEnabled(true);
    Q_EMIT sent(a.entry);
    Q_EMIT scripted(a);
    showSendStatus(m_status, a);
    m_events->setRowCount(int(a.events.size()));
    for (int i = 0; i < a.events.size(); ++i) {
        const SendAnswer::Event& e = a.events[i];
        m_events->setItem(i, 0, timeCell(e.ms));
        m_events->setItem(i, 1, new QTableWidgetItem(e.id));
        m_events->setItem(i, 2, new QTableWidgetItem(e.type));
        auto* data = new QTableWidgetItem(e.data);
        data->setToolTip(e.data.left(2000));
        m_events->setItem(i, 3, data);
    }
    for (int c = 0; c < 3; ++c)
        m_events->resizeColumnToContents(c);
    if (a.good)
        Q_EMIT answered(a.answer);
}

QString SsePane::statusText() const
{
    return m_status->text();
}

QStringList SsePane::eventLines() const
{
    QStringList out;
    for (int i = 0; i < m_events->rowCount(); ++i)
        out << QStringLiteral("%1  %2  %3  %4")
                   .arg(m_events->item(i, 0)->text(), m_events->item(i, 1)->text(), m_events->item(i, 2)->text(),
                        m_events->item(i, 3)->text());
    return out;
}
