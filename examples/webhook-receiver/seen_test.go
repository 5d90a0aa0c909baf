package main

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSeenSetForgetsTheOldestFirst(t *testing.T) {
	s := newSeenSet(3)
	for _, id := range []string{"1", "2", "3"} {
		assert.True(t, s.add(id), id)
	}
	assert.False(t, s.add("2"), "remembered")
	assert.True(t, s.add("4"), "new; 1 is forgotten")
	assert.True(t, s.add("1"), "forgotten, so new again; 2 is forgotten")
	assert.False(t, s.add("3"))
	assert.False(t, s.add("4"))
	assert.True(t, s.add("2"))
	assert.Len(t, s.ids, 3)
}

func TestSeenSetStaysBounded(t *testing.T) {
	s := newSeenSet(10)
	for i := range 1000 {
		s.add(strconv.Itoa(i))
	}
	assert.Len(t, s.ids, 10)
	assert.False(t, s.add("999"))
	assert.True(t, s.add("989"))
}
