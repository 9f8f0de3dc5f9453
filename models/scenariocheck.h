#pragma once
// The engine's own validation and export of a scenario, for the designer:
// each fault names its field ("load.stages[1].target") so the editor can show
// it beside the field it concerns.
#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace ScenarioCheck {
// (field, message) pairs; empty when the scenario is valid. Hosts are not looked up.
QList<QPair<QString, QString>> validate(const QByteArray& scenarioJson, const QString& baseDir = QString());
// What a valid scenario will do that its author may not mean ("steps[2]: ${token} is used before any step
// extracts it..."): warnings, not faults; empty when the scenario is not valid.
QStringList warnings(const QByteArray& scenarioJson, const QString& baseDir = QString());
// Writes a .stbundle (scenario with its CSV data, digest, format version).
bool exportBundle(const QByteArray& scenarioJson, const QString& baseDir, const QString& path, QString* error);
} // namespace ScenarioCheck
