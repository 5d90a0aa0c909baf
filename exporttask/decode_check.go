package exporttask

import (
	"encoding/json"
	"errors"
	"io"
	"strconv"

	"github.com/openapi-viewer/viewer/exporttask/internal/jsonscan"
	"github.com/openapi-viewer/viewer/exporttask/internal/quoted"
)

// shape says what JSON a member of a create request holds, for the
// structural pass of DecodeCreateRequest.
type shape int

const (
	shapeString             shape = iota
	shapeNullableString           // a string, or null (description)
	shapeFree                     // any JSON value
	shapeFreeObject               // an object with any members (parameters)
	shapeNullableFreeObject       // the same, or null (keywords, feature properties)
	shapeRequest                  // the body
	shapeROI                      // a FeatureCollection
	shapeFeatures                 // an array of features
	shapeFeature                  // a Feature
	shapeGeometry                 // a Polygon or MultiPolygon, or null
	shapeWebhooks                 // an array of webhooks
	shapeWebhook                  // {url, events}
	shapeEvents                   // an array of event names
)

// elementShape returns the shape of the elements of an array shape.
func elementShape(s shape) shape {
	switch s {
	case shapeFeatures:
		return shapeFeature
	case shapeWebhooks:
		return shapeWebhook
	}
	return shapeString
}

// member is a member of an object shape.
type member struct {
	name  string
	shape shape
}

// members returns the members an object shape defines, in the order the
// API documents them.
func members(s shape) []member {
	switch s {
	case shapeRequest:
		return []member{{"catalogRecordID", shapeString}, {"domain", shapeString}, {"ROI", shapeROI},
			{"artifactCRS", shapeString}, {"description", shapeNullableString}, {"keywords", shapeNullableFreeObject},
			{"parameters", shapeFreeObject}, {"webhook", shapeWebhooks}, {"webhooks", shapeWebhooks}}
	case shapeROI:
		return []member{{"type", shapeString}, {"features", shapeFeatures}}
	case shapeFeature:
		return []member{{"type", shapeString}, {"properties", shapeNullableFreeObject}, {"geometry", shapeGeometry}}
	case shapeGeometry:
		return []member{{"type", shapeString}, {"coordinates", shapeFree}}
	case shapeWebhook:
		return []member{{"url", shapeString}, {"events", shapeEvents}}
	}
	return nil
}

// checker walks the tokens of a request body and records every structural
// problem. Its methods return an error only when the JSON cannot be read
// further (a syntax error); that error is a *stopError.
//
// So that validation can go on despite structural problems, it also notes
// how to make the body decodable (see [checker.cleaned]): a value of the
// wrong type is replaced with null, and an unknown member is renamed to ""
// (encoding/json would otherwise match it to a field without regard to
// case).
type checker struct {
	dec   jsonscan.Source
	p     *problems
	depth int // nesting of the value being read; the body is 1

	data     []byte
	tokStart int64           // offset in data before the last token read
	edits    []jsonscan.Edit // not overlapping
	nulled   map[string]bool // pointers of the values replaced with null
	spans    map[string]span // see record
	want     map[string]bool // the pointers whose spans are recorded
	sound    bool            // the body is one JSON object: it can be decoded once cleaned
	// webhooks is the name the body gives its webhook array, "webhook"
	// (v1.6.5) or "webhooks" (v1.7.0); empty while none was read.
	webhooks string
}

// span is where the member or element at a pointer lies in the body, from
// its first byte (its name, for a member) to just after its value.
type span struct{ start, end int64 }

// stopError ends the walk at a syntax error, remembering where it was.
type stopError struct {
	ptr string
	err error
}

func (e *stopError) Error() string { return e.ptr + ": " + e.err.Error() }

// newChecker returns a checker of data that reads it with dec.
func newChecker(p *problems, data []byte, dec jsonscan.Source) *checker {
	return &checker{dec: dec, p: p, data: data}
}

// checkCreateJSON records every structural problem of a create request
// body in p (see DecodeCreateRequest). With want, the checker also
// records where the members and elements at those pointers lie, for
// [sortByBody].
//
// It reads the body with jsonscan.Fast first; should it refuse it (bad
// syntax, say), it starts over with a json.Decoder, whose errors it
// reports. Either way the outcome is the decoder's.
func checkCreateJSON(p *problems, body []byte, want map[string]bool) *checker {
	listed, dropped := p.list, p.dropped
	fast := jsonscan.NewFast(body)
	if c := checkWith(p, body, want, fast); !fast.Refused() {
		return c
	}
	p.list, p.dropped = listed, dropped
	dec := jsonscan.NewDecoder(body)
	return checkWith(p, body, want, dec)
}

// checkWith is checkCreateJSON reading the body with dec.
func checkWith(p *problems, body []byte, want map[string]bool, dec jsonscan.Source) *checker {
	c := newChecker(p, body, dec)
	if want != nil {
		c.want = want
		c.spans = make(map[string]span, len(want))
	}
	tok, err := c.dec.Token()
	switch {
	case errors.Is(err, io.EOF):
		p.add("", "the body is empty; it must be a JSON object")
		return c
	case err != nil:
		c.report(&stopError{err: err})
		return c
	case !jsonscan.IsDelim(tok, '{'):
		p.add("", "must be a JSON object, got %s", jsonscan.Describe(tok))
		return c
	}
	c.depth = 1
	if err := c.object("", shapeRequest); err != nil {
		c.report(err)
		return c
	}
	c.sound = true
	if _, err := c.dec.Token(); !errors.Is(err, io.EOF) {
		p.add("", "unexpected data after the JSON object")
	}
	return c
}

// cleaned returns the body with the edits applied: decodable into a
// CreateRequest when the checker found it sound.
func (c *checker) cleaned() []byte {
	return jsonscan.Apply(c.data, c.edits)
}

// replaceWithNull notes that the value at ptr, from offset start to where
// the decoder is now, is to be read as null.
func (c *checker) replaceWithNull(ptr string, start int64) {
	if c.p.dropped > 0 {
		return // DecodeCreateRequest stops before decoding
	}
	c.edits = append(c.edits, jsonscan.Edit{Start: jsonscan.ValueStart(c.data, start), End: c.dec.InputOffset(), Repl: "null"})
	c.nullAt(ptr)
}

// nullAt notes that the value at ptr is read as null.
func (c *checker) nullAt(ptr string) {
	if c.p.dropped > 0 {
		return
	}
	if c.nulled == nil {
		c.nulled = make(map[string]bool)
	}
	c.nulled[ptr] = true
}

// record notes the span of the member or element at ptr, which started at
// offset start, when its span is wanted.
func (c *checker) record(ptr string, start int64) {
	if c.want[ptr] {
		c.spans[ptr] = span{jsonscan.ValueStart(c.data, start), c.dec.InputOffset()}
	}
}

// report records the syntax error that stopped the walk.
func (c *checker) report(err error) {
	ptr := ""
	var stop *stopError
	if errors.As(err, &stop) {
		ptr, err = stop.ptr, stop.err
	}
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &syn):
		line, col := jsonscan.LineColumn(c.data, syn.Offset)
		c.p.add(ptr, "is not valid JSON: %s (near line %d, column %d)", syn.Error(), line, col)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		c.p.add(ptr, "is not valid JSON: the body ends before the value is complete")
	default:
		c.p.add(ptr, "is not valid JSON: %s", err.Error())
	}
}

// token reads the next token; ptr locates a syntax error, and a string
// that is not valid UTF-8 (see checkText).
func (c *checker) token(ptr string) (json.Token, error) {
	return c.next(ptr, false)
}

// next reads the next token, a member name when key is set.
func (c *checker) next(ptr string, key bool) (json.Token, error) {
	c.tokStart = c.dec.InputOffset()
	tok, err := c.dec.Token()
	if err != nil {
		return nil, &stopError{ptr: ptr, err: err}
	}
	if _, ok := tok.(string); ok {
		c.checkText(ptr, key)
	}
	return tok, nil
}

// checkText records a problem at ptr when the string token just read is
// not valid UTF-8 in the body: decoders replace such bytes with U+FFFD, so
// it is checked in the body's own bytes.
func (c *checker) checkText(ptr string, key bool) {
	start := jsonscan.ValueStart(c.data, c.tokStart)
	bad, at := jsonscan.InvalidText(c.data[start:c.dec.InputOffset()])
	if bad == "" {
		return
	}
	what := "must be valid UTF-8"
	if key {
		what = "has a member name that is not valid UTF-8"
	}
	c.p.add(ptr, "%s: %s at byte offset %d", what, bad, start+int64(at))
}

// value reads the next value, expecting shape s.
func (c *checker) value(ptr string, s shape) error {
	tok, err := c.token(ptr)
	if err != nil {
		return err
	}
	return c.valueFrom(ptr, s, tok)
}

// valueFrom checks the value that starts with tok against shape s.
func (c *checker) valueFrom(ptr string, s shape, tok json.Token) error {
	if jsonscan.IsDelim(tok, '{') || jsonscan.IsDelim(tok, '[') {
		c.depth++
		defer func() { c.depth-- }()
		if c.depth > MaxDepth {
			c.p.add(ptr, "nests deeper than %d levels of objects and arrays", MaxDepth)
			start := c.tokStart
			if err := c.skip(ptr); err != nil {
				return err
			}
			c.replaceWithNull(ptr, start)
			return nil
		}
	}
	switch s {
	case shapeString, shapeNullableString:
		if tok == nil && s == shapeNullableString {
			return nil
		}
		if _, ok := tok.(string); !ok {
			return c.mismatch(ptr, "a string", tok)
		}
		return nil
	case shapeFree:
		return c.free(ptr, tok)
	case shapeNullableFreeObject, shapeFreeObject:
		if tok == nil && s == shapeNullableFreeObject {
			return nil
		}
		if !jsonscan.IsDelim(tok, '{') {
			return c.mismatch(ptr, "an object", tok)
		}
		return c.freeObject(ptr, true)
	case shapeFeatures, shapeWebhooks, shapeEvents:
		if !jsonscan.IsDelim(tok, '[') {
			return c.mismatch(ptr, "an array", tok)
		}
		elem := elementShape(s)
		for i := 0; c.dec.More(); i++ {
			at, start := index(ptr, i), c.dec.InputOffset()
			if err := c.value(at, elem); err != nil {
				return err
			}
			c.record(at, start)
		}
		return c.end(ptr)
	case shapeGeometry:
		if tok == nil {
			return nil // validation says a geometry is required
		}
		if !jsonscan.IsDelim(tok, '{') {
			return c.mismatch(ptr, "an object", tok)
		}
		return c.geometry(ptr)
	}
	if !jsonscan.IsDelim(tok, '{') {
		return c.mismatch(ptr, "an object", tok)
	}
	return c.object(ptr, s)
}

// mismatch records that the value at ptr, whose first token tok was just
// read, has the wrong JSON type, skips the rest of it and notes that it is
// to be read as null.
func (c *checker) mismatch(ptr, want string, tok json.Token) error {
	c.p.add(ptr, "must be %s, got %s", want, jsonscan.Describe(tok))
	start := c.tokStart
	if jsonscan.IsDelim(tok, '{') || jsonscan.IsDelim(tok, '[') {
		if err := c.skip(ptr); err != nil {
			return err
		}
	}
	c.replaceWithNull(ptr, start)
	return nil
}

// skip reads to the end of the object or array just opened.
func (c *checker) skip(ptr string) error {
	for open := 1; open > 0; {
		tok, err := c.token(ptr)
		if err != nil {
			return err
		}
		switch {
		case jsonscan.IsDelim(tok, '{'), jsonscan.IsDelim(tok, '['):
			open++
		case jsonscan.IsDelim(tok, '}'), jsonscan.IsDelim(tok, ']'):
			open--
		}
	}
	return nil
}

// skipValue reads and ignores the next value.
func (c *checker) skipValue(ptr string) error {
	tok, err := c.token(ptr)
	if err != nil {
		return err
	}
	if jsonscan.IsDelim(tok, '{') || jsonscan.IsDelim(tok, '[') {
		return c.skip(ptr)
	}
	return nil
}

// end reads the closing delimiter of the object or array at ptr.
func (c *checker) end(ptr string) error {
	_, err := c.token(ptr)
	return err
}

// key reads the next member name of the object at ptr and records a
// duplicate; it returns the member's pointer too.
func (c *checker) key(ptr string, seen map[string]bool) (string, string, error) {
	tok, err := c.next(ptr, true)
	if err != nil {
		return "", "", err
	}
	name, _ := tok.(string) // the decoder only returns strings here
	at := child(ptr, name)
	if seen[name] {
		c.p.add(at, "duplicate member %s: a name may appear only once in an object", quoted.Short(name))
	}
	seen[name] = true
	return name, at, nil
}

// object checks the members of the object shape s just opened at ptr.
func (c *checker) object(ptr string, s shape) error {
	defined := members(s)
	seen := make(map[string]bool, len(defined))
	for c.dec.More() {
		name, at, err := c.key(ptr, seen)
		if err != nil {
			return err
		}
		start := c.tokStart
		m, ok := findMember(defined, name)
		if !ok {
			if err := c.unknown(at, name, defined, start); err != nil {
				return err
			}
			continue
		}
		if m.shape == shapeWebhooks && s == shapeRequest {
			done, err := c.webhookMember(at, name, start)
			if err != nil {
				return err
			}
			if done {
				continue
			}
		}
		if err := c.value(at, m.shape); err != nil {
			return err
		}
		c.record(at, start)
	}
	if s == shapeFeature && !seen["properties"] {
		c.p.add(ptr+"/properties", "is required (RFC 7946): an object, or null")
	}
	return c.end(ptr)
}

// webhookMember notes which of the names of the webhook array, "webhook"
// (v1.6.5) or "webhooks" (v1.7.0), the body uses; the member name, at
// ptr, has just been read from offset start. It has "webhooks" read as
// "webhook", the field's name. A body that gives both is refused, and the
// second is skipped: done reports that its value was read.
func (c *checker) webhookMember(ptr, name string, start int64) (done bool, err error) {
	if c.webhooks != "" && c.webhooks != name {
		c.p.add(ptr, "/webhook (v1.6.5) and /webhooks (v1.7.0) are the same member in two versions of the API; give only one of them")
		if err := c.skipValue(ptr); err != nil {
			return true, err
		}
		if c.p.dropped == 0 {
			c.edits = append(c.edits, jsonscan.Edit{Start: jsonscan.ValueStart(c.data, start), End: c.dec.InputOffset(), Repl: `"":null`})
		}
		c.record(ptr, start)
		return true, nil
	}
	c.webhooks = name
	if name == "webhooks" && c.p.dropped == 0 {
		c.edits = append(c.edits, jsonscan.Edit{Start: jsonscan.ValueStart(c.data, start), End: c.dec.InputOffset(), Repl: `"webhook"`})
	}
	return false, nil
}

// findMember returns the member called name.
func findMember(ms []member, name string) (member, bool) {
	for _, m := range ms {
		if m.name == name {
			return m, true
		}
	}
	return member{}, false
}

// unknown records the member name at ptr, which the object shape does not
// define and whose name started at offset start, skips its value and notes
// that it is to be ignored.
func (c *checker) unknown(ptr, name string, defined []member, start int64) error {
	c.p.add(ptr, "%s", unknownMember(name, defined))
	if err := c.skipValue(ptr); err != nil {
		return err
	}
	if c.p.dropped == 0 {
		c.edits = append(c.edits, jsonscan.Edit{Start: jsonscan.ValueStart(c.data, start), End: c.dec.InputOffset(), Repl: `"":null`})
	}
	c.record(ptr, start)
	return nil
}

// freeObject checks an object with any member names just opened at ptr;
// top says it is keywords, parameters or properties, whose members' spans
// are recorded (those of the values inside them are not).
func (c *checker) freeObject(ptr string, top bool) error {
	seen := make(map[string]bool)
	for c.dec.More() {
		_, at, err := c.key(ptr, seen)
		if err != nil {
			return err
		}
		start := c.tokStart
		if err := c.value(at, shapeFree); err != nil {
			return err
		}
		if top {
			c.record(at, start)
		}
	}
	return c.end(ptr)
}

// free checks any JSON value starting with tok: no duplicate member names,
// numbers that fit a float64.
func (c *checker) free(ptr string, tok json.Token) error {
	switch v := tok.(type) {
	case json.Number:
		c.number(ptr, v)
	case json.Delim:
		if v == '{' {
			return c.freeObject(ptr, false)
		}
		for i := 0; c.dec.More(); i++ {
			if err := c.value(index(ptr, i), shapeFree); err != nil {
				return err
			}
		}
		return c.end(ptr)
	}
	return nil
}

// number records a number that a float64 cannot hold.
func (c *checker) number(ptr string, n json.Number) bool {
	if _, err := strconv.ParseFloat(string(n), 64); err != nil {
		c.p.add(ptr, "the number %s is out of range", quoted.Short(string(n)))
		return false
	}
	return true
}
