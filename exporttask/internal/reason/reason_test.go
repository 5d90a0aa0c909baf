package reason_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/openapi-viewer/viewer/exporttask/internal/reason"
)

func TestClean(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"the tiles of catalog record 42 are unreadable", "the tiles of catalog record 42 are unreadable"},
		{"the source of catalog record 42 (/srv/data/dem.tif) cannot be read", "the source of catalog record 42 (dem.tif) cannot be read"},
		{"tile 7/3/2: open /srv/data/tms/7/3/2.png: no such file or directory", "tile 7/3/2: open 2.png: no such file or directory"},
		{"dem: writing metadata.json: json: error calling MarshalJSON for type dem.NoDataValue: json: unsupported value: +Inf", "dem: writing metadata.json"},
		{"nodata: strconv.ParseFloat: parsing \"x\": invalid syntax", "nodata"},
		{"bad value %!d(string=x)", "bad value (string=x)"},
		{"*fs.PathError happened", "happened"},
		{"a ratio of 1.5 is fine, and tileset.json too", "a ratio of 1.5 is fine, and tileset.json too"},
		// JSON pointers into the request are the problem's place, kept.
		{"exporttask: invalid request: /ROI: the area is outside the record", "exporttask: invalid request: /ROI: the area is outside the record"},
		{"invalid request (2 problems): /parameters/maxZoom: too deep; /webhook/0/url: not https",
			"invalid request (2 problems): /parameters/maxZoom: too deep; /webhook/0/url: not https"},
		{"cannot read /srv/ROI.tif", "cannot read ROI.tif"},
	} {
		assert.Equal(t, c.want, reason.Clean(c.in), "%q", c.in)
	}
}
