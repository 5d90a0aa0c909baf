package viewer

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	htmltemplate "html/template"
	texttemplate "text/template"
)

// pageData fills assets/index.html.
type pageData struct {
	Title                       string
	CSS, PageCSS, CustomCSS     string
	Favicon                     htmltemplate.URL // checked at Setup: http(s), a path, or data:image/
	Favicon32, Favicon16        string
	Bundle, Preset, Initializer string
	CustomJS                    []string
}

func renderPage(d pageData) ([]byte, error) {
	src, err := readOwnAsset("index.html")
	if err != nil {
		return nil, err
	}
	t, err := htmltemplate.New("index.html").Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("viewer: parsing the page template: %w", err)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, d); err != nil {
		return nil, fmt.Errorf("viewer: rendering the page: %w", err)
	}
	return buf.Bytes(), nil
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

// renderInitializer writes the initializer script. Every setting is encoded
// by encoding/json, which escapes <, > and &, so no value can end the
// script or inject code.
func renderInitializer(settings map[string]any, oauth map[string]any, standalone bool) ([]byte, error) {
	src, err := readOwnAsset("initializer.js")
	if err != nil {
		return nil, err
	}
	t, err := texttemplate.New("initializer.js").Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("viewer: parsing the initializer template: %w", err)
	}
	cfgJSON, err := json.MarshalIndent(settings, "  ", "  ")
	if err != nil {
		return nil, configErrorf("SwaggerUIConfig cannot be encoded as JSON: %v", err)
	}
	var oauthJSON []byte
	if oauth != nil {
		if oauthJSON, err = json.Marshal(oauth); err != nil {
			return nil, configErrorf("OAuth2 cannot be encoded as JSON: %v", err)
		}
	}
	layout := `"BaseLayout"`
	if standalone {
		layout = `"StandaloneLayout"`
	}
	var buf bytes.Buffer
	err = t.Execute(&buf, map[string]any{
		"Config":     string(cfgJSON),
		"OAuth2":     string(oauthJSON),
		"Standalone": standalone,
		"Layout":     layout,
	})
	if err != nil {
		return nil, fmt.Errorf("viewer: rendering the initializer: %w", err)
	}
	return buf.Bytes(), nil
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
