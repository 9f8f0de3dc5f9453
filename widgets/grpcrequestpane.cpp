#include "grpcrequestpane.h"

#include "requesteditor.h"
#include <QDateTime>

#include "grpcstreambox.h"
#include "keyvaluetable.h"
#include "messagelog.h"
#include "responseview.h"

#include "requestsender.h"
#include "streamcells.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include <thread>

GrpcRequestPane::GrpcRequestPane(QWidget* parent) : QWidget(parent)
{
    m_target = new QLineEdit;
    m_target->setObjectName(QStringLiteral("grpcTarget"));
    m_target->setPlaceholderText(tr("host:port (h2c) or https://host:port — ${variables} allowed"));
    m_target->setToolTip(tr("The gRPC server. host:port and http:// speak HTTP/2 without TLS (h2c);\n"
                            "https:// speaks HTTP/2 over TLS, with the server's certificate verified."));
    m_method = new QComboBox;
    m_method->setObjectName(QStringLiteral("grpcMethod"));
    m_method->setEditable(true);
    m_method->setMinimumContentsLength(28);
    m_method->setToolTip(tr("package.Service/Method, from the schema (Schema tab)"));
    m_send = new QPushButton(tr("Send"));
    m_send->setToolTip(tr("Call the method once (Ctrl+Enter)"));
    auto* line = new QHBoxLayout;
    line->addWidget(m_target, 1);
    line->addWidget(m_method, 1);
    line->addWidget(m_send);

    m_data = new QPlainTextEdit;
    m_data->setObjectName(QStringLiteral("grpcData"));
    m_data->setPlaceholderText(tr("The request message as JSON (proto3's mapping); ${variables} allowed"));
    auto* fill = new QPushButton(tr("Fill with the message's fields"));
    fill->setToolTip(tr("Replace the JSON with every field of the request message at a neutral value"));
    auto* dataPage = new QWidget;
    auto* dl = new QVBoxLayout(dataPage);
    dl->addWidget(m_data, 1);
    dl->addWidget(fill, 0, Qt::AlignLeft);

    m_metadata = new KeyValueTable(tr("Key"), tr("Value"));
    m_metadata->setObjectName(QStringLiteral("grpcMetadata"));
    m_metadata->setToolTip(tr("Sent as HTTP/2 headers with the call; keys are lower-case"));

    QWidget* schemaPage = buildSchemaPage();

    m_stream = new GrpcStreamBox;
    m_stream->setObjectName(QStringLiteral("grpcStream"));
    m_tabs = new QTabWidget;
    m_tabs->addTab(dataPage, tr("Message"));
    m_tabs->addTab(m_stream, tr("Stream"));
    m_tabs->addTab(m_metadata, tr("Metadata"));
    m_tabs->addTab(schemaPage, tr("Schema && options"));

    ResponseView response = ResponseView::make(tr("Response message"));
    m_status = response.status;
    m_responseBody = response.body;
    m_responseHeaders = response.headers;
    m_responseTabs = response.tabs;
    m_responseTrailers = response.addTable(tr("Trailers"), tr("Trailer"));
    m_responseTrailers->setObjectName(QStringLiteral("grpcTrailers"));
    m_log = new MessageLog(tr("A streaming call's messages both ways: ↑ sent, ↓ received, with their time from the "
                              "call's start"));
    m_log->setObjectName(QStringLiteral("grpcLog"));
    m_responseTabs->addTab(m_log, tr("Messages"));

    layOutPane(this, line, m_tabs, response.widget);

    m_sender = new RequestSender(this);
    connect(m_sender, &RequestSender::answered, this, &GrpcRequestPane::showAnswer);
    connect(m_send, &QPushButton::clicked, this, &GrpcRequestPane::send);
    connect(m_target, &QLineEdit::returnPressed, this, &GrpcRequestPane::send);
    connect(m_target, &QLineEdit::textEdited, this, &GrpcRequestPane::emitChanged);
    connect(m_method, &QComboBox::currentTextChanged, this, [this] {
        // a fresh request starts from the chosen method's fields
        if (!m_loading && m_data->toPlainText().trimmed().isEmpty())
            fillSkeleton();
        updateKind();
        emitChanged();
    });
    connect(m_stream, &GrpcStreamBox::changed, this, &GrpcRequestPane::emitChanged);
    connect(m_data, &QPlainTextEdit::textChanged, this, &GrpcRequestPane::emitChanged);
    connect(m_data, &QPlainTextEdit::textChanged, this, &GrpcRequestPane::markUnknown);
    connect(m_target, &QLineEdit::textChanged, this, &GrpcRequestPane::markUnknown);
    connect(m_metadata, &KeyValueTable::pairsChanged, this, &GrpcRequestPane::emitChanged);
    connect(fill, &QPushButton::clicked, this, &GrpcRequestPane::fillSkeleton);
}

// The Schema & options tab: the schema's source (.proto files, reflection), the deadline, TLS verification.
QWidget* GrpcRequestPane::buildSchemaPage()
{
    auto* importButton = new QPushButton(tr("Import .proto files…"));
    importButton->setToolTip(tr("The files are read now and kept in the project as descriptors;\n"
                                "their imports are looked for beside them, then among the well-known types"));
    auto* reflectButton = new QPushButton(tr("Fetch by reflection"));
    reflectButton->setObjectName(QStringLiteral("grpcReflect"));
    reflectButton->setToolTip(tr("Ask the target's gRPC server reflection service for its descriptors"));
    m_schemaLabel = new QLabel(tr("No schema yet: import the .proto files, or fetch them by reflection."));
    m_schemaLabel->setWordWrap(true);
    m_schemaLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_deadline = new QSpinBox;
    m_deadline->setRange(1, 3600000);
    m_deadline->setValue(10000);
    m_deadline->setSuffix(tr(" ms"));
    m_deadline->setToolTip(tr("Sent as grpc-timeout; the call fails as DEADLINE_EXCEEDED after it"));
    auto* schemaPage = new QWidget;
    auto* sl = new QVBoxLayout(schemaPage);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(importButton);
    buttons->addWidget(reflectButton);
    buttons->addStretch(1);
    sl->addLayout(buttons);
    sl->addWidget(m_schemaLabel);
    m_verify = new QCheckBox(tr("Verify the server's certificate (https)"));
    m_verify->setObjectName(QStringLiteral("grpcVerify"));
    m_verify->setChecked(true);
    m_verify->setToolTip(tr("Against the system's CAs, for the target's host. Turn off for a server\n"
                            "with a self-signed or internal certificate."));
    auto* form = new QFormLayout;
    form->addRow(tr("Deadline:"), m_deadline);
    form->addRow(QString(), m_verify);
    sl->addLayout(form);
    sl->addStretch(1);
    connect(m_deadline, &QSpinBox::valueChanged, this, &GrpcRequestPane::emitChanged);
    connect(m_verify, &QCheckBox::toggled, this, &GrpcRequestPane::emitChanged);
    connect(importButton, &QPushButton::clicked, this, [this] {
        const QStringList files =
            QFileDialog::getOpenFileNames(this, tr("Import .proto files"), QString(), tr("Protocol buffers (*.proto)"));
        if (!files.isEmpty())
            importProtos(files);
    });
    connect(reflectButton, &QPushButton::clicked, this, &GrpcRequestPane::fetchByReflection);
    return schemaPage;
}

GrpcRequestPane::~GrpcRequestPane() = default;

void GrpcRequestPane::emitChanged()
{
    if (!m_loading)
        Q_EMIT changed();
}

// The Stream tab follows the method's kind (what applies to it is kept in the request).
void GrpcRequestPane::updateKind()
{
    const QString method = m_method->currentText().trimmed();
    const bool known = m_schema && m_schema->callProblem(method).isEmpty();
    const auto [client, server] = known ? m_schema->streams(method) : std::pair(false, false);
    m_stream->setKind(method, client, server, known);
    m_tabs->setTabText(m_tabs->indexOf(m_stream), client || server ? tr("Stream ●") : tr("Stream"));
}

QString GrpcRequestPane::target() const
{
    return GrpcSchema::resolvedTarget(m_target->text(), m_variables);
}

void GrpcRequestPane::setVariables(const QHash<QString, QString>& variables)
{
    m_variables = variables;
    markUnknown();
}

void GrpcRequestPane::markUnknown()
{
    const RequestItem::Unknown u = item().unknown(m_variables);
    const auto tip = [this](const QStringList& names) {
        return names.isEmpty() ? QString()
                               : tr("Not defined in the environment, the data sets or the scenarios: ${%1}")
                                     .arg(names.join(QStringLiteral("}, ${")));
    };
    m_target->setStyleSheet(u.url.isEmpty() ? QString() : QStringLiteral("QLineEdit { color: #c0392b; }"));
    if (!u.url.isEmpty())
        m_target->setToolTip(tip(u.url));
    m_data->setStyleSheet(u.message.isEmpty() ? QString()
                                              : QStringLiteral("QPlainTextEdit { border: 1px solid #c0392b; }"));
    m_data->setToolTip(tip(u.message));
}

void GrpcRequestPane::setSchema(std::optional<GrpcSchema> schema, const QString& source)
{
    m_schema = std::move(schema);
    m_schemaSource = source;
    const QString current = m_method->currentText();
    const bool loading = m_loading;
    m_loading = true;
    m_method->clear();
    if (m_schema) {
        m_method->addItems(m_schema->methods());
        m_descriptors = m_schema->descriptorSet();
    }
    m_method->setCurrentText(current.isEmpty() && m_method->count() ? m_method->itemText(0) : current);
    m_loading = loading;
    updateKind();
    m_schemaLabel->setText(
        m_schema ? tr("Schema from %1 — services: %2").arg(source, m_schema->services().join(QStringLiteral(", ")))
                 : tr("No schema yet: import the .proto files, or fetch them by reflection."));
    m_schemaLabel->setStyleSheet({});
}

bool GrpcRequestPane::importProtos(const QStringList& files, QString* error)
{
    QStringList names;
    for (const auto& f : files)
        names << QFileInfo(f).fileName();
    QString err;
    auto schema = GrpcSchema::importProtos(files, &err);
    if (!schema) {
        m_schemaLabel->setText(tr("Not imported: %1").arg(err));
        m_schemaLabel->setStyleSheet(QStringLiteral("color: #c0392b"));
        if (error)
            *error = err;
        Q_EMIT schemaLoaded(false);
        return false;
    }
    setSchema(std::move(schema), names.join(QStringLiteral(", ")));
    if (m_data->toPlainText().trimmed().isEmpty())
        fillSkeleton();
    emitChanged();
    Q_EMIT schemaLoaded(true);
    return true;
}

void GrpcRequestPane::fetchByReflection()
{
    const QString shown = target();
    m_schemaLabel->setText(tr("Asking %1 for its descriptors…").arg(shown));
    m_schemaLabel->setStyleSheet({});
    struct Fetched
    {
        std::optional<GrpcSchema> schema;
        QString error;
    };
    m_reflection.start(
        [written = m_target->text(), variables = m_variables, verify = m_verify->isChecked()] {
            Fetched f;
            f.schema = GrpcSchema::fetchByReflection(written, variables, verify, &f.error);
            return f;
        },
        [this, shown](const Fetched& f) {
            if (!f.schema) {
                m_schemaLabel->setText(tr("Not fetched: %1").arg(f.error));
                m_schemaLabel->setStyleSheet(QStringLiteral("color: #c0392b"));
                Q_EMIT schemaLoaded(false);
                return;
            }
            setSchema(f.schema, tr("reflection at %1").arg(shown));
            if (m_data->toPlainText().trimmed().isEmpty())
                fillSkeleton();
            emitChanged();
            Q_EMIT schemaLoaded(true);
        });
}

QStringList GrpcRequestPane::methods() const
{
    QStringList out;
    for (int i = 0; i < m_method->count(); ++i)
        out << m_method->itemText(i);
    return out;
}

void GrpcRequestPane::setMethod(const QString& method)
{
    m_method->setCurrentText(method);
}

void GrpcRequestPane::fillSkeleton()
{
    if (!m_schema)
        return;
    if (const QString json = m_schema->exampleJson(m_method->currentText()); !json.isEmpty())
        m_data->setPlainText(json);
}

void GrpcRequestPane::setItem(const RequestItem& r)
{
    m_loading = true;
    m_target->setText(r.target);
    m_descriptors = r.descriptors;
    std::optional<GrpcSchema> schema;
    if (!m_descriptors.isEmpty())
        schema = GrpcSchema::fromDescriptors(m_descriptors);
    m_method->setCurrentText(QString());
    setSchema(std::move(schema), r.schemaSource);
    m_method->setCurrentText(r.grpcMethod);
    m_data->setPlainText(r.data);
    m_metadata->setPairs(r.metadata);
    m_deadline->setValue(r.deadlineMs);
    m_verify->setChecked(!r.insecure);
    m_stream->setFields(r);
    updateKind();
    m_loading = false;
    markUnknown();
}

RequestItem GrpcRequestPane::item() const
{
    RequestItem r;
    r.kind = RequestItem::Kind::Grpc;
    r.target = m_target->text().trimmed();
    r.grpcMethod = m_method->currentText().trimmed();
    r.data = m_data->toPlainText();
    r.metadata = m_metadata->pairs();
    r.deadlineMs = m_deadline->value();
    r.insecure = !m_verify->isChecked();
    r.descriptors = m_descriptors;
    r.schemaSource = m_schemaSource;
    m_stream->writeTo(r);
    r.testScript = m_testScript;
    return r;
}

void GrpcRequestPane::send()
{
    auto fail = [this](const QString& why) {
        m_sender->cancel(); // a call still under way is not shown over this
        m_status->setText(tr("Not sent: %1").arg(why));
        m_status->setStyleSheet(QStringLiteral("color: #c0392b"));
    };
    if (!m_schema) {
        fail(tr("no schema: import the .proto files or fetch them by reflection (Schema tab)"));
        return;
    }
    if (const QString problem = m_schema->callProblem(m_method->currentText()); !problem.isEmpty()) {
        fail(problem);
        return;
    }
    if (const RequestItem::Unknown u = item().unknown(m_variables); !u.isEmpty() && !sendUnknownAnyway(u, this))
        return;
    m_status->setText(tr("Calling…"));
    m_status->setStyleSheet({});
    m_send->setEnabled(false);
    m_sender->send(item(), m_variables);
}

void GrpcRequestPane::showAnswer(const SendAnswer& a)
{
    Q_EMIT sent(a.entry);
    Q_EMIT scripted(a);
    m_send->setEnabled(true);
    m_responseHeaders->setPairs(a.headers);
    m_responseTrailers->setPairs(a.trailers);
    m_responseBody->setPlainText(a.body);
    m_log->show(a.messages);
    if (!a.messages.isEmpty()) // a streaming call: its messages first, the answer (the last awaited) a tab away
        m_responseTabs->setCurrentWidget(m_log);
    if (a.line.isEmpty()) { // no answer
        m_status->setText(tr("Failed: %1").arg(a.error));
        m_status->setStyleSheet(QStringLiteral("color: #c0392b"));
        return;
    }
    m_status->setText(a.line);
    m_status->setStyleSheet(a.good ? QStringLiteral("color: #1e8449") : QStringLiteral("color: #c0392b"));
    Q_EMIT answered(a.answer);
    Q_EMIT responseShown(a.status);
}

QString GrpcRequestPane::statusText() const
{
    return m_status->text();
}

QString GrpcRequestPane::responseBody() const
{
    return m_responseBody->toPlainText();
}

QString GrpcRequestPane::schemaText() const
{
    return m_schemaLabel->text();
}

QStringList GrpcRequestPane::messageLines() const
{
    return m_log->lines();
}

QList<QPair<QString, QString>> GrpcRequestPane::trailers() const
{
    return m_responseTrailers->pairs();
}
