#pragma once
// The request builder's WebSocket side, as Postman's WebSocket request: a
// ws:// or wss:// URL, the messages to send (a composer and the list, each
// with ${…}), headers, the subprotocols offered, how many messages to await
// and whether each message waits for the reply to the one before. Send holds
// one conversation through the engine (send/sendonce.h: what a run's step
// sends) off the GUI thread and lists every message both ways with its time.
#include "checkrun.h"
#include "requesthistory.h"
#include "requestitem.h"

#include <QHash>
#include <QJsonArray>
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class MessageLog;
class KeyValueTable;
class RequestSender;
struct SendAnswer;

class WsRequestPane : public QWidget
{
    Q_OBJECT
public:
    explicit WsRequestPane(QWidget* parent = nullptr);

    void setItem(const RequestItem& item);
    RequestItem item() const;
    // The request's test script (the editor's Scripts tab): sent with it, run on its answer.
    void setTestScript(const QString& script) { m_testScript = script; }
    void setVariables(const QHash<QString, QString>& variables) { m_variables = variables; }
    // Adds a text message to send (the composer's Add).
    void addMessage(const QString& text);
    QTabWidget* requestTabs() const { return m_tabs; }
    QString statusText() const;
    // The conversation's messages as the log shows them: "↑ 1.2 ms hello".
    QStringList logLines() const;

public Q_SLOTS:
    void send();

Q_SIGNALS:
    void changed();
    void answered(const CheckAnswer& answer);
    void sent(const HistoryEntry& entry);
    // What the test script said of the answer (for the Scripts tab).
    void scripted(const SendAnswer& answer);

private:
    QString m_testScript;
    QWidget* buildMessages();
    void showAnswer(const SendAnswer& a);
    void emitChanged();

    QLineEdit* m_url;
    QPushButton* m_send;
    QTabWidget* m_tabs;
    QPlainTextEdit* m_composer;
    QListWidget* m_messages;
    KeyValueTable* m_headers;
    QLineEdit* m_protocols;
    QSpinBox* m_receive;
    QCheckBox* m_requestReply;
    QCheckBox* m_deflate;
    QSpinBox* m_timeout;
    QLabel* m_status;
    MessageLog* m_log;
    QJsonArray m_binary; // messages the list shows but the composer cannot make (binary), by row: {} for text
    QHash<QString, QString> m_variables;
    RequestSender* m_sender;
    bool m_loading = false;
};
