package tiles3d

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/sourcefs"
)

// makeB3dm wraps a glb in a b3dm whose feature table JSON is ft (padded
// to 8 bytes) followed by the binary body ftBin.
func makeB3dm(ft string, ftBin, glbBytes []byte) []byte {
	for (b3dmHeaderLen+len(ft))%8 != 0 {
		ft += " "
	}
	le := binary.LittleEndian
	out := make([]byte, b3dmHeaderLen)
	copy(out, "b3dm")
	le.PutUint32(out[4:], 1)
	le.PutUint32(out[8:], uint32(b3dmHeaderLen+len(ft)+len(ftBin)+len(glbBytes)))
	le.PutUint32(out[12:], uint32(len(ft)))
	le.PutUint32(out[16:], uint32(len(ftBin)))
	out = append(out, ft...)
	out = append(out, ftBin...)
	return append(out, glbBytes...)
}

func TestB3dmRTCCenterPlacesTheMesh(t *testing.T) {
	centre := geodetic(34.5, 31.5, 0)
	g := squareGLB(t, 0, 0, 0)
	bin := make([]byte, 24)
	for i, v := range centre {
		binary.LittleEndian.PutUint32(bin[4*i:], math.Float32bits(float32(v)))
	}
	for name, b := range map[string][]byte{
		"array":      makeB3dm(`{"BATCH_LENGTH":0,"RTC_CENTER":[`+ftoa(centre[0])+`,`+ftoa(centre[1])+`,`+ftoa(centre[2])+`]}`, nil, g),
		"byteOffset": makeB3dm(`{"BATCH_LENGTH":0,"RTC_CENTER":{"byteOffset":0}}`, bin, g),
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "a.b3dm"), b, 0o644))
			root, err := sourcefs.OpenRoot(dir)
			require.NoError(t, err)
			defer root.Close()
			tris, ok, err := tileTriangles(root, &node{xform: identity(), contents: []content{{file: "a.b3dm", kind: "b3dm"}}}, "Y", map[string]*mesh{}, nil)
			require.NoError(t, err)
			require.True(t, ok)
			require.Len(t, tris, 2)
			// The square's first corner is glTF (0, 0, 0): the RTC centre
			// itself; float32 RTC (byteOffset) is good to about a metre.
			lon, lat, h := bowring(centre)
			tol := 1e-7
			if name == "byteOffset" {
				tol = 1e-5
			}
			assert.InDelta(t, lon, tris[0][0][0], tol)
			assert.InDelta(t, lat, tris[0][0][1], tol)
			assert.InDelta(t, h, tris[0][0][2], 1)
		})
	}
	_, _, err := b3dmGLB([]byte("b3dm\x02\x00\x00\x00"))
	assert.Error(t, err)
	_, _, err = b3dmGLB(makeB3dm(`{"RTC_CENTER":{"byteOffset":8}}`, make([]byte, 8), g))
	assert.ErrorContains(t, err, "outside the feature table")
}

func ftoa(f float64) string { b, _ := marshal(f); return string(b) }
