#include "scenariocheck.h"

#include "bundle/bundlefile.h"
#include "bundle/environment.h"
#include "bundle/projectscenario.h"
#include "core/template.h"
#include "plan/checkplan.h"
#include "plan/scenarioplan.h"
#include "plan/testplan.h"
#include "resolve/scriptsyntax.h"
#include "stampede/v1/bundle.pb.h"
#include "stampede/v1/scenario.pb.h"

#include <QSaveFile>

#include <google/protobuf/util/json_util.h>

#include <optional>

namespace {

stampede::PlanOptions checkOptions(const QString& baseDir, const ScenarioCheck::TrafficSource& traffic)
{
    stampede::PlanOptions options;
    options.baseDir = baseDir.toStdString();
    if (traffic)
        options.trafficSet = [traffic](const std::string& name) {
            return traffic(QString::fromStdString(name)).toStdString();
        };
    return options;
}

// The current environment, as the engine reads it (null when none is chosen or it does not read).
std::optional<stampede::v1::Environment> currentEnvironment(const ScenarioCheck::EnvironmentChoice& c)
{
    for (const auto& [name, payload] : c.environments) {
        if (name != c.current || c.current.isEmpty())
            continue;
        stampede::v1::Environment e;
        std::string error;
        if (stampede::environmentFromJson(name.toStdString(), payload.toStdString(), e, error))
            return e;
    }
    return std::nullopt;
}

} // namespace

ScenarioCheck::Result ScenarioCheck::check(const QByteArray& scenarioJson, const QString& baseDir,
                                           const TrafficSource& traffic, const EnvironmentChoice& environments)
{
    Result out;
    stampede::v1::Scenario s;
    std::string error;
    if (!stampede::parseScenarioJson(scenarioJson.toStdString(), s, error)) {
        out.problems.append({QString(), QString::fromStdString(error)});
        return out;
    }
    if (const auto env = currentEnvironment(environments))
        stampede::applyEnvironment(s, *env);
    std::vector<stampede::PlanError> errors;
    const auto plan = stampede::compileScenario(s, checkOptions(baseDir, traffic), errors);
    stampede::checkScriptSyntax(s, errors); // a script's syntax: SpiderMonkey's parser, beside the compile
    for (const auto& e : errors)
        out.problems.append({QString::fromStdString(e.field), QString::fromStdString(e.message)});
    if (plan)
        for (const auto& w : stampede::flowWarnings(*plan))
            out.warnings << QString::fromStdString(w.text());
    return out;
}

QList<QPair<QString, QString>> ScenarioCheck::scopes(const QByteArray& scenarioJson,
                                                     const EnvironmentChoice& environments)
{
    QList<QPair<QString, QString>> out;
    stampede::v1::Scenario s;
    std::string error;
    if (!stampede::parseScenarioJson(scenarioJson.toStdString(), s, error))
        return out;
    const auto env = currentEnvironment(environments);
    QStringList seen;
    for (const auto& step : s.steps()) {
        std::string text;
        (void)google::protobuf::util::MessageToJsonString(step, &text); // every field a step may write ${…} in
        for (const std::string& full : stampede::Template::names(text)) {
            const std::string base = full.substr(0, full.find('.'));
            const QString shown = QString::fromStdString(full.find('.') == std::string::npos ? full : base + ".*");
            if (seen.contains(shown))
                continue;
            seen << shown;
            out.append({shown, QString::fromStdString(stampede::scopeOf(s, env ? &*env : nullptr, base))});
        }
    }
    return out;
}

QList<QPair<QString, QString>> ScenarioCheck::validate(const QByteArray& scenarioJson, const QString& baseDir,
                                                       const TrafficSource& traffic)
{
    return check(scenarioJson, baseDir, traffic).problems;
}

QStringList ScenarioCheck::warnings(const QByteArray& scenarioJson, const QString& baseDir,
                                    const TrafficSource& traffic)
{
    return check(scenarioJson, baseDir, traffic).warnings;
}

bool ScenarioCheck::exportBundle(const QByteArray& scenarioJson, const QString& baseDir, const QString& path,
                                 QString* error, const TrafficSource& traffic, const EnvironmentChoice& environments,
                                 const QString& chosen)
{
    stampede::v1::Scenario s;
    std::string err;
    stampede::v1::Bundle bundle;
    bool ok = stampede::parseScenarioJson(scenarioJson.toStdString(), s, err);
    for (int i = 0; ok && i < s.steps_size(); ++i) { // a project's traffic set travels as its requests
        if (!s.steps(i).has_replay() || s.steps(i).replay().traffic().empty() || !s.steps(i).replay().data().empty())
            continue;
        auto* r = s.mutable_steps(i)->mutable_replay();
        const QByteArray bytes = traffic ? traffic(QString::fromStdString(r->traffic())) : QByteArray();
        r->set_data(bytes.toStdString());
        if (bytes.isEmpty()) {
            err = "steps[" + std::to_string(i) + "].replay.traffic: the project has no traffic set named \"" +
                  r->traffic() + "\"";
            ok = false;
        }
    }
    std::vector<stampede::v1::Environment> envs;
    for (const auto& [name, payload] : environments.environments) {
        envs.emplace_back();
        ok = ok && stampede::environmentFromJson(name.toStdString(), payload.toStdString(), envs.back(), err);
    }
    if (!ok || !stampede::makeBundle(s, baseDir.toStdString(), "scenario", bundle, err) ||
        !stampede::carryEnvironments(bundle, envs, chosen.toStdString(), err)) {
        if (error)
            *error = QString::fromStdString(err);
        return false;
    }
    QSaveFile f(path); // written whole, then renamed over the old one
    const std::string bytes = stampede::encodeBundle(bundle);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size()) ||
        !f.commit()) {
        if (error)
            *error = f.errorString();
        return false;
    }
    return true;
}

QHash<QString, QString> ScenarioCheck::variableSamples(const QByteArray& scenarioJson, const QString& baseDir)
{
    QHash<QString, QString> out;
    stampede::v1::Scenario scenario;
    std::string error;
    if (!stampede::parseScenarioJson(scenarioJson.toStdString(), scenario, error))
        return out;
    scenario.clear_steps(); // only the variables are drawn
    stampede::PlanOptions options;
    options.baseDir = baseDir.isEmpty() ? std::string(".") : baseDir.toStdString();
    for (const auto& [name, value] : stampede::variableSamples(scenario, options))
        out.insert(QString::fromStdString(name), QString::fromStdString(value));
    return out;
}

bool ScenarioCheck::isPlan(const QByteArray& json)
{
    stampede::v1::Scenario s;
    std::string error;
    return stampede::parseScenarioJson(json.toStdString(), s, error) && stampede::isPlan(s);
}

QByteArray ScenarioCheck::planPart(const QByteArray& planJson, int part)
{
    stampede::v1::Scenario plan;
    std::string error;
    if (!stampede::parseScenarioJson(planJson.toStdString(), plan, error) ||
        (part >= 0 && part >= plan.scenarios_size()))
        return planJson;
    const stampede::v1::Scenario s =
        part >= 0 ? stampede::planScenario(plan, part) : stampede::phaseScenario(plan, part == PlanTeardown);
    std::string out;
    (void)google::protobuf::util::MessageToJsonString(s, &out, {});
    return QByteArray::fromStdString(out);
}
