#pragma once
// Where a run's agents are, as the command line and the workbench name them:
// "host:port" (one agent), "dns:NAME:PORT" (every A and AAAA record of NAME:
// a Kubernetes headless Service gives one per pod), "file:PATH" (one
// host:port per line, # comments) or "joined" (those that joined by
// themselves: agentregistry.h). Names are looked up now; with a minimum,
// the list is looked up again each second until that many agents accept a
// connection, or the wait is over.
#include "core/clock.h"

#include <map>
#include <string>
#include <vector>

namespace stampede {

class AgentRegistry;

// Every agent `specs` names, each once, in a stable order (a spec's own
// order; a name's addresses sorted). "joined": the agents that joined
// `joined` (agentregistry.h; none is an error without one). False with
// `error` naming the spec.
bool expandAgents(const std::vector<std::string>& specs, std::vector<std::string>& out, std::string& error,
                  const AgentRegistry* joined = nullptr);

// The agents of `specs` that accept a TCP connection within `timeout`
// (tried together).
std::vector<std::string> answeringAgents(const std::vector<std::string>& agents, Nanos timeout);

// Looks `specs` up (again each second of `clock`) until at least `minimum`
// agents answer or `wait` has passed on it; the answering agents in `out`.
// False with `error` saying how many answered, of how many found.
bool awaitAgents(const std::vector<std::string>& specs, std::size_t minimum, Nanos wait, std::vector<std::string>& out,
                 std::string& error, Clock& clock, const AgentRegistry* joined = nullptr);

// "zone=hz-a" into its key and value: a key of letters, digits, - _ . /
// (at most 63), a value of printable ASCII (at most 63); false with `error`.
bool parseAgentLabel(const std::string& text, std::string& key, std::string& value, std::string& error);

// The agents whose labels (asked with Hello) hold every one of `wanted`;
// false with `error` when an agent does not answer.
bool agentsWithLabels(const std::vector<std::string>& agents, const std::map<std::string, std::string>& wanted,
                      const std::string& token, const std::string& caFile, std::vector<std::string>& out,
                      std::string& error, const std::string& tlsName = {});

// The most agents one list may name (a file, a name's records).
constexpr std::size_t kMaxAgents = 1024;

} // namespace stampede
