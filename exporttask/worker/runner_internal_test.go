package worker

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/openapi-viewer/viewer/exporttask/export"
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

// TestErrorReasonLeaksNothing: the errors of a transient failure reach
// the errorReason without server paths or Go's vocabulary.
func TestErrorReasonLeaksNothing(t *testing.T) {
	_, err := os.Open("/nonexistent-root/catalog/dem.tif")
	assert.Equal(t, "dem: reading the source: open dem.tif: no such file or directory",
		errorReason(fmt.Errorf("dem: reading the source: %w", err)))
	_, err = strconv.ParseFloat("x", 64)
	assert.Equal(t, "dem: nodata", errorReason(fmt.Errorf("dem: nodata: %w", err)))
	assert.Equal(t, "the source (dem.tif) changed", errorReason(export.Permanent("the source (/srv/dem.tif) changed", nil)))
}
