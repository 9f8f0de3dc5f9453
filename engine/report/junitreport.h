#pragma once
// A run as JUnit XML (Jenkins' xUnit schema, tests/integration/data/junit-10.xsd). A scenario's run is one
// suite: a case per threshold and per check. A collection's run (judged by its tests) has newman's shape, so
// that a CI job reads it as it read newman's: a suite per request named by its folders ("Users / Admin /
// Create"), a case per test with its time and the failure's message.
#include "runsummary.h"

#include <string>

namespace stampede {

std::string exportJUnit(const RunSummary& summary);

// Text made safe for an XML attribute or element: markup escaped, invalid UTF-8 and the control characters
// XML 1.0 cannot hold written as \xHH.
std::string escapeXml(const std::string& s);
// newman's class name of a suite: its words, each capitalized, ASCII letters and digits only ("F1 / F1.R1" is
// "F1F1R1"); "" when none is left.
std::string junitClassName(const std::string& name);

} // namespace stampede
