#pragma once
// The engine's own validation and export of a scenario, for the designer:
// each fault names its field ("load.stages[1].target") so the editor can show
// it beside the field it concerns.
#include <QByteArray>
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <functional>

namespace ScenarioCheck {
// A project's traffic set by name, encoded as the engines take it (empty when none): for replay steps.
using TrafficSource = std::function<QByteArray(const QString& name)>;
// The project's environments (name, payload: a JSON object of values) and the current one's name.
struct EnvironmentChoice
{
    QList<QPair<QString, QByteArray>> environments;
    QString current;
};
using EnvironmentSource = std::function<EnvironmentChoice()>;
// (field, message) pairs; empty when the scenario is valid. Hosts are not looked up. With
// `environments`, the current one is applied first, as a run in the workbench applies it.
QList<QPair<QString, QString>> validate(const QByteArray& scenarioJson, const QString& baseDir = QString(),
                                        const TrafficSource& traffic = {});
// What a valid scenario will do that its author may not mean ("steps[2]: ${token} is used before any step
// extracts it..."): warnings, not faults; empty when the scenario is not valid.
QStringList warnings(const QByteArray& scenarioJson, const QString& baseDir = QString(),
                     const TrafficSource& traffic = {});
// Both from one compile (the designer checks on every edit; a replay's set is decoded once).
struct Result
{
    QList<QPair<QString, QString>> problems;
    QStringList warnings; // only when there is no problem
};
Result check(const QByteArray& scenarioJson, const QString& baseDir = QString(), const TrafficSource& traffic = {},
             const EnvironmentChoice& environments = {});
// Each ${name} the scenario's steps use and the scope its value comes from in
// a run with the current environment (bundle/environment.h): "extracted",
// "data set", "generator", "scenario", "environment", or "" (nothing defines it).
QList<QPair<QString, QString>> scopes(const QByteArray& scenarioJson, const EnvironmentChoice& environments);
// The first value of each of the scenario's variables (${name}, a CSV's ${name.column} from its first row),
// as the builder resolves names; empty when the scenario does not parse.
QHash<QString, QString> variableSamples(const QByteArray& scenarioJson, const QString& baseDir);
// A scenario file's parse fault as protobuf words it ("(load.closed.users): invalid value "x" for type
// TYPE_UINT32", "(steps[0]) foo: Cannot find field.") as (field, message) in the user's terms: the field's path in
// the file's own names, a message without a protobuf type ("\"x\" is not a whole number", "no field named
// \"foo\" here"). A fault of another shape comes back as (empty, as it was).
QPair<QString, QString> parseFault(const QString& error);
// Where a field path points, in the designer's words: "steps[1].request.url" -> Step "login" · URL,
// "load.open.rate" -> Load · rate, "thresholds[2].expr" -> Threshold "p99 < 500ms"; `scenarioJson` names the
// steps and thresholds. A path it does not know comes back as it is.
QString fieldLabel(const QString& path, const QByteArray& scenarioJson);
// Whether the JSON is a test plan (it holds scenarios).
bool isPlan(const QByteArray& json);
// A part of plan `planJson` as it compiles and runs: scenario `part` (0, 1, ...) with the plan's
// defaults under its own fields, or the setup (PlanSetup) or the teardown (PlanTeardown) as the run
// of its own it is; the plan as it came when it does not parse.
constexpr int PlanSetup = -1;
constexpr int PlanTeardown = -2;
QByteArray planPart(const QByteArray& planJson, int part);
// Writes a .stbundle (scenario with its CSV data and replayed traffic, digest, format version), whole or not at
// all. It carries `environments.environments`; the scenario's constants take `chosen`'s values (empty: none).
bool exportBundle(const QByteArray& scenarioJson, const QString& baseDir, const QString& path, QString* error,
                  const TrafficSource& traffic = {}, const EnvironmentChoice& environments = {},
                  const QString& chosen = {});
} // namespace ScenarioCheck
