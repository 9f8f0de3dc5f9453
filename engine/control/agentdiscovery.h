#pragma once
// Where a run's agents are, as the command line and the workbench name them:
// "host:port" (one agent), "dns:NAME:PORT" (every A and AAAA record of NAME:
// a Kubernetes headless Service gives one per pod) or "file:PATH" (one
// host:port per line, # comments). Names are looked up now; with a minimum,
// the list is looked up again each second until that many agents accept a
// connection, or the wait is over.
#include "core/clock.h"

#include <string>
#include <vector>

namespace stampede {

// Every agent `specs` names, each once, in a stable order (a spec's own
// order; a name's addresses sorted). False with `error` naming the spec.
bool expandAgents(const std::vector<std::string>& specs, std::vector<std::string>& out, std::string& error);

// The agents of `specs` that accept a TCP connection within `timeout`
// (tried together).
std::vector<std::string> answeringAgents(const std::vector<std::string>& agents, Nanos timeout);

// Looks `specs` up (again each second) until at least `minimum` agents
// answer or `wait` has passed; the answering agents in `out`. False with
// `error` saying how many answered, of how many found.
bool awaitAgents(const std::vector<std::string>& specs, std::size_t minimum, Nanos wait, std::vector<std::string>& out,
                 std::string& error);

// The most agents one list may name (a file, a name's records).
constexpr std::size_t kMaxAgents = 1024;

} // namespace stampede
