#include "trafficrecorddialog.h"

#include "trafficimporter.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace {

QString nginxLines(const QString& address)
{
    return QStringLiteral("location / {\n"
                          "    mirror /stampede_mirror;\n"
                          "    mirror_request_body on;\n"
                          "    proxy_pass http://backend;\n"
                          "}\n"
                          "location = /stampede_mirror {\n"
                          "    internal;\n"
                          "    proxy_pass http://%1$request_uri;\n"
                          "    proxy_set_header Host $host;\n"
                          "    proxy_set_header X-Real-IP $remote_addr;\n"
                          "}")
        .arg(address);
}

} // namespace

TrafficRecordDialog::TrafficRecordDialog(stampede::ProjectStore& store, QWidget* parent)
    : QDialog(parent), m_store(store)
{
    setWindowTitle(tr("Record traffic"));
    m_listen = new QLineEdit(QStringLiteral("127.0.0.1:9000"));
    m_listen->setObjectName(QStringLiteral("listen"));
    m_listen->setToolTip(tr("The address the gateway's mirror sends to: 127.0.0.1:9000, [::1]:9000, or "
                            "0.0.0.0:9000 to take it from other machines"));
    m_name =
        new QLineEdit(tr("gateway %1").arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"))));
    m_name->setObjectName(QStringLiteral("name"));
    m_masks = new QPlainTextEdit(TrafficImporter::defaultMasks().join(QLatin1Char('\n')));
    m_masks->setObjectName(QStringLiteral("masks"));
    m_masks->setMaximumHeight(80);
    m_masks->setToolTip(TrafficImporter::masksToolTip());
    m_host = new QLineEdit;
    m_host->setObjectName(QStringLiteral("host"));
    m_host->setPlaceholderText(tr("every host"));
    m_host->setToolTip(tr("Keep only requests for this Host (without a port: any port)"));
    m_include = new QLineEdit;
    m_include->setObjectName(QStringLiteral("include"));
    m_include->setPlaceholderText(tr("every path, e.g. ^/api/"));
    m_include->setToolTip(tr("A regular expression (PCRE2) the path must match to be kept"));
    m_exclude = new QLineEdit;
    m_exclude->setObjectName(QStringLiteral("exclude"));
    m_exclude->setPlaceholderText(tr("none, e.g. ^/static/"));
    m_exclude->setToolTip(tr("A regular expression (PCRE2): paths it matches are not kept"));
    m_sample = new QDoubleSpinBox;
    m_sample->setObjectName(QStringLiteral("sample"));
    m_sample->setRange(0.01, 100);
    m_sample->setValue(100);
    m_sample->setSuffix(QStringLiteral(" %"));
    m_sample->setToolTip(tr("Of the requests the rules above keep, this share, chosen at random"));
    m_nginx = new QPlainTextEdit;
    m_nginx->setObjectName(QStringLiteral("nginx"));
    m_nginx->setReadOnly(true);
    m_nginx->setMaximumHeight(150);
    m_nginx->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_nginx->setToolTip(
        tr("What nginx needs to send a copy of every request here (see docs/replay.md for keep-alive)"));
    m_state = new QLabel;
    m_state->setObjectName(QStringLiteral("state"));
    m_state->setWordWrap(true);

    auto* form = new QFormLayout;
    form->addRow(tr("Listen on:"), m_listen);
    form->addRow(tr("Traffic set:"), m_name);
    form->addRow(tr("Masking:"), m_masks);
    form->addRow(tr("Only host:"), m_host);
    form->addRow(tr("Only paths:"), m_include);
    form->addRow(tr("Not paths:"), m_exclude);
    form->addRow(tr("Sample:"), m_sample);
    auto* buttons = new QDialogButtonBox;
    m_start = buttons->addButton(tr("Start"), QDialogButtonBox::ActionRole);
    m_start->setObjectName(QStringLiteral("start"));
    m_close = buttons->addButton(QDialogButtonBox::Close);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("nginx, in the server that takes the traffic:")));
    layout->addWidget(m_nginx);
    layout->addWidget(m_state);
    layout->addWidget(buttons);
    resize(720, 640);

    for (QLineEdit* e : {m_listen, m_name, m_host, m_include, m_exclude})
        connect(e, &QLineEdit::textChanged, this, &TrafficRecordDialog::refresh);
    connect(m_masks, &QPlainTextEdit::textChanged, this, &TrafficRecordDialog::refresh);
    connect(m_start, &QPushButton::clicked, this, &TrafficRecordDialog::startOrStop);
    connect(m_close, &QPushButton::clicked, this, &TrafficRecordDialog::reject);
    connect(&m_recording, &TrafficRecording::counted, this,
            [this](quint64 kept, quint64 rate, quint64 filtered, quint64 dropped, quint64 bad) {
                const QLocale l;
                m_state->setText(tr("Recording on %1: %2 requests kept (%3/s) · %4 filtered · %5 dropped · %6 bad")
                                     .arg(m_recording.address(), l.toString(kept), l.toString(rate),
                                          l.toString(filtered), l.toString(dropped), l.toString(bad)));
            });
    connect(&m_recording, &TrafficRecording::finished, this, [this](bool ok, const QString& message, qint64 item) {
        m_item = ok ? item : 0;
        m_state->setText(message);
        m_state->setStyleSheet(ok ? QString() : QStringLiteral("color: #c0392b"));
        m_start->setText(tr("Start"));
        m_start->setEnabled(true);
        m_close->setEnabled(true);
        if (ok)
            m_name->setText(m_name->text() + QStringLiteral(" 2")); // a next recording needs a name of its own
        refresh();
    });
    refresh();
}

TrafficRecording::Request TrafficRecordDialog::request() const
{
    TrafficRecording::Request rq;
    rq.listen = m_listen->text().trimmed();
    rq.name = m_name->text().trimmed();
    rq.masks = m_masks->toPlainText().split(QLatin1Char('\n'));
    rq.host = m_host->text();
    rq.include = m_include->text();
    rq.exclude = m_exclude->text();
    rq.samplePercent = m_sample->value();
    return rq;
}

QString TrafficRecordDialog::state() const
{
    return m_state->text();
}

void TrafficRecordDialog::setListen(const QString& address)
{
    m_listen->setText(address);
}

void TrafficRecordDialog::refresh()
{
    const bool running = m_recording.running();
    for (QWidget* w :
         std::initializer_list<QWidget*>{m_listen, m_name, m_masks, m_host, m_include, m_exclude, m_sample})
        w->setEnabled(!running);
    m_nginx->setPlainText(nginxLines(running ? m_recording.address() : m_listen->text().trimmed()));
    if (running)
        return;
    const QString problem = TrafficRecording::check(request());
    m_start->setEnabled(problem.isEmpty());
    if (!problem.isEmpty()) {
        m_state->setText(problem);
        m_state->setStyleSheet(QStringLiteral("color: #c0392b"));
    } else if (m_state->styleSheet().isEmpty() == false) {
        m_state->clear();
        m_state->setStyleSheet(QString());
    }
}

void TrafficRecordDialog::startOrStop()
{
    if (m_recording.running()) {
        m_start->setEnabled(false);
        m_state->setText(tr("Storing the last requests…"));
        m_recording.stop();
        return;
    }
    QString error;
    if (!m_recording.start(request(), m_store, error)) {
        m_state->setText(error);
        m_state->setStyleSheet(QStringLiteral("color: #c0392b"));
        return;
    }
    m_state->setStyleSheet(QString());
    m_state->setText(tr("Recording on %1: waiting for the first request…").arg(m_recording.address()));
    m_start->setText(tr("Stop"));
    m_close->setEnabled(false);
    refresh();
}

void TrafficRecordDialog::reject()
{
    if (m_recording.running())
        return; // Stop first: the last requests are stored, and the set finished
    QDialog::reject();
}
