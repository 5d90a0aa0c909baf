package export_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/dem"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
	"github.com/openapi-viewer/viewer/exporttask/export/tiles3d"
	"github.com/openapi-viewer/viewer/exporttask/internal/jobtest"
	"github.com/openapi-viewer/viewer/exporttask/internal/nodetest"
	"github.com/openapi-viewer/viewer/exporttask/internal/stactest"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

const (
	// stacReaderDir holds checkstac.mjs and the package.json and
	// package-lock.json of stac-js, which `npm ci --prefix
	// exporttask/export/testdata/stac` installs.
	stacReaderDir = "testdata/stac"
	// stacModulesEnv names another node_modules directory holding stac-js.
	stacModulesEnv = "STAC_NODE_MODULES"
	// requireNodeEnv set to 1 fails the test, instead of skipping it, when
	// node or stac-js is missing (as CI sets).
	requireNodeEnv = "VIEWER_TEST_REQUIRE_NODE"
)

// domainExport is one domain's real export of the demo source.
type domainExport struct {
	domain exporttask.Domain
	dir    string
	arts   []exporttask.Artifact
	box    [4]float64
}

// exportEveryDomain exports the demo record of each domain over a
// rectangle inside the demo footprint, with the domain's real exporter.
func exportEveryDomain(t *testing.T) []domainExport {
	t.Helper()
	box := [4]float64{34.3, 31.2, 34.5, 31.35}
	roi := jobtest.Rect(box[0], box[1], box[2], box[3])
	var out []domainExport
	for _, d := range []struct {
		rec   catalog.Record
		write func(dir string, rec catalog.Record) error
		x     export.Engine
	}{
		{catalog.Record{ID: rasterID, Domain: exporttask.DomainRaster, Title: "Demo relief", MinZoom: 5, MaxZoom: 9},
			raster.WriteDemoSource, raster.New(raster.Options{TempDir: t.TempDir()})},
		{catalog.Record{ID: demID, Domain: exporttask.DomainDEM, Title: "Demo DEM", Resolution: 1.0 / 1200},
			dem.WriteDemoSource, dem.New(dem.Options{TempDir: t.TempDir()})},
		{catalog.Record{ID: "c0ffee00-3d3d-4d3d-8d3d-0123456789ab", Domain: exporttask.Domain3D, Title: "Demo 3D",
			MinZoom: 7, MaxZoom: 10}, tiles3d.WriteDemoSource, tiles3d.New(tiles3d.Options{})},
	} {
		rec := d.rec
		rec.Footprint, rec.Location = jobtest.DemoFootprint(), t.TempDir()
		require.NoError(t, d.write(rec.Location, rec), rec.Domain)
		if rec.Domain == exporttask.DomainDEM {
			got, err := dem.Inspect(context.Background(), catalog.Source{Path: filepath.Join(rec.Location, dem.DemoFile)})
			require.NoError(t, err)
			rec.Source = got.Source
		}
		dir := t.TempDir()
		arts, err := d.x.Export(context.Background(), jobtest.Job(t, rec, roi), testout.New(dir))
		require.NoError(t, err, rec.Domain)
		out = append(out, domainExport{domain: rec.Domain, dir: dir, arts: arts, box: box})
	}
	return out
}

// split returns the METADATA artifact and the others.
func split(t *testing.T, arts []exporttask.Artifact) (exporttask.Artifact, []exporttask.Artifact) {
	t.Helper()
	var meta []exporttask.Artifact
	var others []exporttask.Artifact
	for _, a := range arts {
		if a.Type == exporttask.ArtifactMetadata {
			meta = append(meta, a)
		} else {
			others = append(others, a)
		}
	}
	require.Len(t, meta, 1, "one METADATA artifact")
	return meta[0], others
}

// TestMetadataIsOneSTACItemShapeForEveryDomain checks the METADATA of a
// real export of each domain against what STAC 1.0.0 and its file and
// projection extensions require, and that every domain writes the same
// shape: the same top-level members and the same common properties.
func TestMetadataIsOneSTACItemShapeForEveryDomain(t *testing.T) {
	var keys [][]string
	for _, e := range exportEveryDomain(t) {
		t.Run(string(e.domain), func(t *testing.T) {
			meta, others := split(t, e.arts)
			raw, err := os.ReadFile(filepath.Join(e.dir, meta.Name))
			require.NoError(t, err)
			it := stactest.Check(t, raw, others)
			assert.Equal(t, e.box[:], it.BBox, "the exported box")
			assert.Equal(t, string(e.domain), it.Property(t, "domain"))
			var top map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(raw, &top))
			var names []string
			for k := range top {
				names = append(names, k)
			}
			for _, k := range []string{"datetime", "created", "proj:epsg", "title", "exporttask:recordID", "exporttask:domain"} {
				if assert.Contains(t, it.Properties, k) {
					names = append(names, "properties/"+k)
				}
			}
			keys = append(keys, names)
		})
	}
	for i := 1; i < len(keys); i++ {
		assert.ElementsMatch(t, keys[0], keys[i], "every domain's Item has the same members")
	}
}

// TestMetadataMatchesTheOpenAPISchema validates the METADATA of a real
// export of each domain against openapi.yaml's MetadataItem schema, formats
// included, so the documented Item is the one written.
func TestMetadataMatchesTheOpenAPISchema(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromData(exporttask.OpenAPI())
	require.NoError(t, err)
	ref, ok := doc.Components.Schemas["MetadataItem"]
	require.True(t, ok, "openapi.yaml has no MetadataItem schema")
	for _, e := range exportEveryDomain(t) {
		t.Run(string(e.domain), func(t *testing.T) {
			meta, _ := split(t, e.arts)
			raw, err := os.ReadFile(filepath.Join(e.dir, meta.Name))
			require.NoError(t, err)
			var v any
			require.NoError(t, json.Unmarshal(raw, &v))
			assert.NoError(t, ref.Value.VisitJSON(v, openapi3.EnableFormatValidation(), openapi3.MultiErrors()))
		})
	}
}

// stacReport is what testdata/stac/checkstac.mjs prints.
type stacReport struct {
	ObjectType     string              `json:"objectType"`
	IsItem         bool                `json:"isItem"`
	STACVersion    string              `json:"stacVersion"`
	ID             string              `json:"id"`
	BBox           []float64           `json:"bbox"`
	GeometryType   string              `json:"geometryType"`
	Datetime       string              `json:"datetime"`
	EPSG           float64             `json:"epsg"`
	RecordID       string              `json:"recordID"`
	ProjExtension  bool                `json:"projExtension"`
	FileExtension  bool                `json:"fileExtension"`
	Assets         int                 `json:"assets"`
	Roles          map[string][]string `json:"roles"`
	Thumbnails     int                 `json:"thumbnails"`
	MigratedAssets int                 `json:"migratedAssets"`
	Files          map[string]struct {
		Href     string `json:"href"`
		Type     string `json:"type"`
		Size     int64  `json:"size"`
		Checksum string `json:"checksum"`
	} `json:"files"`
	Errors []string `json:"errors"`
}

// requireStacJS returns node's path and the node_modules directory holding
// stac-js, or skips the test (fails it when requireNodeEnv=1).
func requireStacJS(t *testing.T) (node, modules string) {
	t.Helper()
	return nodetest.Setup{RequireEnv: requireNodeEnv, ModulesEnv: stacModulesEnv, Dir: stacReaderDir,
		Prefix: "exporttask/export/" + stacReaderDir, Packages: []string{"stac-js"}}.Require(t)
}

// TestSTACReaderReadsTheMetadata reads the METADATA of a real export of
// each domain with stac-js, a STAC reader this module did not write, and
// compares what it sees with the export.
func TestSTACReaderReadsTheMetadata(t *testing.T) {
	node, modules := requireStacJS(t)
	for _, e := range exportEveryDomain(t) {
		t.Run(string(e.domain), func(t *testing.T) {
			meta, others := split(t, e.arts)
			cmd := exec.Command(node, filepath.Join(stacReaderDir, "checkstac.mjs"), filepath.Join(e.dir, meta.Name))
			cmd.Env = append(os.Environ(), stacModulesEnv+"="+modules)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, runErr := cmd.Output()
			var rep stacReport
			require.NoError(t, json.Unmarshal(out, &rep), "reader output %q, stderr %s", out, stderr.String())
			require.NoError(t, runErr, "reader errors: %v", rep.Errors)

			assert.True(t, rep.IsItem)
			assert.Equal(t, "Item", rep.ObjectType)
			assert.Equal(t, "1.0.0", rep.STACVersion)
			assert.NotEmpty(t, rep.ID)
			assert.Equal(t, e.box[:], rep.BBox)
			assert.Equal(t, "Polygon", rep.GeometryType)
			assert.NotEmpty(t, rep.Datetime, "stac-js reads a date")
			assert.Equal(t, 4326.0, rep.EPSG)
			assert.NotEmpty(t, rep.RecordID)
			assert.True(t, rep.ProjExtension, "the projection extension is declared")
			assert.True(t, rep.FileExtension, "the file extension is declared")
			assert.Equal(t, len(others), rep.Assets, "one asset per artifact but METADATA")
			assert.Equal(t, len(others), rep.MigratedAssets, "as read after migration to the latest STAC")
			want := map[string][]string{"data": {}, "thumbnail": {}, "metadata": {}}
			for _, a := range others {
				role := "metadata"
				switch a.Type {
				case exporttask.ArtifactGPKG, exporttask.ArtifactModel, exporttask.Artifact3DModel:
					role = "data"
				case exporttask.ArtifactThumbnailsSmall, exporttask.ArtifactThumbnailsMedium, exporttask.ArtifactThumbnailsLarge:
					role = "thumbnail"
				}
				want[role] = append(want[role], a.Name)
				f := rep.Files[a.Name]
				assert.Equal(t, a.Name, f.Href)
				assert.Equal(t, a.Size, f.Size, a.Name)
				assert.Equal(t, "1220"+a.SHA256, f.Checksum, a.Name)
			}
			for role, names := range want {
				assert.ElementsMatch(t, names, rep.Roles[role], "assets with role %s", role)
			}
			assert.Equal(t, len(want["thumbnail"]), rep.Thumbnails, "stac-js's thumbnails")
		})
	}
}
