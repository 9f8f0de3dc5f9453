#pragma once
// "Import traffic…": the file, its format (combined, HAR, or an nginx
// log_format), the masking rules, and a preview of the first requests before
// and after masking; Import reads it with a progress bar that can cancel.
#include "trafficimporter.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace stampede {
class ProjectStore;
}

class TrafficImportDialog : public QDialog
{
    Q_OBJECT
public:
    TrafficImportDialog(stampede::ProjectStore& store, QWidget* parent = nullptr);
    TrafficImporter::Request request() const;
    void setFile(const QString& path);
    QTableWidget* preview() const { return m_preview; }
    QString problem() const;
    // Runs the import (as Import does) and returns the stored item's id, 0 when none.
    qint64 importNow();

private:
    void refresh();

    stampede::ProjectStore& m_store;
    QLineEdit* m_file;
    QComboBox* m_format;
    QLineEdit* m_logFormat;
    QPlainTextEdit* m_masks;
    QLineEdit* m_name;
    QTableWidget* m_preview;
    QLabel* m_problem;
    QPushButton* m_import;
    QString m_maskKey;
};
