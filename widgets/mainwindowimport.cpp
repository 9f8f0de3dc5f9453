// The main window's collection imports (Postman, OpenAPI, HAR, curl) and
// the Postman export.
#include "mainwindow.h"

#include "collectionimport.h"
#include "projecttreemodel.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageBox>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTreeView>

using stampede::ItemKind;

void MainWindow::askImportCollection()
{
    if (!m_store)
        return showError(tr("Open or create a project first: the requests are stored in it."));
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Import Collection"), QString(),
        tr("Collections (*.json *.yaml *.yml *.har *.sh *.curl *.txt);;Postman collections (*.json);;"
           "OpenAPI 3 (*.json *.yaml *.yml);;HAR (*.har);;curl commands (*.sh *.curl *.txt);;All files (*)"));
    if (!path.isEmpty())
        importCollectionFile(path);
}

bool MainWindow::importCollectionFile(const QString& path, QString* report)
{
    if (!m_store) {
        showError(tr("Open or create a project first: the requests are stored in it."));
        return false;
    }
    QFile f(path);
    if (f.size() > kMaxCollectionBytes) {
        showError(tr("%1 is larger than 64 MiB.").arg(QFileInfo(path).fileName()));
        return false;
    }
    if (!f.open(QIODevice::ReadOnly)) {
        showError(tr("Cannot read %1: %2").arg(path, f.errorString()));
        return false;
    }
    const CollectionImport c = importCollection(f.readAll(), QFileInfo(path).fileName(), path,
                                                QFileInfo(QString::fromStdString(m_store->path())).absolutePath());
    QString error;
    const qint64 id = writeCollection(*m_store, c, error);
    if (!id) {
        showError(tr("Nothing was imported from %1: %2").arg(QFileInfo(path).fileName(), error));
        return false;
    }
    m_model->refreshItems();
    const QModelIndex made = m_filter->mapFromSource(m_model->indexForId(id));
    m_tree->setCurrentIndex(made);
    m_tree->expand(made);
    QString text = (c.requestCount() == 1 ? tr("1 request imported from %2 (%3).")
                                          : tr("%1 requests imported from %2 (%3).").arg(c.requestCount()))
                       .arg(QFileInfo(path).fileName(), c.format);
    if (!c.variables.isEmpty())
        text +=
            u' ' + tr("Its variables are in the environment \"%1\".").arg(m_model->indexForId(id).data().toString());
    const QString details = c.notImported.join(QLatin1Char('\n'));
    if (report) {
        *report = text + (details.isEmpty() ? QString() : u'\n' + details);
    } else if (!details.isEmpty()) {
        QMessageBox box(QMessageBox::Information, tr("Import Collection"), text, QMessageBox::Ok, this);
        box.setInformativeText(tr("Some parts could not be imported (%1); see the details.").arg(c.notImported.size()));
        box.setDetailedText(details);
        box.exec();
    }
    statusBar()->showMessage(text, 6000);
    return true;
}

void MainWindow::askExportPostman()
{
    if (!m_store)
        return;
    // the collection the selected item is in
    QModelIndex i = m_filter->mapToSource(m_tree->currentIndex());
    while (i.parent().isValid())
        i = i.parent();
    if (!i.isValid() || i.data(ProjectTreeModel::KindRole).toInt() != int(ItemKind::Collection))
        return showError(tr("Select a collection (or a request in it) to export."));
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Collection to Postman"),
                                                      i.data().toString() + QStringLiteral(".postman_collection.json"),
                                                      tr("Postman collections (*.json)"));
    if (!path.isEmpty())
        exportCollectionToPostman(i.data(ProjectTreeModel::IdRole).toLongLong(), path);
}

// The values a collection's requests use, as Postman's collection variables:
// the environment named after it (an import makes one), else the current
// one; a secret's value is left out (its name stays, empty).
QList<QPair<QString, QString>> MainWindow::collectionVariables(qint64 collectionId) const
{
    const QString name = m_model->indexForId(collectionId).data().toString();
    QModelIndex env;
    for (int r = 0; r < m_model->rowCount(); ++r) {
        const QModelIndex i = m_model->index(r, 0);
        if (i.data(ProjectTreeModel::KindRole).toInt() == int(ItemKind::Environment) && i.data().toString() == name)
            env = i;
    }
    if (!env.isValid() && m_environments->currentData().toLongLong())
        env = m_model->indexForId(m_environments->currentData().toLongLong());
    QList<QPair<QString, QString>> out;
    if (!env.isValid())
        return out;
    const QJsonObject o = QJsonDocument::fromJson(env.data(ProjectTreeModel::PayloadRole).toByteArray()).object();
    QStringList secrets;
    for (const auto& s : o.value(QStringLiteral("$secrets")).toArray())
        secrets << s.toString();
    for (auto it = o.begin(); it != o.end(); ++it)
        if (!it.key().startsWith(QLatin1Char('$')))
            out.append({it.key(), secrets.contains(it.key()) ? QString() : it.value().toString()});
    return out;
}

bool MainWindow::exportCollectionToPostman(qint64 id, const QString& path, QString* report)
{
    if (!m_store)
        return false;
    if (QFileInfo(path).canonicalFilePath() == QFileInfo(QString::fromStdString(m_store->path())).canonicalFilePath()) {
        showError(tr("The export would overwrite the project itself."));
        return false;
    }
    QStringList skipped;
    const QByteArray json = exportPostman(*m_store, id, collectionVariables(id), skipped);
    QSaveFile f(path); // whole or not at all
    if (!f.open(QIODevice::WriteOnly) || f.write(json) != json.size() || !f.commit()) {
        showError(tr("Cannot write %1: %2").arg(path, f.errorString()));
        return false;
    }
    const QString text =
        skipped.isEmpty()
            ? tr("Exported to %1.").arg(QFileInfo(path).fileName())
            : tr("Exported to %1 without: %2").arg(QFileInfo(path).fileName(), skipped.join(QStringLiteral("; ")));
    if (report)
        *report = text;
    statusBar()->showMessage(text, 6000);
    return true;
}
