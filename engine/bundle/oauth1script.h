#pragma once
// Postman's OAuth 1.0 helper as a request's last pre-request script: the request signed as newman signs it
// (postman-runtime over node-oauth1), after its own scripts ran and with its variables resolved, at each
// send: a fresh nonce and timestamp unless the helper fixes them; HMAC-SHA1, HMAC-SHA256 or PLAINTEXT; the
// parameters in an Authorization header (addParamsToHeader) or the query. The stored request keeps the
// helper's fields; this text is made when a step is made of it (bundle/storedrequest.h).
#include <map>
#include <string>

namespace stampede {

// The helper's fields by Postman's names (consumerKey, consumerSecret, token, tokenSecret, signatureMethod,
// timestamp, nonce, version, realm, callback, verifier, addParamsToHeader, addEmptyParamsToSign).
using OAuth1Fields = std::map<std::string, std::string>;
// The fields a helper may have; others are not read.
bool isOAuth1Field(const std::string& name);
// The script that signs the request (JavaScript for the step's sandbox).
std::string oauth1Script(const OAuth1Fields& fields);

} // namespace stampede
