package glb

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// Chunks splits a .glb file into its JSON and BIN chunks, checking the
// header, the lengths and the alignment. bin is nil when there is no BIN
// chunk.
func Chunks(b []byte) (js, bin []byte, err error) {
	if len(b) < headerLen+chunkHdrLen {
		return nil, nil, fmt.Errorf("glb: %d bytes is too short for a header", len(b))
	}
	le := binary.LittleEndian
	if le.Uint32(b) != magic {
		return nil, nil, errors.New(`glb: no "glTF" magic`)
	}
	if v := le.Uint32(b[4:]); v != 2 {
		return nil, nil, fmt.Errorf("glb: version %d, want 2", v)
	}
	if n := le.Uint32(b[8:]); int64(n) != int64(len(b)) {
		return nil, nil, fmt.Errorf("glb: header says %d bytes, file has %d", n, len(b))
	}
	off := headerLen
	for i := 0; off < len(b); i++ {
		if len(b)-off < chunkHdrLen {
			return nil, nil, fmt.Errorf("glb: chunk %d header at byte %d is cut short", i, off)
		}
		n, typ := int(le.Uint32(b[off:])), le.Uint32(b[off+4:])
		start := off + chunkHdrLen
		if n%4 != 0 || n > len(b)-start {
			return nil, nil, fmt.Errorf("glb: chunk %d at byte %d: length %d is unaligned or past the end", i, off, n)
		}
		data := b[start : start+n]
		switch {
		case i == 0 && typ == chunkJSON:
			js = data
		case i == 0:
			return nil, nil, fmt.Errorf("glb: first chunk has type %#x, want JSON", typ)
		case i == 1 && typ == chunkBIN:
			bin = data
		}
		off = start + n
	}
	return js, bin, nil
}

// Decode reads a .glb file of the shape [Encode] writes: the first node's
// mesh and translation, its first primitive's positions, normals and
// indices, and its material's colour.
func Decode(b []byte) (*Mesh, error) {
	js, bin, err := Chunks(b)
	if err != nil {
		return nil, err
	}
	var doc document
	if err := json.Unmarshal(js, &doc); err != nil {
		return nil, fmt.Errorf("glb: JSON chunk: %w", err)
	}
	if doc.Asset.Version != "2.0" {
		return nil, fmt.Errorf("glb: asset.version %q, want 2.0", doc.Asset.Version)
	}
	if len(doc.Nodes) == 0 || doc.Nodes[0].Mesh == nil || *doc.Nodes[0].Mesh < 0 || *doc.Nodes[0].Mesh >= len(doc.Meshes) {
		return nil, errors.New("glb: /nodes/0 has no mesh")
	}
	nd := doc.Nodes[0]
	msh := doc.Meshes[*nd.Mesh]
	if len(msh.Primitives) == 0 {
		return nil, errors.New("glb: mesh has no primitives")
	}
	p := msh.Primitives[0]
	m := &Mesh{}
	if len(nd.Translation) == 3 {
		copy(m.Translation[:], nd.Translation)
	}
	r := reader{doc: &doc, bin: bin}
	pos, ok := p.Attributes["POSITION"]
	if !ok {
		return nil, errors.New("glb: primitive has no POSITION")
	}
	if m.Positions, err = r.floats(pos, "VEC3"); err != nil {
		return nil, err
	}
	if nrm, ok := p.Attributes["NORMAL"]; ok {
		if m.Normals, err = r.floats(nrm, "VEC3"); err != nil {
			return nil, err
		}
	}
	if p.Indices == nil {
		return nil, errors.New("glb: primitive has no indices")
	}
	if m.Indices, err = r.indices(*p.Indices); err != nil {
		return nil, err
	}
	if p.Material != nil && *p.Material >= 0 && *p.Material < len(doc.Materials) {
		copy(m.Color[:], doc.Materials[*p.Material].PBR.BaseColorFactor)
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// reader resolves accessors against the BIN chunk.
type reader struct {
	doc *document
	bin []byte
}

// data returns accessor i's bytes, checking its view and type.
func (r reader) data(i int, typ string, ctype, size int) ([]byte, int, error) {
	if i < 0 || i >= len(r.doc.Accessors) {
		return nil, 0, fmt.Errorf("glb: accessor %d does not exist", i)
	}
	a := r.doc.Accessors[i]
	if a.Type != typ || a.ComponentType != ctype {
		return nil, 0, fmt.Errorf("glb: /accessors/%d is %s of %d, want %s of %d", i, a.Type, a.ComponentType, typ, ctype)
	}
	if a.BufferView < 0 || a.BufferView >= len(r.doc.BufferViews) {
		return nil, 0, fmt.Errorf("glb: /accessors/%d names bufferView %d that does not exist", i, a.BufferView)
	}
	v := r.doc.BufferViews[a.BufferView]
	start := v.ByteOffset + a.ByteOffset
	n := a.Count * size
	if v.Buffer != 0 || start < 0 || a.Count < 0 || a.ByteOffset+n > v.ByteLength || v.ByteOffset+v.ByteLength > len(r.bin) {
		return nil, 0, fmt.Errorf("glb: /accessors/%d reaches past its bufferView or the BIN chunk", i)
	}
	return r.bin[start : start+n], a.Count, nil
}

func (r reader) floats(i int, typ string) ([]float32, error) {
	b, n, err := r.data(i, typ, componentFloat, 12)
	if err != nil {
		return nil, err
	}
	out := make([]float32, 3*n)
	for k := range out {
		out[k] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*k:]))
	}
	return out, nil
}

func (r reader) indices(i int) ([]uint32, error) {
	if i >= 0 && i < len(r.doc.Accessors) && r.doc.Accessors[i].ComponentType == componentUint32 {
		b, n, err := r.data(i, "SCALAR", componentUint32, 4)
		if err != nil {
			return nil, err
		}
		out := make([]uint32, n)
		for k := range out {
			out[k] = binary.LittleEndian.Uint32(b[4*k:])
		}
		return out, nil
	}
	b, n, err := r.data(i, "SCALAR", componentUint16, 2)
	if err != nil {
		return nil, err
	}
	out := make([]uint32, n)
	for k := range out {
		out[k] = uint32(binary.LittleEndian.Uint16(b[2*k:]))
	}
	return out, nil
}
