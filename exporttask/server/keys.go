package server

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// Scope is a set of permissions an API key grants.
type Scope uint8

// The scopes. ScopeRead allows GET requests; ScopeWrite allows creating and
// aborting tasks.
const (
	ScopeRead  Scope = 1 << iota // GET /export-tasks, GET /export-tasks/{id}
	ScopeWrite                   // POST /export-tasks, DELETE /export-tasks/{id}
)

// ScopeAll grants every scope.
const ScopeAll = ScopeRead | ScopeWrite

// Has reports whether s includes every scope of want.
func (s Scope) Has(want Scope) bool { return s&want == want }

// String returns the scopes in the -keys syntax: "read", "write" or
// "read+write" (empty for no scope).
func (s Scope) String() string {
	var parts []string
	if s.Has(ScopeRead) {
		parts = append(parts, "read")
	}
	if s.Has(ScopeWrite) {
		parts = append(parts, "write")
	}
	return strings.Join(parts, "+")
}

// APIKey is a key a client presents, in the x-api-key header or as
// "Authorization: Bearer <key>", and what it grants.
type APIKey struct {
	// Key is the secret the client sends.
	Key string
	// Customer owns every task created with the key; a key sees only its
	// customer's tasks.
	Customer string
	// Scopes are what the key may do.
	Scopes Scope
}

// ParseKeys reads API keys in the syntax of the -keys flag: a comma-separated
// list of key=customer[:scopes], where scopes are "read" and "write" joined
// by "+", e.g. "k1=acme:read+write,k2=acme:read". No scopes means both.
// Spaces around items are ignored; an empty string gives no keys.
func ParseKeys(s string) ([]APIKey, error) {
	var keys []APIKey
	seen := make(map[string]bool)
	for i, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		k, err := parseKey(item)
		if err != nil {
			return nil, fmt.Errorf("server: key %d: %w", i+1, err)
		}
		if seen[k.Key] {
			return nil, fmt.Errorf("server: key %d: the same key is listed twice", i+1)
		}
		seen[k.Key] = true
		keys = append(keys, k)
	}
	return keys, nil
}

// parseKey reads one key=customer[:scopes] item. Its errors never quote the
// key, so they can be logged.
func parseKey(item string) (APIKey, error) {
	key, rest, ok := strings.Cut(item, "=")
	if !ok {
		return APIKey{}, errors.New(`want key=customer[:scopes], with "="`)
	}
	customer, scopes, hasScopes := strings.Cut(rest, ":")
	k := APIKey{Key: strings.TrimSpace(key), Customer: strings.TrimSpace(customer), Scopes: ScopeAll}
	if k.Key == "" {
		return APIKey{}, errors.New("the key is empty")
	}
	if k.Customer == "" {
		return APIKey{}, errors.New("the customer is empty")
	}
	if hasScopes {
		s, err := parseScopes(scopes)
		if err != nil {
			return APIKey{}, err
		}
		k.Scopes = s
	}
	return k, nil
}

func parseScopes(s string) (Scope, error) {
	var scope Scope
	for _, name := range strings.Split(s, "+") {
		switch strings.TrimSpace(name) {
		case "read":
			scope |= ScopeRead
		case "write":
			scope |= ScopeWrite
		default:
			return 0, fmt.Errorf("unknown scope %q (want read, write or read+write)", name)
		}
	}
	return scope, nil
}

// GenerateKey returns a new random API key: 32 bytes from crypto/rand,
// base64url-encoded without padding.
func GenerateKey() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("server: generating an API key: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}
