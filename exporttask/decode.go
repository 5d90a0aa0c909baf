package exporttask

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// DecodeCreateRequest reads the JSON body of POST /export-tasks from r,
// strictly, and validates it.
//
// It reads at most [MaxBodyBytes]; a longer body is an error wrapping an
// *http.MaxBytesError, as is the error of an http.MaxBytesReader. An error
// from r is returned wrapped (errors.As and errors.Is see it). Everything
// else that is wrong with the body is a *[ValidationError], in two stages:
//
//  1. The JSON itself: syntax, nesting deeper than [MaxDepth], a duplicate
//     member name in any object, a member the schema does not define (with
//     a "did you mean" hint when a defined name is close), a value of the
//     wrong JSON type, a number too large for a float64, a feature without
//     "properties", and anything after the closing brace. All such problems
//     are listed, each with the pointer of the offending member.
//  2. When the JSON is sound, the rules of [CreateRequest.Validate], all of
//     them listed.
//
// A body with problems of the first kind is not checked for the second:
// without a sound structure, the second kind would mostly repeat the first.
func DecodeCreateRequest(r io.Reader) (CreateRequest, error) {
	body, err := io.ReadAll(io.LimitReader(r, MaxBodyBytes+1))
	if err != nil {
		return CreateRequest{}, fmt.Errorf("exporttask: reading the request body: %w", err)
	}
	if len(body) > MaxBodyBytes {
		return CreateRequest{}, fmt.Errorf("exporttask: reading the request body: %w",
			&http.MaxBytesError{Limit: MaxBodyBytes})
	}
	var p problems
	checkCreateJSON(&p, body)
	if err := p.err(); err != nil {
		return CreateRequest{}, err
	}
	var req CreateRequest
	if err := json.Unmarshal(body, &req); err != nil {
		// The structural pass accepts only what decodes; this is a safety
		// net, not an expected path.
		p.add("", "cannot be decoded: %s", strings.TrimPrefix(err.Error(), "json: "))
		return CreateRequest{}, p.err()
	}
	// An empty object means the same as an absent member: keep one form,
	// so a request encodes and decodes back to itself, and {} and no
	// parameters give the same DedupKey.
	if len(req.Keywords) == 0 {
		req.Keywords = nil
	}
	if len(req.Parameters) == 0 {
		req.Parameters = nil
	}
	req.validate(&p)
	if err := p.err(); err != nil {
		return CreateRequest{}, err
	}
	return req, nil
}
