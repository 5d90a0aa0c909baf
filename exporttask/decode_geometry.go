package exporttask

import (
	"bytes"
	"encoding/json"

	"github.com/openapi-viewer/viewer/exporttask/internal/jsonscan"
)

// geometry checks the geometry object just opened at ptr. Its coordinates
// are kept raw until the whole object is read, since "type", which says how
// deeply they nest, may come after them.
func (c *checker) geometry(ptr string) error {
	seen := make(map[string]bool, 2)
	typ := ""
	var coords json.RawMessage
	coordsStart := int64(-1)
	for c.dec.More() {
		name, at, err := c.key(ptr, seen)
		if err != nil {
			return err
		}
		start := c.tokStart
		switch name {
		case "type":
			tok, err := c.token(at)
			if err != nil {
				return err
			}
			s, ok := tok.(string)
			if !ok {
				if err := c.mismatch(at, "a string", tok); err != nil {
					return err
				}
				continue
			}
			typ = s
		case "coordinates":
			coordsStart = c.dec.InputOffset()
			if err := c.dec.Decode(&coords); err != nil {
				return &stopError{ptr: at, err: err}
			}
		default:
			if err := c.unknown(at, name, members(shapeGeometry), start); err != nil {
				return err
			}
			continue
		}
		c.record(at, start)
	}
	if err := c.end(ptr); err != nil {
		return err
	}
	found := len(c.p.list) + c.p.dropped
	c.checkCoordinates(ptr+"/coordinates", typ, coords)
	if len(c.p.list)+c.p.dropped > found {
		// Read as null, the coordinates are left to validation, which
		// says no more about them.
		start := jsonscan.ValueStart(c.data, coordsStart)
		if c.p.dropped > 0 {
			return nil
		}
		c.edits = append(c.edits, jsonscan.Edit{Start: start, End: start + int64(len(coords)), Repl: "null"})
		c.nullAt(ptr + "/coordinates")
	}
	return nil
}

// checkCoordinates records what is wrong with the nesting and numbers of
// the coordinates at ptr of a geometry of type typ.
func (c *checker) checkCoordinates(at, typ string, coords json.RawMessage) {
	levels := 0
	switch typ {
	case TypePolygon:
		levels = 3
	case TypeMultiPolygon:
		levels = 4
	default:
		return // validation reports the type; other types' coordinates are not read
	}
	if coords == nil || coordinatesDecode(coords, levels) {
		return // validation reports missing rings
	}
	// The outer decoder read the coordinates, so they are sound JSON and
	// the walk meets no syntax error.
	dec := jsonscan.NewDecoder(coords)
	sub := newChecker(c.p, coords, dec)
	if tok, err := sub.token(at); err == nil {
		_ = sub.coordinates(at, tok, levels)
	}
}

// coordinates checks that the value starting with tok is levels arrays
// deep with finite numbers at the bottom: 4 for a MultiPolygon, 3 for a
// Polygon.
func (c *checker) coordinates(ptr string, tok json.Token, levels int) error {
	if levels == 0 {
		n, ok := tok.(json.Number)
		if !ok {
			return c.mismatch(ptr, "a number", tok)
		}
		c.number(ptr, n)
		return nil
	}
	if !jsonscan.IsDelim(tok, '[') {
		return c.mismatch(ptr, coordinatesWant(levels), tok)
	}
	for i := 0; c.dec.More(); i++ {
		at := index(ptr, i)
		tok, err := c.token(at)
		if err != nil {
			return err
		}
		if err := c.coordinates(at, tok, levels-1); err != nil {
			return err
		}
	}
	return c.end(ptr)
}

// coordinatesWant names what an array levels deep above the numbers holds.
func coordinatesWant(levels int) string {
	switch levels {
	case 4:
		return "an array of polygons"
	case 3:
		return "an array of linear rings"
	case 2:
		return "an array of positions (a linear ring)"
	}
	return "an array of numbers (a position)"
}

// coordinatesDecode is the fast path for sound coordinates, which are most
// of a large body: it reports whether raw decodes into the nesting levels
// calls for without a null anywhere (encoding/json would take a null for an
// empty slice or a zero). When it does not, the token walk finds where.
func coordinatesDecode(raw []byte, levels int) bool {
	if bytes.Contains(raw, []byte("null")) {
		return false
	}
	var err error
	if levels == 3 {
		var v [][]Position
		err = json.Unmarshal(raw, &v)
	} else {
		var v [][][]Position
		err = json.Unmarshal(raw, &v)
	}
	return err == nil
}
