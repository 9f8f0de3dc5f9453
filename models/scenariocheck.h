#pragma once
// The engine's own validation and export of a scenario, for the designer:
// each fault names its field ("load.stages[1].target") so the editor can show
// it beside the field it concerns.
#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace ScenarioCheck {
// (field, message) pairs; empty when the scenario is valid. Hosts are not looked up.
QList<QPair<QString, QString>> validate(const QByteArray& scenarioJson, const QString& baseDir = QString());
// Writes a .stbundle (scenario with its CSV data, digest, format version).
bool exportBundle(const QByteArray& scenarioJson, const QString& baseDir, const QString& path, QString* error);
} // namespace ScenarioCheck
