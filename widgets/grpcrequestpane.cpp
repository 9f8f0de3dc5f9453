#include "grpcrequestpane.h"

#include "requesteditor.h"
#include <QDateTime>

#include "keyvaluetable.h"
#include "responseview.h"

#include "grpc/protoschema.h"
#include "grpc/reflection.h"
#include "net/http2exchange.h"

#include <google/protobuf/descriptor.h>

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

    m_tabs = new QTabWidget;
    m_tabs->addTab(dataPage, tr("Message"));
    m_tabs->addTab(m_metadata, tr("Metadata"));
    m_tabs->addTab(schemaPage, tr("Schema && options"));

    ResponseView response = ResponseView::make(tr("Response message"));
    m_status = response.status;
    m_responseBody = response.body;
    m_responseHeaders = response.headers;
    m_responseTabs = response.tabs;
    m_responseTrailers = response.addTable(tr("Trailers"), tr("Trailer"));
    m_responseTrailers->setObjectName(QStringLiteral("grpcTrailers"));

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_tabs);
    split->addWidget(response.widget);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(line);
    layout->addWidget(split, 1);

    connect(m_send, &QPushButton::clicked, this, &GrpcRequestPane::send);
    connect(m_target, &QLineEdit::returnPressed, this, &GrpcRequestPane::send);
    connect(m_target, &QLineEdit::textEdited, this, &GrpcRequestPane::emitChanged);
    connect(m_method, &QComboBox::currentTextChanged, this, [this] {
        // a fresh request starts from the chosen method's fields
        if (!m_loading && m_data->toPlainText().trimmed().isEmpty())
            fillSkeleton();
        emitChanged();
    });
    connect(m_data, &QPlainTextEdit::textChanged, this, &GrpcRequestPane::emitChanged);
    connect(m_data, &QPlainTextEdit::textChanged, this, &GrpcRequestPane::markUnknown);
    connect(m_target, &QLineEdit::textChanged, this, &GrpcRequestPane::markUnknown);
    connect(m_metadata, &KeyValueTable::pairsChanged, this, &GrpcRequestPane::emitChanged);
    connect(m_deadline, &QSpinBox::valueChanged, this, &GrpcRequestPane::emitChanged);
    connect(m_verify, &QCheckBox::toggled, this, &GrpcRequestPane::emitChanged);
    connect(fill, &QPushButton::clicked, this, &GrpcRequestPane::fillSkeleton);
    connect(importButton, &QPushButton::clicked, this, [this] {
        const QStringList files =
            QFileDialog::getOpenFileNames(this, tr("Import .proto files"), QString(), tr("Protocol buffers (*.proto)"));
        if (!files.isEmpty())
            importProtos(files);
    });
    connect(reflectButton, &QPushButton::clicked, this, &GrpcRequestPane::fetchByReflection);
}

GrpcRequestPane::~GrpcRequestPane() = default;

void GrpcRequestPane::emitChanged()
{
    if (!m_loading)
        Q_EMIT changed();
}

QString GrpcRequestPane::expand(const QString& text) const
{
    return RequestItem::expand(text, m_variables);
}

QString GrpcRequestPane::target() const
{
    QString t = expand(m_target->text().trimmed());
    if (!t.contains(QLatin1String("://")))
        t.prepend(QLatin1String("http://"));
    while (t.endsWith(QLatin1Char('/')))
        t.chop(1);
    return t;
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

void GrpcRequestPane::setSchema(std::shared_ptr<stampede::ProtoSchema> schema, const QString& source)
{
    m_schema = std::move(schema);
    m_schemaSource = source;
    const QString current = m_method->currentText();
    const bool loading = m_loading;
    m_loading = true;
    m_method->clear();
    QStringList services;
    if (m_schema) {
        for (const auto& m : m_schema->methods())
            m_method->addItem(QString::fromStdString(m));
        for (const auto& s : m_schema->services())
            services << QString::fromStdString(s);
        m_descriptors = QByteArray::fromStdString(m_schema->descriptorSet());
    }
    m_method->setCurrentText(current.isEmpty() && m_method->count() ? m_method->itemText(0) : current);
    m_loading = loading;
    m_schemaLabel->setText(m_schema
                               ? tr("Schema from %1 — services: %2").arg(source, services.join(QStringLiteral(", ")))
                               : tr("No schema yet: import the .proto files, or fetch them by reflection."));
    m_schemaLabel->setStyleSheet({});
}

bool GrpcRequestPane::importProtos(const QStringList& files, QString* error)
{
    std::vector<std::string> paths;
    QStringList names;
    for (const auto& f : files) {
        paths.push_back(f.toStdString());
        names << QFileInfo(f).fileName();
    }
    std::string err;
    auto schema = stampede::ProtoSchema::import(paths, {}, err);
    if (!schema) {
        m_schemaLabel->setText(tr("Not imported: %1").arg(QString::fromStdString(err)));
        m_schemaLabel->setStyleSheet(QStringLiteral("color: #c0392b"));
        if (error)
            *error = QString::fromStdString(err);
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
    stampede::ReflectionOptions o;
    o.target = target().toStdString();
    o.verify = m_verify->isChecked();
    m_schemaLabel->setText(tr("Asking %1 for its descriptors…").arg(target()));
    m_schemaLabel->setStyleSheet({});
    struct Fetched
    {
        std::shared_ptr<stampede::ProtoSchema> schema;
        std::string error;
    };
    m_reflection.start(
        [o] {
            Fetched f;
            f.schema = stampede::fetchByReflection(o, f.error);
            return f;
        },
        [this, target = QString::fromStdString(o.target)](const Fetched& f) {
            if (!f.schema) {
                m_schemaLabel->setText(tr("Not fetched: %1").arg(QString::fromStdString(f.error)));
                m_schemaLabel->setStyleSheet(QStringLiteral("color: #c0392b"));
                Q_EMIT schemaLoaded(false);
                return;
            }
            setSchema(f.schema, tr("reflection at %1").arg(target));
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
    std::string err;
    const auto* md = m_schema->method(m_method->currentText().toStdString(), err);
    if (!md)
        return;
    m_data->setPlainText(QString::fromStdString(stampede::skeletonJson(md->input_type())));
}

void GrpcRequestPane::setItem(const RequestItem& r)
{
    m_loading = true;
    m_target->setText(r.target);
    m_descriptors = r.descriptors;
    std::shared_ptr<stampede::ProtoSchema> schema;
    if (!m_descriptors.isEmpty()) {
        std::string err;
        schema = stampede::ProtoSchema::fromDescriptorSet(m_descriptors.toStdString(), err);
    }
    m_method->setCurrentText(QString());
    setSchema(schema, r.schemaSource);
    m_method->setCurrentText(r.grpcMethod);
    m_data->setPlainText(r.data);
    m_metadata->setPairs(r.metadata);
    m_deadline->setValue(r.deadlineMs);
    m_verify->setChecked(!r.insecure);
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
    return r;
}

void GrpcRequestPane::send()
{
    auto fail = [this](const QString& why) {
        m_calls.cancel(); // a call still under way is not shown over this
        m_status->setText(tr("Not sent: %1").arg(why));
        m_status->setStyleSheet(QStringLiteral("color: #c0392b"));
    };
    if (!m_schema) {
        fail(tr("no schema: import the .proto files or fetch them by reflection (Schema tab)"));
        return;
    }
    std::string err;
    const auto* md = m_schema->method(m_method->currentText().trimmed().toStdString(), err);
    if (!md) {
        fail(QString::fromStdString(err));
        return;
    }
    if (md->client_streaming() || md->server_streaming()) {
        fail(tr("%1 streams; only unary calls are supported").arg(QString::fromStdString(md->full_name())));
        return;
    }
    if (const RequestItem::Unknown u = item().unknown(m_variables); !u.isEmpty() && !sendUnknownAnyway(u, this))
        return;
    std::string binary;
    const QString json = expand(m_data->toPlainText()).trimmed();
    if (!stampede::jsonToBinary(*m_schema, md->input_type(), json.isEmpty() ? "{}" : json.toStdString(), binary, err)) {
        fail(QString::fromStdString(err));
        return;
    }
    stampede::Http2ExchangeRequest rq;
    rq.url = target().toStdString() + "/" + md->service()->full_name() + "/" + md->name();
    rq.method = "POST";
    rq.grpc = true;
    rq.verify = m_verify->isChecked();
    rq.body = stampede::grpcFrame(binary);
    rq.timeout = stampede::Nanos(m_deadline->value()) * stampede::kNanosPerMilli;
    rq.headers = {{"content-type", "application/grpc"},
                  {"te", "trailers"},
                  {"grpc-timeout", std::to_string(m_deadline->value()) + "m"}};
    for (const auto& [n, v] : m_metadata->pairs())
        rq.headers.emplace_back(n.toLower().toStdString(), expand(v).toStdString());
    m_status->setText(tr("Calling…"));
    m_status->setStyleSheet({});
    m_send->setEnabled(false);
    auto schema = m_schema;
    const auto* output = md->output_type();
    struct Answer
    {
        stampede::Http2ExchangeResult r;
        QString body, error;
    };
    m_calls.start(
        [rq, schema, output] {
            Answer a{stampede::http2Exchange(rq), {}, {}};
            a.error = QString::fromStdString(a.r.error);
            if (a.r.ok && a.r.grpcStatus == 0) {
                std::vector<std::string> messages;
                std::string err, out;
                if (!stampede::grpcUnframe(a.r.body, messages, err) || messages.empty())
                    a.error = err.empty() ? QStringLiteral("the answer holds no message") : QString::fromStdString(err);
                else if (!stampede::binaryToJson(*schema, output, messages.front(), out, err))
                    a.error = QString::fromStdString(err);
                a.body = QString::fromStdString(out);
            }
            return a;
        },
        [this, entry = callEntry(rq)](const Answer& a) mutable {
            entry.status = a.r.ok ? a.r.grpcStatus : 0; // the gRPC status code (0 is OK)
            entry.error = a.r.ok ? QString() : a.error;
            entry.ms = double(a.r.totalTime) / 1e6;
            entry.head = a.r.ok ? QStringLiteral("grpc-status: %1").arg(a.r.grpcStatus) : QString();
            for (const auto& [n, v] : a.r.trailers)
                entry.head += u'\n' + QString::fromStdString(n) + QStringLiteral(": ") + QString::fromStdString(v);
            entry.body = a.body;
            Q_EMIT sent(entry);
            showAnswer(a.r, a.body, a.error);
        });
}

HistoryEntry GrpcRequestPane::callEntry(const stampede::Http2ExchangeRequest& rq) const
{
    HistoryEntry e;
    e.at = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    e.request = item().toJson();
    e.method = QStringLiteral("gRPC");
    e.url = QString::fromStdString(rq.url); // target/package.Service/Method
    return e;
}

void GrpcRequestPane::showAnswer(const stampede::Http2ExchangeResult& r, const QString& body, const QString& error)
{
    auto list = [](const stampede::SessionListener::HeaderList& l) {
        QList<QPair<QString, QString>> out;
        for (const auto& [n, v] : l)
            out.append({QString::fromStdString(n), QString::fromStdString(v)});
        return out;
    };
    m_send->setEnabled(true);
    m_responseHeaders->setPairs(list(r.headers));
    m_responseTrailers->setPairs(list(r.trailers));
    m_responseBody->setPlainText(body);
    const double ms = double(r.totalTime) / 1e6;
    if (!r.ok) {
        m_status->setText(tr("Failed: %1").arg(error));
        m_status->setStyleSheet(QStringLiteral("color: #c0392b"));
        return;
    }
    QString line;
    if (r.grpcStatus < 0)
        line = tr("HTTP %1, no grpc-status · %2 ms").arg(r.status).arg(ms, 0, 'f', 1);
    else
        line =
            tr("%1 (%2)%3 · %4 ms")
                .arg(QString::fromStdString(stampede::grpcCodeName(r.grpcStatus)))
                .arg(r.grpcStatus)
                .arg(r.grpcMessage.empty() ? QString() : QStringLiteral(": ") + QString::fromStdString(r.grpcMessage))
                .arg(ms, 0, 'f', 1);
    if (!error.isEmpty())
        line += QStringLiteral(" — ") + error;
    m_status->setText(line);
    m_status->setStyleSheet(r.grpcStatus == 0 && error.isEmpty() ? QStringLiteral("color: #1e8449")
                                                                 : QStringLiteral("color: #c0392b"));
    CheckAnswer answer;
    answer.status = r.grpcStatus;
    answer.grpc = true;
    answer.headers = list(r.headers) + list(r.trailers);
    answer.body = body.toUtf8();
    answer.elapsedMs = ms;
    Q_EMIT answered(answer);
    Q_EMIT responseShown(r.grpcStatus);
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

QList<QPair<QString, QString>> GrpcRequestPane::trailers() const
{
    return m_responseTrailers->pairs();
}
