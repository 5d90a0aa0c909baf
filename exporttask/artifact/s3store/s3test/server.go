package s3test

import (
	"crypto/rand"
	"fmt"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"unicode"

	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store"
)

// The environment variables that [Start] reads.
const (
	EnvEndpoint  = "VIEWER_TEST_S3_ENDPOINT"
	EnvAccessKey = "VIEWER_TEST_S3_ACCESS_KEY"
	EnvSecretKey = "VIEWER_TEST_S3_SECRET_KEY"
	EnvBucket    = "VIEWER_TEST_S3_BUCKET"
	EnvRequire   = "VIEWER_TEST_REQUIRE_S3"
)

// DefaultBucket is the bucket tests use unless [EnvBucket] names one.
const DefaultBucket = "viewer-test"

// Server is an S3-compatible server for tests, with a bucket that exists.
type Server struct {
	Endpoint, AccessKey, SecretKey, Bucket string
	// Versity is the gateway started for the test, or nil when the
	// environment named a server.
	Versity *Versity

	stores atomic.Int64 // Configs handed out, for unique prefixes
}

// Start returns the test server (see the package documentation for how it
// is found), skipping t when there is none, or failing it when
// VIEWER_TEST_REQUIRE_S3=1. A gateway it starts is stopped when t ends.
func Start(t testing.TB) *Server {
	t.Helper()
	srv := &Server{
		Endpoint:  os.Getenv(EnvEndpoint),
		AccessKey: os.Getenv(EnvAccessKey),
		SecretKey: os.Getenv(EnvSecretKey),
		Bucket:    os.Getenv(EnvBucket),
	}
	if srv.Bucket == "" {
		srv.Bucket = DefaultBucket
	}
	if srv.Endpoint == "" {
		srv.startVersity(t)
	}
	srv.createBucket(t)
	return srv
}

// StartGateway starts a Versity Gateway of the test's own, whatever the
// environment says, for tests that stop and restart the server (see
// [Versity.Restart]). Without versitygw it skips t, or fails it when
// VIEWER_TEST_REQUIRE_S3=1.
func StartGateway(t testing.TB) *Server {
	t.Helper()
	srv := &Server{Bucket: DefaultBucket}
	srv.startVersity(t)
	srv.createBucket(t)
	return srv
}

// startVersity starts a gateway for t and points srv at it.
func (srv *Server) startVersity(t testing.TB) {
	t.Helper()
	binary, err := findVersity()
	if err != nil {
		unavailable(t, err)
		return
	}
	v, err := StartVersity(t.Context(), binary, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := v.Close(); err != nil {
			t.Error(err)
		}
	})
	srv.Endpoint, srv.AccessKey, srv.SecretKey, srv.Versity = v.Endpoint, VersityAccessKey, VersitySecretKey, v
}

// createBucket creates srv's bucket unless it exists.
func (srv *Server) createBucket(t testing.TB) {
	t.Helper()
	store, err := s3store.New(srv.config("setup/"))
	if err != nil {
		t.Fatalf("s3test: %v", err)
	}
	if err := store.CreateBucket(t.Context()); err != nil {
		t.Fatalf("s3test: server %s: %v", srv.Endpoint, err)
	}
}

// unavailable skips t, or fails it when a server is required.
func unavailable(t testing.TB, why error) {
	t.Helper()
	msg := fmt.Sprintf("no S3 server: %v; set %s or install versitygw (go install github.com/versity/versitygw/cmd/versitygw@v1.8.0)", why, EnvEndpoint)
	if os.Getenv(EnvRequire) == "1" {
		t.Fatal(msg + " (" + EnvRequire + "=1)")
	}
	t.Skip(msg)
}

// findVersity returns the path of versitygw on PATH or in $GOPATH/bin.
func findVersity() (string, error) {
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p, nil
	}
	p := filepath.Join(build.Default.GOPATH, "bin", "versitygw")
	if _, err := exec.LookPath(p); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("versitygw is neither on PATH nor in %s", filepath.Dir(p))
}

// Config returns a configuration for a store under a new key prefix of
// the bucket (the test's name, a counter and random bytes), so each test
// starts empty.
func (s *Server) Config(t testing.TB) s3store.Config {
	n := s.stores.Add(1)
	safe := strings.Map(func(r rune) rune {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_') {
			return r
		}
		return '_'
	}, t.Name())
	var random [4]byte
	_, _ = rand.Read(random[:]) // never fails (crypto/rand)
	// The random part keeps runs against one long-lived server apart.
	return s.config(fmt.Sprintf("%s-%d-%x/", safe, n, random))
}

func (s *Server) config(prefix string) s3store.Config {
	return s3store.Config{
		Bucket: s.Bucket, Prefix: prefix, Endpoint: s.Endpoint,
		AccessKeyID: s.AccessKey, SecretAccessKey: s.SecretKey,
		PartSize: s3store.MinPartSize,
	}
}
