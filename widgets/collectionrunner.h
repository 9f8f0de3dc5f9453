#pragma once
// The workbench's collection runner (Postman's Runner): a dialog for the
// run's choices, and the view that lists each request and each test as the
// run goes, then as its summary judges them (the verdict the exit code and
// every export give), for a run going on or a saved one.
#include <QDialog>
#include <QWidget>

#include "collectionrun.h"

class CollectionResultsModel;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTreeView;
class RunSession;

namespace stampede {
struct RunSummary;
}

class CollectionRunDialog : public QDialog
{
    Q_OBJECT
public:
    // `title`: the collection or folder ("Shop / Checkout"); `environments`: the project's, `current` chosen.
    CollectionRunDialog(const QString& title, const QStringList& environments, const QString& current,
                        QWidget* parent = nullptr);
    CollectionRunChoice choice() const;
    // For tests and the dialog's Choose button: a data file read now (its rows become the iterations).
    bool setDataFile(const QString& path);
    QString dataStatus() const;

private:
    QComboBox* m_environment;
    QSpinBox* m_iterations;
    QLineEdit* m_dataFile;
    QLabel* m_dataStatus;
    QSpinBox* m_delay;
    QCheckBox* m_bail;
    QPushButton* m_run;
};

class CollectionRunView : public QWidget
{
    Q_OBJECT
public:
    explicit CollectionRunView(QWidget* parent = nullptr);
    // Follows a run going on: its requests first, counts each second, the summary at its end.
    void follow(RunSession* session);
    // A finished or saved run's results.
    void showSummary(const stampede::RunSummary& summary);
    CollectionResultsModel* results() const { return m_results; }
    QTreeView* tree() const { return m_tree; }
    QString statusText() const;

private:
    void updateStatus();
    CollectionResultsModel* m_results;
    QSortFilterProxyModel* m_filter;
    QTreeView* m_tree;
    QLabel* m_status;
    QLabel* m_verdict;
    QCheckBox* m_failedOnly;
    QPushButton* m_stop;
};
