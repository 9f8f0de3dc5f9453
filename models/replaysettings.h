#pragma once
// A replay step's settings as the designer edits them: offsets written as
// the command line takes them ("query:uid+1000000, json:orderNo~-${copy}")
// and the JSON a scenario carries, checked by the engine's own parser; and a
// new replay scenario for a project's traffic set.
#include <QByteArray>
#include <QJsonArray>
#include <QString>

namespace ReplaySettings {
// Offsets text to the step's `offsets`; false with `error` naming the bad one.
bool offsetsFromText(const QString& text, QJsonArray& out, QString& error);
QString offsetsToText(const QJsonArray& offsets);
// A scenario replaying traffic set `traffic` to `target`, at its own speed.
QByteArray newScenario(const QString& traffic, const QString& target);
} // namespace ReplaySettings
