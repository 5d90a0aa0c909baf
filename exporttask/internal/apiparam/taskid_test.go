package apiparam_test

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/apiparam"
)

func TestParseTaskID(t *testing.T) {
	maxID := strconv.FormatInt(math.MaxInt64, 10)
	for _, tc := range []struct {
		in      string
		want    int64
		wantErr string // a part of the message; "" for success
	}{
		{"1", 1, ""},
		{"41", 41, ""},
		{maxID, math.MaxInt64, ""},
		{"", 0, "id is empty"},
		{"0", 0, "without leading zeros"},
		{"01", 0, "without leading zeros"},
		{"007", 0, "without leading zeros"},
		{"+1", 0, `digits only, got "+1"`},
		{"-1", 0, "digits only"},
		{"1.5", 0, "digits only"},
		{"1e0", 0, "digits only"},
		{" 1", 0, "digits only"},
		{"1 ", 0, "digits only"},
		{"%2B1", 0, "digits only"}, // as it arrives when a router does not unescape
		{"x", 0, "digits only"},
		{"١", 0, "digits only"}, // ARABIC-INDIC DIGIT ONE
		{"9223372036854775808", 0, "out of range"},
		{strings.Repeat("9", 40), 0, "out of range"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := apiparam.ParseTaskID(tc.in)
			if tc.wantErr == "" {
				require.NoError(t, err)
				assert.Equal(t, tc.want, got)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.wantErr)
			assert.True(t, strings.HasPrefix(err.Error(), "id "), "the message names the parameter: %v", err)
			assert.NotContains(t, err.Error(), "exporttask")
		})
	}
}

func TestCursorRoundTrip(t *testing.T) {
	for _, id := range []int64{1, 41, 1234567, math.MaxInt64} {
		c := apiparam.FormatCursor(id)
		got, err := apiparam.ParseCursor(c)
		require.NoError(t, err, "cursor %q", c)
		assert.Equal(t, id, got)
	}
	assert.Equal(t, "YjQx", apiparam.FormatCursor(41))
}

func TestParseCursorRefuses(t *testing.T) {
	enc := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	for _, c := range []string{
		"41",        // the example openapi.yaml had: base64 of one byte that is not "b"
		"YjQx=",     // padded
		"YjQx+",     // not base64url
		enc("b"),    // no id
		enc("b01"),  // not canonical
		enc("b+1"),  // not canonical
		enc("b0"),   // out of range
		enc("x41"),  // another version
		enc("b41 "), // trailing space
		enc("b9223372036854775808"),
	} {
		t.Run(c, func(t *testing.T) {
			_, err := apiparam.ParseCursor(c)
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), "cursor "), "the message names the parameter: %v", err)
		})
	}
}

func ExampleParseTaskID() {
	for _, s := range []string{"42", "042", "+42"} {
		id, err := apiparam.ParseTaskID(s)
		fmt.Println(id, err)
	}
	// Output:
	// 42 <nil>
	// 0 id must be a decimal integer from 1 up without leading zeros, got "042"
	// 0 id must be a decimal integer written with digits only, got "+42"
}

// TestOpenAPIParameterExamplesParse checks that the examples of the id and
// cursor parameters in openapi.yaml are ones the API accepts, so that "Try
// it out" works with them as they are.
func TestOpenAPIParameterExamplesParse(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromData(exporttask.OpenAPI())
	require.NoError(t, err, "loading openapi.yaml")
	id := doc.Components.Parameters["TaskID"].Value
	require.NotNil(t, id)
	_, err = apiparam.ParseTaskID(fmt.Sprint(id.Example))
	require.NoError(t, err, "the id example %v", id.Example)

	cursor := doc.Components.Parameters["Cursor"].Value
	require.NotNil(t, cursor)
	example, ok := cursor.Example.(string)
	require.True(t, ok, "the cursor example is a string: %#v", cursor.Example)
	_, err = apiparam.ParseCursor(example)
	require.NoError(t, err, "the cursor example %q", example)

	link := doc.Components.Headers["Link"].Value
	require.NotNil(t, link)
	linkExample, _ := link.Example.(string)
	assert.Contains(t, linkExample, "cursor="+example+">", "the Link example carries the same cursor")
}

func TestDeliveryCursorAndID(t *testing.T) {
	for _, id := range []int64{1, 7, 1<<63 - 1} {
		got, err := apiparam.ParseDeliveryCursor(apiparam.FormatDeliveryCursor(id))
		require.NoError(t, err)
		assert.Equal(t, id, got)
	}
	assert.Equal(t, "YTc", apiparam.FormatDeliveryCursor(7))
	for _, bad := range []string{"YjQx" /* a task list cursor */, "!!", "YTA" /* a0 */, "YQ" /* a */} {
		_, err := apiparam.ParseDeliveryCursor(bad)
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), "cursor", bad)
	}
	id, err := apiparam.ParseDeliveryID("12")
	require.NoError(t, err)
	assert.Equal(t, int64(12), id)
	for _, bad := range []string{"", "0", "012", "+1", "1.5", "x"} {
		_, err := apiparam.ParseDeliveryID(bad)
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), "deliveryId", bad)
	}
}
