package exportserver

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDevCredentialsSurviveARestart: the generated key and webhook secret
// are written beside the SQLite file, readable by its owner only, and the
// next start prints and uses the same ones.
func TestDevCredentialsSurviveARestart(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "exporttask.db")
	first := startBanner(t, "-db", db)
	second := startBanner(t, "-db", db)
	key := field(t, first, "development API key (customer \"dev\", read+write): ")
	secret := field(t, first, "webhook master secret (generated): ")
	assert.Equal(t, key, field(t, second, "development API key (customer \"dev\", read+write): "))
	assert.Equal(t, secret, field(t, second, "webhook master secret (generated): "))
	path := filepath.Join(dir, devCredsName)
	assert.Contains(t, first, "kept in "+path)
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())

	// -keys and -webhook-secret win, and the kept ones stay for later.
	third := startBanner(t, "-db", db, "-keys", "k0123456789abcdef=acme", "-webhook-secret", "s3cr3t")
	assert.NotContains(t, third, key)
	assert.NotContains(t, third, secret)
	assert.Equal(t, key, field(t, startBanner(t, "-db", db), "development API key (customer \"dev\", read+write): "))
}

// TestDevCredentialsInMemoryAreNotKept: with :memory: nothing is written
// and the banner says the credentials change at every start.
func TestDevCredentialsInMemoryAreNotKept(t *testing.T) {
	wd := t.TempDir()
	t.Chdir(wd)
	text := startBanner(t, "-db", ":memory:")
	assert.Contains(t, text, "change at every start")
	entries, err := os.ReadDir(wd)
	require.NoError(t, err)
	for _, e := range entries {
		assert.NotEqual(t, devCredsName, e.Name())
	}
}

func TestDevCredentialsMalformedFileNamesIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), devCredsName)
	require.NoError(t, os.WriteFile(path, []byte("{"), 0o600))
	_, err := loadDevCreds(path, true, true)
	require.Error(t, err)
	assert.ErrorContains(t, err, path)
	assert.ErrorContains(t, err, "delete it")
}

// startBanner runs the program with args until it has printed its curl
// line, stops it, and returns what it printed.
func startBanner(t *testing.T, args ...string) string {
	t.Helper()
	cfg, err := ParseConfig(append([]string{"-addr", "127.0.0.1:0", "-exporter", "simulate",
		"-artifacts", t.TempDir(), "-scratch", t.TempDir()}, args...), envOf(nil), io.Discard)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, cfg, w, slog.New(slog.NewJSONHandler(io.Discard, nil)))
		_ = w.Close()
	}()
	var lines []string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.Contains(sc.Text(), "curl -s") {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return within 10s of its context ending")
	}
	return strings.Join(lines, "\n")
}
