package server

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
)

// parseID reads a task id from the path: a decimal integer from 1 to the
// largest int64.
func parseID(s string) (int64, error) {
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return 0, fmt.Errorf("the task id %q is out of range (1 to %d)", s, int64(1<<63-1))
		}
		return 0, fmt.Errorf("the task id %q is not an integer", s)
	}
	if id < 1 {
		return 0, fmt.Errorf("the task id %d is out of range (1 to %d)", id, int64(1<<63-1))
	}
	return id, nil
}

// listQuery is the parsed query of GET /export-tasks.
type listQuery struct {
	limit  int
	status exporttask.Status
	before int64 // from the cursor; 0 for the first page
}

// parseListQuery reads limit, status and cursor, returning what is wrong
// with each bad parameter. (These are not FieldErrors: those point into
// the request body.)
func parseListQuery(q url.Values) (listQuery, []string) {
	lq := listQuery{limit: exporttask.DefaultListLimit}
	var errs []string
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > exporttask.MaxListLimit {
			errs = append(errs, fmt.Sprintf("limit must be an integer from 1 to %d, got %q", exporttask.MaxListLimit, v))
		} else {
			lq.limit = n
		}
	}
	if v := q.Get("status"); v != "" {
		if !exporttask.Status(v).Valid() {
			errs = append(errs, fmt.Sprintf("status must be one of %s, got %q", joinStatuses(), v))
		} else {
			lq.status = exporttask.Status(v)
		}
	}
	if v := q.Get("cursor"); v != "" {
		before, err := decodeCursor(v)
		if err != nil {
			errs = append(errs, "cursor is not one this server returned in a Link header")
		} else {
			lq.before = before
		}
	}
	return lq, errs
}

func joinStatuses() string {
	names := make([]string, 0, len(exporttask.Statuses()))
	for _, s := range exporttask.Statuses() {
		names = append(names, string(s))
	}
	return strings.Join(names, ", ")
}

// A cursor is opaque to clients: the base64url of "b" and the id the next
// page starts below.
func encodeCursor(before int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte("b" + strconv.FormatInt(before, 10)))
}

func decodeCursor(c string) (int64, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return 0, fmt.Errorf("decoding the cursor: %w", err)
	}
	rest, ok := strings.CutPrefix(string(b), "b")
	if !ok {
		return 0, errors.New("the cursor has no prefix")
	}
	id, err := parseID(rest)
	if err != nil {
		return 0, fmt.Errorf("reading the cursor: %w", err)
	}
	return id, nil
}
