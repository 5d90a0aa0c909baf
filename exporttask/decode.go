package exporttask

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask/internal/jsonscan"
	"github.com/openapi-viewer/viewer/exporttask/internal/recordid"
)

// DecodeCreateRequest reads the JSON body of POST /export-tasks from r,
// strictly, and validates it. It reads at most [MaxBodyBytes]: a longer
// body is an error wrapping *http.MaxBytesError. Every problem with the
// body (JSON syntax, nesting past [MaxDepth], duplicate or unknown members,
// wrong types, invalid UTF-8, the rules of [CreateRequest.Validate]) comes
// back at once in a *[ValidationError], in the order of the body. Both
// [RequestShape]s are read. The request is normalised: catalogRecordID in
// lower case, empty keywords and parameters nil, and numbers in keywords,
// parameters and properties kept as written ([json.Number] where a float64
// would write them back differently).
func DecodeCreateRequest(r io.Reader) (CreateRequest, error) {
	// What the doc comment sums up, in detail. The problems, each with the
	// JSON Pointer of the member it is about, are:
	//
	//   - the JSON itself: syntax, nesting deeper than MaxDepth, a duplicate
	//     member name in any object, a member the schema does not define (with
	//     a "did you mean" hint when a defined name is close), a value of the
	//     wrong JSON type, a number too large for a float64, a feature without
	//     "properties", a string or member name that is not valid UTF-8
	//     (invalid bytes, overlong forms, encoded surrogates, or an unpaired
	//     surrogate escape such as \ud800), and anything after the closing
	//     brace;
	//   - the rules of CreateRequest.Validate.
	//
	// Both published shapes of the body are read (see RequestShape): the
	// webhook array named "webhook" (v1.6.5) or "webhooks" (v1.7.0), which
	// sets the request's Shape; a body with both is refused. description and
	// keywords may be null (v1.7.0 declares them nullable), which means the
	// same as absent.
	//
	// A syntax error ends the reading: the problems found before it are
	// listed, and validation does not run; nor does it when there are more
	// than MaxProblems problems of the first kind. Otherwise validation runs on what
	// could be read, with a value of the wrong type taken as absent and an
	// unknown member ignored; it says nothing more about such a value (a
	// number given for catalogRecordID is reported as the wrong type, not also
	// as missing).
	body, err := io.ReadAll(io.LimitReader(r, MaxBodyBytes+1))
	if err != nil {
		return CreateRequest{}, fmt.Errorf("exporttask: reading the request body: %w", err)
	}
	if len(body) > MaxBodyBytes {
		return CreateRequest{}, fmt.Errorf("exporttask: reading the request body: %w",
			&http.MaxBytesError{Limit: MaxBodyBytes})
	}
	var p problems
	c := checkCreateJSON(&p, body, nil)
	if !c.sound || p.dropped > 0 {
		// Past MaxProblems structural problems, validation would add
		// nothing that can be listed.
		return CreateRequest{}, p.err()
	}
	req, err := decodeSound(c.cleaned())
	if c.webhooks == "webhooks" {
		req.Shape = ShapeV170
	}
	if err != nil {
		// The structural pass accepts only what decodes; this is a safety
		// net, not an expected path.
		p.add("", "cannot be decoded: %s", strings.TrimPrefix(err.Error(), "json: "))
		return CreateRequest{}, p.err()
	}
	v := problems{skip: c.nulled}
	req.validate(&v)
	if err := mergeProblems(body, &p, &v); err != nil {
		return CreateRequest{}, err
	}
	return req, nil
}

// decodeSound decodes a body the structural pass found sound and
// normalises it.
func decodeSound(body []byte) (CreateRequest, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var req CreateRequest
	if err := dec.Decode(&req); err != nil {
		return CreateRequest{}, err
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
	jsonscan.ExactNumbers(req.Keywords)
	jsonscan.ExactNumbers(req.Parameters)
	if req.ROI != nil {
		for _, f := range req.ROI.Features {
			jsonscan.ExactNumbers(f.Properties)
		}
	}
	if id, ok := recordid.Canonical(req.CatalogRecordID); ok {
		req.CatalogRecordID = id
	}
	return req, nil
}
