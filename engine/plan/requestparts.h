#pragma once
// The parts of an HTTP request that are written in the user's words and made
// into bytes only when the request is sent: a form's fields (urlencoded or
// multipart) and the Authorization (Basic's user and password, a Bearer
// token), each of which may hold ${…}. What the user wrote is what the
// project, a bundle and the scenario keep; the engine expands and encodes it
// at send time, for a run and for the workbench's Send alike.
#include "core/template.h"
#include "scenarioplan.h"

#include <memory>

#include <string>

namespace stampede {

namespace v1 {
class Form;
class HttpAuth;
} // namespace v1

class StepContext;

// Every multipart body this engine writes uses this boundary: the same
// request always encodes to the same bytes.
inline constexpr const char* kFormBoundary = "stampede-form-boundary-7d1f3a";

// `form` as a body template: urlencoded names and values percent-encoded
// after expansion (a literal's bytes at once), joined by = and &; multipart
// as form-data parts. `contentType` is what the encoding sends. False after
// a fault reported through `ctx`.
// A multipart form's file (Form.files) is a part of its own with its bytes
// as they are, in its field's place; read here (relative to the scenario) or
// taken from the bundle's inline copy. The boundary is kFormBoundary unless a
// file holds it (then kFormBoundary-1, -2...).
bool compileForm(const v1::Form& form, const std::string& field, StepContext& ctx, Template& body,
                 std::string& contentType);

// The Authorization a request's `auth` makes.
struct AuthPlan
{
    // The whole header value when it can be known now (a Bearer token
    // template, or Basic with no per-iteration value, folded to base64).
    Template value;
    // Basic with per-iteration values: user:password, expanded then encoded
    // as base64 after "Basic " when the request is rendered.
    Template basic;
    bool perIteration = false; // `basic` is used, `value` is not
    // Digest: no header now; the step's Digest hook answers the server's challenge (`value` is not used).
    std::shared_ptr<DigestPlan> digest;
};
bool compileAuth(const v1::HttpAuth& auth, const std::string& field, StepContext& ctx, AuthPlan& out);

} // namespace stampede
