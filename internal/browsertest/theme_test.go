package browsertest

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer"
)

// TestTheme renders the page under each Config.Theme with the browser's
// prefers-color-scheme emulated, takes a screenshot of the viewport and
// samples its pixels: the default ("auto") is dark when the system prefers
// dark and light otherwise, and follows a change of the preference on the
// open page; "light" stays light and "dark" stays dark whatever the
// preference, also with several documents, where Swagger UI's top bar has
// a dark-mode switch of its own that sets dark mode from the preference.
func TestTheme(t *testing.T) {
	browser := startBrowser(t)
	one := func(theme string) viewer.Config {
		return viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", Theme: theme}
	}
	several := func(theme string) viewer.Config {
		return viewer.Config{UIPath: "/docs", Theme: theme, Specs: []viewer.SpecSource{
			{Name: "Petstore", FilePathOrSpec: petstore}, {Name: "Again", FilePathOrSpec: petstore}}}
	}
	cases := []struct {
		name     string
		cfg      viewer.Config
		prefers  string // the emulated prefers-color-scheme
		wantDark bool
	}{
		{"default, system dark", one(""), "dark", true},
		{"default, system light", one(""), "light", false},
		{"auto, system dark", one("auto"), "dark", true},
		{"light, system dark", one("light"), "dark", false},
		{"dark, system light", one("dark"), "light", true},
		{"several documents, default, system dark", several(""), "dark", true},
		{"several documents, light, system dark", several("light"), "dark", false},
		{"several documents, dark, system light", several("dark"), "light", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := serve(t, c.cfg)
			tb := newTab(t, browser, 60*time.Second)
			tb.run(t, "emulating prefers-color-scheme: "+c.prefers, prefersColorScheme(c.prefers))
			tb.run(t, "loading the page", chromedp.Navigate(srv.URL+"/docs/"), chromedp.WaitVisible(".swagger-ui .info .title"))
			tb.waitCount(t, ".swagger-ui .opblock", 1)
			if len(c.cfg.Specs) > 1 {
				// The top bar, with Swagger UI's own switch, is mounted.
				tb.waitCount(t, ".swagger-ui .topbar", 1)
			}
			checkTheme(t, tb, c.wantDark)
			problems, _ := tb.report()
			assert.Empty(t, problems, "console errors, exceptions, error log entries")
			assert.Empty(t, tb.cspViolations(t), "securitypolicyviolation events")
		})
	}

	t.Run("default follows a change of the preference", func(t *testing.T) {
		srv := serve(t, one(""))
		tb := newTab(t, browser, 60*time.Second)
		tb.run(t, "emulating a dark preference", prefersColorScheme("dark"))
		tb.run(t, "loading the page", chromedp.Navigate(srv.URL+"/docs/"), chromedp.WaitVisible(".swagger-ui .info .title"))
		checkTheme(t, tb, true)
		tb.run(t, "emulating a light preference", prefersColorScheme("light"))
		tb.waitTrue(t, `!document.documentElement.classList.contains("dark-mode")`)
		checkTheme(t, tb, false)
	})
}

// prefersColorScheme emulates the system's color scheme preference in the
// tab, for this page and the ones it loads next.
func prefersColorScheme(scheme string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		return emulation.SetEmulatedMedia().
			WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}).Do(ctx)
	})
}

// checkTheme checks Swagger UI's dark-mode class on the page and the
// brightness of a screenshot of the viewport: the median luminance of a
// grid of pixels (mostly the page's background) is under 64 of 255 when
// dark, over 192 when light.
func checkTheme(t *testing.T, tb *tab, wantDark bool) {
	t.Helper()
	var dark bool
	tb.eval(t, `document.documentElement.classList.contains("dark-mode")`, &dark)
	assert.Equal(t, wantDark, dark, "Swagger UI's dark-mode class on the page")

	var shot []byte
	tb.run(t, "taking a screenshot", chromedp.CaptureScreenshot(&shot))
	img, err := png.Decode(bytes.NewReader(shot))
	require.NoError(t, err, "decoding the screenshot")
	lum := medianLuminance(img)
	if wantDark {
		assert.Less(t, lum, 64, "median luminance of the page: want a dark background")
	} else {
		assert.Greater(t, lum, 192, "median luminance of the page: want a light background")
	}
}

// medianLuminance returns the median luminance (0 to 255, Rec. 601
// weights) of the pixels of img on a 32 × 32 grid.
func medianLuminance(img image.Image) int {
	b := img.Bounds()
	var lums []int
	for i := 0; i < 32; i++ {
		for j := 0; j < 32; j++ {
			x := b.Min.X + (2*i+1)*b.Dx()/64
			y := b.Min.Y + (2*j+1)*b.Dy()/64
			r, g, bl, _ := img.At(x, y).RGBA()
			lums = append(lums, int((299*r+587*g+114*bl)/1000)>>8)
		}
	}
	slices.Sort(lums)
	return lums[len(lums)/2]
}
