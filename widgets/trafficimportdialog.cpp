#include "trafficimportdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QEventLoop>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressDialog>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

TrafficImportDialog::TrafficImportDialog(stampede::ProjectStore& store, QWidget* parent)
    : QDialog(parent), m_store(store)
{
    setWindowTitle(tr("Import traffic"));
    m_maskKey = TrafficImporter::maskKey(store); // the preview hashes as the import will
    m_file = new QLineEdit;
    m_file->setObjectName(QStringLiteral("file"));
    auto* browse = new QPushButton(tr("Browse…"));
    m_format = new QComboBox;
    m_format->setObjectName(QStringLiteral("format"));
    m_format->addItem(tr("Access log: combined (nginx, Apache)"), QStringLiteral("combined"));
    m_format->addItem(tr("HAR 1.2 (a browser's recording)"), QStringLiteral("har"));
    m_format->addItem(tr("Access log: Caddy (JSON)"), QStringLiteral("caddy"));
    m_format->addItem(tr("Access log: Traefik (JSON)"), QStringLiteral("traefik"));
    m_format->addItem(tr("Access log: Envoy (default format)"), QStringLiteral("envoy"));
    m_format->addItem(tr("Access log: HAProxy (option httplog)"), QStringLiteral("haproxy"));
    m_format->addItem(tr("Access log: nginx log_format…"), QStringLiteral("custom"));
    m_logFormat = new QLineEdit;
    m_logFormat->setObjectName(QStringLiteral("logFormat"));
    m_logFormat->setPlaceholderText(
        QStringLiteral("log_format main '$remote_addr [$time_local] \"$request\" $status \"$http_user_agent\"';"));
    m_logFormat->setToolTip(tr("The log_format directive from nginx.conf, or its format string: $remote_addr, "
                               "$time_local, $time_iso8601, $msec, $request, $request_uri, $request_body, "
                               "$http_NAME, $status, $request_time are read"));
    m_masks = new QPlainTextEdit(TrafficImporter::defaultMasks().join(QLatin1Char('\n')));
    m_masks->setObjectName(QStringLiteral("masks"));
    m_masks->setMaximumHeight(90);
    m_masks->setToolTip(TrafficImporter::masksToolTip());
    m_name = new QLineEdit;
    m_name->setPlaceholderText(tr("the file's name"));
    m_preview = new QTableWidget(0, 3);
    m_preview->setObjectName(QStringLiteral("preview"));
    m_preview->setHorizontalHeaderLabels({tr("As recorded"), tr("As stored"), tr("Masked by")});
    m_preview->horizontalHeaderItem(2)->setToolTip(tr("Which rules changed the request, and how many values each"));
    m_preview->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_preview->verticalHeader()->hide();
    m_preview->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_preview->setWordWrap(false);
    m_problem = new QLabel;
    m_problem->setObjectName(QStringLiteral("problem"));
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #c0392b"));
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(browse);
    auto* form = new QFormLayout;
    form->addRow(tr("File:"), fileRow);
    form->addRow(tr("Format:"), m_format);
    form->addRow(QString(), m_logFormat);
    form->addRow(tr("Masking:"), m_masks);
    form->addRow(tr("Name:"), m_name);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    m_import = buttons->addButton(tr("Import"), QDialogButtonBox::AcceptRole);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("The first requests, before and after masking:")));
    layout->addWidget(m_preview, 1);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
    resize(900, 560);

    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Import traffic"), QString(),
                                         tr("Access logs and HAR files (*.log *.gz *.har *.txt);;All files (*)"));
        if (!path.isEmpty())
            setFile(path);
    });
    connect(m_file, &QLineEdit::editingFinished, this, &TrafficImportDialog::refresh);
    connect(m_format, &QComboBox::currentIndexChanged, this, &TrafficImportDialog::refresh);
    connect(m_logFormat, &QLineEdit::editingFinished, this, &TrafficImportDialog::refresh);
    connect(m_masks, &QPlainTextEdit::textChanged, this, &TrafficImportDialog::refresh);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_import, &QPushButton::clicked, this, [this] {
        if (importNow())
            accept();
    });
    refresh();
}

void TrafficImportDialog::setFile(const QString& path)
{
    m_file->setText(path);
    if (path.endsWith(QLatin1String(".har"), Qt::CaseInsensitive))
        m_format->setCurrentIndex(1);
    refresh();
}

TrafficImporter::Request TrafficImportDialog::request() const
{
    TrafficImporter::Request rq;
    rq.file = m_file->text().trimmed();
    const QString format = m_format->currentData().toString();
    rq.format = format == QLatin1String("custom") ? m_logFormat->text() : format;
    rq.masks = m_masks->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    rq.name = m_name->text().trimmed();
    return rq;
}

QString TrafficImportDialog::problem() const
{
    return m_problem->text();
}

void TrafficImportDialog::refresh()
{
    m_logFormat->setVisible(m_format->currentData().toString() == QLatin1String("custom"));
    QList<TrafficImporter::PreviewRow> rows;
    QString error;
    const bool ok = TrafficImporter::preview(request(), m_maskKey, 8, rows, error);
    m_preview->setRowCount(int(rows.size()));
    for (int i = 0; i < rows.size(); ++i) {
        m_preview->setItem(i, 0, new QTableWidgetItem(rows[i].before));
        m_preview->setItem(i, 1, new QTableWidgetItem(rows[i].after));
        m_preview->item(i, 0)->setToolTip(rows[i].before);
        m_preview->item(i, 1)->setToolTip(rows[i].after);
        m_preview->setItem(i, 2, new QTableWidgetItem(rows[i].changes.isEmpty() ? tr("nothing") : rows[i].changes));
        m_preview->item(i, 2)->setToolTip(rows[i].changes);
    }
    m_problem->setText(ok ? QString() : error);
    m_problem->setVisible(!ok);
    m_import->setEnabled(TrafficImporter::check(request()).isEmpty());
}

qint64 TrafficImportDialog::importNow()
{
    TrafficImporter importer;
    QProgressDialog progress(tr("Reading %1…").arg(m_file->text()), tr("Cancel"), 0, 100, this);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(300);
    connect(&importer, &TrafficImporter::progress, &progress, &QProgressDialog::setValue);
    connect(&progress, &QProgressDialog::canceled, &importer, &TrafficImporter::cancel);
    QEventLoop loop;
    qint64 stored = 0;
    QString message;
    connect(&importer, &TrafficImporter::finished, &loop, [&](bool ok, const QString& text, qint64 id) {
        stored = ok ? id : 0;
        message = text;
        loop.quit();
    });
    if (!importer.start(request(), m_store)) {
        m_problem->setText(TrafficImporter::check(request()));
        m_problem->setVisible(true);
        return 0;
    }
    loop.exec();
    progress.reset();
    m_problem->setText(message);
    m_problem->setVisible(!stored);
    return stored;
}
