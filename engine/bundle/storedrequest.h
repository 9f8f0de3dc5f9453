#pragma once
// A project's request item as the workbench keeps it, made into a scenario
// step as written: the one reading of a stored request for a run, used by the
// workbench (models/requestitem.h: "add to scenario", Send) and by the
// command line (run PROJECT.stampede@Collection/Folder). Nothing is rendered
// here: ${…} stays, the engine expands and encodes it when it sends.
//
// The payload is a JSON object: method, url, headers [{name, value}], body,
// bodyMode (raw, json, urlencoded, multipart), form [{name, value}], auth
// ({type: basic, user, password} or {type: bearer, token}), timeoutMs,
// insecure, checks and extract (in the scenario's own form), preRequestScript and
// testScript (Postman's JavaScript); or, with kind
// "grpc": target, method, data, metadata, deadlineMs, descriptors (base64),
// insecure, and for streaming methods messages (JSON strings sent after data),
// receive, match, intervalMs, requestReply; or, with kind "websocket": url (ws:// or wss://), headers,
// protocols, messages [{text} or {binary: base64}], receive, requestReply,
// deflate, timeoutMs; or, with kind "sse": url, headers, receive, event, reconnects,
// timeoutMs.
#include <string>

namespace stampede {

namespace v1 {
class Step;
}

// The request's timeout when it names none (the workbench's default).
constexpr int kStoredRequestTimeoutMs = 30000;
constexpr int kStoredCallDeadlineMs = 10000;

// The step named `name` that runs the stored request `payload`; false with
// `error` when the payload is not a request the workbench wrote.
bool storedRequestStep(const std::string& payload, const std::string& name, v1::Step& out, std::string& error);

// A step that runs a project's request (v1::Step.request_item) made what that
// request says now: its request (or call, or stream), name, scripts, checks
// and extractions from `payload` (the request item called `name`); its own
// group, repeat, think time, retry, rendezvous, on_error and folder kept.
// False with `error` (the step unchanged) when the payload cannot be read.
bool followStoredRequest(const std::string& payload, const std::string& name, v1::Step& step, std::string& error);

} // namespace stampede
