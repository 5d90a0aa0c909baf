package server

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/apiparam"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// deliveryQuery is the parsed query of GET /export-tasks/{id}/deliveries.
type deliveryQuery struct {
	limit int
	after int64 // from the cursor; 0 for the first page
}

// parseDeliveryQuery reads limit and cursor, returning a FieldError naming
// the parameter for each bad one.
func parseDeliveryQuery(q url.Values) (deliveryQuery, []exporttask.FieldError) {
	dq := deliveryQuery{limit: exporttask.DefaultListLimit}
	var errs []exporttask.FieldError
	if v := q.Get("limit"); v != "" {
		n, err := parseLimit(v)
		if err != nil {
			errs = append(errs, *err)
		} else {
			dq.limit = n
		}
	}
	if v := q.Get("cursor"); v != "" {
		after, err := apiparam.ParseDeliveryCursor(v)
		if err != nil {
			errs = append(errs, exporttask.ParameterError("cursor", err.Error()))
		} else {
			dq.after = after
		}
	}
	return dq, errs
}

// listDeliveries handles GET /export-tasks/{id}/deliveries: the task's
// webhook deliveries, oldest first, with the next page in a Link header.
func (s *Server) listDeliveries(w http.ResponseWriter, r *http.Request) {
	id, idErr := apiparam.ParseTaskID(r.PathValue("id"))
	dq, problems := parseDeliveryQuery(r.URL.Query())
	if idErr != nil {
		problems = append([]exporttask.FieldError{exporttask.ParameterError("id", idErr.Error())}, problems...)
	}
	if len(problems) > 0 {
		s.writeProblem(w, r, parameterProblem(problems))
		return
	}
	// One more than the page tells whether there is a next page.
	recs, err := s.store.ListDeliveries(r.Context(), customerOf(r), id, dq.after, dq.limit+1)
	if err != nil {
		s.answerError(w, r, "listing deliveries", err)
		return
	}
	more := len(recs) > dq.limit
	if more {
		recs = recs[:dq.limit]
	}
	out := make([]exporttask.WebhookDelivery, len(recs))
	for i, d := range recs {
		out[i] = d.View()
	}
	if more {
		q := url.Values{}
		q.Set("limit", strconv.Itoa(dq.limit))
		q.Set("cursor", apiparam.FormatDeliveryCursor(out[len(out)-1].ID))
		w.Header().Set("Link", "<"+deliveriesPath(id)+"?"+q.Encode()+`>; rel="next"`)
	}
	s.writeJSON(w, r, http.StatusOK, out)
}

// redeliver handles POST /export-tasks/{id}/deliveries/{deliveryId}/redeliver:
// a new delivery of the same event to the same URL, due at once; 202 with
// it. 409 while a delivery of that event to that URL is pending; 429 over
// the customer's redelivery rate (Config.CreateRate).
func (s *Server) redeliver(w http.ResponseWriter, r *http.Request) {
	var problems []exporttask.FieldError
	id, err := apiparam.ParseTaskID(r.PathValue("id"))
	if err != nil {
		problems = append(problems, exporttask.ParameterError("id", err.Error()))
	}
	deliveryID, err := apiparam.ParseDeliveryID(r.PathValue("deliveryId"))
	if err != nil {
		problems = append(problems, exporttask.ParameterError("deliveryId", err.Error()))
	}
	if len(problems) > 0 {
		s.writeProblem(w, r, parameterProblem(problems))
		return
	}
	customer := customerOf(r)
	if ok, wait := s.redeliveries.allow(customer); !ok {
		secs := retryAfterSeconds(wait)
		w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
		s.writeProblem(w, r, newProblem(http.StatusTooManyRequests, fmt.Sprintf(
			"too many redeliveries: this customer may ask for %g per second, in bursts of up to %g; retry in %d seconds",
			s.redeliveries.rate, s.redeliveries.burst, secs)))
		return
	}
	d, err := s.store.Redeliver(r.Context(), customer, id, deliveryID, time.Now())
	switch {
	case errors.Is(err, taskstore.ErrDeliveryPending):
		s.writeProblem(w, r, deliveryPendingProblem(deliveryID))
		return
	case errors.Is(err, taskstore.ErrNotFound):
		// Which was missing: the task (another customer's, say) or the
		// delivery in it?
		if _, gerr := s.store.Get(r.Context(), customer, id); gerr == nil {
			s.writeProblem(w, r, newProblem(http.StatusNotFound, "The task has no delivery with this id."))
			return
		}
		s.answerError(w, r, "redelivering", err)
		return
	case err != nil:
		s.answerError(w, r, "redelivering", err)
		return
	}
	w.Header().Set("Location", deliveriesPath(id))
	s.writeJSON(w, r, http.StatusAccepted, d.View())
}

// deliveriesPath is the path of task id's delivery list.
func deliveriesPath(id int64) string {
	return "/export-tasks/" + strconv.FormatInt(id, 10) + "/deliveries"
}
