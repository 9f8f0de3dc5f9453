#pragma once
// The scenario designer's "Test" of a notification: a test message posted to one of the scenario's "notify"
// entries, as a run would post it (output/notify.h), its ${name}s from the scenario's constants and the
// workbench's current environment.
#include "scenariocheck.h"

#include <QByteArray>
#include <QString>

struct NotifyTestResult
{
    bool ok = false;
    QString said; // what came back ("HTTP 200", "HTTP 200, errcode 310000: sign not match"), or the fault
};

// Blocking (a post with a 5 s timeout): call it off the GUI thread.
NotifyTestResult sendTestNotification(const QByteArray& scenarioJson, int entry,
                                      const ScenarioCheck::EnvironmentChoice& environments);
