package tiles3d

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
)

// b3dmHeaderLen is the length of a b3dm header: magic, version, byte
// length, and the four lengths of the feature and batch tables.
const b3dmHeaderLen = 28

// b3dmGLB returns the glTF binary inside a b3dm and its feature table's
// RTC_CENTER (zero when there is none).
func b3dmGLB(b []byte) ([]byte, [3]float64, error) {
	var rtc [3]float64
	le := binary.LittleEndian
	if len(b) < b3dmHeaderLen || string(b[:4]) != "b3dm" {
		return nil, rtc, errors.New("not a b3dm")
	}
	if v := le.Uint32(b[4:]); v != 1 {
		return nil, rtc, fmt.Errorf("b3dm version %d, want 1", v)
	}
	if n := le.Uint32(b[8:]); int64(n) != int64(len(b)) {
		return nil, rtc, fmt.Errorf("b3dm header says %d bytes, file has %d", n, len(b))
	}
	ftJSON, ftBin := int64(le.Uint32(b[12:])), int64(le.Uint32(b[16:]))
	btJSON, btBin := int64(le.Uint32(b[20:])), int64(le.Uint32(b[24:]))
	end := b3dmHeaderLen + ftJSON + ftBin + btJSON + btBin
	if end > int64(len(b)) {
		return nil, rtc, fmt.Errorf("b3dm tables end at byte %d, past the file's %d bytes", end, len(b))
	}
	if ftJSON > 0 {
		var ft struct {
			RTC json.RawMessage `json:"RTC_CENTER"`
		}
		if err := json.Unmarshal(b[b3dmHeaderLen:b3dmHeaderLen+ftJSON], &ft); err != nil {
			return nil, rtc, fmt.Errorf("b3dm feature table JSON: %w", err)
		}
		if len(ft.RTC) > 0 {
			var arr []float64
			var ref struct {
				ByteOffset *int64 `json:"byteOffset"`
			}
			switch {
			case json.Unmarshal(ft.RTC, &arr) == nil && len(arr) == 3:
				copy(rtc[:], arr)
			case json.Unmarshal(ft.RTC, &ref) == nil && ref.ByteOffset != nil:
				off := *ref.ByteOffset
				if off < 0 || off+24 > ftBin {
					return nil, rtc, fmt.Errorf("b3dm RTC_CENTER byteOffset %d is outside the feature table's %d bytes", off, ftBin)
				}
				bin := b[b3dmHeaderLen+ftJSON+off:]
				for i := range 3 {
					rtc[i] = float64(math.Float32frombits(le.Uint32(bin[4*i:])))
				}
			default:
				return nil, rtc, errors.New("b3dm RTC_CENTER is not 3 numbers")
			}
		}
	}
	return b[end:], rtc, nil
}

// placeable reports whether a glb has the one shape whose placement
// glb.Decode reads in full: one node whose matrix, rotation and scale are
// absent or the identity, a mesh with one triangle primitive, and no
// required extension.
func placeable(b []byte) bool {
	if len(b) < 20 || string(b[:4]) != "glTF" {
		return false
	}
	n := int64(binary.LittleEndian.Uint32(b[12:]))
	if n > int64(len(b)-20) {
		return false
	}
	var doc struct {
		ExtensionsRequired []string `json:"extensionsRequired"`
		Nodes              []struct {
			Matrix   []float64       `json:"matrix"`
			Rotation []float64       `json:"rotation"`
			Scale    []float64       `json:"scale"`
			Children json.RawMessage `json:"children"`
		} `json:"nodes"`
		Meshes []struct {
			Primitives []struct {
				Mode *int `json:"mode"`
			} `json:"primitives"`
		} `json:"meshes"`
	}
	if json.Unmarshal(b[20:20+n], &doc) != nil {
		return false
	}
	if len(doc.ExtensionsRequired) > 0 || len(doc.Nodes) != 1 || len(doc.Meshes) != 1 || len(doc.Meshes[0].Primitives) != 1 {
		return false
	}
	nd := doc.Nodes[0]
	same := func(a []float64, want ...float64) bool { return a == nil || slices.Equal(a, want) }
	id := identity()
	if !same(nd.Matrix, id[:]...) || !same(nd.Rotation, 0, 0, 0, 1) || !same(nd.Scale, 1, 1, 1) || nd.Children != nil {
		return false
	}
	mode := doc.Meshes[0].Primitives[0].Mode
	return mode == nil || *mode == 4
}
