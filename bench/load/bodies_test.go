package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCreateBodiesAreTheRequestsEncoded(t *testing.T) {
	bodies, err := newCreateBodies(0xabcdef01)
	require.NoError(t, err)
	for _, n := range []int{0, 1, 999, 1000, 1001, 123456} {
		want, err := json.Marshal(createRequest(0xabcdef01, n))
		require.NoError(t, err)
		assert.Equal(t, string(want), string(bodies.body(n)), "create %d", n)
	}
}

func TestTaskIDOf(t *testing.T) {
	for body, want := range map[string]int64{
		`{"id":42,"status":"PENDING"}`:       42,
		`{"status":"PENDING","id":7}`:        7,
		`{"id":9007199254740993,"x":1}`:      9007199254740993,
		`{ "id" : 5 , "status": "PENDING" }`: 5,
	} {
		got, err := taskIDOf([]byte(body))
		require.NoError(t, err, body)
		assert.Equal(t, want, got, body)
	}
	_, err := taskIDOf([]byte(`{"id":"x"}`))
	assert.Error(t, err)
}
