#pragma once
// What the builder's stream panes (WebSocket, SSE, gRPC) show alike: an
// answer's status line (its summary, then why it failed, in red when it did),
// a time cell of the list of messages or events, and the pane's frame.
#include "requestsender.h"

#include <QLabel>
#include <QLayout>
#include <QSplitter>
#include <QTableWidgetItem>
#include <QVBoxLayout>

// A pane's frame: its address line over a splitter of the request's tabs and the response.
inline void layOutPane(QWidget* pane, QLayout* line, QWidget* request, QWidget* response)
{
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(request);
    split->addWidget(response);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(line);
    layout->addWidget(split, 1);
}

// A stream pane's response: its status line over the list of what came.
inline QWidget* statusOver(QLabel* status, QWidget* list)
{
    auto* response = new QWidget;
    auto* rl = new QVBoxLayout(response);
    rl->setContentsMargins(0, 0, 0, 0);
    rl->addWidget(status);
    rl->addWidget(list, 1);
    return response;
}

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
