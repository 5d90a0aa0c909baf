package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/openapi-viewer/viewer/exporttask"
)

// MaxItemBytes bounds the JSON of one task (or one problem) the client
// reads: a task holds its request, at most [exporttask.MaxBodyBytes], plus
// what the service adds to it (webhooks merged from duplicates, status,
// artifacts), far less than this. A list page is read one task at a time,
// so its total size is not bounded.
const MaxItemBytes = 16 * exporttask.MaxBodyBytes

// errItemTooLarge is returned by an itemLimitReader past its limit.
var errItemTooLarge = fmt.Errorf("a task in the response is larger than %d bytes", MaxItemBytes)

// itemLimitReader reads r, failing once more than limit bytes were read
// since the last reset. The JSON decoder reads ahead, so the count is that
// of one item give or take the decoder's buffer.
type itemLimitReader struct {
	r     io.Reader
	limit int64
	left  int64
}

func newItemLimitReader(r io.Reader, limit int64) *itemLimitReader {
	return &itemLimitReader{r: r, limit: limit, left: limit}
}

func (l *itemLimitReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, errItemTooLarge
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

func (l *itemLimitReader) reset() { l.left = l.limit }

// decodeOne decodes one JSON value from r into v and checks that nothing
// but white space follows it.
func decodeOne(r *itemLimitReader, v any) error {
	dec := json.NewDecoder(r)
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		if err == nil {
			err = errors.New("data after the JSON value")
		}
		return err
	}
	return nil
}

// decodeTasks decodes a JSON array of tasks from r one task at a time, so
// that a page of any size is read with memory for its tasks only, each
// task bounded by r's limit.
func decodeTasks(r *itemLimitReader) ([]exporttask.Task, error) {
	dec := json.NewDecoder(r)
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, fmt.Errorf("expected an array of tasks, got %v", tok)
	}
	tasks := []exporttask.Task{}
	for dec.More() {
		r.reset()
		var t exporttask.Task
		if err := dec.Decode(&t); err != nil {
			return nil, fmt.Errorf("task %d: %w", len(tasks), err)
		}
		tasks = append(tasks, t)
	}
	r.reset()
	if _, err := dec.Token(); err != nil { // the closing ]
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		if err == nil {
			err = errors.New("data after the array")
		}
		return nil, err
	}
	return tasks, nil
}
