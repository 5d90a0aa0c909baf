package viewer

import (
	"fmt"
	"strings"

	"github.com/openapi-viewer/viewer/internal/specdoc"
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

	links []documentLinks // of every document, for the policy and the OAuth2 page
}

// build makes the router's state for cfg, loading its documents. ui is the Swagger UI distribution an earlier Setup read (Reload keeps
// it); when nil, build reads Config.SwaggerUI, or takes the embedded one.
func build(cfg Config, ui *uiDist) (*routerState, error) {
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
		if stem := rawStem(cfg.RawPath); stem == "" || strings.HasSuffix(stem, "/") {
			dir := strings.TrimSuffix(stem, "/") + "/"
			return nil, configErrorf("RawPath %q has no name before its extension: write %q, the base of %q.json, .yaml and .yml",
				cfg.RawPath, dir+"openapi", dir+"openapi")
		}
	}
	if err := checkUIConfig(cfg); err != nil {
		return nil, err
	}
	if cfg.YAMLContentType == "" {
		cfg.YAMLContentType = DefaultYAMLContentType
	}
	if ui == nil {
		var err error
		if cfg.SwaggerUI != nil {
			ui, err = loadUIDist(cfg.SwaggerUI, "SwaggerUI")
		} else {
			ui, err = embeddedUI()
		}
		if err != nil {
			return nil, err
		}
	}
	b := &builder{
		cfg:   cfg,
		base:  strings.TrimSuffix(cfg.UIPath, "/"),
		st:    &routerState{routes: map[string]*route{}, ui: ui},
		allow: []string{"GET, HEAD"},
	}
	specs, err := b.loadSpecs()
	if err != nil {
		return nil, err
	}
	for _, s := range specs {
		b.st.files = append(b.st.files, s.spec.Files...)
	}
	if err := b.addUI(specs); err != nil {
		return nil, err
	}
	return b.st, nil
}

// addUI adds everything the page needs, then the page: the documents,
// Swagger UI's files, the initializer, the custom stylesheet and scripts,
// and the page with its policy.
func (b *builder) addUI(specs []namedSpec) error {
	standalone := len(specs) > 1
	docs, err := b.addDocuments(specs)
	if err != nil {
		return err
	}
	data, err := b.addSharedAssets(standalone)
	if err != nil {
		return err
	}
	if data.Initializer, err = b.addInitializer(docs, standalone); err != nil {
		return err
	}
	var scriptSources []string
	if data.CustomCSS, data.CustomJS, scriptSources, err = b.addCustom(); err != nil {
		return err
	}
	data.Theme = b.cfg.Theme
	if data.Theme == "" {
		data.Theme = "auto"
	}
	data.Title = b.cfg.Title
	if data.Title == "" {
		data.Title = specs[0].spec.Title()
	}
	data.Favicon = b.cfg.Favicon // checked by checkFavicon
	csp := b.cfg.ContentSecurityPolicy
	if csp == "" {
		csp = b.policy(scriptSources, standalone).String()
	}
	return b.addPage(data, csp)
}

// namedSpec is a loaded document with where it is served.
type namedSpec struct {
	name  string
	spec  *specdoc.Document
	paths []string // JSON, YAML (.yaml), YAML (.yml)
}

func (b *builder) loadSpecs() ([]namedSpec, error) {
	var out []namedSpec
	if b.cfg.FilePathOrSpec != nil {
		s, err := specdoc.Load(b.cfg.FilePathOrSpec, b.cfg.FS, "FilePathOrSpec", b.st.ui.version)
		if err != nil {
			return nil, err
		}
		base := b.base + "/openapi"
		if b.cfg.RawPath != "" {
			base = rawStem(b.cfg.RawPath)
		}
		out = append(out, namedSpec{name: s.Title(), spec: s,
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
		s, err := specdoc.Load(src.FilePathOrSpec, b.cfg.FS, field+".FilePathOrSpec", b.st.ui.version)
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
	b.st.routes[p] = &route{res: r, allow: b.allow, work: &b.st.work}
	return nil
}

// addAsset serves r under UIPath and returns the URL the page uses for it.
func (b *builder) addAsset(r *resource) (string, error) {
	if err := b.add(b.base+"/"+r.name, r); err != nil {
		return "", err
	}
	return r.url(), nil
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
