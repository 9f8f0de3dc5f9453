#pragma once
// The request builder: method, URL (a curl command pasted into it is
// imported), headers, body, HTTP version; Send runs the request once off the
// GUI thread through the engine's HTTP/1.1 or HTTP/2 client and shows status,
// time, size, headers and the body (JSON pretty-printed). A request may be a
// gRPC call instead (GrpcRequestPane). Edits are reported as the request's JSON
// payload, which the main window writes to the project at once.
#include <QHash>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QTabWidget;
class KeyValueTable;
class GrpcRequestPane;

class RequestEditor : public QWidget
{
    Q_OBJECT
public:
    explicit RequestEditor(QWidget* parent = nullptr);

    void setRequestJson(const QByteArray& payload);
    QByteArray requestJson() const;
    // Values for ${name} when sending (the current environment).
    void setVariables(const QHash<QString, QString>& variables);

    bool importCurl(const QString& text, QString* error = nullptr);
    QString curlCommand() const;

    // What the response pane shows, for tests and accessibility.
    QString statusText() const;
    QString responseBody() const;

public Q_SLOTS:
    void send();

Q_SIGNALS:
    void requestChanged(const QByteArray& payload);
    void responseShown(int status);

private:
    void showResult(quint64 job, int status, const QString& summary, const QList<QPair<QString, QString>>& headers,
                    const QString& body, const QString& error);
    void updateVariableHints();
    QString expand(const QString& text) const;
    void emitChanged();
    void urlToParams();
    void paramsToUrl();
    void checkJson();
    // The body as sent, and the headers the body mode and the auth add.
    QByteArray bodyToSend(QList<QPair<QString, QString>>& extraHeaders) const;

public:
    enum BodyMode
    {
        Raw,
        Json,
        UrlEncoded,
        Multipart
    };
    void setBodyMode(BodyMode mode);

    QComboBox* m_kind; // HTTP or gRPC
    QStackedWidget* m_kindStack;
    GrpcRequestPane* m_grpc;
    QComboBox* m_httpVersion;
    QCheckBox* m_verify;
    QComboBox* m_method;
    QLineEdit* m_url;
    QPushButton* m_send;
    QLabel* m_hint;
    QTabWidget* m_requestTabs;
    KeyValueTable* m_params;
    KeyValueTable* m_headers;
    QComboBox* m_bodyMode;
    QStackedWidget* m_bodyStack;
    QPlainTextEdit* m_body;
    KeyValueTable* m_form;
    QLabel* m_jsonStatus;
    QComboBox* m_authType;
    QLineEdit* m_authUser;
    QLineEdit* m_authPassword;
    QLineEdit* m_authToken;
    QSpinBox* m_timeout;
    bool m_syncing = false;
    QLabel* m_status;
    QTabWidget* m_responseTabs;
    QPlainTextEdit* m_responseBody;
    KeyValueTable* m_responseHeaders;
    QHash<QString, QString> m_variables;
    quint64 m_job = 0;
    bool m_loading = false;
};
