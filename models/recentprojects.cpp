#include "recentprojects.h"

#include "projecttreemodel.h"

#include "store/projectstore.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QSettings>

namespace {
const QString kKey = QStringLiteral("recentProjects");

} // namespace

QStringList RecentProjects::paths()
{
    return QSettings().value(kKey).toStringList();
}

void RecentProjects::remember(const QString& path)
{
    QStringList recent = paths();
    const QString abs = QFileInfo(path).absoluteFilePath();
    recent.removeAll(abs);
    recent.prepend(abs);
    QSettings().setValue(kKey, recent.mid(0, kMax));
}

QList<RecentProject> RecentProjects::list()
{
    QList<RecentProject> out;
    for (const QString& path : paths()) {
        RecentProject p;
        p.path = path;
        p.name = QFileInfo(path).completeBaseName();
        p.exists = QFileInfo::exists(path);
        if (!p.exists) {
            p.lastRun = QCoreApplication::translate("RecentProjects", "the file is gone");
        } else {
            const auto last = stampede::ProjectStore::peekLastRun(path.toStdString());
            if (!last.project) {
                p.lastRun = QCoreApplication::translate("RecentProjects", "not readable as a project");
            } else if (!last.any) {
                p.lastRun = QCoreApplication::translate("RecentProjects", "no run yet");
            } else {
                const QDateTime started =
                    QDateTime::fromString(QString::fromStdString(last.started), Qt::ISODateWithMs).toLocalTime();
                p.lastRun = QCoreApplication::translate("RecentProjects", "last run: %1, %2, %3")
                                .arg(QString::fromStdString(last.name),
                                     started.isValid() ? started.toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                                                       : QString::fromStdString(last.started),
                                     ProjectTreeModel::verdictText(last.status, last.passed));
            }
        }
        out.append(p);
    }
    return out;
}
