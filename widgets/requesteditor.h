#pragma once
// The request builder: method, URL (a curl command pasted into it is
// imported), headers, body, HTTP version; Send sends the request once through
// a RequestSender (the engine renders and sends it off the GUI thread, as a
// run would) and shows status, time, size, headers and the body (JSON
// indented in its own key order). A
// request may be a gRPC call instead (GrpcRequestPane). The request itself is
// a RequestItem (models/requestitem.h); edits are reported as its JSON
// payload, which the main window writes to the project at once.
#include "jobrunner.h"
#include "requesthistory.h"
#include "requestitem.h"

#include <QHash>
#include <QJsonObject>
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
class WsRequestPane;
class SsePane;
class ChecksTable;
class ScriptsPane;
class RequestSender;
struct CheckAnswer;
struct SendAnswer;

// Asks whether to send a request whose ${names} nothing defines (sent, they
// would reach the server as the text ${…}); true: send it as it is.
bool sendUnknownAnyway(const RequestItem::Unknown& unknown, QWidget* parent);

class RequestEditor : public QWidget
{
    Q_OBJECT
public:
    explicit RequestEditor(QWidget* parent = nullptr);

    void setItem(const RequestItem& item);
    RequestItem item() const;
    void setRequestJson(const QByteArray& payload) { setItem(RequestItem::fromJson(payload)); }
    QByteArray requestJson() const { return item().toJson(); }
    // Values for ${name} when sending (the current environment).
    void setVariables(const QHash<QString, QString>& variables);
    // The project's folder: a form's file fields are chosen and read relative to it.
    void setBaseDir(const QString& dir);

    bool importCurl(const QString& text, QString* error = nullptr);
    // The request as a curl command, with the current variables, auth and body.
    QString curlCommand() const { return item().toCurl(m_variables, nullptr, m_baseDir); }

    // What the response pane shows, for tests and accessibility.
    QString statusText() const;
    QString responseBody() const;

public Q_SLOTS:
    void send();

Q_SIGNALS:
    void requestChanged(const QByteArray& payload);
    void responseShown(int status);
    // Each Send made (HTTP or gRPC), answered or not: for the project's history.
    void sent(const HistoryEntry& entry);
    // Values the Extract tab took from an answer: for the environment.
    void extracted(const QHash<QString, QString>& values);

private:
    void showResult(int status, const QString& summary, const QList<QPair<QString, QString>>& headers,
                    const QString& body, const QString& error);
    void updateVariableHints();
    void onAnswered(const SendAnswer& answer);
    void judge(const CheckAnswer& answer);
    void placeTests(int kind);
    void shareTestScript();
    void showScripts(const SendAnswer& answer);
    QTabWidget* tabsOf(int kind) const; // the request tabs of the kind (0 HTTP, 1 gRPC, 2 WebSocket, 3 SSE)
    void emitChanged();
    QWidget* bodyFilePage();
    void urlToParams();
    void paramsToUrl();
    void checkJson();

public:
    enum BodyMode
    {
        Raw,
        Json,
        UrlEncoded,
        Multipart,
        File
    };
    void setBodyMode(BodyMode mode);

private:
    QComboBox* m_kind; // HTTP or gRPC
    QStackedWidget* m_kindStack;
    GrpcRequestPane* m_grpc;
    WsRequestPane* m_ws;
    SsePane* m_sse;
    QComboBox* m_httpVersion;
    QCheckBox* m_verify;
    QComboBox* m_method;
    QLineEdit* m_url;
    QPushButton* m_send;
    QLabel* m_hint;
    QTabWidget* m_requestTabs;
    KeyValueTable* m_params;
    KeyValueTable* m_headers;
    bool m_rawChosen = false; // the user picked Raw for this body: a JSON body stays raw
    void jsonBodyIsJson();
    QComboBox* m_bodyMode;
    QStackedWidget* m_bodyStack;
    QPlainTextEdit* m_body;
    KeyValueTable* m_form;
    QLineEdit* m_bodyFile; // BodyMode File: the path
    QString m_baseDir;
    QLabel* m_jsonStatus;
    QComboBox* m_authType;
    QLineEdit* m_authUser;
    QLineEdit* m_authPassword;
    QLineEdit* m_authToken;
    // Postman's OAuth 1.0 helper (signed as newman signs it): its fields by Postman's names, and the helper's
    // stored object (fields not shown kept); a helper Stampede does not make (digest) is kept and named.
    QWidget* buildOAuth1();
    void updateAuth(); // the fields of the auth type chosen, and what is said of a helper kept
    void showOAuth1(const QJsonObject& helper);
    QJsonObject oauth1() const;
    QWidget* m_oauth1Box = nullptr;
    class DigestAuthBox* m_digest = nullptr;
    class QFormLayout* m_authForm = nullptr;
    QHash<QString, QLineEdit*> m_oauth1;
    class QComboBox* m_oauth1Method = nullptr;
    class QComboBox* m_oauth1Place = nullptr;
    class QCheckBox* m_oauth1Empty = nullptr;
    QJsonObject m_otherAuth;
    QJsonObject m_oauth1Helper; // the OAuth 1.0 helper as it came: fields the editor does not show are kept
    class QLabel* m_authNote = nullptr;
    QSpinBox* m_timeout;
    bool m_syncing = false;
    QLabel* m_status;
    QTabWidget* m_responseTabs;
    QPlainTextEdit* m_responseBody;
    KeyValueTable* m_responseHeaders;
    ChecksTable* m_checks;
    ChecksTable* m_extract;
    ScriptsPane* m_scripts;
    QHash<QString, QString> m_variables;
    RequestSender* m_sender;
    bool m_loading = false;
};
