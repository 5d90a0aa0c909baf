package main

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// binarySizes are the sizes of three programs that serve one document:
// with plain net/http, with the viewer and its embedded Swagger UI, and
// with the viewer and swagger-ui-dist's files embedded for
// Config.SwaggerUI (0 when VIEWER_SWAGGER_UI_DIST names no package).
type binarySizes struct {
	plain, viewer, own int64
	ownDist            string // the package the last one embeds
}

// probePrograms are the programs' sources, by directory.
var probePrograms = map[string]string{
	"plain": `package main

import (
	"net/http"
	"os"
)

func main() {
	spec, err := os.ReadFile("openapi.yaml")
	if err != nil {
		panic(err)
	}
	http.HandleFunc("GET /openapi.yaml", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(spec) })
	panic(http.ListenAndServe("127.0.0.1:8080", nil))
}
`,
	"viewer": `package main

import (
	"net/http"

	"github.com/openapi-viewer/viewer"
)

func main() {
	h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: "openapi.yaml", UIPath: "/docs"})
	if err != nil {
		panic(err)
	}
	panic(http.ListenAndServe("127.0.0.1:8080", h))
}
`,
	"own": `package main

import (
	"embed"
	"io/fs"
	"net/http"

	"github.com/openapi-viewer/viewer"
)

//go:embed ui
var dist embed.FS

func main() {
	ui, err := fs.Sub(dist, "ui")
	if err != nil {
		panic(err)
	}
	h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: "openapi.yaml", UIPath: "/docs", SwaggerUI: ui})
	if err != nil {
		panic(err)
	}
	panic(http.ListenAndServe("127.0.0.1:8080", h))
}
`,
}

// ownDistFiles are the files of swagger-ui-dist the "own" program embeds:
// those the viewer reads.
var ownDistFiles = []string{"swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "swagger-ui.css",
	"oauth2-redirect.js", "favicon-32x32.png", "favicon-16x16.png"}

// measureBinarySizes writes the programs into a temporary directory of
// this module, builds each with go build (default flags) and returns their
// sizes.
func measureBinarySizes(ctx context.Context) (*binarySizes, error) {
	// The bench module by name: in the repository's workspace "go list -m"
	// alone lists every module of go.work.
	out, err := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Dir}}", "github.com/openapi-viewer/viewer/bench").Output()
	if err != nil {
		return nil, fmt.Errorf("finding the bench module: %w", err)
	}
	modDir := strings.TrimSpace(string(out))
	tmp, err := os.MkdirTemp(modDir, ".sizeprobe-")
	if err != nil {
		return nil, fmt.Errorf("binary sizes: %w", err)
	}
	defer os.RemoveAll(tmp)

	var s binarySizes
	dist := os.Getenv("VIEWER_SWAGGER_UI_DIST")
	for name, src := range probePrograms {
		if name == "own" && dist == "" {
			continue
		}
		dir := filepath.Join(tmp, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("binary sizes: %w", err)
		}
		if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
			return nil, fmt.Errorf("binary sizes: %w", err)
		}
		if name == "own" {
			if err := unpackDist(dist, filepath.Join(dir, "ui")); err != nil {
				return nil, err
			}
		}
		bin := filepath.Join(tmp, name+".bin")
		cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./"+filepath.Base(tmp)+"/"+name)
		cmd.Dir = modDir
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("building the %s program: %w\n%s", name, err, out)
		}
		st, err := os.Stat(bin)
		if err != nil {
			return nil, fmt.Errorf("binary sizes: %w", err)
		}
		switch name {
		case "plain":
			s.plain = st.Size()
		case "viewer":
			s.viewer = st.Size()
		case "own":
			s.own, s.ownDist = st.Size(), filepath.Base(dist)
		}
	}
	return &s, nil
}

// unpackDist writes ownDistFiles of a swagger-ui-dist package (npm pack's
// .tgz, or its unpacked package/ directory) into dir.
func unpackDist(dist, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("unpacking %s: %w", dist, err)
	}
	want := map[string]bool{}
	for _, f := range ownDistFiles {
		want[f] = true
	}
	if st, err := os.Stat(dist); err == nil && st.IsDir() {
		for _, f := range ownDistFiles {
			b, err := os.ReadFile(filepath.Join(dist, f))
			if err != nil {
				return fmt.Errorf("unpacking %s: %w", dist, err)
			}
			if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
				return fmt.Errorf("unpacking %s: %w", dist, err)
			}
		}
		return nil
	}
	f, err := os.Open(dist)
	if err != nil {
		return fmt.Errorf("unpacking %s: %w", dist, err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("unpacking %s: %w", dist, err)
	}
	tr := tar.NewReader(zr)
	found := 0
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("unpacking %s: %w", dist, err)
		}
		name := strings.TrimPrefix(path.Clean(h.Name), "package/")
		if !want[name] {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return fmt.Errorf("unpacking %s: %w", dist, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return fmt.Errorf("unpacking %s: %w", dist, err)
		}
		found++
	}
	if found != len(ownDistFiles) {
		return fmt.Errorf("unpacking %s: found %d of the files %v", dist, found, ownDistFiles)
	}
	return nil
}
