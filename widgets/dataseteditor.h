#pragma once
// A CSV data set: import a file, see it as a table with the encoding, the
// delimiter and the header row shown (and changeable), and where each column
// is used. Saved in the project as {"csv": text, "delimiter": ",", "encoding": ...}.
#include <QWidget>

class CsvPreviewModel;
class QComboBox;
class QLabel;
class QTableView;

class DataSetEditor : public QWidget
{
    Q_OBJECT
public:
    explicit DataSetEditor(QWidget* parent = nullptr);
    void setJson(const QByteArray& payload);
    QByteArray json() const;
    // Loads raw file bytes, as "Import CSV…" does after the file dialog.
    bool importBytes(const QByteArray& data);
    CsvPreviewModel* preview() const { return m_model; }
    QString statusText() const;
    // The requests and scenarios that use this data set's columns.
    void setUsage(const QStringList& users);

Q_SIGNALS:
    void changed(const QByteArray& payload);

private:
    void reparse();
    CsvPreviewModel* m_model;
    QTableView* m_view;
    QComboBox* m_encoding;
    QComboBox* m_delimiter;
    QLabel* m_status;
    QLabel* m_usage;
    QByteArray m_raw;
};
