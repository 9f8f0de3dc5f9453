#pragma once
// What the builder's stream panes (WebSocket, SSE) show alike: an answer's
// status line (its summary, then why it failed, in red when it did) and a
// time cell of the list of messages or events.
#include "requestsender.h"

#include <QLabel>
#include <QTableWidgetItem>

inline void showSendStatus(QLabel* label, const SendAnswer& a)
{
    QString status = a.line;
    if (!a.error.isEmpty())
        status = status.isEmpty() ? a.error : status + QStringLiteral(" — ") + a.error;
    label->setText(status);
    label->setStyleSheet(a.good ? QString() : QStringLiteral("color: #b00020"));
}

inline QTableWidgetItem* timeCell(double ms)
{
    auto* time = new QTableWidgetItem(QStringLiteral("%1 ms").arg(ms, 0, 'f', 1));
    time->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return time;
}
