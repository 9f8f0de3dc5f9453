#include "schedulelist.h"

#include "projecttreemodel.h"

#include "bundle/projectscenario.h"
#include "core/schedule.h"
#include "store/projectstore.h"
#include "store/runlog.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <map>

QList<QStringList> scheduleRows(stampede::ProjectStore& store)
{
    QList<QStringList> rows;
    const std::string project = QFileInfo(QString::fromStdString(store.path())).canonicalFilePath().toStdString();
    std::map<std::string, stampede::RunInfo> last; // the newest run of each scenario
    for (const stampede::RunInfo& r : stampede::RunLog(store).runs())
        last.try_emplace(r.name, r);
    for (const stampede::ScheduledScenario& s : stampede::projectSchedules(store)) {
        std::string error;
        const auto parsed = stampede::parseSchedule(s.schedule, error);
        const QString timer = QString::fromStdString(stampede::userUnitDir() + "/" +
                                                     stampede::scheduleUnitBase(project, s.item) + ".timer");
        const auto r = last.find(s.name);
        rows.append({QString::fromStdString(s.item),
                     parsed ? QString::fromStdString(parsed->text)
                            : QCoreApplication::translate("MainWindow", "not understood: %1")
                                  .arg(QString::fromStdString(s.schedule)),
                     QFileInfo::exists(timer) ? QCoreApplication::translate("MainWindow", "installed")
                                              : QCoreApplication::translate("MainWindow", "not installed"),
                     r == last.end() ? QCoreApplication::translate("MainWindow", "never run")
                                     : QStringLiteral("%1  %2").arg(QString::fromStdString(r->second.started).left(16),
                                                                    ProjectTreeModel::statusText(r->second.status))});
    }
    return rows;
}
