#pragma once
// The demo project a new user opens first: the bundled demo shop's requests,
// data set, scenario and an environment, and the mock server that stands in
// for the shop, kept in the project as its rules (ProjectMock starts it when
// the project opens, wherever its port lands).
#include <QString>

namespace DemoProject {

// Where the demo project lives: the user's data folder.
QString defaultPath();
// Creates the demo project at `path`, or brings an existing one up to date
// without touching what the user changed or added: its mock's rules are
// (re)stored, nothing else. Returns false with `error`.
bool ensure(const QString& path, QString& error);

} // namespace DemoProject
