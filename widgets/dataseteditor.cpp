#include "dataseteditor.h"

#include "csvpreviewmodel.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

DataSetEditor::DataSetEditor(QWidget* parent) : QWidget(parent)
{
    m_model = new CsvPreviewModel(this);
    m_view = new QTableView;
    m_view->setModel(m_model);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_encoding = new QComboBox;
    m_encoding->addItems({QStringLiteral("UTF-8"), QStringLiteral("GB18030")});
    m_encoding->setToolTip(tr("The text encoding of the file: UTF-8, or GB18030 for files saved by Chinese Excel"));
    m_delimiter = new QComboBox;
    m_delimiter->addItem(tr("detect"), QString());
    m_delimiter->addItem(tr("comma ,"), QStringLiteral(","));
    m_delimiter->addItem(tr("semicolon ;"), QStringLiteral(";"));
    m_delimiter->addItem(tr("tab"), QStringLiteral("\t"));
    m_delimiter->addItem(tr("bar |"), QStringLiteral("|"));
    auto* import = new QPushButton(tr("Import CSV…"));
    m_status = new QLabel;
    m_status->setWordWrap(true);

    auto* top = new QHBoxLayout;
    top->addWidget(import);
    top->addWidget(new QLabel(tr("Encoding:")));
    top->addWidget(m_encoding);
    top->addWidget(new QLabel(tr("Delimiter:")));
    top->addWidget(m_delimiter);
    top->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_status);
    layout->addWidget(m_view, 1);
    m_usage = new QLabel;
    m_usage->setWordWrap(true);
    layout->addWidget(m_usage);
    auto* help = new QLabel(tr("The first row names the columns. In requests, write ${set.column} "
                               "(for example ${users.id}); each iteration takes the next row."));
    help->setWordWrap(true);
    layout->addWidget(help);

    connect(import, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Import CSV"), QString(),
                                                          tr("CSV files (*.csv *.txt);;All files (*)"));
        if (path.isEmpty())
            return;
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) {
            m_status->setText(tr("Cannot read %1: %2").arg(path, f.errorString()));
            return;
        }
        importBytes(f.readAll());
    });
    connect(m_encoding, &QComboBox::currentIndexChanged, this, [this] {
        reparse();
        Q_EMIT changed(json());
    });
    connect(m_delimiter, &QComboBox::currentIndexChanged, this, [this] {
        reparse();
        Q_EMIT changed(json());
    });
}

bool DataSetEditor::importBytes(const QByteArray& data)
{
    m_raw = data;
    reparse();
    Q_EMIT changed(json());
    return m_model->errorString().isEmpty();
}

void DataSetEditor::reparse()
{
    const QString d = m_delimiter->currentData().toString();
    const bool ok = m_model->load(m_raw, d.isEmpty() ? QChar() : d.at(0), m_encoding->currentText());
    if (!ok) {
        m_status->setText(tr("Not a usable CSV: %1").arg(m_model->errorString()));
        m_status->setStyleSheet(QStringLiteral("color: #c0392b"));
        return;
    }
    const QChar used = m_model->delimiter();
    const QString shown = used == QLatin1Char('\t') ? tr("tab") : QString(used);
    m_status->setStyleSheet({});
    m_status->setText(tr("%n row(s), columns: %1 — delimiter \"%2\"%3", nullptr, m_model->rowCount())
                          .arg(m_model->columns().join(QStringLiteral(", ")), shown,
                               m_delimiter->currentData().toString().isEmpty() ? tr(" (detected)") : QString()));
}

void DataSetEditor::setUsage(const QStringList& users)
{
    m_usage->setText(users.isEmpty() ? tr("Not used by any request or scenario yet.")
                                     : tr("Used by: %1").arg(users.join(QStringLiteral(", "))));
}

QString DataSetEditor::statusText() const
{
    return m_status->text();
}

void DataSetEditor::setJson(const QByteArray& payload)
{
    const QJsonObject o = QJsonDocument::fromJson(payload).object();
    m_raw = o.value(QStringLiteral("csv")).toString().toUtf8();
    const QSignalBlocker b1(m_encoding), b2(m_delimiter);
    m_encoding->setCurrentIndex(0); // stored text is UTF-8
    const int d = m_delimiter->findData(o.value(QStringLiteral("delimiter")).toString());
    m_delimiter->setCurrentIndex(d >= 0 ? d : 0);
    reparse();
}

QByteArray DataSetEditor::json() const
{
    QJsonObject o;
    o[QStringLiteral("csv")] = m_model->text(); // decoded: stored as UTF-8
    o[QStringLiteral("delimiter")] = QString(m_model->delimiter());
    o[QStringLiteral("encoding")] = m_encoding->currentText();
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}
