package tiles3d

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
)

// maxCachedSources is how many loaded tilesets an [Exporter] keeps.
const maxCachedSources = 4

// sourceCache keeps the tilesets an Exporter loaded, by identity, so that
// a create (whose estimate selects tiles) does not read and parse the
// whole tileset again: it costs one stat of tileset.json plus the
// selection. A tileset is loaded once per identity, also by concurrent
// callers; the least recently used of more than maxCachedSources is
// dropped. Its identity is the directory with the size and modification
// time of its tileset.json: the file every change to the tree goes
// through (external tileset files are named from it), as for the check of
// a registered source (export.SourcePath). Safe for concurrent use.
type sourceCache struct {
	mu      sync.Mutex
	entries map[string]*cachedSource
	order   []string // keys, least recently used first
}

// cachedSource is one tileset, loaded or being loaded.
type cachedSource struct {
	ready chan struct{} // closed once src and err are set
	src   *source
	err   error
}

// load returns the tileset in dir, from the cache when its identity is
// unchanged, else loaded (and cached unless loading failed).
func (c *sourceCache) load(ctx context.Context, dir string) (*source, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("tiles3d: %w", err)
	}
	st, err := os.Stat(filepath.Join(abs, TilesetFile))
	if err != nil {
		return loadSource(ctx, abs) // it names the problem
	}
	key := abs + "\x00" + strconv.FormatInt(st.Size(), 10) + "\x00" + strconv.FormatInt(st.ModTime().UnixNano(), 10)
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[string]*cachedSource{}
	}
	e, ok := c.entries[key]
	if ok {
		c.touch(key)
		c.mu.Unlock()
		select {
		case <-e.ready:
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
		if e.err == nil {
			return e.src, nil
		}
		return loadSource(ctx, abs) // the first load failed; try on our own
	}
	e = &cachedSource{ready: make(chan struct{})}
	c.entries[key] = e
	c.touch(key)
	for len(c.order) > maxCachedSources {
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
	c.mu.Unlock()

	e.src, e.err = loadSource(ctx, abs)
	close(e.ready)
	if e.err != nil {
		c.mu.Lock()
		if c.entries[key] == e {
			delete(c.entries, key)
			c.order = slices.DeleteFunc(c.order, func(k string) bool { return k == key })
		}
		c.mu.Unlock()
	}
	return e.src, e.err
}

// touch makes key the most recently used. c.mu is held.
func (c *sourceCache) touch(key string) {
	c.order = slices.DeleteFunc(c.order, func(k string) bool { return k == key })
	c.order = append(c.order, key)
}
