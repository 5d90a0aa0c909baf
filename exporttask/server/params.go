package server

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/apiparam"
)

// listQuery is the parsed query of GET /export-tasks.
type listQuery struct {
	limit  int
	status exporttask.Status
	before int64 // from the cursor; 0 for the first page
}

// parseListQuery reads limit, status and cursor, returning a FieldError
// naming the parameter for each bad one.
func parseListQuery(q url.Values) (listQuery, []exporttask.FieldError) {
	lq := listQuery{limit: exporttask.DefaultListLimit}
	var errs []exporttask.FieldError
	if v := q.Get("limit"); v != "" {
		n, err := parseLimit(v)
		if err != nil {
			errs = append(errs, *err)
		} else {
			lq.limit = n
		}
	}
	if v := q.Get("status"); v != "" {
		if !exporttask.Status(v).Valid() {
			errs = append(errs, exporttask.ParameterError("status",
				fmt.Sprintf("status must be one of %s, got %q", joinStatuses(), v)))
		} else {
			lq.status = exporttask.Status(v)
		}
	}
	if v := q.Get("cursor"); v != "" {
		before, err := apiparam.ParseCursor(v)
		if err != nil {
			errs = append(errs, exporttask.ParameterError("cursor", err.Error()))
		} else {
			lq.before = before
		}
	}
	return lq, errs
}

// parseLimit reads the limit query parameter of a list: a canonical
// decimal integer from 1 to exporttask.MaxListLimit.
func parseLimit(v string) (int, *exporttask.FieldError) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > exporttask.MaxListLimit || strconv.Itoa(n) != v {
		fe := exporttask.ParameterError("limit",
			fmt.Sprintf("limit must be a decimal integer from 1 to %d, got %q", exporttask.MaxListLimit, v))
		return 0, &fe
	}
	return n, nil
}

func joinStatuses() string {
	names := make([]string, 0, len(exporttask.Statuses()))
	for _, s := range exporttask.Statuses() {
		names = append(names, string(s))
	}
	return strings.Join(names, ", ")
}
