#pragma once
// The request builder's Server-Sent Events side: a URL, headers, how many
// events to wait for (of which type), reconnects and a timeout. Send reads the
// stream once through the engine (send/sendonce.h: what a run's step reads)
// off the GUI thread and lists each event as it came: its time, id, type and
// data.
#include "checkrun.h"
#include "requesthistory.h"
#include "requestitem.h"

#include <QHash>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableWidget;
class KeyValueTable;
class RequestSender;
struct SendAnswer;

class SsePane : public QWidget
{
    Q_OBJECT
public:
    explicit SsePane(QWidget* parent = nullptr);

    void setItem(const RequestItem& item);
    RequestItem item() const;
    // The request's test script (the editor's Scripts tab): sent with it, run on its answer.
    void setTestScript(const QString& script) { m_testScript = script; }
    void setVariables(const QHash<QString, QString>& variables) { m_variables = variables; }
    QTabWidget* requestTabs() const { return m_tabs; }
    QString statusText() const;
    // The events as the list shows them: "12.0 ms  3  tick  {...}".
    QStringList eventLines() const;

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
    void showAnswer(const SendAnswer& a);
    void emitChanged();

    QLineEdit* m_url;
    QPushButton* m_send;
    QTabWidget* m_tabs;
    KeyValueTable* m_headers;
    QSpinBox* m_receive;
    QLineEdit* m_event;
    QSpinBox* m_reconnects;
    QSpinBox* m_timeout;
    QLabel* m_status;
    QTableWidget* m_events;
    QHash<QString, QString> m_variables;
    RequestSender* m_sender;
    bool m_loading = false;
};
