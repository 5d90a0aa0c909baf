package server_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/server"
)

func TestParseKeys(t *testing.T) {
	tests := []struct {
		in   string
		want []server.APIKey
		err  string
	}{
		{in: "", want: nil},
		{in: "k1=acme", want: []server.APIKey{{Key: "k1", Customer: "acme", Scopes: server.ScopeAll}}},
		{in: "k1=acme:read+write, k2=acme:read ,k3=globex:write", want: []server.APIKey{
			{Key: "k1", Customer: "acme", Scopes: server.ScopeAll},
			{Key: "k2", Customer: "acme", Scopes: server.ScopeRead},
			{Key: "k3", Customer: "globex", Scopes: server.ScopeWrite},
		}},
		{in: "k1=acme:write+read", want: []server.APIKey{{Key: "k1", Customer: "acme", Scopes: server.ScopeAll}}},
		{in: "k1", err: `"="`},
		{in: "=acme", err: "key is empty"},
		{in: "k1=", err: "customer is empty"},
		{in: "k1=acme:admin", err: `unknown scope "admin"`},
		{in: "k1=acme:", err: `unknown scope ""`},
		{in: "k1=a,k1=b", err: "twice"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := server.ParseKeys(tc.in)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				assert.NotContains(t, err.Error(), "k1", "errors must not quote keys")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestScopeString(t *testing.T) {
	assert.Equal(t, "read", server.ScopeRead.String())
	assert.Equal(t, "write", server.ScopeWrite.String())
	assert.Equal(t, "read+write", server.ScopeAll.String())
	assert.True(t, server.ScopeAll.Has(server.ScopeRead))
	assert.False(t, server.ScopeRead.Has(server.ScopeWrite))
}

func TestGenerateKey(t *testing.T) {
	a, err := server.GenerateKey()
	require.NoError(t, err)
	b, err := server.GenerateKey()
	require.NoError(t, err)
	assert.Len(t, a, 43, "32 bytes in unpadded base64url")
	assert.NotEqual(t, a, b)
}
