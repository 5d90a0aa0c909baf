package viewer

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"strings"

	swaggerfiles "github.com/swaggo/files/v2"
)

// ownAssets are the viewer's page, initializer and stylesheet.
//
//go:embed assets/index.html assets/initializer.js assets/viewer.css
var ownAssets embed.FS

// swaggerAsset is a file of Swagger UI's distribution that the page uses.
type swaggerAsset struct {
	name         string
	contentType  string
	compressible bool
}

// swaggerAssets lists the only files of github.com/swaggo/files/v2 the
// viewer serves. The shipped index.html and swagger-initializer.js are never
// served: they load the Petstore demo.
func swaggerAssets() []swaggerAsset {
	return []swaggerAsset{
		{"swagger-ui-bundle.js", "text/javascript; charset=utf-8", true},
		{"swagger-ui-standalone-preset.js", "text/javascript; charset=utf-8", true},
		{"swagger-ui.css", "text/css; charset=utf-8", true},
		{"favicon-32x32.png", "image/png", false},
		{"favicon-16x16.png", "image/png", false},
	}
}

func readSwaggerAsset(name string) ([]byte, error) {
	b, err := fs.ReadFile(swaggerfiles.FS, name)
	if err != nil {
		return nil, fmt.Errorf("viewer: reading Swagger UI's %s: %w", name, err)
	}
	return b, nil
}

func readOwnAsset(name string) ([]byte, error) {
	b, err := ownAssets.ReadFile("assets/" + name)
	if err != nil {
		return nil, fmt.Errorf("viewer: reading embedded asset %s: %w", name, err)
	}
	return b, nil
}

// oauth2Redirect splits Swagger UI's oauth2-redirect.html into a page with
// no inline script and the script, so both pass a CSP without
// 'unsafe-inline'. scriptURL is the script's URL as the page refers to it.
func oauth2Redirect(scriptURL string) (page, script []byte, err error) {
	src, err := readSwaggerAsset("oauth2-redirect.html")
	if err != nil {
		return nil, nil, err
	}
	open := bytes.Index(src, []byte("<script>"))
	end := bytes.Index(src, []byte("</script>"))
	if open < 0 || end < open {
		return nil, nil, fmt.Errorf("viewer: Swagger UI's oauth2-redirect.html has no inline script to move out")
	}
	script = bytes.Clone(src[open+len("<script>") : end])
	var b strings.Builder
	b.Write(src[:open])
	b.WriteString(`<script src="`)
	b.WriteString(scriptURL)
	b.WriteString(`"></script>`)
	b.Write(src[end+len("</script>"):])
	return []byte(b.String()), script, nil
}
