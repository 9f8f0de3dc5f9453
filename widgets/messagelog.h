#pragma once
// The list of a conversation's messages both ways, as the builder's stream
// panes show it (a WebSocket conversation, a streaming gRPC call): its time
// from the start, ↑ sent or ↓ received, the message.
#include "requestsender.h"

#include <QTableWidget>

class MessageLog : public QTableWidget
{
    Q_OBJECT
public:
    explicit MessageLog(const QString& tip, QWidget* parent = nullptr);
    void show(const QList<SendAnswer::WsMessage>& messages);
    // Each row as "↑ 1.2 ms text", for tests and copying.
    QStringList lines() const;
};
