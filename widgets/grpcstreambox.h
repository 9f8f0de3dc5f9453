#pragma once
// The gRPC pane's Stream tab: what a streaming method's call sends after the
// Message tab's JSON (more messages, an interval apart or each after the
// reply to the one before) and what it waits for (a count of messages, those
// holding a text, or the stream's end). Shown for the method's kind: a
// server-streaming call sends one message; a client-streaming call waits for
// its one answer.
#include "requestitem.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QSpinBox;

class GrpcStreamBox : public QWidget
{
    Q_OBJECT
public:
    explicit GrpcStreamBox(QWidget* parent = nullptr);
    // The method's kind (neither: unary); `known` false: no schema says it yet (the fields are kept as they are).
    void setKind(const QString& method, bool clientStreams, bool serverStreams, bool known = true);
    bool streams() const { return m_client || m_server; }
    void setFields(const RequestItem& item);
    // Writes the fields that apply to the method's kind into `item`.
    void writeTo(RequestItem& item) const;
    QStringList messages() const;
    void addMessage(const QString& json);

Q_SIGNALS:
    void changed();

private:
    QLabel* m_kind;
    QPlainTextEdit* m_composer;
    QListWidget* m_messages;
    QWidget* m_sendPart;
    QSpinBox* m_receive;
    QLineEdit* m_match;
    QSpinBox* m_interval;
    QCheckBox* m_requestReply;
    bool m_client = false, m_server = false, m_known = false;
};
