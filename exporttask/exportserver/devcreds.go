package exportserver

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask/server"
)

// devCredsName is the file, next to the SQLite database, that keeps the
// generated development key and webhook master secret across restarts.
const devCredsName = "exporttask-dev-credentials.json"

// devCreds are the credentials generated when -keys or -webhook-secret is
// not given.
type devCreds struct {
	APIKey        string `json:"apiKey,omitempty"`
	WebhookSecret string `json:"webhookSecret,omitempty"`
}

// devCredsPath returns where cfg keeps its development credentials: next
// to the SQLite file, or "" for :memory: and PostgreSQL, whose servers
// generate new ones at every start.
func devCredsPath(cfg Config) string {
	if !isSQLiteFile(cfg.DB) {
		return ""
	}
	return filepath.Join(filepath.Dir(cfg.DB), devCredsName)
}

// loadDevCreds returns the credentials the server uses when cfg gives none:
// those kept in path when it has them, else new ones, written to path
// (mode 0600, whole or not at all) so that the next start reuses them. It
// generates only what is wanted, keeps in the file what it does not use,
// and with path "" keeps nothing.
func loadDevCreds(path string, wantKey, wantSecret bool) (devCreds, error) {
	var c devCreds
	if path != "" {
		b, err := os.ReadFile(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return devCreds{}, fmt.Errorf("reading the development credentials: %w", err)
		default:
			if err := json.Unmarshal(b, &c); err != nil {
				return devCreds{}, fmt.Errorf("%s: %w; delete it to generate new development credentials", path, err)
			}
		}
	}
	changed := false
	if wantKey && c.APIKey == "" {
		k, err := server.GenerateKey()
		if err != nil {
			return devCreds{}, err
		}
		c.APIKey, changed = k, true
	}
	if wantSecret && c.WebhookSecret == "" {
		b := make([]byte, 32)
		_, _ = rand.Read(b) // never fails (Go 1.24+)
		c.WebhookSecret, changed = hex.EncodeToString(b), true
	}
	if changed && path != "" {
		if err := writeDevCreds(path, c); err != nil {
			return devCreds{}, err
		}
	}
	return c, nil
}

// writeDevCreds writes c to path through a temporary file and a rename,
// readable by its owner only.
func writeDevCreds(path string, c devCreds) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return fmt.Errorf("writing the development credentials: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+devCredsName+"-*")
	if err != nil {
		return fmt.Errorf("writing the development credentials: %w", err)
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("writing the development credentials: %w", err)
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("writing the development credentials: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing the development credentials: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing the development credentials: %w", err)
	}
	return nil
}
