#include "csvpreviewmodel.h"

#include "core/csvtable.h"

#include <QStringDecoder>

CsvPreviewModel::CsvPreviewModel(QObject* parent) : QAbstractTableModel(parent) {}

CsvPreviewModel::~CsvPreviewModel() = default;

QChar CsvPreviewModel::detectDelimiter(const QString& firstLine)
{
    QChar best = QLatin1Char(',');
    qsizetype most = 0;
    for (QChar c : {QLatin1Char(','), QLatin1Char(';'), QLatin1Char('\t'), QLatin1Char('|')}) {
        const qsizetype n = firstLine.count(c);
        if (n > most) {
            most = n;
            best = c;
        }
    }
    return best;
}

bool CsvPreviewModel::load(const QByteArray& data, QChar delimiter, const QString& encoding)
{
    beginResetModel();
    m_table.reset();
    m_error.clear();
    QStringDecoder decoder(encoding.toUtf8().constData());
    if (!decoder.isValid()) {
        m_error = tr("The encoding %1 is not available.").arg(encoding);
        endResetModel();
        return false;
    }
    m_text = decoder.decode(data);
    if (decoder.hasError()) {
        m_error = tr("The file is not valid %1 text: choose another encoding.").arg(encoding);
        endResetModel();
        return false;
    }
    m_delimiter = delimiter.isNull() ? detectDelimiter(m_text.section(QLatin1Char('\n'), 0, 0)) : delimiter;
    auto table = std::make_unique<stampede::CsvTable>();
    std::string error;
    if (!table->parse(m_text.toStdString(), char(m_delimiter.toLatin1()), error)) {
        m_error = QString::fromStdString(error);
        endResetModel();
        return false;
    }
    m_table = std::move(table);
    endResetModel();
    return true;
}

QStringList CsvPreviewModel::columns() const
{
    QStringList out;
    if (m_table)
        for (const auto& c : m_table->columns())
            out << QString::fromStdString(c);
    return out;
}

int CsvPreviewModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_table ? 0 : int(m_table->rowCount());
}

int CsvPreviewModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_table ? 0 : int(m_table->columns().size());
}

QVariant CsvPreviewModel::data(const QModelIndex& index, int role) const
{
    if (!m_table || !index.isValid() || role != Qt::DisplayRole)
        return {};
    const std::string_view cell = m_table->cell(std::size_t(index.row()), std::size_t(index.column()));
    return QString::fromUtf8(cell.data(), qsizetype(cell.size()));
}

QVariant CsvPreviewModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (o == Qt::Horizontal && m_table && section < int(m_table->columns().size()))
        return QString::fromStdString(m_table->columns()[std::size_t(section)]);
    if (o == Qt::Vertical)
        return section + 1;
    return {};
}
