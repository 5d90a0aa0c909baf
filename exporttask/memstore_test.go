package exporttask_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
)

// memStore is a small in-memory exporttask.Store for the lifecycle tests,
// following the Store contract for what the Runner and Deliverer use (the
// queue, leases, expiry and the outbox). It skips quotas and dedup. The
// same tests also run against the real SQLite store.
type memStore struct {
	mu         sync.Mutex
	nextID     int64
	tasks      map[int64]*memTask
	deliveries []*memDelivery
}

type memTask struct {
	task       exporttask.Task
	customer   string
	worker     string
	leaseUntil time.Time
}

type memDelivery struct {
	d          exporttask.Delivery
	next       time.Time
	leaseUntil time.Time
	delivered  bool
	gaveUp     bool
}

var _ exporttask.Store = (*memStore)(nil)

func newMemStore() *memStore { return &memStore{tasks: map[int64]*memTask{}} }

// setStatus moves t through the state machine and writes the event to the
// outbox, like the real stores.
func (s *memStore) setStatus(t *memTask, to exporttask.Status, now time.Time) error {
	ev, err := exporttask.Transition(t.task.Status, to)
	if err != nil {
		return err
	}
	t.task.Status = to
	return s.emit(t, ev, now)
}

func (s *memStore) emit(t *memTask, ev exporttask.Event, now time.Time) error {
	body, err := exporttask.MarshalEvent(ev, t.task, now)
	if err != nil {
		return err
	}
	for _, u := range exporttask.Subscribers(t.task, ev) {
		s.deliveries = append(s.deliveries, &memDelivery{d: exporttask.Delivery{
			ID: int64(len(s.deliveries) + 1), TaskID: t.task.ID, URL: u, Event: ev, Payload: body, CreatedAt: now,
		}, next: now})
	}
	return nil
}

func (s *memStore) Create(_ context.Context, p exporttask.CreateParams) (exporttask.Task, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	r := p.Request
	t := &memTask{customer: p.Customer, task: exporttask.Task{
		ID: s.nextID, CatalogRecordID: r.CatalogRecordID, Domain: r.Domain, ROI: r.ROI,
		ArtifactCRS: r.ArtifactCRS, Description: r.Description, Keywords: r.Keywords,
		Parameters: r.Parameters, Webhook: r.Webhook, EstimatedSize: p.EstimatedSize,
		EstimatedTime: p.EstimatedTime, Status: exporttask.StatusPending,
		Artifacts: []exporttask.Artifact{}, CreatedAt: exporttask.NewTime(p.Now),
	}}
	s.tasks[t.task.ID] = t
	return t.task, false, nil
}

func (s *memStore) Get(_ context.Context, customer string, id int64) (exporttask.Task, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tasks[id]
	if !ok || t.customer != customer {
		return exporttask.Task{}, fmt.Errorf("memstore: task %d: %w", id, exporttask.ErrNotFound)
	}
	return t.task, nil
}

func (s *memStore) List(_ context.Context, p exporttask.ListParams) ([]exporttask.Task, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []exporttask.Task
	for id := s.nextID; id > 0; id-- {
		t, ok := s.tasks[id]
		if !ok || t.customer != p.Customer || (p.Before > 0 && id >= p.Before) ||
			(p.Status != "" && t.task.Status != p.Status) {
			continue
		}
		if len(out) == p.Limit {
			return out, true, nil
		}
		out = append(out, t.task)
	}
	return out, false, nil
}

func (s *memStore) Abort(_ context.Context, customer string, id int64, now time.Time) (exporttask.Task, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tasks[id]
	if !ok || t.customer != customer {
		return exporttask.Task{}, fmt.Errorf("memstore: task %d: %w", id, exporttask.ErrNotFound)
	}
	if t.task.Status.Final() {
		return exporttask.Task{}, fmt.Errorf("memstore: %w: %w", exporttask.ErrConflict,
			&exporttask.TransitionError{From: t.task.Status, To: exporttask.StatusAborted})
	}
	if err := s.setStatus(t, exporttask.StatusAborted, now); err != nil {
		return exporttask.Task{}, err
	}
	t.task.FinishedAt = exporttask.NewTime(now)
	t.worker, t.leaseUntil = "", time.Time{}
	return t.task, nil
}

func (s *memStore) Claim(_ context.Context, worker string, now time.Time, lease time.Duration) (exporttask.Task, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id := int64(1); id <= s.nextID; id++ {
		t, ok := s.tasks[id]
		if !ok {
			continue
		}
		switch {
		case t.task.Status == exporttask.StatusPending:
			if err := s.setStatus(t, exporttask.StatusInProgress, now); err != nil {
				return exporttask.Task{}, false, err
			}
		case t.task.Status == exporttask.StatusInProgress && t.leaseUntil.Before(now):
		default:
			continue
		}
		t.worker, t.leaseUntil = worker, now.Add(lease)
		return t.task, true, nil
	}
	return exporttask.Task{}, false, nil
}

func (s *memStore) leased(id int64, worker string) (*memTask, error) {
	t, ok := s.tasks[id]
	if !ok || t.task.Status != exporttask.StatusInProgress || t.worker != worker {
		return nil, fmt.Errorf("memstore: task %d, worker %s: %w", id, worker, exporttask.ErrLeaseLost)
	}
	return t, nil
}

func (s *memStore) Progress(_ context.Context, id int64, worker string, progress int, now time.Time, lease time.Duration) (exporttask.Task, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.leased(id, worker)
	if err != nil {
		return exporttask.Task{}, err
	}
	t.leaseUntil = now.Add(lease)
	if progress != t.task.Progress {
		t.task.Progress = progress
		if err := s.emit(t, exporttask.EventInProgress, now); err != nil {
			return exporttask.Task{}, err
		}
	}
	return t.task, nil
}

func (s *memStore) Finish(_ context.Context, id int64, worker string, r exporttask.FinishParams, now time.Time) (exporttask.Task, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.leased(id, worker)
	if err != nil {
		return exporttask.Task{}, err
	}
	t.task.FinishedAt = exporttask.NewTime(now)
	to := exporttask.StatusFailed
	if r.ErrorReason == "" {
		to = exporttask.StatusCompleted
		t.task.Progress = 100
		t.task.Artifacts = slices.Clone(r.Artifacts)
		t.task.ExpiredAt = exporttask.NewTime(now.Add(r.Retention))
	} else {
		t.task.ErrorReason = r.ErrorReason
	}
	t.worker, t.leaseUntil = "", time.Time{}
	if err := s.setStatus(t, to, now); err != nil {
		return exporttask.Task{}, err
	}
	return t.task, nil
}

func (s *memStore) Expire(_ context.Context, now time.Time, limit int) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for id := int64(1); id <= s.nextID && n < limit; id++ {
		t, ok := s.tasks[id]
		if !ok || t.task.Status != exporttask.StatusCompleted || t.task.ExpiredAt.After(now) {
			continue
		}
		t.task.Artifacts = slices.Clone(t.task.Artifacts)
		for i := range t.task.Artifacts {
			t.task.Artifacts[i].URL = ""
		}
		if err := s.setStatus(t, exporttask.StatusExpired, now); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

func (s *memStore) ClaimDeliveries(_ context.Context, now time.Time, limit int, lease time.Duration) ([]exporttask.Delivery, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	type key struct {
		task int64
		url  string
	}
	head := map[key]bool{}
	var out []exporttask.Delivery
	for _, d := range s.deliveries {
		k := key{d.d.TaskID, d.d.URL}
		if d.delivered || d.gaveUp || head[k] {
			continue
		}
		head[k] = true // only the oldest pending one of each task and URL
		if len(out) < limit && !d.next.After(now) && !d.leaseUntil.After(now) {
			d.leaseUntil = now.Add(lease)
			out = append(out, d.d)
		}
	}
	return out, nil
}

func (s *memStore) DeliveryDone(_ context.Context, id int64, r exporttask.DeliveryResult) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id < 1 || id > int64(len(s.deliveries)) {
		return fmt.Errorf("memstore: delivery %d: %w", id, exporttask.ErrNotFound)
	}
	d := s.deliveries[id-1]
	d.d.Attempts++
	d.leaseUntil = time.Time{}
	switch {
	case r.Delivered:
		d.delivered = true
	case r.NextAttempt.IsZero():
		d.gaveUp = true
	default:
		d.next = r.NextAttempt
	}
	return nil
}

func (s *memStore) Ping(context.Context) error { return nil }

func (s *memStore) Close() error { return nil }
