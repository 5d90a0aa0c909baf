package browsertest

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer"
)

// TestOAuth2Redirect authorizes with an OAuth2 implicit flow through the
// viewer's redirect page, which runs the distribution's oauth2-redirect.js
// as a file under the page's script-src 'self': the embedded Swagger UI's
// (5.32.8) and swagger-ui-dist 5.35.0's. An authorization
// server on another origin answers at once with a token in the fragment,
// as a real one does once the user has agreed; the token must reach the
// page's Swagger UI.
func TestOAuth2Redirect(t *testing.T) {
	browser := startBrowser(t)
	dist := swaggerUIDist(t)
	for _, c := range []struct {
		name string
		ui   fs.FS
	}{
		{"embedded 5.32.8, its script", nil},
		{"swagger-ui-dist 5.35.0, its script", dist},
	} {
		t.Run(c.name, func(t *testing.T) {
			authz := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				q := r.URL.Query()
				if q.Get("response_type") != "token" || q.Get("client_id") != "viewer-test" {
					http.Error(w, "unexpected authorization request "+r.URL.RawQuery, http.StatusBadRequest)
					return
				}
				back := q.Get("redirect_uri") + "#access_token=tok-123&token_type=Bearer&expires_in=3600&state=" + url.QueryEscape(q.Get("state"))
				http.Redirect(w, r, back, http.StatusFound)
			}))
			t.Cleanup(authz.Close)
			doc := `openapi: 3.0.3
info: {title: OAuth API, version: "1"}
paths:
  /me:
    get:
      security: [{implicit: [read]}]
      responses: {"200": {description: me}}
components:
  securitySchemes:
    implicit:
      type: oauth2
      flows:
        implicit:
          authorizationUrl: ` + authz.URL + `/authorize
          scopes: {read: read access}
`
			srv := serve(t, viewer.Config{FilePathOrSpec: viewer.Bytes(doc), UIPath: "/docs", SwaggerUI: c.ui,
				OAuth2: &viewer.OAuth2Config{ClientID: "viewer-test", Scopes: []string{"read"}}})
			tb := newTab(t, browser, 60*time.Second)
			tb.run(t, "opening the authorization dialog",
				chromedp.Navigate(srv.URL+"/docs/"),
				chromedp.WaitVisible(".swagger-ui .btn.authorize"),
				chromedp.Click(".swagger-ui .btn.authorize", chromedp.NodeVisible),
				chromedp.WaitVisible(".swagger-ui .auth-container .btn.modal-btn.auth.authorize"),
				chromedp.Click(".swagger-ui .auth-container .btn.modal-btn.auth.authorize", chromedp.NodeVisible))
			tb.waitTrue(t, `(() => { const a = window.ui.authSelectors.authorized().toJS(); return !!(a.implicit && a.implicit.token); })()`)
			var token string
			tb.eval(t, `window.ui.authSelectors.authorized().toJS().implicit.token.access_token`, &token)
			assert.Equal(t, "tok-123", token)
			require.Empty(t, tb.cspViolations(t), "securitypolicyviolation events in the page")
		})
	}
}
