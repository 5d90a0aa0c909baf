package tiles3d

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/jobtest"
	"github.com/openapi-viewer/viewer/exporttask/internal/nodetest"
)

// Environment of the independent 3D Tiles reader test.
const (
	// nodeModulesEnv names a node_modules directory holding gltf-validator,
	// @loaders.gl/core, @loaders.gl/zip and @loaders.gl/3d-tiles; by default
	// readerDir's, which `npm ci --prefix` fills from its package-lock.json.
	nodeModulesEnv = "VIEWER_3DTILES_NODE_MODULES"
	readerDir      = "testdata/reader"
	// require3DTilesEnv set to 1 fails the test, instead of skipping it,
	// when node or those packages are missing.
	require3DTilesEnv = "VIEWER_TEST_REQUIRE_3DTILES"
)

// requireReader returns node's path and the node_modules directory, or
// skips (fails when require3DTilesEnv=1) the test.
func requireReader(t *testing.T) (node, modules string) {
	t.Helper()
	return nodetest.Setup{RequireEnv: require3DTilesEnv, ModulesEnv: nodeModulesEnv, Dir: readerDir,
		Prefix:   "exporttask/export/tiles3d/" + readerDir,
		Packages: []string{"gltf-validator", "@loaders.gl/core", "@loaders.gl/zip", "@loaders.gl/3d-tiles"}}.Require(t)
}

// readerReport is what testdata/check3dtiles.mjs prints.
type readerReport struct {
	Version      string   `json:"version"`
	Tiles        int      `json:"tiles"`
	Contents     int      `json:"contents"`
	Vertices     int      `json:"vertices"`
	GLTFErrors   int      `json:"gltfErrors"`
	GLTFWarnings int      `json:"gltfWarnings"`
	Named        []string `json:"named"`
	Entries      []string `json:"entries"`
	Errors       []string `json:"errors"`
}

func runReader(t *testing.T, node, modules, zipPath string) (readerReport, error) {
	t.Helper()
	cmd := exec.Command(node, filepath.Join(readerDir, "check3dtiles.mjs"), zipPath)
	cmd.Env = append(os.Environ(), nodeModulesEnv+"="+modules)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	var rep readerReport
	require.NoError(t, json.Unmarshal(out, &rep), "reader output %q, stderr %s", out, stderr.String())
	return rep, runErr
}

func TestIndependentReaderAcceptsTheZip(t *testing.T) {
	node, modules := requireReader(t)
	rec := demoRecord(t)
	dir, arts, _ := exported(t, job(t, rec, jobtest.Triangle()))
	zipPath := filepath.Join(dir, arts[0].Name)
	_, contentTiles := checkZip(t, zipPath)

	rep, err := runReader(t, node, modules, zipPath)
	require.NoError(t, err, "reader errors: %v", rep.Errors)
	assert.Equal(t, "1.1", rep.Version)
	assert.Equal(t, contentTiles+1, rep.Tiles, "the content-less root and every content tile")
	assert.Equal(t, contentTiles, rep.Contents)
	assert.Equal(t, contentTiles*gridVertices*gridVertices, rep.Vertices)
	assert.Zero(t, rep.GLTFErrors)
	assert.Zero(t, rep.GLTFWarnings)
	assert.Empty(t, rep.Errors)

	// The same reader refuses a zip with one damaged mesh: an accessor
	// that claims more vertices than its buffer view holds.
	bad := filepath.Join(t.TempDir(), "bad.zip")
	damage(t, zipPath, bad)
	rep, err = runReader(t, node, modules, bad)
	assert.Error(t, err)
	assert.NotZero(t, rep.GLTFErrors)
	assert.NotEmpty(t, rep.Errors)
}

// damage copies the zip at src to dst with the first .glb's position count
// raised by ten.
func damage(t *testing.T, src, dst string) {
	t.Helper()
	entries := readZip(t, src)
	f, err := os.Create(dst)
	require.NoError(t, err)
	zw := zip.NewWriter(f)
	done := false
	for name, b := range entries {
		from := `"count":` + itoa(gridVertices*gridVertices)
		if !done && strings.HasSuffix(name, ".glb") && bytes.Contains(b, []byte(from)) {
			b = bytes.Replace(b, []byte(from), []byte(`"count":`+itoa(gridVertices*gridVertices+10)), 1)
			done = true
		}
		w, err := zw.Create(name)
		require.NoError(t, err)
		_, err = w.Write(b)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	require.NoError(t, f.Close())
	require.True(t, done, "no mesh to damage")
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
