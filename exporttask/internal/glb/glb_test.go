package glb

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func quad() *Mesh {
	return &Mesh{
		Translation: [3]float64{4.4e6, 3.1e6, -3.3e6},
		Positions:   []float32{0, 0, 0, 1, 0, 0, 1, 0, -1, 0, 0, -1},
		Normals:     []float32{0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0},
		Indices:     []uint32{0, 1, 2, 0, 2, 3},
		Color:       [4]float32{0.5, 0.4, 0.3, 1},
	}
}

func TestRoundTrip(t *testing.T) {
	b, err := Encode(quad())
	require.NoError(t, err)
	assert.Equal(t, "glTF", string(b[:4]))
	assert.Zero(t, len(b)%4)
	assert.EqualValues(t, len(b), binary.LittleEndian.Uint32(b[8:]))
	got, err := Decode(b)
	require.NoError(t, err)
	assert.Equal(t, quad(), got)
}

func TestLargeMeshUsesUint32Indices(t *testing.T) {
	m := &Mesh{Positions: make([]float32, 3*70000), Indices: []uint32{0, 1, 69999}}
	b, err := Encode(m)
	require.NoError(t, err)
	got, err := Decode(b)
	require.NoError(t, err)
	assert.Equal(t, m.Indices, got.Indices)
}

func TestDecodeRejectsDamage(t *testing.T) {
	good, err := Encode(quad())
	require.NoError(t, err)
	cases := map[string]func([]byte) []byte{
		"magic":     func(b []byte) []byte { b[0] = 'x'; return b },
		"version":   func(b []byte) []byte { b[4] = 1; return b },
		"truncated": func(b []byte) []byte { return b[:len(b)-8] },
		"json":      func(b []byte) []byte { b[20] = '!'; return b },
	}
	for name, spoil := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Decode(spoil(append([]byte(nil), good...)))
			assert.ErrorContains(t, err, "glb:")
		})
	}
	_, err = Encode(&Mesh{Positions: []float32{0, 0, 0}, Indices: []uint32{0, 0, 1}})
	assert.ErrorContains(t, err, "names position 1 of 1")
}
