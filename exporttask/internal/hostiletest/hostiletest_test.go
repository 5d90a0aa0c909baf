package hostiletest_test

import (
	"bytes"
	"image/png"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/hostiletest"
)

func TestPNGDeclaresItsSize(t *testing.T) {
	b := hostiletest.PNG(1<<19, 1<<19)
	assert.Less(t, len(b), 80)
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	require.NoError(t, err)
	assert.Equal(t, 1<<19, cfg.Width)
	assert.Equal(t, 1<<19, cfg.Height)
	img, err := png.Decode(bytes.NewReader(hostiletest.PNG(2, 1)))
	assert.Error(t, err, "the pixels are missing")
	assert.Nil(t, img)
}
