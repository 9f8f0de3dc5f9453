#pragma once
// The project's scheduled scenarios as the workbench lists them (Runs →
// Schedules): scenario, schedule, whether its systemd timer is installed (as
// stampede-cli schedule install names it), and its last run and verdict.
#include <QList>
#include <QStringList>

namespace stampede {
class ProjectStore;
}

QList<QStringList> scheduleRows(stampede::ProjectStore& store);
