package server_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
)

// TestConcurrentIdempotencyKeyReuse: 100 creates at once that reuse one
// Idempotency-Key with different bodies get exactly one 201 (not a
// replay) and 99 × 422 naming that task; the customer has one task. On
// SQLite, and on PostgreSQL when EXPORTTASK_TEST_POSTGRES_DSN is set.
func TestConcurrentIdempotencyKeyReuse(t *testing.T) {
	for _, store := range []string{"sqlite", "postgres"} {
		t.Run(store, func(t *testing.T) {
			opts := []exporttasktest.Option{exporttasktest.WithTaskDuration(time.Hour)}
			if store == "postgres" {
				opts = append(opts, exporttasktest.WithStore(openPostgres(t, postgresSchema(t))))
			}
			h := newHarness(t, opts...)
			const n = 100
			bodies := make([]string, n)
			for i := range bodies {
				bodies[i] = mustJSON(t, h.sampleRequest(i+1))
			}
			type answer struct {
				status   int
				replayed string
				body     []byte
				err      error
			}
			answers := make([]answer, n)
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					// Not h.do: require must not run outside the test's goroutine.
					req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, h.URL+"/export-tasks", strings.NewReader(bodies[i]))
					if err != nil {
						answers[i].err = err
						return
					}
					req.Header.Set("X-Api-Key", h.Key)
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Idempotency-Key", "race-1")
					resp, err := h.hc.Do(req)
					if err != nil {
						answers[i].err = err
						return
					}
					defer resp.Body.Close()
					body, err := io.ReadAll(resp.Body)
					answers[i] = answer{resp.StatusCode, resp.Header.Get(exporttask.ReplayedHeader), body, err}
				}()
			}
			close(start)
			wg.Wait()

			var created []exporttask.Task
			refused := 0
			for i, a := range answers {
				require.NoError(t, a.err, "create %d", i)
				switch a.status {
				case http.StatusCreated:
					assert.NotEqual(t, "true", a.replayed, "create %d was answered with a replay", i)
					created = append(created, decodeTask(t, a.body))
				case http.StatusUnprocessableEntity:
					refused++
				default:
					t.Errorf("create %d: status %d: %s", i, a.status, a.body)
				}
			}
			require.Len(t, created, 1, "exactly one create stores its task")
			assert.Equal(t, n-1, refused, "every other create is refused")
			for _, a := range answers {
				if a.status != http.StatusUnprocessableEntity {
					continue
				}
				var p exporttask.Problem
				require.NoError(t, json.Unmarshal(a.body, &p))
				assert.Equal(t, exporttask.ProblemTypeIdempotencyKeyReused, p.Type)
				assert.Contains(t, p.Detail, fmt.Sprintf("task %d", created[0].ID))
			}
			tasks, _, err := h.client.List(t.Context(), client.ListOptions{Limit: n})
			require.NoError(t, err)
			require.Len(t, tasks, 1, "the customer has one task")
			assert.Equal(t, created[0].ID, tasks[0].ID)
		})
	}
}
