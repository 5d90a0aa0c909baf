// The page an OAuth2 authorization server sends the browser back to, in the
// popup Swagger UI opened. It reads the server's answer from this page's
// URL, hands it to the Swagger UI window that opened the popup (through the
// window.opener.swaggerUIRedirectOauth2 object Swagger UI sets before
// opening it) and closes the popup. It is the viewer's own, used when the
// Swagger UI distribution ships no oauth2-redirect.js, and served as a file
// so that the page needs no inline script.
(function () {
  "use strict";
  var pending = window.opener && window.opener.swaggerUIRedirectOauth2;
  if (!pending) {
    return;
  }
  // The implicit flow answers in the fragment, the code flows in the query.
  var hash = window.location.hash.substring(1);
  var raw = /(^|&)(access_token|code|error)=/.test(hash) ? hash : window.location.search.substring(1);
  var answer = {};
  raw.split("&").forEach(function (pair) {
    if (pair === "") {
      return;
    }
    var eq = pair.indexOf("=");
    var key = eq < 0 ? pair : pair.substring(0, eq);
    var value = eq < 0 ? "" : pair.substring(eq + 1);
    answer[decodeURIComponent(key.replace(/\+/g, " "))] = decodeURIComponent(value.replace(/\+/g, " "));
  });
  var stateMatches = answer.state === pending.state;
  var flow = pending.auth.schema.get("flow");
  var codeFlow = flow === "accessCode" || flow === "authorizationCode" || flow === "authorization_code";
  if (codeFlow && !pending.auth.code) {
    if (!stateMatches) {
      pending.errCb({
        authId: pending.auth.name, source: "auth", level: "warning",
        message: "The state the authorization server returned is not the one Swagger UI sent: the answer may not come from that server."
      });
    }
    if (answer.code) {
      delete pending.state;
      pending.auth.code = answer.code;
      pending.callback({auth: pending.auth, redirectUrl: pending.redirectUrl});
    } else {
      var why = answer.error ? answer.error + (answer.error_description ? ": " + answer.error_description : "") : "no code in the answer";
      pending.errCb({
        authId: pending.auth.name, source: "auth", level: "error",
        message: "Authorization failed (" + why + ")."
      });
    }
  } else {
    pending.callback({auth: pending.auth, token: answer, isValid: stateMatches, redirectUrl: pending.redirectUrl});
  }
  window.close();
})();
