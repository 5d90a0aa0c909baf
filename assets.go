package viewer

import (
	"embed"
	"fmt"
)

// ownAssets are the viewer's initializer, stylesheet and OAuth2
// redirect page and script.
//
//go:embed assets/initializer.js assets/viewer.css assets/oauth2-redirect.html assets/oauth2-redirect.js
var ownAssets embed.FS

func readOwnAsset(name string) ([]byte, error) {
	b, err := ownAssets.ReadFile("assets/" + name)
	if err != nil {
		return nil, fmt.Errorf("viewer: reading embedded asset %s: %w", name, err)
	}
	return b, nil
}
