#pragma once
#include <QString>

// Creates (or reuses) the demo project in the user's data folder from the
// bundled demo scenario, with an environment pointing at `mockUrl`.
// Returns the project's path, or an empty string with `error` set.
QString ensureDemoProject(const QString& mockUrl, QString& error);
