package exporttask_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

const allEvents = "TASK_STARTED, TASK_IN_PROGRESS, TASK_UPDATED, TASK_COMPLETED, TASK_FAILED, TASK_ABORTED, TASK_EXPIRED, TASK_PAUSED, TASK_ARCHIVED"

// bigMap returns a map with n keys.
func bigMap(n int) map[string]any {
	m := make(map[string]any, n)
	for i := 0; i < n; i++ {
		m[fmt.Sprintf("k%03d", i)] = i
	}
	return m
}

func TestValidate(t *testing.T) {
	const geo = "/ROI/features/0/geometry"
	tests := []struct {
		name   string
		change func(r *exporttask.CreateRequest)
		want   []exporttask.FieldError // nil: valid
	}{
		// The request as a whole.
		{name: "every field", change: func(*exporttask.CreateRequest) {}},
		{name: "only required fields", change: func(r *exporttask.CreateRequest) {
			r.ROI, r.Description, r.Keywords, r.Parameters = nil, "", nil, nil
		}},
		{name: "all problems at once", change: func(r *exporttask.CreateRequest) {
			r.CatalogRecordID, r.Domain, r.ArtifactCRS, r.Webhook = "", "", "", nil
		}, want: []exporttask.FieldError{
			fe("/catalogRecordID", "is required"), fe("/domain", "is required"),
			fe("/artifactCRS", "is required"), fe("/webhook", "at least one webhook is required"),
		}},

		// catalogRecordID
		{name: "uuid upper case", change: func(r *exporttask.CreateRequest) {
			r.CatalogRecordID = strings.ToUpper(testUUID)
		}},
		{name: "nil uuid", change: func(r *exporttask.CreateRequest) {
			r.CatalogRecordID = "00000000-0000-0000-0000-000000000000"
		}},
		{name: "uuid without dashes", change: func(r *exporttask.CreateRequest) {
			r.CatalogRecordID = strings.ReplaceAll(testUUID, "-", "")
		}, want: []exporttask.FieldError{fe("/catalogRecordID",
			`must be a UUID such as 0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05, got "0b3c7f1e5d2a4c8e9f612a7d4e9b1c05"`)}},
		{name: "uuid in braces", change: func(r *exporttask.CreateRequest) {
			r.CatalogRecordID = "{" + testUUID + "}"
		}, want: []exporttask.FieldError{fe("/catalogRecordID",
			`must be a UUID such as 0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05, got "{0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05}"`)}},
		{name: "uuid with a non-hex digit", change: func(r *exporttask.CreateRequest) {
			r.CatalogRecordID = "0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c0g"
		}, want: []exporttask.FieldError{fe("/catalogRecordID",
			`must be a UUID such as 0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05, got "0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c0g"`)}},
		{name: "uuid dash misplaced", change: func(r *exporttask.CreateRequest) {
			r.CatalogRecordID = "0b3c7f1e5-d2a-4c8e-9f61-2a7d4e9b1c05"
		}, want: []exporttask.FieldError{fe("/catalogRecordID",
			`must be a UUID such as 0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05, got "0b3c7f1e5-d2a-4c8e-9f61-2a7d4e9b1c05"`)}},
		{name: "long value cut in the message", change: func(r *exporttask.CreateRequest) {
			r.CatalogRecordID = strings.Repeat("x", 100)
		}, want: []exporttask.FieldError{fe("/catalogRecordID",
			`must be a UUID such as 0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05, got "`+strings.Repeat("x", 64)+`"…`)}},

		// domain, artifactCRS
		{name: "domain DEM", change: func(r *exporttask.CreateRequest) { r.Domain = exporttask.DomainDEM }},
		{name: "domain 3D", change: func(r *exporttask.CreateRequest) { r.Domain = exporttask.Domain3D }},
		{name: "domain in lower case", change: func(r *exporttask.CreateRequest) { r.Domain = "raster" },
			want: []exporttask.FieldError{fe("/domain", `must be one of "DEM", "3D", "RASTER", got "raster"`)}},
		{name: "other CRS", change: func(r *exporttask.CreateRequest) { r.ArtifactCRS = "3857" },
			want: []exporttask.FieldError{fe("/artifactCRS", `must be "4326" (WGS 84), got "3857"`)}},

		// description
		{name: "description at the limit, in runes", change: func(r *exporttask.CreateRequest) {
			r.Description = strings.Repeat("é", exporttask.MaxDescriptionLength)
		}},
		{name: "description too long", change: func(r *exporttask.CreateRequest) {
			r.Description = strings.Repeat("a", exporttask.MaxDescriptionLength+1)
		}, want: []exporttask.FieldError{fe("/description", "is 2001 characters long; at most 2000 are allowed")}},

		// keywords and parameters
		{name: "keywords at the limits", change: func(r *exporttask.CreateRequest) {
			r.Keywords = bigMap(exporttask.MaxMapEntries)
			r.Keywords["k000"] = strings.Repeat("v", exporttask.MaxValueBytes-2) // with its quotes
			r.Keywords[strings.Repeat("k", exporttask.MaxKeyLength)] = nil
			delete(r.Keywords, "k001")
		}},
		{name: "keyword values of any type", change: func(r *exporttask.CreateRequest) {
			r.Keywords = map[string]any{"n": nil, "b": true, "a": []any{1.0, "x"}, "o": map[string]any{"x": nil}}
		}},
		{name: "too many keywords", change: func(r *exporttask.CreateRequest) { r.Keywords = bigMap(51) },
			want: []exporttask.FieldError{fe("/keywords", "has 51 keys; at most 50 are allowed")}},
		{name: "empty keyword key", change: func(r *exporttask.CreateRequest) { r.Keywords = map[string]any{"": 1} },
			want: []exporttask.FieldError{fe("/keywords/", "a key must not be empty")}},
		{name: "keyword key too long", change: func(r *exporttask.CreateRequest) {
			r.Keywords = map[string]any{strings.Repeat("k", 101): 1}
		}, want: []exporttask.FieldError{fe("/keywords/"+strings.Repeat("k", 101),
			"the key is 101 characters long; at most 100 are allowed")}},
		{name: "keyword value too large, key escaped in the pointer", change: func(r *exporttask.CreateRequest) {
			r.Keywords = map[string]any{"a/b~c": strings.Repeat("v", exporttask.MaxValueBytes-1)}
		}, want: []exporttask.FieldError{fe("/keywords/a~1b~0c", "the value is 4097 bytes of JSON; at most 4096 are allowed")}},
		{name: "keyword value not encodable", change: func(r *exporttask.CreateRequest) {
			r.Keywords = map[string]any{"x": math.Inf(1)}
		}, want: []exporttask.FieldError{fe("/keywords/x", "the value cannot be encoded as JSON: unsupported value: +Inf")}},
		{name: "too many parameters", change: func(r *exporttask.CreateRequest) { r.Parameters = bigMap(51) },
			want: []exporttask.FieldError{fe("/parameters", "has 51 keys; at most 50 are allowed")}},

		// ROI: the collection
		{name: "ROI type", change: func(r *exporttask.CreateRequest) { r.ROI.Type = "Feature" },
			want: []exporttask.FieldError{fe("/ROI/type", `must be "FeatureCollection", got "Feature"`)}},
		{name: "ROI without features", change: func(r *exporttask.CreateRequest) { r.ROI.Features = []exporttask.Feature{} },
			want: []exporttask.FieldError{fe("/ROI/features",
				"must have at least one feature; to export the whole record, leave ROI out")}},
		{name: "ROI with the most features", change: func(r *exporttask.CreateRequest) {
			for i := 1; i < exporttask.MaxFeatures; i++ {
				r.ROI.Features = append(r.ROI.Features, r.ROI.Features[0])
			}
		}},
		{name: "ROI with too many features", change: func(r *exporttask.CreateRequest) {
			for i := 0; i < exporttask.MaxFeatures; i++ {
				r.ROI.Features = append(r.ROI.Features, r.ROI.Features[0])
			}
		}, want: []exporttask.FieldError{fe("/ROI/features", "has 101 features; at most 100 are allowed")}},
		{name: "too many positions in all", change: func(r *exporttask.CreateRequest) {
			big := exporttask.NewPolygon(ring(exporttask.MaxRingPositions))
			r.ROI.Features = nil
			for i := 0; i <= exporttask.MaxPositions/exporttask.MaxRingPositions; i++ {
				r.ROI.Features = append(r.ROI.Features, feature(big))
			}
		}, want: []exporttask.FieldError{fe("/ROI", "has 60000 positions in all; at most 50000 are allowed")}},

		// ROI: features
		{name: "feature type", change: func(r *exporttask.CreateRequest) { r.ROI.Features[0].Type = "feature" },
			want: []exporttask.FieldError{fe("/ROI/features/0/type", `must be "Feature", got "feature"`)}},
		{name: "null properties", change: func(r *exporttask.CreateRequest) { r.ROI.Features[0].Properties = nil }},
		{name: "null property values", change: func(r *exporttask.CreateRequest) {
			r.ROI.Features[0].Properties = map[string]any{"name": nil}
		}},
		{name: "too many properties", change: func(r *exporttask.CreateRequest) { r.ROI.Features[0].Properties = bigMap(51) },
			want: []exporttask.FieldError{fe("/ROI/features/0/properties", "has 51 keys; at most 50 are allowed")}},
		{name: "no geometry", change: func(r *exporttask.CreateRequest) { r.ROI.Features[0].Geometry = nil },
			want: []exporttask.FieldError{fe(geo, "is required: a Polygon or MultiPolygon")}},
		{name: "geometry of another type", change: func(r *exporttask.CreateRequest) {
			r.ROI.Features[0].Geometry = &exporttask.Geometry{Type: "Point"}
		}, want: []exporttask.FieldError{fe(geo+"/type", `must be "Polygon" or "MultiPolygon", got "Point"`)}},
		{name: "geometry without type", change: func(r *exporttask.CreateRequest) {
			r.ROI.Features[0].Geometry = &exporttask.Geometry{Polygon: [][]exporttask.Position{square(0, 0)}}
		}, want: []exporttask.FieldError{fe(geo+"/type", `is required: "Polygon" or "MultiPolygon"`)}},

		// ROI: polygons and rings
		{name: "polygon with a hole, 3D positions", change: func(r *exporttask.CreateRequest) {
			hole := []exporttask.Position{{34.702, 32.002, 5}, {34.703, 32.002, 5}, {34.703, 32.003, 5}, {34.702, 32.002, 5}}
			r.ROI.Features[0].Geometry = exporttask.NewPolygon(square(34.7, 32), hole)
		}},
		{name: "multipolygon", change: func(r *exporttask.CreateRequest) {
			r.ROI.Features[0].Geometry = exporttask.NewMultiPolygon([][]exporttask.Position{square(0, 0)},
				[][]exporttask.Position{square(10, 10)})
		}},
		{name: "positions on the bounds", change: func(r *exporttask.CreateRequest) {
			r.ROI.Features[0].Geometry = exporttask.NewPolygon([]exporttask.Position{{-180, -90}, {180, -90}, {180, 90}, {-180, -90}})
		}},
		{name: "polygon without rings", change: func(r *exporttask.CreateRequest) {
			r.ROI.Features[0].Geometry = exporttask.NewPolygon()
		}, want: []exporttask.FieldError{fe(geo+"/coordinates", "a polygon needs at least one linear ring (its exterior)")}},
		{name: "multipolygon without polygons", change: func(r *exporttask.CreateRequest) {
			r.ROI.Features[0].Geometry = exporttask.NewMultiPolygon()
		}, want: []exporttask.FieldError{fe(geo+"/coordinates", "a MultiPolygon needs at least one polygon")}},
		{name: "multipolygon with a polygon without rings", change: func(r *exporttask.CreateRequest) {
			r.ROI.Features[0].Geometry = exporttask.NewMultiPolygon([][]exporttask.Position{square(0, 0)}, nil)
		}, want: []exporttask.FieldError{fe(geo+"/coordinates/1", "a polygon needs at least one linear ring (its exterior)")}},
		{name: "ring of 3 positions", change: func(r *exporttask.CreateRequest) {
			r.ROI.Features[0].Geometry = exporttask.NewPolygon([]exporttask.Position{{0, 0}, {1, 0}, {0, 0}})
		}, want: []exporttask.FieldError{fe(geo+"/coordinates/0", "a linear ring needs at least 4 positions, got 3")}},
		{name: "ring with the most positions", change: func(r *exporttask.CreateRequest) {
			r.ROI.Features[0].Geometry = exporttask.NewPolygon(ring(exporttask.MaxRingPositions))
		}},
		{name: "ring with too many positions", change: func(r *exporttask.CreateRequest) {
			r.ROI.Features[0].Geometry = exporttask.NewPolygon(ring(exporttask.MaxRingPositions + 1))
		}, want: []exporttask.FieldError{fe(geo+"/coordinates/0", "a linear ring may have at most 10000 positions, got 10001")}},
		{name: "open ring", change: func(r *exporttask.CreateRequest) {
			r.ROI.Features[0].Geometry = exporttask.NewPolygon([]exporttask.Position{{0, 0}, {1, 0}, {1, 1}, {0, 1}})
		}, want: []exporttask.FieldError{fe(geo+"/coordinates/0",
			"a linear ring must be closed: its last position must equal its first")}},
		{name: "ring closed in 2D only", change: func(r *exporttask.CreateRequest) {
			r.ROI.Features[0].Geometry = exporttask.NewPolygon([]exporttask.Position{{0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 0, 2}})
		}, want: []exporttask.FieldError{fe(geo+"/coordinates/0",
			"a linear ring must be closed: its last position must equal its first")}},

		// ROI: positions
		{name: "position of one number", change: func(r *exporttask.CreateRequest) {
			r.ROI.Features[0].Geometry.Polygon[0][2] = exporttask.Position{1}
		}, want: []exporttask.FieldError{fe(geo+"/coordinates/0/2",
			"a position has 2 or 3 numbers (longitude, latitude, optional altitude), got 1")}},
		{name: "position of four numbers", change: func(r *exporttask.CreateRequest) {
			r.ROI.Features[0].Geometry.Polygon[0][2] = exporttask.Position{1, 2, 3, 4}
		}, want: []exporttask.FieldError{fe(geo+"/coordinates/0/2",
			"a position has 2 or 3 numbers (longitude, latitude, optional altitude), got 4")}},
		{name: "NaN and infinite numbers", change: func(r *exporttask.CreateRequest) {
			r.ROI.Features[0].Geometry.Polygon[0][1] = exporttask.Position{math.NaN(), 1, math.Inf(-1)}
		}, want: []exporttask.FieldError{
			fe(geo+"/coordinates/0/1/0", "must be a finite number"),
			fe(geo+"/coordinates/0/1/2", "must be a finite number"),
		}},
		{name: "longitude out of range", change: func(r *exporttask.CreateRequest) {
			r.ROI.Features[0].Geometry.Polygon[0][1] = exporttask.Position{180.5, 0}
		}, want: []exporttask.FieldError{fe(geo+"/coordinates/0/1/0", "longitude must be between -180 and 180, got 180.5")}},
		{name: "latitude out of range", change: func(r *exporttask.CreateRequest) {
			r.ROI.Features[0].Geometry.Polygon[0][1] = exporttask.Position{0, -91}
		}, want: []exporttask.FieldError{fe(geo+"/coordinates/0/1/1", "latitude must be between -90 and 90, got -91")}},
		{name: "open ring not reported over a bad end position", change: func(r *exporttask.CreateRequest) {
			r.ROI.Features[0].Geometry.Polygon[0][4] = exporttask.Position{0, 100}
		}, want: []exporttask.FieldError{fe(geo+"/coordinates/0/4/1", "latitude must be between -90 and 90, got 100")}},

		// webhook
		{name: "the most webhooks, every event, plain http with port and query", change: func(r *exporttask.CreateRequest) {
			r.Webhook = nil
			for i := 0; i < exporttask.MaxWebhooks; i++ {
				r.Webhook = append(r.Webhook, exporttask.Webhook{
					URL: fmt.Sprintf("http://hooks.example.org:8080/h?n=%d", i), Events: exporttask.Events()})
			}
		}},
		{name: "too many webhooks", change: func(r *exporttask.CreateRequest) {
			for i := 0; i < exporttask.MaxWebhooks; i++ {
				r.Webhook = append(r.Webhook, r.Webhook[0])
			}
		}, want: []exporttask.FieldError{fe("/webhook", "has 11 webhooks; at most 10 are allowed")}},
		{name: "URL missing", change: func(r *exporttask.CreateRequest) { r.Webhook[0].URL = "" },
			want: []exporttask.FieldError{fe("/webhook/0/url", "is required")}},
		{name: "URL at the length limit", change: func(r *exporttask.CreateRequest) {
			r.Webhook[0].URL = "https://h.example/" + strings.Repeat("p", exporttask.MaxURLLength-18)
		}},
		{name: "URL too long", change: func(r *exporttask.CreateRequest) {
			r.Webhook[0].URL = "https://h.example/" + strings.Repeat("p", exporttask.MaxURLLength-17)
		}, want: []exporttask.FieldError{fe("/webhook/0/url", "is 2049 bytes long; at most 2048 are allowed")}},
		{name: "relative URL", change: func(r *exporttask.CreateRequest) { r.Webhook[0].URL = "/hooks" },
			want: []exporttask.FieldError{fe("/webhook/0/url", `must be an absolute http or https URL, got "/hooks"`)}},
		{name: "URL with another scheme", change: func(r *exporttask.CreateRequest) { r.Webhook[0].URL = "ftp://h.example/x" },
			want: []exporttask.FieldError{fe("/webhook/0/url", `must be an http or https URL, got scheme "ftp"`)}},
		{name: "URL without host", change: func(r *exporttask.CreateRequest) { r.Webhook[0].URL = "https:///x" },
			want: []exporttask.FieldError{fe("/webhook/0/url", `must name a host, got "https:///x"`)}},
		{name: "URL with a port only", change: func(r *exporttask.CreateRequest) { r.Webhook[0].URL = "http://:80/x" },
			want: []exporttask.FieldError{fe("/webhook/0/url", `must name a host, got "http://:80/x"`)}},
		{name: "URL that does not parse", change: func(r *exporttask.CreateRequest) { r.Webhook[0].URL = "http://[::1/x" },
			want: []exporttask.FieldError{fe("/webhook/0/url", `is not a valid URL: missing ']' in host`)}},
		{name: "no events", change: func(r *exporttask.CreateRequest) { r.Webhook[0].Events = nil },
			want: []exporttask.FieldError{fe("/webhook/0/events", "must list at least one event")}},
		{name: "unknown event", change: func(r *exporttask.CreateRequest) {
			r.Webhook[0].Events = []exporttask.Event{exporttask.EventCompleted, "TASK_DONE"}
		}, want: []exporttask.FieldError{fe("/webhook/0/events/1", `unknown event "TASK_DONE"; the events are `+allEvents)}},
		{name: "repeated event", change: func(r *exporttask.CreateRequest) {
			r.Webhook[0].Events = []exporttask.Event{exporttask.EventCompleted, exporttask.EventFailed, exporttask.EventCompleted}
		}, want: []exporttask.FieldError{fe("/webhook/0/events/2", `repeats "TASK_COMPLETED", already at index 0`)}},
		{name: "too many events", change: func(r *exporttask.CreateRequest) {
			r.Webhook[0].Events = append(exporttask.Events(), exporttask.EventStarted)
		}, want: []exporttask.FieldError{
			fe("/webhook/0/events", "has 10 events; at most 9 are allowed"),
			fe("/webhook/0/events/9", `repeats "TASK_STARTED", already at index 0`),
		}},
		{name: "problems in the second webhook", change: func(r *exporttask.CreateRequest) {
			r.Webhook = append(r.Webhook, exporttask.Webhook{URL: "mailto:x@example.org", Events: []exporttask.Event{}})
		}, want: []exporttask.FieldError{
			fe("/webhook/1/url", `must be an http or https URL, got scheme "mailto"`),
			fe("/webhook/1/events", "must list at least one event"),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := validRequest()
			tt.change(&r)
			err := r.Validate()
			if tt.want == nil {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Equal(t, tt.want, problemsOf(t, err))
		})
	}
}

func TestValidateListsAtMostMaxProblems(t *testing.T) {
	r := validRequest()
	bad := make([]exporttask.Position, 0, 2*exporttask.MaxProblems)
	for i := 0; i < 2*exporttask.MaxProblems; i++ {
		bad = append(bad, exporttask.Position{500, 0})
	}
	r.ROI.Features[0].Geometry = exporttask.NewPolygon(bad)
	got := problemsOf(t, r.Validate())
	require.Len(t, got, exporttask.MaxProblems+1)
	assert.Equal(t, fe("/ROI/features/0/geometry/coordinates/0/0/0", "longitude must be between -180 and 180, got 500"), got[0])
	assert.Equal(t, fe("", "100 more problems are not listed"), got[exporttask.MaxProblems])
}

func TestValidationErrorMessage(t *testing.T) {
	one := &exporttask.ValidationError{Problems: []exporttask.FieldError{fe("/domain", "is required")}}
	assert.Equal(t, "exporttask: invalid request: /domain: is required", one.Error())
	many := &exporttask.ValidationError{Problems: []exporttask.FieldError{
		fe("/a", "1"), fe("", "2"), fe("/c", "3"), fe("/d", "4"),
	}}
	assert.Equal(t, "exporttask: invalid request (4 problems): /a: 1; 2; /c: 3; …", many.Error())
	assert.Equal(t, "exporttask: invalid request", (&exporttask.ValidationError{}).Error())
}
