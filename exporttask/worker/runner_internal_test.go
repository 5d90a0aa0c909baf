package worker

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestErrorReason(t *testing.T) {
	assert.Equal(t, "source imagery unavailable", errorReason(errors.New("source imagery unavailable")))
	assert.Equal(t, "export failed", errorReason(errors.New("")))

	long := strings.Repeat("é", maxErrorReason) // 2 bytes each
	got := errorReason(errors.New(long))
	assert.LessOrEqual(t, len(got), maxErrorReason)
	assert.Greater(t, len(got), maxErrorReason-4)
	assert.True(t, utf8.ValidString(got), "cut on a rune boundary")
	assert.True(t, strings.HasPrefix(long, got))
}
