package viewer

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Cache-Control values.
const (
	cacheImmutable  = "public, max-age=31536000, immutable" // content-addressed URLs
	cacheRevalidate = "no-cache"                            // revalidated every time, cheap with the ETag
)

// builder assembles a routerState from a Config.
type builder struct {
	cfg   Config
	base  string // UIPath without its trailing slash ("" for "/")
	st    *routerState
	allow []string
}

func build(cfg Config) (*routerState, error) {
	if err := checkPath("UIPath", cfg.UIPath); err != nil {
		return nil, err
	}
	if cfg.RawPath != "" {
		if err := checkPath("RawPath", cfg.RawPath); err != nil {
			return nil, err
		}
		if strings.HasSuffix(cfg.RawPath, "/") {
			return nil, configErrorf("RawPath %q must not end with \"/\": it is the base of %q.json", cfg.RawPath, cfg.RawPath)
		}
	}
	if err := checkUIConfig(cfg); err != nil {
		return nil, err
	}
	if cfg.YAMLContentType == "" {
		cfg.YAMLContentType = DefaultYAMLContentType
	}
	b := &builder{
		cfg:   cfg,
		base:  strings.TrimSuffix(cfg.UIPath, "/"),
		st:    &routerState{routes: map[string]*route{}, warmed: make(chan struct{})},
		allow: []string{"GET, HEAD"},
	}
	specs, err := b.loadSpecs()
	if err != nil {
		return nil, err
	}
	for _, s := range specs {
		b.st.files = append(b.st.files, s.spec.files...)
	}
	if err := b.addUI(specs); err != nil {
		return nil, err
	}
	return b.st, nil
}

// namedSpec is a loaded document with where it is served.
type namedSpec struct {
	name  string
	spec  *loadedSpec
	paths []string // JSON, YAML (.yaml), YAML (.yml)
}

func (b *builder) loadSpecs() ([]namedSpec, error) {
	var out []namedSpec
	if b.cfg.FilePathOrSpec != nil {
		s, err := loadSpec(b.cfg.FilePathOrSpec, b.cfg.FS, "FilePathOrSpec")
		if err != nil {
			return nil, err
		}
		base := b.base + "/openapi"
		if b.cfg.RawPath != "" {
			base = b.cfg.RawPath
		}
		out = append(out, namedSpec{name: s.head.title.value, spec: s,
			paths: []string{base + ".json", base + ".yaml", base + ".yml"}})
	} else if len(b.cfg.Specs) == 0 {
		return nil, configErrorf("FilePathOrSpec is required: a file path, []byte or an object")
	}
	slugs := map[string]int{}
	for i, src := range b.cfg.Specs {
		field := fmt.Sprintf("Specs[%d]", i)
		sl := slug(src.Name)
		if sl == "" {
			return nil, configErrorf("%s.Name %q must contain a letter or digit", field, src.Name)
		}
		if j, dup := slugs[sl]; dup {
			return nil, configErrorf("%s.Name %q has the same URL slug %q as Specs[%d]", field, src.Name, sl, j)
		}
		slugs[sl] = i
		s, err := loadSpec(src.FilePathOrSpec, b.cfg.FS, field+".FilePathOrSpec")
		if err != nil {
			return nil, err
		}
		base := b.base + "/specs/" + sl
		out = append(out, namedSpec{name: src.Name, spec: s,
			paths: []string{base + ".json", base + ".yaml", base + ".yml"}})
	}
	return out, nil
}

// add serves r at path p; a second resource at the same path means that
// RawPath collides with UIPath's routes.
func (b *builder) add(p string, r *resource) error {
	if _, dup := b.st.routes[p]; dup {
		return configErrorf("RawPath %q collides with UIPath %q's routes at %s", b.cfg.RawPath, b.cfg.UIPath, p)
	}
	b.st.routes[p] = &route{res: r, allow: b.allow}
	return nil
}

// addAsset serves r under UIPath and returns the URL the page uses for it.
func (b *builder) addAsset(r *resource) (string, error) {
	if err := b.add(b.base+"/"+r.name, r); err != nil {
		return "", err
	}
	return r.url(), nil
}

func (b *builder) addUI(specs []namedSpec) error {
	cfg := b.cfg
	standalone := len(specs) > 1
	shared, err := sharedAssets()
	if err != nil {
		return err
	}

	// The documents.
	links := make([]specLink, 0, len(specs))
	var connect []string
	var warm []*resource
	for _, s := range specs {
		doc := s.spec.json
		jsonRes := newResource(s.paths[0], jsonContentType, doc, true, nil)
		yamlRes := newLazyResource(s.paths[1], cfg.YAMLContentType, func() []byte {
			y, err := jsonToYAML(doc)
			if err != nil { // cannot happen: doc is JSON that Setup wrote
				return []byte("# " + err.Error() + "\n")
			}
			return y
		})
		if err := b.add(s.paths[0], jsonRes); err != nil {
			return err
		}
		for _, p := range s.paths[1:] {
			if err := b.add(p, yamlRes); err != nil {
				return err
			}
		}
		warm = append(warm, jsonRes)
		links = append(links, specLink{URL: relativeURL(b.base+"/", s.paths[0]), Name: s.name})
		connect = append(connect, serverOrigins(s.spec.head.links)...)
	}

	// Swagger UI's files, the stylesheet and the OAuth2 redirect page.
	urls := map[string]string{}
	for name, r := range shared {
		u, err := b.addAsset(r)
		if err != nil {
			return err
		}
		urls[name] = u
	}
	for _, name := range []string{"swagger-ui-bundle.js", "swagger-ui.css", "viewer.css"} {
		warm = append(warm, shared[name])
	}
	if standalone {
		warm = append(warm, shared["swagger-ui-standalone-preset.js"])
	}

	// The initializer.
	var oauth map[string]any
	if cfg.OAuth2 != nil {
		oauth = oauthSettings(cfg.OAuth2)
	}
	init, err := renderInitializer(uiSettings(cfg, links), oauth, standalone)
	if err != nil {
		return err
	}
	initURL, err := b.addAsset(newAsset("initializer.js", "text/javascript; charset=utf-8", init, true))
	if err != nil {
		return err
	}

	data := pageData{
		Title:       cfg.Title,
		CSS:         urls["swagger-ui.css"],
		PageCSS:     urls["viewer.css"],
		Favicon:     cfg.Favicon,
		Favicon32:   urls["favicon-32x32.png"],
		Favicon16:   urls["favicon-16x16.png"],
		Bundle:      urls["swagger-ui-bundle.js"],
		Initializer: initURL,
	}
	if data.Title == "" {
		data.Title = specs[0].spec.head.title.value
	}
	if standalone {
		data.Preset = urls["swagger-ui-standalone-preset.js"]
	}

	// Custom styles and scripts, each a file of its own.
	if cfg.CustomCSS != "" {
		if data.CustomCSS, err = b.addAsset(newAsset("custom.css", "text/css; charset=utf-8", []byte(cfg.CustomCSS), true)); err != nil {
			return err
		}
	}
	var scriptOrigins []string
	for i, js := range cfg.CustomJS {
		if isURLRef(js) {
			data.CustomJS = append(data.CustomJS, js)
			if o := absoluteOrigin(js); o != "" {
				scriptOrigins = append(scriptOrigins, o)
			}
			continue
		}
		u, err := b.addAsset(newAsset("custom-"+strconv.Itoa(i)+".js", "text/javascript; charset=utf-8", []byte(js), true))
		if err != nil {
			return err
		}
		data.CustomJS = append(data.CustomJS, u)
	}
	var imgOrigins []string
	if o := absoluteOrigin(cfg.Favicon); o != "" && !strings.HasPrefix(o, "https://") {
		imgOrigins = append(imgOrigins, o)
	}

	// The page, with its security headers.
	csp := cfg.ContentSecurityPolicy
	if csp == "" {
		var styleHashes []string
		if standalone {
			styleHashes = append(styleHashes, styleHash(topbarLogoStyle))
		}
		csp = contentSecurityPolicy(dedupe(scriptOrigins), styleHashes, imgOrigins, dedupe(connect))
	}
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
	if b.base != "" {
		last := b.base[strings.LastIndexByte(b.base, '/')+1:]
		if _, dup := b.st.routes[b.base]; dup {
			return configErrorf("RawPath %q collides with UIPath %q", cfg.RawPath, cfg.UIPath)
		}
		b.st.routes[b.base] = &route{redirect: "./" + last + "/", lastSeg: last, allow: b.allow}
	}
	b.st.resources = append([]*resource{page}, warm...)
	return nil
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	out := xs[:0:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
