#pragma once
// The runtime's own part of every realm (builtins.cpp): natives on OpenSSL
// and the JavaScript prelude that turns them into CryptoJS, btoa and atob.
#include <js/TypeDecls.h>

namespace stampede::script {

// Defines the prelude's natives on `global` (the prelude removes them).
bool defineNatives(JSContext* cx, JS::HandleObject global);
// The prelude, run once in every new realm after defineNatives().
const char* preludeSource();
// Postman's `pm` API (pmprelude.cpp), run in every new realm after it.
const char* pmPreludeSource();

} // namespace stampede::script
