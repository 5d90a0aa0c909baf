package viewer

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// documentLinks is what a served document names that the page may have to
// connect to. documentLinksOf is the one place these are read from a
// document.
type documentLinks struct {
	// servers are the document's server URLs, from the top-level servers,
	// every path item's and every operation's (under paths and
	// components.pathItems), and Swagger 2.0's host and schemes.
	servers []serverURL
	// fetched are the URLs Swagger UI fetches to authorize: OAuth2 token
	// and refresh URLs, and OpenID Connect discovery URLs. Authorization
	// URLs are left out: Swagger UI opens them in a window, which the
	// page's connect-src does not govern.
	fetched []string
	// oauth reports an OAuth2 or OpenID Connect security scheme, for which
	// the page needs the OAuth2 redirect page.
	oauth bool
}

// serverURL is an OpenAPI Server Object: a URL that may hold {variables}.
type serverURL struct {
	URL       string                    `json:"url"`
	Variables map[string]serverVariable `json:"variables"`
}

// serverVariable is an OpenAPI Server Variable Object.
type serverVariable struct {
	Enum    []string `json:"enum"`
	Default string   `json:"default"`
}

// linkWalk is the shape documentLinksOf decodes: only the members that
// hold links, so encoding/json skips everything else without building it.
type linkWalk struct {
	Servers    []serverURL              `json:"servers"`
	Paths      map[string]pathItemLinks `json:"paths"`
	Components struct {
		SecuritySchemes map[string]securityScheme `json:"securitySchemes"`
		PathItems       map[string]pathItemLinks  `json:"pathItems"`
	} `json:"components"`
	// Swagger 2.0.
	Host                string                    `json:"host"`
	Schemes             []string                  `json:"schemes"`
	SecurityDefinitions map[string]securityScheme `json:"securityDefinitions"`
}

type pathItemLinks struct {
	Servers []serverURL    `json:"servers"`
	Get     operationLinks `json:"get"`
	Put     operationLinks `json:"put"`
	Post    operationLinks `json:"post"`
	Delete  operationLinks `json:"delete"`
	Options operationLinks `json:"options"`
	Head    operationLinks `json:"head"`
	Patch   operationLinks `json:"patch"`
	Trace   operationLinks `json:"trace"`
}

type operationLinks struct {
	Servers []serverURL `json:"servers"`
}

// securityScheme holds the URLs of an OpenAPI 3 Security Scheme Object or
// a Swagger 2.0 Security Definition.
type securityScheme struct {
	Type             string               `json:"type"`
	Flows            map[string]oauthFlow `json:"flows"`
	OpenIDConnectURL string               `json:"openIdConnectUrl"`
	TokenURL         string               `json:"tokenUrl"` // Swagger 2.0
}

type oauthFlow struct {
	TokenURL   string `json:"tokenUrl"`
	RefreshURL string `json:"refreshUrl"`
}

// documentLinksOf reads the links of a document that is valid JSON (the
// served form, after Setup converted and checked it). A member of the
// wrong type loses only its own links: encoding/json fills in everything
// else and reports the first mismatch, which is ignored here.
func documentLinksOf(doc []byte) documentLinks {
	var w linkWalk
	_ = json.Unmarshal(doc, &w) // partial results are what we want; doc is valid JSON
	var l documentLinks
	l.servers = append(l.servers, w.Servers...)
	for _, items := range []map[string]pathItemLinks{w.Paths, w.Components.PathItems} {
		for _, key := range slices.Sorted(maps.Keys(items)) {
			p := items[key]
			l.servers = append(l.servers, p.Servers...)
			for _, op := range []operationLinks{p.Get, p.Put, p.Post, p.Delete, p.Options, p.Head, p.Patch, p.Trace} {
				l.servers = append(l.servers, op.Servers...)
			}
		}
	}
	if w.Host != "" {
		// Without schemes, Swagger UI uses the scheme the document was
		// loaded with, which is the page's: a scheme-relative URL.
		if len(w.Schemes) == 0 {
			l.servers = append(l.servers, serverURL{URL: "//" + w.Host})
		}
		for _, s := range w.Schemes {
			l.servers = append(l.servers, serverURL{URL: s + "://" + w.Host})
		}
	}
	for _, schemes := range []map[string]securityScheme{w.Components.SecuritySchemes, w.SecurityDefinitions} {
		for _, key := range slices.Sorted(maps.Keys(schemes)) {
			s := schemes[key]
			switch strings.ToLower(s.Type) {
			case "oauth2":
				l.oauth = true
				l.fetched = append(l.fetched, s.TokenURL)
				for _, name := range slices.Sorted(maps.Keys(s.Flows)) {
					l.fetched = append(l.fetched, s.Flows[name].TokenURL, s.Flows[name].RefreshURL)
				}
			case "openidconnect":
				l.oauth = true
				l.fetched = append(l.fetched, s.OpenIDConnectURL)
			}
		}
	}
	return l
}
