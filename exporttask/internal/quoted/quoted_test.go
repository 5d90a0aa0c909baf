package quoted_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/openapi-viewer/viewer/exporttask/internal/quoted"
)

func TestShort(t *testing.T) {
	assert.Equal(t, `"key-1"`, quoted.Short("key-1"))
	assert.Equal(t, `"a\"b"`, quoted.Short(`a"b`))
	long := strings.Repeat("é", quoted.Limit+1)
	assert.Equal(t, `"`+strings.Repeat("é", quoted.Limit)+`"…`, quoted.Short(long), "cut at runes, not bytes")
	assert.Equal(t, `"`+strings.Repeat("x", quoted.Limit)+`"`, quoted.Short(strings.Repeat("x", quoted.Limit)), "a value at the limit is whole")
}
