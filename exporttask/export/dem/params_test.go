package dem

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/jobtest"
)

func TestResamplingParameter(t *testing.T) {
	for _, c := range []struct {
		params map[string]any
		want   Resampling
	}{
		{nil, Bilinear},
		{map[string]any{"other": 1}, Bilinear},
		{map[string]any{ParamResampling: "bilinear"}, Bilinear},
		{map[string]any{ParamResampling: "nearest"}, Nearest},
	} {
		got, err := resamplingOf(c.params)
		require.NoError(t, err, "%v", c.params)
		assert.Equal(t, c.want, got, "%v", c.params)
	}
	for _, bad := range []any{"cubic", "Nearest", "", nil, 1.0, true, []any{"nearest"}, map[string]any{}} {
		_, err := resamplingOf(map[string]any{ParamResampling: bad})
		var ve *exporttask.ValidationError
		require.True(t, errors.As(err, &ve), "%#v: %v", bad, err)
		require.Len(t, ve.Problems, 1)
		assert.Equal(t, "/parameters/resampling", ve.Problems[0].Pointer, "%#v", bad)
		assert.Contains(t, ve.Problems[0].Message, `must be "bilinear" or "nearest"`)
	}
}

// A bad resampling value is refused when the export is estimated (at
// create), for any DEM record: the parameter is checked before the source
// is read.
func TestEstimateRefusesBadResampling(t *testing.T) {
	rec := demoRecord(t, res)
	j := job(t, rec, nil)
	j = jobtest.WithParameters(t, j, map[string]any{ParamResampling: "cubic"})
	_, err := New(Options{}).Estimate(context.Background(), j)
	var ve *exporttask.ValidationError
	require.True(t, errors.As(err, &ve), "%v", err)
	assert.Equal(t, "/parameters/resampling", ve.Problems[0].Pointer)
	assert.Equal(t, `must be "bilinear" or "nearest", got "cubic"`, ve.Problems[0].Message)

	j = jobtest.WithParameters(t, j, map[string]any{ParamResampling: "nearest"})
	_, err = New(Options{}).Estimate(context.Background(), j)
	assert.NoError(t, err, "a valid value is accepted for a source in EPSG:4326, which it does not change")
}
