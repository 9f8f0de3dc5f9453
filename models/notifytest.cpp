#include "notifytest.h"

#include "bundle/environment.h"
#include "bundle/projectscenario.h"
#include "core/durationtext.h"
#include "output/notify.h"
#include "plan/scenarioplan.h"

#include "stampede/v1/scenario.pb.h"

NotifyTestResult sendTestNotification(const QByteArray& scenarioJson, int entry,
                                      const ScenarioCheck::EnvironmentChoice& environments)
{
    NotifyTestResult out;
    stampede::v1::Scenario scenario;
    std::string error;
    if (!stampede::parseScenarioJson(scenarioJson.toStdString(), scenario, error)) {
        out.said = QString::fromStdString(error);
        return out;
    }
    for (const auto& [name, payload] : environments.environments)
        if (name == environments.current) {
            stampede::v1::Environment e;
            if (stampede::environmentFromJson(name.toStdString(), payload.toStdString(), e, error))
                stampede::applyEnvironment(scenario, e);
        }
    std::vector<stampede::NotifyTarget> targets;
    if (!stampede::scenarioNotifyTargets(scenario, targets, error)) {
        out.said = QString::fromStdString(error);
        return out;
    }
    if (entry < 0 || entry >= int(targets.size())) {
        out.said = QStringLiteral("no such webhook");
        return out;
    }
    std::string said;
    out.ok = stampede::postNotification(targets[std::size_t(entry)], stampede::notifyTest(scenario.name()),
                                        stampede::wallMillis(), said);
    out.said = QString::fromStdString(said);
    return out;
}
