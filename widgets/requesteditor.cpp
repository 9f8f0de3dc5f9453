#include "requesteditor.h"
#include "splitterstate.h"

#include "digestauthbox.h"
#include "scriptspane.h"

#include "checkstable.h"

#include "grpcrequestpane.h"
#include "keyvaluetable.h"
#include "responseview.h"
#include "ssepane.h"
#include "wsrequestpane.h"

#include "jsontext.h"
#include "requestsender.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace {
const QStringList kCommonHeaders = {
    QStringLiteral("Accept"),          QStringLiteral("Accept-Encoding"), QStringLiteral("Accept-Language"),
    QStringLiteral("Authorization"),   QStringLiteral("Cache-Control"),   QStringLiteral("Content-Type"),
    QStringLiteral("Cookie"),          QStringLiteral("If-None-Match"),   QStringLiteral("Origin"),
    QStringLiteral("Referer"),         QStringLiteral("User-Agent"),      QStringLiteral("X-Request-Id"),
    QStringLiteral("X-Forwarded-For"), QStringLiteral("X-Stress-Tag")};
const QRegularExpression kVariable(QStringLiteral("\\$\\{([^}]+)\\}"));
} // namespace

RequestEditor::RequestEditor(QWidget* parent) : QWidget(parent)
{
    m_method = new QComboBox;
    m_method->addItems({QStringLiteral("GET"), QStringLiteral("POST"), QStringLiteral("PUT"), QStringLiteral("PATCH"),
                        QStringLiteral("DELETE"), QStringLiteral("HEAD"), QStringLiteral("OPTIONS")});
    m_method->setEditable(true);
    m_method->setToolTip(tr("HTTP method"));
    m_url = new QLineEdit;
    m_url->setObjectName(QStringLiteral("url"));
    m_url->setPlaceholderText(tr("https://host/path?query — ${variables} allowed; paste a curl command to import it"));
    m_url->setToolTip(tr("The request URL. ${name} takes its value from the current environment when sent.\n"
                         "Pasting a curl command here imports its method, URL, headers and body."));
    m_send = new QPushButton(tr("Send"));
    m_send->setToolTip(tr("Send the request once (Ctrl+Enter)"));
    m_send->setDefault(true);
    m_hint = new QLabel;
    m_hint->setObjectName(QStringLiteral("variableHint"));
    m_hint->setWordWrap(true);
    m_hint->setStyleSheet(QStringLiteral("color: #c0392b"));
    m_hint->hide();

    auto* line = new QHBoxLayout;
    line->addWidget(m_method);
    line->addWidget(m_url, 1);
    line->addWidget(m_send);

    m_headers = new KeyValueTable(tr("Header"), tr("Value"));
    m_headers->setObjectName(QStringLiteral("requestHeaders"));
    m_headers->setNameCompletions(kCommonHeaders);
    m_params = new KeyValueTable(tr("Parameter"), tr("Value"));
    m_params->setObjectName(QStringLiteral("queryParams"));
    m_params->setToolTip(tr("The URL's query parameters, kept in step with the URL"));
    m_body = new QPlainTextEdit;
    m_body->setObjectName(QStringLiteral("body"));
    m_body->setPlaceholderText(tr("Request body (raw text or JSON; ${variables} allowed)"));
    m_bodyMode = new QComboBox;
    m_bodyMode->setObjectName(QStringLiteral("bodyMode"));
    m_bodyMode->addItems({tr("Raw"), tr("JSON"), tr("Form (urlencoded)"), tr("Form (multipart)"), tr("File")});
    m_bodyMode->setToolTip(tr("JSON is checked as you type; the form modes encode the table below and set "
                              "Content-Type; File sends a file's bytes as they are"));
    auto* pretty = new QPushButton(tr("Pretty-print"));
    m_jsonStatus = new QLabel;
    m_form = new KeyValueTable(tr("Field"), tr("Value"));
    m_form->setObjectName(QStringLiteral("formFields"));
    m_form->enableFiles();
    m_form->setColumnHidden(2, true); // the File column: a multipart form's
    m_bodyStack = new QStackedWidget;
    m_bodyStack->addWidget(m_body);
    m_bodyStack->addWidget(m_form);
    m_bodyStack->addWidget(bodyFilePage());
    auto* bodyPage = new QWidget;
    auto* bl = new QVBoxLayout(bodyPage);
    auto* bodyBar = new QHBoxLayout;
    bodyBar->addWidget(m_bodyMode);
    bodyBar->addWidget(pretty);
    bodyBar->addWidget(m_jsonStatus, 1);
    bl->addLayout(bodyBar);
    bl->addWidget(m_bodyStack, 1);

    m_authType = new QComboBox;
    m_authType->addItems({tr("No auth"), tr("Basic"), tr("Bearer token"), tr("OAuth 1.0"), tr("Digest")});
    m_authUser = new QLineEdit;
    m_authPassword = new QLineEdit;
    m_authPassword->setEchoMode(QLineEdit::Password);
    m_authToken = new QLineEdit;
    m_authToken->setEchoMode(QLineEdit::Password);
    m_authToken->setPlaceholderText(tr("token, or ${variable}"));
    auto* authPage = new QWidget;
    auto* af = new QFormLayout(authPage);
    m_authForm = af;
    af->addRow(tr("Type:"), m_authType);
    af->addRow(tr("User:"), m_authUser);
    af->addRow(tr("Password:"), m_authPassword);
    af->addRow(tr("Token:"), m_authToken);
    af->addRow(buildOAuth1());
    m_digest = new DigestAuthBox;
    connect(m_digest, &DigestAuthBox::changed, this, &RequestEditor::emitChanged);
    af->addRow(m_digest);
    m_authNote = new QLabel;
    m_authNote->setObjectName(QStringLiteral("authNote"));
    m_authNote->setWordWrap(true);
    af->addRow(m_authNote);
    m_timeout = new QSpinBox;
    m_timeout->setRange(1, 3600);
    m_timeout->setValue(30);
    m_timeout->setSuffix(tr(" s"));
    m_timeout->setToolTip(tr("Give up when the whole response has not arrived in this time"));
    af->addRow(tr("Timeout:"), m_timeout);
    m_httpVersion = new QComboBox;
    m_httpVersion->setObjectName(QStringLiteral("httpVersion"));
    m_httpVersion->addItems({tr("Auto"), QStringLiteral("HTTP/1.1"), QStringLiteral("HTTP/2")});
    m_httpVersion->setToolTip(tr("Auto: HTTP/1.1 for http://, HTTP/2 over TLS for https://.\n"
                                 "HTTP/2 with http:// is h2c with prior knowledge."));
    af->addRow(tr("HTTP version:"), m_httpVersion);
    connect(m_httpVersion, &QComboBox::currentIndexChanged, this, &RequestEditor::emitChanged);
    m_verify = new QCheckBox(tr("Verify the server's certificate (https)"));
    m_verify->setObjectName(QStringLiteral("verifyTls"));
    m_verify->setChecked(true);
    m_verify->setToolTip(tr("Against the system's CAs, for the URL's host. Turn off for a server\n"
                            "with a self-signed or internal certificate."));
    af->addRow(QString(), m_verify);
    connect(m_verify, &QCheckBox::toggled, this, &RequestEditor::emitChanged);
    updateAuth();

    m_requestTabs = new QTabWidget;
    m_requestTabs->addTab(m_params, tr("Params"));
    m_requestTabs->addTab(m_headers, tr("Headers"));
    m_requestTabs->addTab(bodyPage, tr("Body"));
    auto* authScroll = new QScrollArea; // OAuth 1.0's fields are many: they scroll in a short window
    authScroll->setWidget(authPage);
    authScroll->setWidgetResizable(true);
    authScroll->setFrameShape(QFrame::NoFrame);
    m_requestTabs->addTab(authScroll, tr("Auth && options"));
    m_requestTabs->setCurrentIndex(1);
    m_checks = new ChecksTable(ChecksTable::Mode::Checks);
    m_checks->setObjectName(QStringLiteral("checks"));
    m_extract = new ChecksTable(ChecksTable::Mode::Extract);
    m_extract->setObjectName(QStringLiteral("extract"));
    m_scripts = new ScriptsPane; // every kind's (a stream's or a call's: its test script only)
    m_scripts->setObjectName(QStringLiteral("scripts"));
    placeTests(0);
    connect(m_scripts, &ScriptsPane::changed, this, [this] {
        shareTestScript();
        emitChanged();
    });
    connect(m_scripts, &ScriptsPane::titleChanged, this, [this](const QString& title) {
        QTabWidget* tabs = tabsOf(m_kind->currentIndex());
        tabs->setTabText(tabs->indexOf(m_scripts), title);
    });
    connect(m_checks, &ChecksTable::changed, this, &RequestEditor::emitChanged);
    connect(m_extract, &ChecksTable::changed, this, &RequestEditor::emitChanged);

    connect(pretty, &QPushButton::clicked, this, [this] {
        // whitespace only: the keys stay in the order written, every value as it is
        if (const QString indented = indentedJson(m_body->toPlainText().toUtf8()); !indented.isNull())
            m_body->setPlainText(indented);
    });
    connect(m_bodyMode, &QComboBox::currentIndexChanged, this, [this, pretty](int mode) {
        m_bodyStack->setCurrentIndex(mode == File ? 2 : mode >= UrlEncoded ? 1 : 0);
        pretty->setVisible(mode == Raw || mode == Json); // text to indent: not a form's table or a file
        m_form->setColumnHidden(2, mode != Multipart);
        checkJson();
        emitChanged();
    });
    connect(m_form, &KeyValueTable::pairsChanged, this, &RequestEditor::emitChanged);
    connect(m_params, &KeyValueTable::pairsChanged, this, [this] {
        paramsToUrl();
        emitChanged();
    });
    connect(m_authType, &QComboBox::currentIndexChanged, this, [this] {
        updateAuth();
        emitChanged();
    });
    for (QLineEdit* e : {m_authUser, m_authPassword, m_authToken})
        connect(e, &QLineEdit::textEdited, this, &RequestEditor::emitChanged);
    connect(m_timeout, &QSpinBox::valueChanged, this, &RequestEditor::emitChanged);

    const ResponseView response = ResponseView::make(tr("Response body"));
    m_status = response.status;
    m_responseBody = response.body;
    m_responseHeaders = response.headers;
    m_responseTabs = response.tabs;

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_requestTabs);
    split->addWidget(response.widget);
    split->setStretchFactor(1, 1);
    splitterstate::remember(split, QStringLiteral("request"));

    auto* httpPage = new QWidget;
    auto* hl = new QVBoxLayout(httpPage);
    hl->setContentsMargins(0, 0, 0, 0);
    hl->addLayout(line);
    hl->addWidget(m_hint);
    hl->addWidget(split, 1);
    m_grpc = new GrpcRequestPane;
    m_kindStack = new QStackedWidget;
    m_kindStack->addWidget(httpPage);
    m_kindStack->addWidget(m_grpc);
    m_ws = new WsRequestPane;
    m_kindStack->addWidget(m_ws);
    m_sse = new SsePane;
    m_kindStack->addWidget(m_sse);
    m_kind = new QComboBox;
    m_kind->setObjectName(QStringLiteral("requestKind"));
    m_kind->addItems(
        {QStringLiteral("HTTP"), QStringLiteral("gRPC"), QStringLiteral("WebSocket"), QStringLiteral("SSE")});
    m_kind->setToolTip(tr("An HTTP request, a gRPC unary call described by .proto files, a WebSocket "
                          "conversation, or a Server-Sent Events stream"));
    auto* kindLine = new QHBoxLayout;
    kindLine->addWidget(new QLabel(tr("Protocol:")));
    kindLine->addWidget(m_kind);
    kindLine->addStretch(1);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this](int kind) {
        m_kindStack->setCurrentIndex(kind);
        placeTests(kind);
        emitChanged();
    });
    connect(m_ws, &WsRequestPane::changed, this, &RequestEditor::emitChanged);
    connect(m_ws, &WsRequestPane::answered, this, &RequestEditor::judge);
    connect(m_ws, &WsRequestPane::sent, this, &RequestEditor::sent);
    connect(m_ws, &WsRequestPane::scripted, this, &RequestEditor::showScripts);
    connect(m_sse, &SsePane::scripted, this, &RequestEditor::showScripts);
    connect(m_grpc, &GrpcRequestPane::scripted, this, &RequestEditor::showScripts);
    connect(m_sse, &SsePane::changed, this, &RequestEditor::emitChanged);
    connect(m_sse, &SsePane::answered, this, &RequestEditor::judge);
    connect(m_sse, &SsePane::sent, this, &RequestEditor::sent);
    connect(m_grpc, &GrpcRequestPane::changed, this, &RequestEditor::emitChanged);
    connect(m_grpc, &GrpcRequestPane::answered, this, &RequestEditor::judge);
    connect(m_grpc, &GrpcRequestPane::responseShown, this, &RequestEditor::responseShown);
    connect(m_grpc, &GrpcRequestPane::sent, this, &RequestEditor::sent);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(kindLine);
    layout->addWidget(m_kindStack, 1);

    m_sender = new RequestSender(this);
    connect(m_sender, &RequestSender::answered, this, &RequestEditor::onAnswered);
    connect(m_send, &QPushButton::clicked, this, &RequestEditor::send);
    connect(m_url, &QLineEdit::returnPressed, this, &RequestEditor::send);
    connect(m_url, &QLineEdit::textEdited, this, [this](const QString& text) {
        if (text.trimmed().startsWith(QLatin1String("curl "))) {
            QString error;
            if (!importCurl(text, &error)) {
                m_hint->setText(tr("Not imported: %1").arg(error));
                m_hint->show();
            }
            return;
        }
        updateVariableHints();
        urlToParams();
        emitChanged();
    });
    connect(m_method, &QComboBox::currentTextChanged, this, &RequestEditor::emitChanged);
    connect(m_headers, &KeyValueTable::pairsChanged, this, &RequestEditor::emitChanged);
    connect(m_body, &QPlainTextEdit::textChanged, this, [this] {
        jsonBodyIsJson();
        checkJson();
        emitChanged();
    });
    // the user's own pick of Raw stands: a JSON body is then sent as the user typed it, with the headers written
    connect(m_bodyMode, &QComboBox::activated, this, [this](int mode) { m_rawChosen = mode == Raw; });
    // every field that may hold a ${name} is checked as it changes
    connect(m_headers, &KeyValueTable::pairsChanged, this, &RequestEditor::updateVariableHints);
    connect(m_form, &KeyValueTable::pairsChanged, this, &RequestEditor::updateVariableHints);
    connect(m_body, &QPlainTextEdit::textChanged, this, &RequestEditor::updateVariableHints);
    for (QLineEdit* e : {m_authUser, m_authPassword, m_authToken})
        connect(e, &QLineEdit::textChanged, this, &RequestEditor::updateVariableHints);
    connect(m_authType, &QComboBox::currentIndexChanged, this, &RequestEditor::updateVariableHints);
    connect(m_bodyMode, &QComboBox::currentIndexChanged, this, &RequestEditor::updateVariableHints);
}

void RequestEditor::setBodyMode(BodyMode mode)
{
    m_bodyMode->setCurrentIndex(int(mode));
}

// A JSON object or array typed (or pasted) into a Raw body with no Content-Type written goes as Postman's JSON body
// goes: the mode turns to JSON (shown, and saved), so it is sent as application/json. Not when the user picked Raw.
void RequestEditor::jsonBodyIsJson()
{
    if (m_bodyMode->currentIndex() != Raw || m_rawChosen || m_loading)
        return;
    const QString body = m_body->toPlainText().trimmed();
    if (!body.startsWith(QLatin1Char('{')) && !body.startsWith(QLatin1Char('[')))
        return;
    for (const auto& [name, value] : m_headers->pairs())
        if (name.trimmed().compare(QLatin1String("content-type"), Qt::CaseInsensitive) == 0)
            return;
    QString text = body;
    text.replace(kVariable, QStringLiteral("0")); // ${variables} where values go
    QJsonParseError e;
    QJsonDocument::fromJson(text.toUtf8(), &e);
    if (e.error == QJsonParseError::NoError)
        m_bodyMode->setCurrentIndex(Json);
}

void RequestEditor::checkJson()
{
    if (m_bodyMode->currentIndex() != Json || m_body->toPlainText().trimmed().isEmpty()) {
        m_jsonStatus->clear();
        return;
    }
    // ${variables} may stand where JSON values go: check with them replaced by a number
    QString text = m_body->toPlainText();
    text.replace(kVariable, QStringLiteral("0"));
    QJsonParseError e;
    QJsonDocument::fromJson(text.toUtf8(), &e);
    if (e.error == QJsonParseError::NoError) {
        m_jsonStatus->setText(tr("valid JSON"));
        m_jsonStatus->setStyleSheet(QStringLiteral("color: #1e8449"));
    } else {
        m_jsonStatus->setText(tr("not valid JSON at offset %1: %2").arg(e.offset).arg(e.errorString()));
        m_jsonStatus->setStyleSheet(QStringLiteral("color: #c0392b"));
    }
}

void RequestEditor::urlToParams()
{
    if (m_syncing)
        return;
    m_syncing = true;
    QList<QPair<QString, QString>> pairs;
    const QString url = m_url->text();
    const qsizetype q = url.indexOf(QLatin1Char('?'));
    if (q >= 0) {
        const QString query = url.mid(q + 1).section(QLatin1Char('#'), 0, 0);
        for (const QString& part : query.split(QLatin1Char('&'), Qt::SkipEmptyParts)) {
            const qsizetype eq = part.indexOf(QLatin1Char('='));
            pairs.append({QUrl::fromPercentEncoding(part.left(eq).toUtf8()),
                          eq < 0 ? QString() : QUrl::fromPercentEncoding(part.mid(eq + 1).toUtf8())});
        }
    }
    m_params->setPairs(pairs);
    m_syncing = false;
}

void RequestEditor::paramsToUrl()
{
    if (m_syncing)
        return;
    m_syncing = true;
    QString url = m_url->text();
    const qsizetype q = url.indexOf(QLatin1Char('?'));
    if (q >= 0)
        url.truncate(q);
    QStringList parts;
    // ${...} stays readable in the URL; everything else is percent-encoded
    auto enc = [](const QString& s) { return QString::fromUtf8(QUrl::toPercentEncoding(s, "${}.")); };
    for (const auto& [n, v] : m_params->pairs())
        parts << (v.isEmpty() ? enc(n) : enc(n) + QLatin1Char('=') + enc(v));
    if (!parts.isEmpty())
        url += QLatin1Char('?') + parts.join(QLatin1Char('&'));
    m_url->setText(url);
    updateVariableHints();
    m_syncing = false;
}

void RequestEditor::emitChanged()
{
    if (!m_loading)
        Q_EMIT requestChanged(requestJson());
}

void RequestEditor::setItem(const RequestItem& r)
{
    m_loading = true;
    // a body stored raw stays raw (an imported collection's is sent as Postman sends it); an empty one may turn JSON
    m_rawChosen = r.bodyMode == RequestItem::BodyMode::Raw && !r.body.trimmed().isEmpty();
    const bool grpc = r.kind == RequestItem::Kind::Grpc;
    const int kind = grpc                                       ? 1
                     : r.kind == RequestItem::Kind::WebSocket   ? 2
                     : r.kind == RequestItem::Kind::EventStream ? 3
                                                                : 0;
    m_kind->setCurrentIndex(kind);
    m_kindStack->setCurrentIndex(kind);
    placeTests(kind);
    m_scripts->setScripts(r.preRequestScript, r.testScript);
    shareTestScript();
    m_checks->setRules(r.checks);
    m_extract->setRules(r.extract);
    m_checks->showResults(nullptr);
    m_extract->showResults(nullptr);
    if (kind != 0) {
        if (grpc)
            m_grpc->setItem(r);
        else if (kind == 2)
            m_ws->setItem(r);
        else
            m_sse->setItem(r);
        m_loading = false;
        return;
    }
    m_verify->setChecked(!r.insecure);
    m_httpVersion->setCurrentIndex(int(r.version));
    m_method->setCurrentText(r.method);
    m_url->setText(r.url);
    m_headers->setPairs(r.headers);
    m_body->setPlainText(r.body);
    m_bodyMode->setCurrentIndex(int(r.bodyMode));
    RequestItem::Pairs form = r.form; // a file field shows its paths as its value
    for (auto it = r.formFiles.begin(); it != r.formFiles.end(); ++it)
        if (it.key() >= 0 && it.key() < form.size())
            form[it.key()].second = it.value().join(QLatin1Char(';'));
    m_form->setPairs(form);
    m_form->setFileRows(r.formFiles.keys());
    m_bodyFile->setText(r.bodyFile);
    m_otherAuth = r.auth == RequestItem::Auth::None ? r.otherAuth : QJsonObject();
    showOAuth1(r.auth == RequestItem::Auth::OAuth1 ? r.otherAuth : QJsonObject());
    m_digest->setHelper(r.auth == RequestItem::Auth::Digest ? r.otherAuth : QJsonObject());
    m_authType->setCurrentIndex(int(r.auth));
    updateAuth();
    m_authUser->setText(r.user);
    m_authPassword->setText(r.password);
    m_authToken->setText(r.token);
    m_timeout->setValue(r.timeoutMs / 1000);
    urlToParams();
    m_loading = false;
    updateVariableHints();
    checkJson();
}

void RequestEditor::updateAuth()
{
    const int t = m_authType->currentIndex();
    m_authUser->setEnabled(t == 1);
    m_authPassword->setEnabled(t == 1);
    m_authToken->setEnabled(t == 2);
    // the fields of the type chosen (none for No auth: the rows of Basic and Bearer stay, greyed, to show them)
    const bool helper = t == int(RequestItem::Auth::OAuth1) || t == int(RequestItem::Auth::Digest);
    m_authForm->setRowVisible(m_authUser, !helper);
    m_authForm->setRowVisible(m_authPassword, !helper);
    m_authForm->setRowVisible(m_authToken, !helper);
    m_authForm->setRowVisible(m_oauth1Box, t == int(RequestItem::Auth::OAuth1));
    m_authForm->setRowVisible(m_digest, t == int(RequestItem::Auth::Digest));
    // a helper Stampede does not make is kept as it came, and said so
    const QString other = m_otherAuth.value(QStringLiteral("type")).toString();
    m_authNote->setText(t == 0 && !other.isEmpty()
                            ? tr("This request has Postman's \"%1\" auth helper, which Stampede does not make: "
                                 "it is kept as it came (and exported back), and the request is sent without it.")
                                  .arg(other)
                            : QString());
    m_authNote->setVisible(!m_authNote->text().isEmpty());
}

QWidget* RequestEditor::buildOAuth1()
{
    auto* box = new QGroupBox(tr("OAuth 1.0"));
    box->setObjectName(QStringLiteral("oauth1"));
    auto* form = new QFormLayout(box);
    const struct
    {
        const char* field;
        const char* label;
        const char* tip;
        bool secret;
    } rows[] = {
        {"consumerKey", QT_TR_NOOP("Consumer key:"), nullptr, false},
        {"consumerSecret", QT_TR_NOOP("Consumer secret:"), nullptr, true},
        {"token", QT_TR_NOOP("Access token:"), nullptr, false},
        {"tokenSecret", QT_TR_NOOP("Token secret:"), nullptr, true},
        {"realm", QT_TR_NOOP("Realm:"), QT_TR_NOOP("Sent in the Authorization header, not signed"), false},
        {"timestamp", QT_TR_NOOP("Timestamp:"), QT_TR_NOOP("Empty: the time of each send"), false},
        {"nonce", QT_TR_NOOP("Nonce:"), QT_TR_NOOP("Empty: a fresh random one for each send"), false},
        {"version", QT_TR_NOOP("Version:"), QT_TR_NOOP("Empty: 1.0"), false},
        {"callback", QT_TR_NOOP("Callback URL:"), nullptr, false},
        {"verifier", QT_TR_NOOP("Verifier:"), nullptr, false},
    };
    for (const auto& row : rows) {
        auto* e = new QLineEdit;
        e->setObjectName(QStringLiteral("oauth1_") + QLatin1String(row.field));
        e->setPlaceholderText(tr("value, or ${variable}"));
        if (row.secret)
            e->setEchoMode(QLineEdit::Password);
        if (row.tip)
            e->setToolTip(tr(row.tip));
        m_oauth1.insert(QLatin1String(row.field), e);
        connect(e, &QLineEdit::textEdited, this, &RequestEditor::emitChanged);
        if (QLatin1String(row.field) == QLatin1String("realm")) { // the signing's own choices before the rest
            m_oauth1Method = new QComboBox;
            m_oauth1Method->setObjectName(QStringLiteral("oauth1_signatureMethod"));
            m_oauth1Method->addItems(
                {QStringLiteral("HMAC-SHA1"), QStringLiteral("HMAC-SHA256"), QStringLiteral("PLAINTEXT")});
            form->addRow(tr("Signature method:"), m_oauth1Method);
            m_oauth1Place = new QComboBox;
            m_oauth1Place->setObjectName(QStringLiteral("oauth1_addParamsToHeader"));
            m_oauth1Place->addItems({tr("Authorization header"), tr("URL query")});
            m_oauth1Place->setToolTip(tr("Where the oauth_ parameters and the signature go"));
            form->addRow(tr("Add to:"), m_oauth1Place);
        }
        form->addRow(tr(row.label), e);
    }
    m_oauth1Empty = new QCheckBox(tr("Sign empty parameters too"));
    m_oauth1Empty->setObjectName(QStringLiteral("oauth1_addEmptyParamsToSign"));
    form->addRow(QString(), m_oauth1Empty);
    connect(m_oauth1Method, &QComboBox::currentIndexChanged, this, &RequestEditor::emitChanged);
    connect(m_oauth1Place, &QComboBox::currentIndexChanged, this, &RequestEditor::emitChanged);
    connect(m_oauth1Empty, &QCheckBox::toggled, this, &RequestEditor::emitChanged);
    m_oauth1Box = box;
    return box;
}

// Postman stores the two switches as booleans, or as the text "true" (an older export).
static bool isTrue(const QJsonValue& v)
{
    return v.isBool() ? v.toBool() : v.toString() == QLatin1String("true");
}

void RequestEditor::showOAuth1(const QJsonObject& helper)
{
    m_oauth1Helper = helper;
    for (auto it = m_oauth1.begin(); it != m_oauth1.end(); ++it)
        it.value()->setText(helper.value(it.key()).toString());
    const int method = m_oauth1Method->findText(helper.value(QStringLiteral("signatureMethod")).toString());
    m_oauth1Method->setCurrentIndex(std::max(0, method));
    // Postman's default is the header
    const QJsonValue toHeader = helper.value(QStringLiteral("addParamsToHeader"));
    m_oauth1Place->setCurrentIndex(toHeader.isUndefined() || isTrue(toHeader) ? 0 : 1);
    m_oauth1Empty->setChecked(isTrue(helper.value(QStringLiteral("addEmptyParamsToSign"))));
}

QJsonObject RequestEditor::oauth1() const
{
    QJsonObject o = m_oauth1Helper; // what it does not show is kept
    o[QStringLiteral("type")] = QStringLiteral("oauth1");
    for (auto it = m_oauth1.begin(); it != m_oauth1.end(); ++it) {
        if (it.value()->text().isEmpty())
            o.remove(it.key());
        else
            o[it.key()] = it.value()->text();
    }
    o[QStringLiteral("signatureMethod")] = m_oauth1Method->currentText();
    o[QStringLiteral("addParamsToHeader")] = m_oauth1Place->currentIndex() == 0;
    o[QStringLiteral("addEmptyParamsToSign")] = m_oauth1Empty->isChecked();
    return o;
}

RequestItem RequestEditor::item() const
{
    const int kind = m_kind->currentIndex();
    RequestItem r = kind == 1 ? m_grpc->item() : kind == 2 ? m_ws->item() : kind == 3 ? m_sse->item() : RequestItem();
    r.checks = m_checks->rules();
    r.extract = m_extract->rules();
    if (kind != 0)
        return r; // its test script the pane's (shareTestScript)
    r.method = m_method->currentText().trimmed().toUpper();
    r.url = m_url->text().trimmed();
    r.preRequestScript = m_scripts->preRequestScript();
    r.testScript = m_scripts->testScript();
    r.headers = m_headers->pairs();
    r.body = m_body->toPlainText();
    r.bodyMode = RequestItem::BodyMode(m_bodyMode->currentIndex());
    r.form = m_form->pairs();
    if (r.bodyMode == RequestItem::BodyMode::File)
        r.bodyFile = m_bodyFile->text().trimmed();
    if (r.bodyMode == RequestItem::BodyMode::Multipart)
        for (int i : m_form->fileRows()) {
            r.formFiles.insert(i, KeyValueTable::splitPaths(r.form[i].second));
            r.form[i].second.clear();
        }
    r.auth = RequestItem::Auth(m_authType->currentIndex());
    if (r.auth == RequestItem::Auth::Basic) {
        r.user = m_authUser->text();
        r.password = m_authPassword->text();
    } else if (r.auth == RequestItem::Auth::Bearer) {
        r.token = m_authToken->text();
    } else if (r.auth == RequestItem::Auth::OAuth1) {
        r.otherAuth = oauth1();
    } else if (r.auth == RequestItem::Auth::Digest) {
        r.otherAuth = m_digest->helper();
    } else {
        r.otherAuth = m_otherAuth; // a helper Stampede does not make: kept as it came
    }
    r.timeoutMs = m_timeout->value() * 1000;
    r.insecure = !m_verify->isChecked();
    r.version = RequestItem::Version(m_httpVersion->currentIndex());
    return r;
}

void RequestEditor::setVariables(const QHash<QString, QString>& variables)
{
    m_variables = variables;
    m_grpc->setVariables(variables);
    m_ws->setVariables(variables);
    m_sse->setVariables(variables);
    updateVariableHints();
}

void RequestEditor::updateVariableHints()
{
    // each field on its own: the one that holds an unknown name turns red
    const RequestItem::Unknown u = item().unknown(m_variables);
    const QString red = QStringLiteral("color: #c0392b;");
    const auto tip = [this](const QStringList& names, const QString& otherwise) {
        return names.isEmpty() ? otherwise
                               : tr("Not defined in the environment, the data sets or the scenarios: ${%1}")
                                     .arg(names.join(QStringLiteral("}, ${")));
    };
    m_url->setStyleSheet(u.url.isEmpty() ? QString() : QStringLiteral("QLineEdit { %1 }").arg(red));
    m_url->setToolTip(
        tip(u.url, tr("The request URL. ${name} takes its value from the current environment when sent.")));
    m_body->setStyleSheet(u.body.isEmpty() ? QString()
                                           : QStringLiteral("QPlainTextEdit { border: 1px solid #c0392b; }"));
    m_body->setToolTip(tip(u.body, QString()));
    m_headers->markUnknown(m_variables);
    m_form->markUnknown(m_variables);
    QList<QLineEdit*> authFields = {m_authUser, m_authPassword, m_authToken};
    authFields += m_oauth1.values();
    for (QLineEdit* e : authFields) {
        const QStringList names = RequestItem::unknownNames(e->text(), m_variables);
        e->setStyleSheet(names.isEmpty() ? QString() : QStringLiteral("QLineEdit { %1 }").arg(red));
        e->setToolTip(tip(names, QString()));
    }
    if (u.isEmpty()) {
        m_hint->hide();
        return;
    }
    m_hint->setText(tr("Unknown variables: %1 (define them in the current environment)").arg(u.describe()));
    m_hint->show();
}

bool RequestEditor::importCurl(const QString& text, QString* error)
{
    QStringList notTaken;
    const std::optional<RequestItem> r = RequestItem::fromCurl(text, error, &notTaken);
    if (!r)
        return false;
    RequestItem merged = *r;
    merged.checks = m_checks->rules();
    merged.extract = m_extract->rules();
    merged.preRequestScript = m_scripts->preRequestScript();
    merged.testScript = m_scripts->testScript();
    setItem(merged);
    if (!notTaken.isEmpty()) {
        m_hint->setText(tr("Imported; not taken: %1").arg(notTaken.join(QStringLiteral(", "))));
        m_hint->show();
    }
    emitChanged();
    return true;
}

bool sendUnknownAnyway(const RequestItem::Unknown& unknown, QWidget* parent)
{
    QMessageBox box(QMessageBox::Warning, RequestEditor::tr("Send"),
                    RequestEditor::tr("This request uses names that nothing defines: %1.").arg(unknown.describe()),
                    QMessageBox::Cancel, parent);
    box.setInformativeText(
        RequestEditor::tr("Define them in the current environment, a data set or a scenario; sent now, the server "
                          "gets the text ${…} as it is."));
    QPushButton* anyway = box.addButton(RequestEditor::tr("Send as it is"), QMessageBox::AcceptRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == anyway;
}

// The File body mode's page: the path, and a button that chooses it.
QWidget* RequestEditor::bodyFilePage()
{
    m_bodyFile = new QLineEdit;
    m_bodyFile->setObjectName(QStringLiteral("bodyFile"));
    m_bodyFile->setPlaceholderText(tr("The file whose bytes are the body"));
    m_bodyFile->setToolTip(tr("Relative to the project's folder, or absolute. Read when the request is sent or the "
                              "run starts and sent as it is (nothing in it expanded), with a Content-Type from its "
                              "extension unless the headers have one"));
    auto* choose = new QPushButton(tr("Choose…"));
    auto* page = new QWidget;
    auto* layout = new QHBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_bodyFile, 1);
    layout->addWidget(choose);
    layout->setAlignment(Qt::AlignTop);
    connect(choose, &QPushButton::clicked, this, [this] {
        const QString chosen = QFileDialog::getOpenFileName(this, tr("Body file"), m_baseDir);
        if (!chosen.isEmpty())
            m_bodyFile->setText(KeyValueTable::pathFrom(m_baseDir, chosen));
    });
    connect(m_bodyFile, &QLineEdit::textChanged, this, &RequestEditor::emitChanged);
    return page;
}

void RequestEditor::setBaseDir(const QString& dir)
{
    m_baseDir = dir;
    m_form->setFileBase(dir);
    m_sender->setBaseDir(dir);
}

void RequestEditor::send()
{
    if (m_kind->currentIndex() == 1) {
        m_grpc->send();
        return;
    }
    if (m_kind->currentIndex() == 2) {
        m_ws->send();
        return;
    }
    if (m_kind->currentIndex() == 3) {
        m_sse->send();
        return;
    }
    const RequestItem request = item();
    if (const RequestItem::Unknown u = request.unknown(m_variables); !u.isEmpty() && !sendUnknownAnyway(u, this))
        return;
    m_status->setText(tr("Sending…"));
    m_send->setEnabled(false);
    m_sender->send(request, m_variables);
}

void RequestEditor::onAnswered(const SendAnswer& a)
{
    Q_EMIT sent(a.entry);
    showResult(a.status, a.line, a.headers, a.body, a.error);
    showScripts(a);
    if (a.error.isEmpty())
        judge(a.answer);
}

QTabWidget* RequestEditor::tabsOf(int kind) const
{
    return kind == 1   ? m_grpc->requestTabs()
           : kind == 2 ? m_ws->requestTabs()
           : kind == 3 ? m_sse->requestTabs()
                       : m_requestTabs;
}

// The Checks, Extract and Scripts tabs go with the protocol's own request tabs.
void RequestEditor::placeTests(int kind)
{
    QTabWidget* tabs = tabsOf(kind);
    for (QWidget* t : std::initializer_list<QWidget*>{m_checks, m_extract, m_scripts})
        if (auto* old = qobject_cast<QTabWidget*>(t->parentWidget() ? t->parentWidget()->parentWidget() : nullptr);
            old && old != tabs)
            old->removeTab(old->indexOf(t));
    if (tabs->indexOf(m_checks) < 0)
        tabs->addTab(m_checks, tr("Checks"));
    if (tabs->indexOf(m_extract) < 0)
        tabs->addTab(m_extract, tr("Extract"));
    if (tabs->indexOf(m_scripts) < 0)
        tabs->addTab(m_scripts, m_scripts->title());
    m_scripts->setKind(kind);
}

// The test script as the stream and call panes send it.
void RequestEditor::shareTestScript()
{
    const QString test = m_scripts->testScript();
    m_grpc->setTestScript(test);
    m_ws->setTestScript(test);
    m_sse->setTestScript(test);
}

// What a Send's scripts said: in the Scripts tab (shown when one failed), what they set into the environment.
void RequestEditor::showScripts(const SendAnswer& a)
{
    m_scripts->showResults(a);
    if (!a.scriptError.isEmpty() ||
        std::any_of(a.tests.begin(), a.tests.end(), [](const auto& t) { return !t.passed; }))
        tabsOf(m_kind->currentIndex())->setCurrentWidget(m_scripts); // what failed is what the answer has to say
    if (!a.scriptSet.isEmpty())
        Q_EMIT extracted(a.scriptSet); // into the environment, as Postman's pm.environment.set
}

// The answer judged by the request's checks, the extracted values shown and
// handed on (the main window puts them in the environment, as Postman does).
void RequestEditor::judge(const CheckAnswer& answer)
{
    const RequestItem r = item();
    if (r.checks.isEmpty() && r.extract.isEmpty()) {
        m_checks->showResults(nullptr);
        m_extract->showResults(nullptr);
        return;
    }
    const CheckRun run = runChecks(r.checks, r.extract, answer);
    m_checks->showResults(&run);
    m_extract->showResults(&run);
    int passed = 0;
    for (const auto& c : run.checks)
        passed += c.passed;
    QTabWidget* tabs = tabsOf(m_kind->currentIndex());
    tabs->setTabText(tabs->indexOf(m_checks),
                     run.checks.isEmpty() ? tr("Checks") : tr("Checks (%1/%2)").arg(passed).arg(run.checks.size()));
    if (passed < run.checks.size() || !run.errors.isEmpty())
        tabs->setCurrentWidget(m_checks); // a failed check is what the answer has to say
    QHash<QString, QString> values;
    for (const auto& x : run.extracted)
        if (x.found)
            values.insert(x.name, x.value);
    if (!values.isEmpty())
        Q_EMIT extracted(values);
}

void RequestEditor::showResult(int status, const QString& summary, const QList<QPair<QString, QString>>& headers,
                               const QString& body, const QString& error)
{
    m_send->setEnabled(true);
    if (!error.isEmpty()) {
        m_status->setText(tr("Failed: %1").arg(error));
        m_status->setStyleSheet(QStringLiteral("color: #c0392b"));
        m_responseBody->clear();
        m_responseHeaders->setPairs({});
        return;
    }
    m_status->setText(summary);
    m_status->setStyleSheet(status < 400 ? QStringLiteral("color: #1e8449") : QStringLiteral("color: #c0392b"));
    m_responseBody->setPlainText(body);
    m_responseHeaders->setPairs(headers);
    Q_EMIT responseShown(status);
}

QString RequestEditor::statusText() const
{
    return m_status->text();
}

QString RequestEditor::responseBody() const
{
    return m_responseBody->toPlainText();
}
