package exporttask

// ProblemTypeIdempotencyKeyReused is the type of the 422 problem that
// answers a create whose Idempotency-Key the customer already used with
// another request body (as the IETF Idempotency-Key draft says).
const ProblemTypeIdempotencyKeyReused = "https://openapi-viewer.dev/problems/idempotency-key-reused"
