#pragma once
// What a Postman script's run gives its natives (pmnatives.cpp): the run
// going on, as JsRuntime::runPm sets it for their calls.
#include "jsruntime.h"

#include <js/RootingAPI.h>
#include <js/TypeDecls.h>

#include <optional>
#include <string_view>

namespace stampede::script {

struct PmRun
{
    PmHost* host = nullptr;                           // null: no run going on
    const JS::PersistentRootedObject* user = nullptr; // its user's global (json()'s objects are that realm's)
    std::optional<std::string_view> body;             // the answer's body, once asked
};

// The run going on in `cx`'s runtime (jsruntime.cpp).
PmRun& pmRunOf(JSContext* cx);

// The global the sandbox's modules run in (made when first asked): in the
// shared compartment, so every user reaches their exports without wrappers,
// and not frozen as the shared realm is (modules assign to their own
// prototypes' toString and the like).
JSObject* modulesGlobal(JSContext* cx);

// A module of the sandbox loading (hold true, then false): its time is not
// counted in the run's budget, nor its memory in what the run may add
// (jsruntime.cpp).
void holdBudget(JSContext* cx, bool hold);

// Defines the natives (__pmVariables, __pmTest, ...) on the shared realm's global.
bool defineHostNatives(JSContext* cx, JS::HandleObject global);

// `text` (UTF-8) as a string; malformed sequences become U+FFFD, as a
// browser decodes them, rather than failing the run.
JSString* newString(JSContext* cx, std::string_view text);

} // namespace stampede::script
