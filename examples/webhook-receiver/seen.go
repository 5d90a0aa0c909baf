package main

import "sync"

// rememberedDeliveries is how many delivery ids the receiver remembers:
// a repeat of an older one is printed again. The server retries a
// delivery for at most a day, so a receiver that gets fewer events than
// this per day never prints one twice.
const rememberedDeliveries = 10_000

// seenSet remembers the last n delivery ids added, forgetting the oldest
// first. It is safe for concurrent use.
type seenSet struct {
	mu    sync.Mutex
	ids   map[string]struct{}
	order []string // ring of the ids in ids, oldest at next once full
	next  int
}

func newSeenSet(n int) *seenSet {
	return &seenSet{ids: make(map[string]struct{}, n), order: make([]string, 0, n)}
}

// add records id and reports whether it is new: false when id is among
// those remembered.
func (s *seenSet) add(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.ids[id]; ok {
		return false
	}
	if len(s.order) < cap(s.order) {
		s.order = append(s.order, id)
	} else {
		delete(s.ids, s.order[s.next])
		s.order[s.next] = id
		s.next = (s.next + 1) % len(s.order)
	}
	s.ids[id] = struct{}{}
	return true
}
