#pragma once
// The resolve step of a run, apart from its compile: every step's server
// looked up once (DNS), and for a plan whose http is left at auto over TLS,
// the first server asked by ALPN whether it speaks HTTP/2; and what the
// compile is lent to ask a gRPC server for its schema (reflection). The compile
// (plan/scenarioplan.h) names the servers and looks nothing up, so what only
// validates a scenario (the designer, a bundle, a saved report, Send) does no
// I/O; an engine that runs a plan calls this first.
#include "plan/scenarioplan.h"

#include <vector>

namespace stampede {

// Looks up the servers of `plan` (each step's; a plan of several scenarios,
// each scenario's and the run's copies of them) and settles its HTTP version
// by ALPN where the compile left that to the server. A name that does not
// resolve is a fault under the field that names it (`steps[1].request.url`),
// except in a collection run (newman's: that request fails as a connect
// error, the run goes on; plan.unresolvedHosts says why, once each). A server
// that cannot be reached for the ALPN probe is left to the run, which reports
// it request by request. False when `errors` gained a fault.
bool resolveTargets(ScenarioPlan& plan, std::vector<PlanError>& errors);

// How an engine that runs a plan lends its compile a gRPC server's schema by reflection (PlanOptions::reflection):
// the server is asked (grpc/reflection.h), once per target and TLS choice.
PlanOptions::SchemaAsker serverReflection();

} // namespace stampede
