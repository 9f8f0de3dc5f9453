#pragma once
#include <QString>

// Creates (or reuses) the demo project in the user's data folder from the
// bundled demo scenario, with an environment pointing at `mockUrl`.
// Returns the project's path, or an empty string with `error` set.
QString ensureDemoProject(const QString& mockUrl, QString& error);

class QObject;
// "Open the demo" without a mock server given: starts `stampede-cli mock` with
// the demo's rules as a child of `owner` (stopped with it; started once),
// then ensureDemoProject() with its URL. Empty with `error` when it cannot.
QString startDemo(QObject* owner, QString& error);
