#include "oauth1script.h"

#include "core/text.h"

#include <algorithm>
#include <array>

namespace stampede {

namespace {

constexpr std::array<const char*, 13> kFields = {
    "consumerKey", "consumerSecret", "token",    "tokenSecret", "signatureMethod",   "timestamp",           "nonce",
    "version",     "realm",          "callback", "verifier",    "addParamsToHeader", "addEmptyParamsToSign"};

// The signing, as postman-runtime's oauth1 authorizer and node-oauth1 do it (read to learn, written here):
// the base string of the method, the URL without its query (scheme and host in lower case, a default port
// dropped) and every parameter (the query's, a urlencoded body's and the oauth_ ones) sorted by their
// percent-encoded name and value; the key the two secrets; the oauth_ parameters (and the signature) into
// the Authorization header in their own order, or into the query.
constexpr const char* kSigner = R"JS(
;(function (p) {
  const v = (k) => (p[k] === undefined ? '' : String(pm.variables.replaceIn(p[k])));
  const pe = (s) => encodeURIComponent(s == null ? '' : String(s))
    .replace(/!/g, '%21').replace(/\*/g, '%2A').replace(/'/g, '%27').replace(/\(/g, '%28').replace(/\)/g, '%29');
  const dp = (s) => { try { return decodeURIComponent(String(s).replace(/\+/g, ' ')); } catch (e) { return String(s); } };
  const method = v('signatureMethod') || 'HMAC-SHA1';
  const consumerSecret = v('consumerSecret');
  if (!v('consumerKey') || !consumerSecret || /^RSA/i.test(method)) return; // as Postman: nothing to sign with
  const emptyToo = v('addEmptyParamsToSign') === 'true';
  let nonce = v('nonce');
  if (!nonce.trim()) {
    const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    for (let i = 0; i < 11; i += 1) nonce += chars[Math.floor(Math.random() * chars.length)];
  }
  const timestamp = v('timestamp').trim() ? v('timestamp') : String(Math.floor(Date.now() / 1000));
  let signing = [['oauth_consumer_key', v('consumerKey')], ['oauth_token', v('token')],
                 ['oauth_signature_method', method], ['oauth_timestamp', timestamp], ['oauth_nonce', nonce],
                 ['oauth_version', v('version')]];
  if (!emptyToo) signing = signing.filter(([, x]) => String(x).trim() !== '');
  for (const [k, name] of [['callback', 'oauth_callback'], ['verifier', 'oauth_verifier']])
    if (v(k)) signing.push([name, v(k)]);
  let url = String(pm.variables.replaceIn(pm.request.url.toString()));
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(url)) url = 'http://' + url;
  const m = /^([^:\/?#]+):\/\/([^\/?#]*)([^?#]*)(?:\?([^#]*))?/.exec(url) || [];
  const scheme = (m[1] || 'http').toLowerCase();
  let authority = (m[2] || '').replace(/^[^@]*@/, '').toLowerCase();
  if ((scheme === 'http' && /:80$/.test(authority)) || (scheme === 'https' && /:443$/.test(authority)))
    authority = authority.replace(/:\d+$/, '');
  const query = m[4] === undefined ? [] : m[4].split('&').filter((x) => x !== '').map((x) => {
    const at = x.indexOf('=');
    return at < 0 ? [dp(x), null] : [dp(x.slice(0, at)), dp(x.slice(at + 1))];
  });
  const form = pm.request.body.mode === 'urlencoded' // a urlencoded body's fields are signed, as OAuth 1.0a says
    ? pm.request.body.urlencoded.map((f) => [String(pm.variables.replaceIn(f.key)), String(pm.variables.replaceIn(f.value))])
    : [];
  const all = query.concat(signing, form)
    .map(([k, x]) => [pe(k) + ' ' + pe(x), pe(k) + '=' + pe(x == null ? '' : x)])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((e) => e[1]).join('&');
  const base = pe(pm.request.method.toUpperCase()) + '&' + pe(scheme + '://' + authority + (m[3] || '/')) + '&' + pe(all);
  const key = pe(consumerSecret) + '&' + pe(v('tokenSecret'));
  const signature = /^HMAC-SHA256/i.test(method) ? CryptoJS.HmacSHA256(base, key).toString(CryptoJS.enc.Base64)
                  : /^PLAINTEXT/i.test(method) ? key
                  : CryptoJS.HmacSHA1(base, key).toString(CryptoJS.enc.Base64);
  signing.push(['oauth_signature', signature]);
  if (v('addParamsToHeader') === 'true') {
    const realm = v('realm');
    const parts = (realm.trim() ? ['realm="' + pe(realm) + '"'] : [])
      .concat(signing.filter(([, x]) => x).map(([k, x]) => pe(k) + '="' + pe(String(x).trim()) + '"'));
    pm.request.headers.upsert({ key: 'Authorization', value: 'OAuth ' + parts.join(',') });
  } else {
    const added = signing.map(([k, x]) => pe(k) + '=' + pe(x)).join('&');
    const text = pm.request.url.toString();
    pm.request.url = text + (text.includes('?') ? '&' : '?') + added;
  }
})()JS";

} // namespace

bool isOAuth1Field(const std::string& name)
{
    return std::find_if(kFields.begin(), kFields.end(), [&](const char* f) { return name == f; }) != kFields.end();
}

std::string oauth1Script(const OAuth1Fields& fields)
{
    std::string object = "{";
    for (const auto& [name, value] : fields)
        if (isOAuth1Field(name))
            object += (object.size() > 1 ? ", " : "") + jsonString(name) + ": " + jsonString(value);
    return kSigner + object + "});\n"; // the function, called on the fields
}

} // namespace stampede
