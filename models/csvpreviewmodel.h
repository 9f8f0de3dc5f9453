#pragma once
// A CSV data set as a table, for the data-set editor's preview. The encoding,
// the delimiter and whether the first row names the columns are settings the
// user sees: "auto" values are detected once and shown, never guessed silently.
#include <QAbstractTableModel>

#include <memory>

namespace stampede {
class CsvTable;
}

class CsvPreviewModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    explicit CsvPreviewModel(QObject* parent = nullptr);
    ~CsvPreviewModel() override;

    // `delimiter` 0: detect (',', ';', tab or '|', by the first line).
    // `encoding`: "UTF-8" or "GB18030". Returns false with errorString() set.
    bool load(const QByteArray& data, QChar delimiter = QChar(), const QString& encoding = QStringLiteral("UTF-8"));
    QChar delimiter() const { return m_delimiter; }
    QString text() const { return m_text; }
    QString errorString() const { return m_error; }
    QStringList columns() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    static QChar detectDelimiter(const QString& firstLine);

private:
    std::unique_ptr<stampede::CsvTable> m_table;
    QChar m_delimiter = QLatin1Char(',');
    QString m_text;
    QString m_error;
};
