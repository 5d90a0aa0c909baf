package viewer

import (
	"net/http"
	"strconv"
	"strings"
)

// This file holds the parts of addUI, in the order it calls them.

// addDocuments serves each document as JSON and YAML, and returns the
// entries of Swagger UI's urls setting.
func (b *builder) addDocuments(specs []namedSpec) ([]specLink, error) {
	links := make([]specLink, 0, len(specs))
	for _, s := range specs {
		spec := s.spec
		doc := spec.JSON
		jsonRes := newResource(s.paths[0], jsonContentType, doc, true, nil)
		yamlRes := newLazyResource(s.paths[1], b.cfg.YAMLContentType, func() []byte {
			y, err := spec.YAML()
			if err != nil { // cannot happen: doc is JSON that Setup wrote
				return []byte("# " + err.Error() + "\n")
			}
			return y
		})
		if err := b.add(s.paths[0], jsonRes); err != nil {
			return nil, err
		}
		for _, p := range s.paths[1:] {
			if err := b.add(p, yamlRes); err != nil {
				return nil, err
			}
		}
		b.links = append(b.links, documentLinksOf(doc))
		links = append(links, specLink{URL: relativeURL(b.base+"/", s.paths[0]), Name: s.name})
	}
	return links, nil
}

// oauthPage reports whether the OAuth2 redirect page is served: when
// Config.OAuth2 is set, or when a document declares an OAuth2 or OpenID
// Connect security scheme (Swagger UI can authorize with it even without
// Config.OAuth2, the user typing the client id).
func (b *builder) oauthPage() bool {
	if b.cfg.OAuth2 != nil {
		return true
	}
	for _, l := range b.links {
		if l.oauth {
			return true
		}
	}
	return false
}

// addSharedAssets serves Swagger UI's files, the viewer's stylesheet and,
// when needed, the OAuth2 redirect page; it returns the page's data with
// their URLs filled in.
func (b *builder) addSharedAssets(standalone bool) (pageData, error) {
	shared := b.st.ui.assets
	oauth := b.oauthPage()
	urls := map[string]string{}
	for name, r := range shared {
		if !usedAsset(name, oauth, standalone, b.cfg.Favicon != "") {
			continue
		}
		var err error
		if urls[name], err = b.addAsset(r); err != nil {
			return pageData{}, err
		}
	}
	data := pageData{
		CSS:       urls["swagger-ui.css"],
		PageCSS:   urls["viewer.css"],
		Favicon32: urls["favicon-32x32.png"],
		Favicon16: urls["favicon-16x16.png"],
		Bundle:    urls["swagger-ui-bundle.js"],
	}
	if standalone {
		data.Preset = urls["swagger-ui-standalone-preset.js"]
	}
	return data, nil
}

// usedAsset reports whether the page uses the shared file name, so that
// only those files are served: the OAuth2 redirect page when oauth, the
// standalone preset when standalone (the drop-down of several documents),
// and Swagger UI's icons unless ownFavicon (Config.Favicon replaces them).
func usedAsset(name string, oauth, standalone, ownFavicon bool) bool {
	switch {
	case strings.HasPrefix(name, "oauth2-redirect."):
		return oauth
	case name == "swagger-ui-standalone-preset.js":
		return standalone
	case strings.HasPrefix(name, "favicon-"):
		return !ownFavicon
	}
	return true
}

// addInitializer serves the script that starts Swagger UI and returns its
// URL.
func (b *builder) addInitializer(docs []specLink, standalone bool) (string, error) {
	var oauth map[string]any
	if b.cfg.OAuth2 != nil {
		oauth = oauthSettings(b.cfg.OAuth2)
	}
	init, err := renderInitializer(uiSettings(b.cfg, docs), oauth, standalone)
	if err != nil {
		return "", err
	}
	return b.addAsset(newAsset("initializer.js", "text/javascript; charset=utf-8", init, true))
}

// addCustom serves CustomCSS and the CustomJS entries that are source, each
// as a file of its own. It returns the stylesheet's URL, every script's URL
// and the script-src sources the scripts loaded from elsewhere need.
func (b *builder) addCustom() (css string, js, sources []string, err error) {
	if b.cfg.CustomCSS != "" {
		if css, err = b.addAsset(newAsset("custom.css", "text/css; charset=utf-8", []byte(b.cfg.CustomCSS), true)); err != nil {
			return "", nil, nil, err
		}
	}
	for i, entry := range b.cfg.CustomJS {
		if isURLRef(entry) {
			js = append(js, entry)
			sources = append(sources, urlSources(entry)...)
			continue
		}
		u, err := b.addAsset(newAsset("custom-"+strconv.Itoa(i)+".js", "text/javascript; charset=utf-8", []byte(entry), true))
		if err != nil {
			return "", nil, nil, err
		}
		js = append(js, u)
	}
	return css, js, dedupe(sources), nil
}

// policy is the page's default Content-Security-Policy.
func (b *builder) policy(scriptSources []string, standalone bool) policy {
	p := policy{script: scriptSources}
	if standalone {
		p.style = append(p.style, styleHash(topbarLogoStyle))
	}
	// img-src already allows https: and data:.
	for _, s := range urlSources(b.cfg.Favicon) {
		if !strings.HasPrefix(s, "https:") {
			p.img = append(p.img, s)
		}
	}
	p.connect = dedupe(append(connectSources(b.links), b.cfg.ConnectSrc...))
	return p
}

// addPage serves the page at UIPath's directory and its index.html, and
// makes UIPath itself redirect there.
func (b *builder) addPage(data pageData, csp string) error {
	html, err := renderPage(data)
	if err != nil {
		return err
	}
	page := newResource("index.html", "text/html; charset=utf-8", html, true, http.Header{
		"Content-Security-Policy": {csp},
		"Referrer-Policy":         {"no-referrer"},
	})
	if err := b.add(b.base+"/", page); err != nil {
		return err
	}
	if err := b.add(b.base+"/index.html", page); err != nil {
		return err
	}

	// UIPath itself redirects to the page, relatively: "./ui/" from "/api/ui"
	// is right under any prefix, and "./" keeps a segment such as "a:b" from
	// reading as a URL scheme.
	if b.base == "" {
		return nil
	}
	if _, dup := b.st.routes[b.base]; dup {
		return configErrorf("RawPath %q collides with UIPath %q", b.cfg.RawPath, b.cfg.UIPath)
	}
	last := b.base[strings.LastIndexByte(b.base, '/')+1:]
	b.st.routes[b.base] = &route{redirect: "./" + last + "/", lastSeg: last, allow: b.allow}
	return nil
}
