package viewer_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	viewer "github.com/openapi-viewer/viewer"
)

// connectSrc returns the connect-src directive of the page the viewer
// serves for cfg.
func connectSrc(t *testing.T, cfg viewer.Config) string {
	t.Helper()
	cfg.UIPath = "/docs"
	h, err := viewer.NewHandler(cfg)
	require.NoError(t, err)
	res, _ := get(t, h, "/docs/")
	for _, d := range strings.Split(res.Header.Get("Content-Security-Policy"), "; ") {
		if strings.HasPrefix(d, "connect-src ") {
			return d
		}
	}
	require.Fail(t, "no connect-src directive", res.Header.Get("Content-Security-Policy"))
	return ""
}

// TestConnectSrcFromDocument checks that every place a document names a
// server or an authorization URL ends up in connect-src, as the smallest
// source that allows it.
func TestConnectSrcFromDocument(t *testing.T) {
	const head = `"openapi":"3.1.0","info":{"title":"T","version":"1"}`
	cases := []struct {
		name string
		doc  string // members after openapi and info
		want string
	}{
		{"root server", `"servers":[{"url":"https://API.example.com/v1"}]`,
			"connect-src 'self' https://api.example.com"},
		{"relative and scheme-relative", `"servers":[{"url":"/v1"},{"url":"v2"},{"url":"//api.example.com:8443/v1"}]`,
			"connect-src 'self' api.example.com:8443"},
		{"path item and operation servers", `"paths":{"/a":{"servers":[{"url":"http://path.example.com"}],
			"get":{"servers":[{"url":"https://op.example.com/x"}]},"post":{"servers":[{"url":"https://post.example.com"}]}}}`,
			"connect-src 'self' http://path.example.com https://op.example.com https://post.example.com"},
		{"components path items", `"components":{"pathItems":{"p":{"servers":[{"url":"https://item.example.com"}]}}}`,
			"connect-src 'self' https://item.example.com"},
		{"variable with enum and default", `"servers":[{"url":"https://{env}.example.com:{port}","variables":{
			"env":{"enum":["api","staging"],"default":"api"},"port":{"enum":["443","8443"],"default":"443"}}}]`,
			"connect-src 'self' https://api.example.com:443 https://api.example.com:8443 https://staging.example.com:443 https://staging.example.com:8443"},
		{"free port variable", `"servers":[{"url":"http://127.0.0.1:{port}/v1","variables":{"port":{"default":"8080"}}}]`,
			"connect-src 'self' http://127.0.0.1:8080 http://127.0.0.1:*"},
		{"free host label", `"servers":[{"url":"https://{tenant}.example.com","variables":{"tenant":{"default":"acme"}}}]`,
			"connect-src 'self' https://acme.example.com https://*.example.com"},
		{"free part of a label", `"servers":[{"url":"https://api-{region}.eu.example.com","variables":{"region":{"default":"west"}}}]`,
			"connect-src 'self' https://api-west.eu.example.com https://*.eu.example.com"},
		{"free last label is scheme-wide", `"servers":[{"url":"http://10.0.0.{n}","variables":{"n":{"default":"1"}}}]`,
			"connect-src 'self' http://10.0.0.1 http:"},
		{"free whole URL", `"servers":[{"url":"{server}","variables":{"server":{"default":"https://api.example.com"}}}]`,
			"connect-src 'self' https://api.example.com http: https:"},
		{"undeclared variable in the path only", `"servers":[{"url":"https://api.example.com/{version}"}]`,
			"connect-src 'self' https://api.example.com"},
		{"oauth2 flows and OIDC", `"components":{"securitySchemes":{
			"o":{"type":"oauth2","flows":{"authorizationCode":{"authorizationUrl":"https://login.example.com/auth","tokenUrl":"https://token.example.com/t","refreshUrl":"https://refresh.example.com/r","scopes":{}}}},
			"oidc":{"type":"openIdConnect","openIdConnectUrl":"https://id.example.com/.well-known/openid-configuration"}}}`,
			"connect-src 'self' https://token.example.com https://refresh.example.com https://id.example.com"},
		{"relative token URL", `"components":{"securitySchemes":{"o":{"type":"oauth2","flows":{"password":{"tokenUrl":"/token","scopes":{}}}}}}`,
			"connect-src 'self'"},
		{"malformed sections lose only their links", `"servers":[{"url":"https://ok.example.com"},{"url":42}],"paths":{"/a":"nope","/b":{"get":{"servers":[{"url":"https://b.example.com"}]}}}`,
			"connect-src 'self' https://ok.example.com https://b.example.com"},
		{"a NUL in a URL never widens the policy", `"servers":[{"url":"http://\u0000.example.com"},{"url":"https://{a}.example.com","variables":{"a":{"enum":["x\u0000"],"default":"ok"}}}]`,
			"connect-src 'self' https://ok.example.com"},
		{"too many combinations count as free", `"servers":[{"url":"https://{a}.example.com:{b}","variables":{
			"a":{"enum":["a1","a2","a3","a4","a5","a6","a7","a8","a9"],"default":"a1"},"b":{"enum":["1","2","3","4","5","6","7","8"],"default":"1"}}}]`,
			"connect-src 'self' https://*.example.com:*"},
		{"hosts CSP cannot name are left out", `"servers":[{"url":"http://[::1]:8080"},{"url":"ftp://files.example.com"},{"url":"https://exa mple.com"}]`,
			"connect-src 'self'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := []byte("{" + head + "," + c.doc + "}")
			assert.Equal(t, c.want, connectSrc(t, viewer.Config{FilePathOrSpec: doc}))
		})
	}
}

func TestConnectSrcSwagger2(t *testing.T) {
	doc := func(extra string) []byte {
		return []byte("swagger: '2.0'\ninfo: {title: Old, version: 1.0.0}\npaths: {}\n" + extra)
	}
	assert.Equal(t, "connect-src 'self' http://api.example.com https://api.example.com",
		connectSrc(t, viewer.Config{FilePathOrSpec: doc("host: api.example.com\nschemes: [http, https]\n")}))
	assert.Equal(t, "connect-src 'self' api.example.com:8080",
		connectSrc(t, viewer.Config{FilePathOrSpec: doc("host: api.example.com:8080\n")}), "no schemes: the page's scheme")
	assert.Equal(t, "connect-src 'self' https://token.example.com",
		connectSrc(t, viewer.Config{FilePathOrSpec: doc("securityDefinitions:\n  o: {type: oauth2, flow: password, tokenUrl: 'https://token.example.com/t', scopes: {}}\n")}))
}

func TestConnectSrcUnionOfDocuments(t *testing.T) {
	a := []byte(`{"openapi":"3.0.3","info":{"title":"A","version":"1"},"servers":[{"url":"https://a.example.com"}],"paths":{}}`)
	b := []byte(`{"openapi":"3.0.3","info":{"title":"B","version":"1"},"servers":[{"url":"https://b.example.com"},{"url":"https://a.example.com"}],"paths":{}}`)
	got := connectSrc(t, viewer.Config{Specs: []viewer.SpecSource{{Name: "A", FilePathOrSpec: a}, {Name: "B", FilePathOrSpec: b}},
		ConnectSrc: []string{"https://extra.example.com", "https://a.example.com"}})
	assert.Equal(t, "connect-src 'self' https://a.example.com https://b.example.com https://extra.example.com", got)
}

func TestConnectSrcConfig(t *testing.T) {
	for _, ok := range []string{"https://api.example.com", "https://*.example.com", "http://127.0.0.1:*", "https:", "api.example.com/v1/", "wss://ws.example.com:9000"} {
		got := connectSrc(t, viewer.Config{FilePathOrSpec: petstore, ConnectSrc: []string{ok}})
		assert.True(t, strings.HasSuffix(got, " "+ok), "%s in %s", ok, got)
	}
	for _, bad := range []string{"'self'", "https://a.example.com https://b.example.com", "https://a.example.com;script-src *", "", "https://a.example.com/?q=1", "*.*.example.com"} {
		_, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", ConnectSrc: []string{"https://fine.example.com", bad}})
		require.Error(t, err, bad)
		assert.True(t, errors.Is(err, viewer.ErrInvalidConfig))
		assert.Contains(t, err.Error(), "ConnectSrc[1]")
		assert.Contains(t, err.Error(), `write an origin such as "https://api.example.com"`)
	}
	_, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs",
		ContentSecurityPolicy: "default-src 'self'", ConnectSrc: []string{"https://api.example.com"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "ConnectSrc has no effect when ContentSecurityPolicy replaces the policy")
}
