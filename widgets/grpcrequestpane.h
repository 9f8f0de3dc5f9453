#pragma once
#include "checkrun.h"
// The request builder's gRPC side: a target, a method picked from the
// request's schema (.proto files imported into the project, kept as
// descriptors, or fetched by server reflection), the request message as JSON
// (pre-filled with the message's fields), metadata and a deadline; for a
// streaming method, the messages after it and what the call waits for (the
// Stream tab). Send calls the method once off the GUI thread and shows the
// answer as JSON, the status, the headers and trailers, and a streaming
// call's messages both ways with their times.
#include "grpcschema.h"
#include "jobrunner.h"
#include "requesthistory.h"
#include "requestitem.h"

#include <QHash>
#include <QWidget>

#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class KeyValueTable;
class GrpcStreamBox;
class MessageLog;

class RequestSender;
struct SendAnswer;

class GrpcRequestPane : public QWidget
{
    Q_OBJECT
public:
    explicit GrpcRequestPane(QWidget* parent = nullptr);
    ~GrpcRequestPane() override;

    // The request item's gRPC fields.
    void setItem(const RequestItem& item);
    RequestItem item() const;
    // The request's test script (the editor's Scripts tab): sent with it, run on its answer.
    void setTestScript(const QString& script) { m_testScript = script; }
    void setVariables(const QHash<QString, QString>& variables);

    // Imports .proto files as the request's schema; false with the error
    // (file:line:column) shown and returned.
    bool importProtos(const QStringList& files, QString* error = nullptr);
    // Fetches the schema from the target's reflection service, off the GUI thread.
    void fetchByReflection();
    QStringList methods() const;
    void setMethod(const QString& method);
    // Fills the message editor with the request type's fields.
    void fillSkeleton();

    QString statusText() const;
    QString responseBody() const;
    QString schemaText() const;
    QList<QPair<QString, QString>> trailers() const;
    // A streaming call's messages both ways as the Messages tab lists them ("↑ 0.1 ms {...}").
    QStringList messageLines() const;
    GrpcStreamBox* streamBox() const { return m_stream; }

public Q_SLOTS:
    void send();
    // Where the request's tabs are (the builder adds its Checks and Extract tabs).
    QTabWidget* requestTabs() const { return m_tabs; }

Q_SIGNALS:
    void changed();
    void responseShown(int grpcStatus);
    // An answer arrived (for the builder's checks): its status, headers and trailers, the message as JSON.
    void answered(const CheckAnswer& answer);
    void schemaLoaded(bool ok);
    // Each call made, answered or not: for the project's history.
    void sent(const HistoryEntry& entry);
    // What the test script said of the answer (for the Scripts tab).
    void scripted(const SendAnswer& answer);

private:
    QString m_testScript;
    void markUnknown();
    void setSchema(std::optional<GrpcSchema> schema, const QString& source);
    void showAnswer(const SendAnswer& a);
    void emitChanged();
    void updateKind();
    QWidget* buildSchemaPage();
    QString target() const;

    QLineEdit* m_target;
    QComboBox* m_method;
    QPushButton* m_send;
    QTabWidget* m_tabs;
    QPlainTextEdit* m_data;
    KeyValueTable* m_metadata;
    QLabel* m_schemaLabel;
    QSpinBox* m_deadline;
    QCheckBox* m_verify;
    QLabel* m_status;
    QTabWidget* m_responseTabs;
    QPlainTextEdit* m_responseBody;
    KeyValueTable* m_responseHeaders;
    KeyValueTable* m_responseTrailers;
    GrpcStreamBox* m_stream;
    MessageLog* m_log;
    QHash<QString, QString> m_variables;
    std::optional<GrpcSchema> m_schema;
    QByteArray m_descriptors;
    QString m_schemaSource;       // "protos: a.proto, b.proto" or "reflection: host:port"
    RequestSender* m_sender;      // Send
    JobRunner m_reflection{this}; // fetching descriptors
    bool m_loading = false;
};
