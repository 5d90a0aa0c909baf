package exporttask

// Limits on a create request, enforced by [DecodeCreateRequest] and
// [CreateRequest.Validate] and documented in the OpenAPI description.
// Lengths in characters count code points; a "map" is keywords, parameters
// or one feature's properties, a value's size that of its compact JSON.
const (
	MaxBodyBytes            = 1 << 20 // request body, bytes (1 MiB)
	MaxDepth                = 32      // nesting of JSON objects and arrays
	MaxFeatures             = 100     // features of a region of interest
	MaxRingPositions        = 10_000  // positions of one linear ring
	MaxPositions            = 50_000  // positions of a region of interest, every ring of every feature
	MaxDescriptionLength    = 2000    // description, characters
	MaxMapEntries           = 50      // keys of a map
	MaxKeyLength            = 100     // a key of a map, characters
	MaxValueBytes           = 4096    // a value of a map, bytes of compact JSON
	MaxWebhooks             = 10      // webhooks of a request
	MaxWebhookEvents        = 9       // events of one webhook, each at most once
	MaxURLLength            = 2048    // a webhook URL, bytes
	MaxIdempotencyKeyLength = 255     // the Idempotency-Key header, characters
	MaxProblems             = 100     // problems a ValidationError lists one by one
)
