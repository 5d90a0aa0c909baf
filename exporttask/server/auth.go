package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"
)

// authRealm is the realm named in the WWW-Authenticate header of a 401.
const authRealm = `Bearer realm="export-tasks"`

// keyring checks presented API keys. It keeps only SHA-256 digests of the
// keys and compares a presented key's digest with every one of them in
// constant time, so neither the time taken nor an early exit tells which
// key, or how much of one, matched.
type keyring struct {
	digests [][sha256.Size]byte
	keys    []APIKey // same order as digests; Key is not used after construction
}

func newKeyring(keys []APIKey) *keyring {
	kr := &keyring{}
	for _, k := range keys {
		kr.digests = append(kr.digests, sha256.Sum256([]byte(k.Key)))
		kr.keys = append(kr.keys, APIKey{Customer: k.Customer, Scopes: k.Scopes})
	}
	return kr
}

// lookup returns the key whose secret is presented, if any.
func (kr *keyring) lookup(presented string) (APIKey, bool) {
	d := sha256.Sum256([]byte(presented))
	found := -1
	for i := range kr.digests {
		if subtle.ConstantTimeCompare(d[:], kr.digests[i][:]) == 1 {
			found = i
		}
	}
	if found < 0 {
		return APIKey{}, false
	}
	return kr.keys[found], true
}

// presentedKey returns the key in the x-api-key header or, failing that, in
// an "Authorization: Bearer" header.
func presentedKey(r *http.Request) string {
	if k := r.Header.Get("X-Api-Key"); k != "" {
		return k
	}
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if ok && strings.EqualFold(scheme, "Bearer") {
		return strings.TrimSpace(token)
	}
	return ""
}

type principalKey struct{}

// customerOf returns the customer authenticated for r by [Server.authorize].
func customerOf(r *http.Request) string {
	k, _ := r.Context().Value(principalKey{}).(APIKey)
	return k.Customer
}

// authorize wraps h so that it runs only for a request with a known key that
// has scope want: 401 with WWW-Authenticate without one, 403 when the key
// lacks the scope.
func (s *Server) authorize(want Scope, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		presented := presentedKey(r)
		if presented == "" {
			w.Header().Set("WWW-Authenticate", authRealm)
			s.writeProblem(w, r, newProblem(http.StatusUnauthorized,
				"Send an API key in the x-api-key header or as Authorization: Bearer <key>."))
			return
		}
		k, ok := s.keys.lookup(presented)
		if !ok {
			w.Header().Set("WWW-Authenticate", authRealm+`, error="invalid_token"`)
			s.writeProblem(w, r, newProblem(http.StatusUnauthorized, "The API key is not valid."))
			return
		}
		if !k.Scopes.Has(want) {
			s.writeProblem(w, r, newProblem(http.StatusForbidden,
				"The API key does not have the "+want.String()+" scope this operation needs."))
			return
		}
		h(w, r.WithContext(context.WithValue(r.Context(), principalKey{}, k)))
	}
}
