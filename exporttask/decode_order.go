package exporttask

import (
	"fmt"
	"sort"
	"strings"
)

// mergeProblems lists the structural problems of body and those validation
// found, in the order of the body, and returns them as a *ValidationError,
// or nil when there are none.
func mergeProblems(body []byte, structural, validation *problems) error {
	all := append(structural.list, validation.list...)
	dropped := structural.dropped + validation.dropped
	if len(all) == 0 && dropped == 0 {
		return nil
	}
	if len(all) > 1 {
		sortByBody(body, all)
	}
	if len(all) > MaxProblems {
		dropped += len(all) - MaxProblems
		all = all[:MaxProblems]
	}
	if dropped > 0 {
		all = append(all, FieldError{Message: fmt.Sprintf("%d more problems are not listed", dropped)})
	}
	return &ValidationError{Problems: all}
}

// underAny reports whether ptr is one of the pointers in set or under one:
// a lookup per level of ptr, however many the set holds.
func underAny(ptr string, set map[string]bool) bool {
	for ptr != "" {
		if set[ptr] {
			return true
		}
		ptr = ptr[:strings.LastIndexByte(ptr, '/')]
	}
	return false
}

// sortByBody orders problems by where they are in body, keeping the order
// of those at the same place. A problem about a member or element is where
// that member starts; one about something absent (a missing member) or
// inside a value whose parts are not tracked (coordinates, the depths of a
// keyword's value) is at the end of the closest enclosing member that is;
// one about the body as a whole is at its end.
//
// It walks body again to learn where the members it needs are: that costs
// a pass over the body, on the error path only.
func sortByBody(body []byte, list []FieldError) {
	want := make(map[string]bool)
	for _, fe := range list {
		for ptr := fe.Pointer; ptr != "" && !want[ptr]; ptr = ptr[:strings.LastIndexByte(ptr, '/')] {
			want[ptr] = true
		}
	}
	spans := checkCreateJSON(&problems{}, body, want).spans
	end := int64(len(body))
	offset := func(ptr string) int64 {
		if s, ok := spans[ptr]; ok && ptr != "" {
			return s.start
		}
		for ptr != "" {
			ptr = ptr[:strings.LastIndexByte(ptr, '/')]
			if s, ok := spans[ptr]; ok && ptr != "" {
				return s.end
			}
		}
		return end
	}
	keys := make([]int64, len(list))
	for i, fe := range list {
		keys[i] = offset(fe.Pointer)
	}
	sort.Stable(byKey{list, keys})
}

// byKey sorts problems by their keys.
type byKey struct {
	list []FieldError
	keys []int64
}

func (b byKey) Len() int           { return len(b.list) }
func (b byKey) Less(i, j int) bool { return b.keys[i] < b.keys[j] }
func (b byKey) Swap(i, j int) {
	b.list[i], b.list[j] = b.list[j], b.list[i]
	b.keys[i], b.keys[j] = b.keys[j], b.keys[i]
}
