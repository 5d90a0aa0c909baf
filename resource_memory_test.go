package viewer

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompact(t *testing.T) {
	spare := make([]byte, 10, 1000)
	copy(spare, "0123456789")
	out := compact(spare)
	assert.Equal(t, "0123456789", string(out))
	assert.Less(t, cap(out), 100, "the spare capacity is dropped")

	tight := make([]byte, 100, 102)
	out = compact(tight)
	assert.Same(t, &tight[0], &out[0], "a slice with little spare capacity is kept as is")
}

// TestServedBytesKeepNoBuffer checks that what the router keeps of a
// document and of its compressed variants is about their size: a large
// document must not cost the router twice its size or more in buffer
// capacity (json.Indent reserves twice the input). Allocation size classes
// round small slices up by at most an eighth.
func TestServedBytesKeepNoBuffer(t *testing.T) {
	var doc bytes.Buffer
	doc.WriteString(`{"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "paths": {`)
	for i := range 2000 {
		if i > 0 {
			doc.WriteString(",")
		}
		fmt.Fprintf(&doc, `"/items/%d": {"get": {"summary": "item %d", "responses": {"200": {"description": "ok"}}}}`, i, i)
	}
	doc.WriteString("}}")
	yamlDoc, err := os.ReadFile("testdata/wild/petstore-expanded.yaml")
	require.NoError(t, err)

	for name, src := range map[string][]byte{"json": doc.Bytes(), "yaml": yamlDoc} {
		s, err := loadSpec(src, nil, "FilePathOrSpec")
		require.NoError(t, err, name)
		assert.LessOrEqual(t, cap(s.json)-len(s.json), len(s.json)/8, "%s: spare capacity of the JSON", name)

		r := newResource("openapi.json", jsonContentType, s.json, true, nil)
		for e := encGzip; e < numEncodings; e++ {
			v := r.variant(e, nil)
			require.NotNil(t, v, "%s: %v", name, e)
			assert.LessOrEqual(t, cap(v.body)-len(v.body), len(v.body)/8, "%s: spare capacity of the %v bytes", name, e)
		}
	}
}
