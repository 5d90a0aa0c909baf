package exporttask_test

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// loadOpenAPI loads and validates the embedded description.
func loadOpenAPI(t *testing.T) *openapi3.T {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(exporttask.OpenAPI())
	require.NoError(t, err, "loading openapi.yaml")
	require.NoError(t, doc.Validate(context.Background()), "validating openapi.yaml (examples included)")
	return doc
}

func TestOpenAPIIsValid(t *testing.T) {
	doc := loadOpenAPI(t)
	assert.Equal(t, "3.0.3", doc.OpenAPI)
}

func TestOpenAPIReturnsACopy(t *testing.T) {
	a := exporttask.OpenAPI()
	require.NotEmpty(t, a)
	a[0] = 'X'
	assert.Equal(t, byte('o'), exporttask.OpenAPI()[0], "changing one copy must not change the next")
}

// mediaExample is one example of a request or response body.
type mediaExample struct {
	where  string // operation, status, example name
	schema string // the body schema: a component name, or "[]Task"
	value  any
}

// bodyExamples collects the examples of every JSON request and response
// body, callbacks included.
func bodyExamples(t *testing.T, doc *openapi3.T) []mediaExample {
	t.Helper()
	var out []mediaExample
	add := func(where string, content openapi3.Content) {
		for ctype, mt := range content {
			require.NotNil(t, mt.Schema, "%s %s: no schema", where, ctype)
			if !strings.Contains(ctype, "json") && ctype != "text/plain" {
				continue // a file download: no JSON to check
			}
			schema := strings.TrimPrefix(mt.Schema.Ref, "#/components/schemas/")
			if ctype == "text/plain" {
				schema = ctype
			}
			if schema == "" && mt.Schema.Value.Type.Is("array") {
				schema = "[]" + strings.TrimPrefix(mt.Schema.Value.Items.Ref, "#/components/schemas/")
			}
			require.NotEmpty(t, mt.Examples, "%s %s: no examples", where, ctype)
			for name, ex := range mt.Examples {
				require.NotNil(t, ex.Value, "%s: example %s", where, name)
				out = append(out, mediaExample{where + " " + name, schema, ex.Value.Value})
			}
		}
	}
	var visit func(prefix string, paths map[string]*openapi3.PathItem)
	visit = func(prefix string, paths map[string]*openapi3.PathItem) {
		for path, item := range paths {
			for method, op := range item.Operations() {
				where := prefix + method + " " + path
				if op.RequestBody != nil {
					add(where+" request", op.RequestBody.Value.Content)
				}
				for status, resp := range op.Responses.Map() {
					add(where+" "+status, resp.Value.Content)
				}
				for _, cb := range op.Callbacks {
					visit(where+" callback ", cb.Value.Map())
				}
			}
		}
	}
	visit("", doc.Paths.Map())
	sort.Slice(out, func(i, j int) bool { return out[i].where < out[j].where })
	return out
}

// strictDecode decodes b into v, refusing unknown fields and trailing data.
func strictDecode(t *testing.T, b []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(v))
	require.False(t, dec.More(), "trailing data")
}

func TestOpenAPIExamplesMatchTheTypes(t *testing.T) {
	doc := loadOpenAPI(t)
	examples := bodyExamples(t, doc)
	seen := make(map[string]int)
	for _, ex := range examples {
		t.Run(ex.where, func(t *testing.T) {
			seen[ex.schema]++
			raw, err := json.Marshal(ex.value)
			require.NoError(t, err)
			var out any
			switch ex.schema {
			case "CreateRequest":
				req, err := exporttask.DecodeCreateRequest(bytes.NewReader(raw))
				require.NoError(t, err, "a request example must pass validation")
				out = req
				raw = asV165(t, raw, req.Shape)
			case "Task":
				out = decodeExample[exporttask.Task](t, raw, ex.value)
			case "[]Task":
				out = decodeExample[[]exporttask.Task](t, raw, ex.value)
			case "DryRun":
				out = decodeExample[exporttask.DryRun](t, raw, ex.value)
			case "WebhookDelivery":
				out = decodeExample[exporttask.WebhookDelivery](t, raw, ex.value)
			case "[]WebhookDelivery":
				out = decodeExample[[]exporttask.WebhookDelivery](t, raw, ex.value)
			case "EventPayload":
				out = decodeExample[exporttask.EventPayload](t, raw, ex.value)
			case "Problem":
				var p exporttask.Problem
				strictDecode(t, raw, &p)
				assert.Equal(t, p.Detail, p.Message, "message repeats detail")
				if strings.Contains(ex.where, " 400 ") {
					assert.Equal(t, exporttask.ProblemTypeValidation, p.Type)
				}
				out = p
			case "text/plain": // the Prometheus text format of /metrics
				text, ok := ex.value.(string)
				require.True(t, ok, "a text example is a string")
				assert.True(t, strings.HasPrefix(text, "# HELP exporttask_"), "%q", text)
				out = text
			case "WebhookSecret":
				var ws struct {
					Secret string `json:"secret"`
					Scheme string `json:"scheme"`
				}
				strictDecode(t, raw, &ws)
				assert.Regexp(t, `^whsec_[0-9a-f]{64}$`, ws.Secret)
				assert.Equal(t, "v2", ws.Scheme)
				out = ws
			case "Health":
				var h struct {
					Status string `json:"status"`
				}
				strictDecode(t, raw, &h)
				assert.Equal(t, "ok", h.Status)
				out = h
			default:
				t.Fatalf("no check for schema %q", ex.schema)
			}
			again, err := json.Marshal(out)
			require.NoError(t, err)
			assert.JSONEq(t, string(raw), string(again), "the Go type must round-trip the example")
		})
	}
	// Every kind of body is covered, by at least this many examples.
	assert.GreaterOrEqual(t, seen["CreateRequest"], 3)
	assert.GreaterOrEqual(t, seen["Task"], 7)
	assert.GreaterOrEqual(t, seen["[]Task"], 2)
	assert.GreaterOrEqual(t, seen["EventPayload"], 2)
	assert.GreaterOrEqual(t, seen["Problem"], 20)
	assert.GreaterOrEqual(t, seen["Health"], 2)
	assert.GreaterOrEqual(t, seen["[]WebhookDelivery"], 2)
	assert.GreaterOrEqual(t, seen["WebhookDelivery"], 1)
}

// asV165 returns a create request example as a CreateRequest encodes it,
// in the v1.6.5 shape: a v1.7.0 example's "webhooks" is named "webhook",
// and its null members, which mean absent, are left out.
func asV165(t *testing.T, raw []byte, shape exporttask.RequestShape) []byte {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	_, v170 := m["webhooks"]
	assert.Equal(t, v170, shape == exporttask.ShapeV170, "the decoded shape")
	if v170 {
		m["webhook"] = m["webhooks"]
		delete(m, "webhooks")
	}
	for k, v := range m {
		if v == nil {
			delete(m, k)
		}
	}
	b, err := json.Marshal(m)
	require.NoError(t, err)
	return b
}

// assertNoNull fails on any null in a response example: the API leaves
// unknown fields out instead. Feature properties are the exception (RFC 7946
// lets them be null, and their values too).
func assertNoNull(t *testing.T, ptr string, v any) {
	t.Helper()
	switch v := v.(type) {
	case nil:
		assert.Fail(t, "null in a response example", "at %q", ptr)
	case map[string]any:
		for k, x := range v {
			if k == "properties" {
				continue
			}
			assertNoNull(t, ptr+"/"+k, x)
		}
	case []any:
		for i, x := range v {
			assertNoNull(t, ptr+"/"+strconv.Itoa(i), x)
		}
	}
}

func TestOpenAPIEveryOperationHasItsStatuses(t *testing.T) {
	doc := loadOpenAPI(t)
	want := map[string][]string{
		"POST /export-tasks":                      {"201", "400", "401", "403", "404", "413", "415", "422", "429", "500", "507", "509"},
		"GET /export-tasks/{id}/artifacts/{name}": {"200", "206", "302", "304", "400", "401", "403", "404", "410", "412", "416", "500"},
		"GET /export-tasks":                       {"200", "400", "401", "403", "500"},
		"POST /export-tasks/estimate":             {"200", "400", "401", "403", "404", "413", "415", "500"},
		"GET /export-tasks/{id}":                  {"200", "400", "401", "403", "404", "500"},
		"DELETE /export-tasks/{id}":               {"200", "204", "400", "401", "403", "404", "500", "507"},
		"GET /healthz":                            {"200"},
		"GET /readyz":                             {"200", "503"},
		"GET /metrics":                            {"200"},
		"GET /webhook-secret":                     {"200", "401", "403", "500"},
		"GET /export-tasks/{id}/deliveries":       {"200", "400", "401", "403", "404", "500"},
		"POST /export-tasks/{id}/deliveries/{deliveryId}/redeliver": {"202", "400", "401", "403", "404", "409", "429", "500", "507"},
	}
	got := make(map[string][]string)
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			var codes []string
			for code, resp := range op.Responses.Map() {
				codes = append(codes, code)
				if code[0] != '2' && code[0] != '3' {
					require.Contains(t, resp.Value.Content, exporttask.ProblemContentType, "%s %s %s", method, path, code)
				}
			}
			sort.Strings(codes)
			got[method+" "+path] = codes
		}
	}
	assert.Equal(t, want, got)
	health := doc.Paths.Find("/healthz").Get
	require.NotNil(t, health.Security)
	assert.Empty(t, *health.Security, "health checks need no key")
	assert.Contains(t, doc.Components.SecuritySchemes, "apiKey")
	assert.Equal(t, "x-api-key", doc.Components.SecuritySchemes["apiKey"].Value.Name)
	assert.Equal(t, "bearer", doc.Components.SecuritySchemes["bearerAuth"].Value.Scheme)
	create := doc.Paths.Find("/export-tasks").Post
	cb := create.Callbacks["taskEvent"].Value.Value("{$request.body#/webhook/0/url}")
	require.NotNil(t, cb)
	var headers []string
	for _, p := range cb.Post.Parameters {
		headers = append(headers, p.Value.Name)
	}
	assert.ElementsMatch(t, []string{"X-Export-Event", "X-Export-Delivery", "X-Export-Signature"}, headers)
	assert.Contains(t, doc.Components.Responses["Unauthorized"].Value.Headers, "WWW-Authenticate")
}

// TestOpenAPIMatchesTheCode checks that the enums and limits the
// description states are those the code enforces.
func TestOpenAPIMatchesTheCode(t *testing.T) {
	doc := loadOpenAPI(t)
	schema := func(name string) *openapi3.Schema {
		s, ok := doc.Components.Schemas[name]
		require.True(t, ok, "schema %s", name)
		return s.Value
	}
	enum := func(name string) []string {
		var out []string
		for _, v := range schema(name).Enum {
			out = append(out, v.(string))
		}
		return out
	}
	var statuses, events, domains []string
	for _, s := range exporttask.Statuses() {
		statuses = append(statuses, string(s))
	}
	for _, e := range exporttask.Events() {
		events = append(events, string(e))
	}
	artifacts := map[string]bool{}
	for _, d := range exporttask.Domains() {
		domains = append(domains, string(d))
		for _, a := range exporttask.ArtifactTypes(d) {
			artifacts[string(a)] = true
		}
	}
	assert.Equal(t, statuses, enum("Status"))
	assert.Equal(t, events, enum("Event"))
	assert.Equal(t, domains, enum("Domain"))
	assert.ElementsMatch(t, mapKeys(artifacts), enum("ArtifactType"))
	assert.Equal(t, []string{exporttask.CRS4326}, enum("ArtifactCRS"))
	assert.Equal(t, []string{string(exporttask.DeliveryStatusPending), string(exporttask.DeliveryStatusDelivered),
		string(exporttask.DeliveryStatusFailed)}, enum("DeliveryStatus"))
	assert.Equal(t, []string{string(exporttask.DeliveryErrorHTTPStatus), string(exporttask.DeliveryErrorTimeout),
		string(exporttask.DeliveryErrorDNS), string(exporttask.DeliveryErrorTLS),
		string(exporttask.DeliveryErrorAddressNotAllowed), string(exporttask.DeliveryErrorConnection)}, enum("DeliveryErrorClass"))
	assert.EqualValues(t, exporttask.MaxListLimit, *doc.Components.Parameters["DeliveryLimit"].Value.Schema.Value.Max)

	create := schema("CreateRequest").Properties
	assert.EqualValues(t, exporttask.MaxDescriptionLength, *create["description"].Value.MaxLength)
	assert.EqualValues(t, exporttask.MaxWebhooks, *create["webhook"].Value.MaxItems)
	assert.EqualValues(t, 1, create["webhook"].Value.MinItems)
	hook := schema("Webhook").Properties
	assert.EqualValues(t, exporttask.MaxURLLength, *hook["url"].Value.MaxLength)
	assert.EqualValues(t, exporttask.MaxWebhookEvents, *hook["events"].Value.MaxItems)
	assert.EqualValues(t, exporttask.MaxFeatures, *schema("FeatureCollection").Properties["features"].Value.MaxItems)
	assert.EqualValues(t, exporttask.MaxRingPositions, *schema("LinearRing").MaxItems)
	assert.EqualValues(t, 4, schema("LinearRing").MinItems)
	assert.EqualValues(t, exporttask.MaxMapEntries, *schema("KeyValues").MaxProps)
	assert.EqualValues(t, exporttask.MaxMapEntries, *schema("Feature").Properties["properties"].Value.MaxProps)
	assert.EqualValues(t, exporttask.MaxIdempotencyKeyLength,
		*doc.Components.Parameters["IdempotencyKey"].Value.Schema.Value.MaxLength)
	for _, s := range []string{"1048576", "32 deep", "50000 positions", "10000"} {
		assert.Contains(t, schema("CreateRequest").Description, s)
	}
	for _, s := range []string{"507", "509", "422", "parameter"} {
		assert.Contains(t, schema("Problem").Description, s)
	}
}

// TestOpenAPIInfoIsShort: the docs page shows info.description above the
// operations, so it stays a short introduction; the reference material
// lives with what it documents (schemas, operations, security schemes).
func TestOpenAPIInfoIsShort(t *testing.T) {
	doc := loadOpenAPI(t)
	info := doc.Info.Description
	assert.LessOrEqual(t, len(info), 1200, "info.description: %d characters", len(info))
	assert.NotContains(t, info, "\n#", "no reference sections in info.description")
	for where, text := range map[string]string{
		"Task":             doc.Components.Schemas["Task"].Value.Description,
		"Status":           doc.Components.Schemas["Status"].Value.Description,
		"Problem":          doc.Components.Schemas["Problem"].Value.Description,
		"apiKey":           doc.Components.SecuritySchemes["apiKey"].Value.Description,
		"createExportTask": doc.Paths.Find("/export-tasks").Post.Description,
	} {
		assert.Greater(t, len(text), 300, "%s keeps its reference material", where)
	}
}

func mapKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// decodeExample decodes an example strictly as a T and checks that its
// value has no null.
func decodeExample[T any](t *testing.T, raw []byte, value any) T {
	t.Helper()
	var v T
	strictDecode(t, raw, &v)
	assertNoNull(t, "", value)
	return v
}
