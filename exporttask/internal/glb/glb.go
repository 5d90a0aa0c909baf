package glb

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

const (
	magic       = 0x46546C67 // "glTF"
	chunkJSON   = 0x4E4F534A // "JSON"
	chunkBIN    = 0x004E4942 // "BIN\0"
	headerLen   = 12
	chunkHdrLen = 8

	componentFloat  = 5126
	componentUint16 = 5123
	componentUint32 = 5125
	targetArray     = 34962 // ARRAY_BUFFER
	targetElements  = 34963 // ELEMENT_ARRAY_BUFFER
	modeTriangles   = 4
)

// Mesh is one indexed triangle mesh placed by a translation.
type Mesh struct {
	// Translation moves the whole mesh; large offsets (an Earth-centred
	// position) belong here so that Positions keep float32 precision.
	Translation [3]float64
	// Positions are x, y, z triples relative to Translation.
	Positions []float32
	// Normals are unit x, y, z triples, one per position; may be empty.
	Normals []float32
	// Indices name the positions of each triangle, counter-clockwise seen
	// from the front.
	Indices []uint32
	// Color is the material's base colour, linear RGBA in [0, 1].
	Color [4]float32
}

// Validate checks that the mesh's arrays fit together.
func (m *Mesh) Validate() error {
	n := len(m.Positions) / 3
	switch {
	case len(m.Positions) == 0 || len(m.Positions)%3 != 0:
		return fmt.Errorf("glb: %d position values is not a positive multiple of 3", len(m.Positions))
	case len(m.Normals) != 0 && len(m.Normals) != len(m.Positions):
		return fmt.Errorf("glb: %d normal values for %d position values", len(m.Normals), len(m.Positions))
	case len(m.Indices) == 0 || len(m.Indices)%3 != 0:
		return fmt.Errorf("glb: %d indices is not a positive multiple of 3", len(m.Indices))
	}
	for i, ix := range m.Indices {
		if int(ix) >= n {
			return fmt.Errorf("glb: index %d names position %d of %d", i, ix, n)
		}
	}
	for _, v := range m.Positions {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return errors.New("glb: a position is not finite")
		}
	}
	return nil
}

// The glTF JSON this package writes and reads.
type document struct {
	Asset       asset        `json:"asset"`
	Scene       int          `json:"scene"`
	Scenes      []scene      `json:"scenes"`
	Nodes       []node       `json:"nodes"`
	Meshes      []mesh       `json:"meshes"`
	Materials   []material   `json:"materials"`
	Buffers     []buffer     `json:"buffers"`
	BufferViews []bufferView `json:"bufferViews"`
	Accessors   []accessor   `json:"accessors"`
}

type asset struct {
	Version   string `json:"version"`
	Generator string `json:"generator,omitempty"`
}
type scene struct {
	Nodes []int `json:"nodes"`
}
type node struct {
	Mesh        *int      `json:"mesh,omitempty"`
	Translation []float64 `json:"translation,omitempty"`
}
type mesh struct {
	Primitives []primitive `json:"primitives"`
}
type primitive struct {
	Attributes map[string]int `json:"attributes"`
	Indices    *int           `json:"indices,omitempty"`
	Material   *int           `json:"material,omitempty"`
	Mode       *int           `json:"mode,omitempty"`
}
type material struct {
	PBR         pbr  `json:"pbrMetallicRoughness"`
	DoubleSided bool `json:"doubleSided,omitempty"`
}
type pbr struct {
	BaseColorFactor []float32 `json:"baseColorFactor"`
	MetallicFactor  float32   `json:"metallicFactor"`
	RoughnessFactor float32   `json:"roughnessFactor"`
}
type buffer struct {
	ByteLength int `json:"byteLength"`
}
type bufferView struct {
	Buffer     int `json:"buffer"`
	ByteOffset int `json:"byteOffset"`
	ByteLength int `json:"byteLength"`
	Target     int `json:"target,omitempty"`
}
type accessor struct {
	BufferView    int       `json:"bufferView"`
	ByteOffset    int       `json:"byteOffset,omitempty"`
	ComponentType int       `json:"componentType"`
	Count         int       `json:"count"`
	Type          string    `json:"type"`
	Min           []float32 `json:"min,omitempty"`
	Max           []float32 `json:"max,omitempty"`
}

func ptr(i int) *int { return &i }

// Encode returns the mesh as a .glb file.
func Encode(m *Mesh) ([]byte, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	var bin bytes.Buffer
	doc := document{
		Asset:     asset{Version: "2.0", Generator: "github.com/openapi-viewer/viewer exporttask"},
		Scenes:    []scene{{Nodes: []int{0}}},
		Nodes:     []node{{Mesh: ptr(0), Translation: m.Translation[:]}},
		Materials: []material{{PBR: pbr{BaseColorFactor: m.Color[:], MetallicFactor: 0, RoughnessFactor: 1}}},
	}
	prim := primitive{Attributes: map[string]int{}, Material: ptr(0), Mode: ptr(modeTriangles)}
	n := len(m.Positions) / 3

	addView := func(data any, target int) int {
		for bin.Len()%4 != 0 {
			bin.WriteByte(0)
		}
		off := bin.Len()
		binary.Write(&bin, binary.LittleEndian, data) // a bytes.Buffer does not fail
		doc.BufferViews = append(doc.BufferViews, bufferView{ByteOffset: off, ByteLength: bin.Len() - off, Target: target})
		return len(doc.BufferViews) - 1
	}
	lo, hi := bounds(m.Positions)
	prim.Attributes["POSITION"] = len(doc.Accessors)
	doc.Accessors = append(doc.Accessors, accessor{BufferView: addView(m.Positions, targetArray),
		ComponentType: componentFloat, Count: n, Type: "VEC3", Min: lo, Max: hi})
	if len(m.Normals) > 0 {
		prim.Attributes["NORMAL"] = len(doc.Accessors)
		doc.Accessors = append(doc.Accessors, accessor{BufferView: addView(m.Normals, targetArray),
			ComponentType: componentFloat, Count: n, Type: "VEC3"})
	}
	var view, ctype int
	if n <= math.MaxUint16 {
		idx := make([]uint16, len(m.Indices))
		for i, v := range m.Indices {
			idx[i] = uint16(v)
		}
		view, ctype = addView(idx, targetElements), componentUint16
	} else {
		view, ctype = addView(m.Indices, targetElements), componentUint32
	}
	prim.Indices = ptr(len(doc.Accessors))
	doc.Accessors = append(doc.Accessors, accessor{BufferView: view, ComponentType: ctype, Count: len(m.Indices), Type: "SCALAR"})
	doc.Meshes = []mesh{{Primitives: []primitive{prim}}}
	for bin.Len()%4 != 0 {
		bin.WriteByte(0)
	}
	doc.Buffers = []buffer{{ByteLength: bin.Len()}}

	js, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("glb: %w", err)
	}
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	total := headerLen + chunkHdrLen + len(js) + chunkHdrLen + bin.Len()
	out := make([]byte, 0, total)
	out = binary.LittleEndian.AppendUint32(out, magic)
	out = binary.LittleEndian.AppendUint32(out, 2)
	out = binary.LittleEndian.AppendUint32(out, uint32(total))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(js)))
	out = binary.LittleEndian.AppendUint32(out, chunkJSON)
	out = append(out, js...)
	out = binary.LittleEndian.AppendUint32(out, uint32(bin.Len()))
	out = binary.LittleEndian.AppendUint32(out, chunkBIN)
	out = append(out, bin.Bytes()...)
	return out, nil
}

// bounds returns the per-axis minimum and maximum of xyz triples.
func bounds(xyz []float32) (lo, hi []float32) {
	lo = []float32{xyz[0], xyz[1], xyz[2]}
	hi = []float32{xyz[0], xyz[1], xyz[2]}
	for i := 3; i < len(xyz); i += 3 {
		for k := range 3 {
			lo[k] = min(lo[k], xyz[i+k])
			hi[k] = max(hi[k], xyz[i+k])
		}
	}
	return lo, hi
}
