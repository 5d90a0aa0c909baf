package exporttask

// Limits on a create request. [DecodeCreateRequest] and
// [CreateRequest.Validate] enforce them and the OpenAPI description
// documents them. Lengths in characters count Unicode code points, like
// JSON Schema's maxLength.
const (
	// MaxBodyBytes is the largest request body the API reads, in bytes
	// (1 MiB). The server answers a larger one with 413.
	MaxBodyBytes = 1 << 20

	// MaxDepth is how deeply JSON objects and arrays may nest in a request
	// body, the body itself being depth 1. A MultiPolygon's numbers sit at
	// depth 9; the rest of the room is for keywords, parameters and feature
	// properties.
	MaxDepth = 32

	// MaxFeatures is the most features a region of interest may have.
	MaxFeatures = 100
	// MaxRingPositions is the most positions one linear ring may have.
	MaxRingPositions = 10_000
	// MaxPositions is the most positions a region of interest may have in
	// all, over every ring of every feature.
	MaxPositions = 50_000

	// MaxDescriptionLength is the longest description, in characters.
	MaxDescriptionLength = 2000

	// MaxMapEntries is the most keys keywords, parameters and each
	// feature's properties may have.
	MaxMapEntries = 50
	// MaxKeyLength is the longest key in keywords, parameters and
	// feature properties, in characters.
	MaxKeyLength = 100
	// MaxValueBytes is the largest value in keywords, parameters and
	// feature properties, measured as compact JSON, in bytes.
	MaxValueBytes = 4096

	// MaxWebhooks is the most webhooks a request may list.
	MaxWebhooks = 10
	// MaxWebhookEvents is the most events one webhook may list: each event
	// at most once.
	MaxWebhookEvents = 9
	// MaxURLLength is the longest webhook URL, in bytes.
	MaxURLLength = 2048

	// MaxIdempotencyKeyLength is the longest Idempotency-Key header value
	// the server accepts, in characters.
	MaxIdempotencyKeyLength = 255

	// MaxProblems is the most problems a [ValidationError] lists one by
	// one; any more are summed up in one last entry.
	MaxProblems = 100
)
