package viewer

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"
)

// pageData is what the page names: its title and the URLs of its files.
type pageData struct {
	Title                       string
	Theme                       string // "auto", "light" or "dark"
	CSS, PageCSS, CustomCSS     string
	Favicon                     string // Config.Favicon, checked at Setup: http(s), a path, or data:image/
	Favicon32, Favicon16        string
	Bundle, Preset, Initializer string
	CustomJS                    []string
}

// renderPage writes the page. It is built here rather than with
// html/template: text/template's calls of methods by name make the linker
// keep every exported method of every type a program links, some megabytes
// (see bench/README.md). Every value is HTML-escaped; the URLs were made by
// Setup or checked by it (no quotes, spaces or angle brackets).
func renderPage(d pageData) ([]byte, error) {
	var b strings.Builder
	// The escapes of html.EscapeString, whose package would add its table
	// of entities (70 kB) to every program (bench/README.md).
	esc := strings.NewReplacer(`&`, "&amp;", `'`, "&#39;", `<`, "&lt;", `>`, "&gt;", `"`, "&#34;").Replace
	// The theme is an attribute the initializer reads; "dark" sets Swagger
	// UI's dark-mode class in the page itself, so it shows from the first
	// paint.
	root := `<html lang="en" data-theme="` + esc(d.Theme) + `">`
	if d.Theme == "dark" {
		root = `<html lang="en" class="dark-mode" data-theme="dark">`
	}
	b.WriteString("<!DOCTYPE html>\n" + root + "\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	b.WriteString("<title>" + esc(d.Title) + "</title>\n")
	for _, css := range []string{d.CSS, d.PageCSS, d.CustomCSS} {
		if css != "" {
			b.WriteString(`<link rel="stylesheet" href="` + esc(css) + "\">\n")
		}
	}
	switch {
	case d.Favicon != "":
		b.WriteString(`<link rel="icon" href="` + esc(d.Favicon) + "\">\n")
	default:
		if d.Favicon32 != "" {
			b.WriteString(`<link rel="icon" type="image/png" href="` + esc(d.Favicon32) + "\" sizes=\"32x32\">\n")
		}
		if d.Favicon16 != "" {
			b.WriteString(`<link rel="icon" type="image/png" href="` + esc(d.Favicon16) + "\" sizes=\"16x16\">\n")
		}
	}
	b.WriteString("</head>\n<body>\n<div id=\"swagger-ui\"></div>\n")
	scripts := append([]string{d.Bundle, d.Preset, d.Initializer}, d.CustomJS...)
	for _, js := range scripts {
		if js != "" {
			b.WriteString(`<script src="` + esc(js) + "\"></script>\n")
		}
	}
	b.WriteString("</body>\n</html>\n")
	return []byte(b.String()), nil
}

// uiSettings builds the SwaggerUIBundle settings object: the documents, the
// typed options, then SwaggerUIConfig's entries over them.
func uiSettings(cfg Config, specURLs []specLink) map[string]any {
	s := map[string]any{
		"deepLinking":              cfg.DeepLinking == nil || *cfg.DeepLinking,
		"docExpansion":             "list",
		"defaultModelsExpandDepth": 1,
		"persistAuthorization":     cfg.PersistAuthorization,
		"tryItOutEnabled":          cfg.TryItOutEnabled,
		"displayRequestDuration":   cfg.DisplayRequestDuration,
		"filter":                   cfg.Filter,
		// No request to the public validator service (validator.swagger.io).
		"validatorUrl": nil,
		// The page shows only the configured documents: ?url= and
		// ?configUrl= are ignored.
		"queryConfigEnabled": false,
	}
	if cfg.DocExpansion != "" {
		s["docExpansion"] = cfg.DocExpansion
	}
	if cfg.DefaultModelsExpandDepth != nil {
		s["defaultModelsExpandDepth"] = *cfg.DefaultModelsExpandDepth
	}
	if len(specURLs) == 1 {
		s["url"] = specURLs[0].URL
	} else {
		s["urls"] = specURLs
		s["urls.primaryName"] = specURLs[0].Name
	}
	for k, v := range cfg.SwaggerUIConfig {
		s[k] = v
	}
	return s
}

// specLink is one entry of Swagger UI's urls setting.
type specLink struct {
	URL  string `json:"url"`
	Name string `json:"name"`
}

// oauthSettings is Swagger UI's initOAuth argument.
func oauthSettings(o *OAuth2Config) map[string]any {
	s := map[string]any{"clientId": o.ClientID}
	if o.ClientSecret != "" {
		s["clientSecret"] = o.ClientSecret
	}
	if o.Realm != "" {
		s["realm"] = o.Realm
	}
	if o.AppName != "" {
		s["appName"] = o.AppName
	}
	if len(o.Scopes) > 0 {
		s["scopes"] = o.Scopes
	}
	if o.UsePKCEWithAuthorizationCodeGrant {
		s["usePkceWithAuthorizationCodeGrant"] = true
	}
	if len(o.AdditionalQueryStringParams) > 0 {
		s["additionalQueryStringParams"] = o.AdditionalQueryStringParams
	}
	return s
}

// renderInitializer writes the initializer script, assets/initializer.js
// with its placeholders filled. Every setting is encoded by encoding/json,
// which escapes <, > and &, so no value can end the script or inject code.
func renderInitializer(settings map[string]any, oauth map[string]any, standalone bool) ([]byte, error) {
	src, err := readOwnAsset("initializer.js")
	if err != nil {
		return nil, err
	}
	cfgJSON, err := json.MarshalIndent(settings, "  ", "  ")
	if err != nil {
		return nil, configErrorf("SwaggerUIConfig cannot be encoded as JSON: %v", err)
	}
	initOAuth := ""
	if oauth != nil {
		oauthJSON, err := json.Marshal(oauth)
		if err != nil {
			return nil, configErrorf("OAuth2 cannot be encoded as JSON: %v", err)
		}
		initOAuth = "\n  ui.initOAuth(" + string(oauthJSON) + ");"
	}
	presets, layout := "SwaggerUIBundle.presets.apis", `"BaseLayout"`
	if standalone {
		presets, layout = "SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset", `"StandaloneLayout"`
	}
	out := strings.NewReplacer(
		"/*CONFIG*/", string(cfgJSON),
		"/*PRESETS*/", presets,
		"/*LAYOUT*/", layout,
		"\n  /*INIT_OAUTH*/", initOAuth,
	).Replace(string(src))
	return []byte(out), nil
}

// topbarLogoStyle is the text of the one inline <style> element Swagger UI
// creates: inside the logo of StandaloneLayout's top bar
// (swagger-ui-standalone-preset.js), so on a page with several documents
// only. The policy allows exactly this text, by its hash, instead of
// 'unsafe-inline'; style attributes that Swagger UI sets from JavaScript
// (element.style) are not subject to style-src.
const topbarLogoStyle = ".logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}"

// styleHash returns the CSP source expression allowing an inline <style>
// element whose text is s.
func styleHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}
